/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trampoline table of vmlinux (.BTF_tramp): every BTF FUNC of vmlinux
 * BTF with the index of its func model class, built at link time by the
 * tool that resolves .BTF_ids (btfids) and linked beside .BTF by
 * scripts/gen-btf.sh. The format block below is generated from btfids'
 * include/btfids/tramp.h by its kernel/gen-btf-tramp-h.py: change it
 * there, not here.
 */
#ifndef _LINUX_BTF_TRAMP_H
#define _LINUX_BTF_TRAMP_H

#include <linux/errno.h>
#include <linux/types.h>

/* ---- btf_tramp format: begin (generated from btfids' include/btfids/tramp.h) ---- */
/*
 * Trampoline table v2, the section .BTF_tramp of vmlinux: every
 * BTF_KIND_FUNC of vmlinux BTF (any linkage, attachable or not) once, with
 * the index of its func model class; each distinct class once. Built at
 * link time from the final BTF by the rules of the release; linked beside
 * .BTF. Every field is in the target's byte order and naturally aligned;
 * the table is 4-byte aligned:
 *
 *   struct btf_tramp2_hdr     BTF_TRAMP2_HDR_SIZE (32) bytes
 *   struct btf_tramp_class    nr_classes times, class_size (56) bytes each,
 *                             byte for byte distinct, in the order of their
 *                             first function
 *   u32 func_id[nr_funcs]     BTF FUNC type IDs, strictly ascending
 *   u16 func_class[nr_funcs]  index of each one's class, same order
 *   zero padding              to a multiple of 4: BTF_TRAMP2_SIZE() bytes
 *
 * A function the trampoline cannot attach to has a class whose attachable
 * is 0 and reason says why. A consumer checks (the kernel at boot): magic,
 * version, machine (its own e_machine), class_size, size (the section's
 * length), size == BTF_TRAMP2_SIZE(nr_classes, nr_funcs) with nr_classes
 * <= BTF_TRAMP2_MAX_CLASSES, func_id non-zero and strictly ascending, every
 * func_class < nr_classes, every class sane (nr_args <= BTF_TRAMP_MAX_ARGS,
 * arg_size <= 16, reason < BTF_TRAMP_NR_REASONS, attachable == (reason ==
 * BTF_TRAMP_OK)), and btf_crc32 against the crc32 of its own .BTF. Lookup:
 * binary search of func_id, then func_class.
 */
#define BTF_TRAMP_MAGIC		0x50525442u	/* "BTRP" read as a little-endian u32 */
#define BTF_TRAMP2_VERSION	2
#define BTF_TRAMP_MAX_ARGS	12		/* MAX_BPF_FUNC_ARGS */
#define BTF_TRAMP2_HDR_SIZE	32
#define BTF_TRAMP_CLASS_SIZE	56
#define BTF_TRAMP2_MAX_CLASSES	65535		/* func_class is 16 bits */

/* Bytes of a v2 table: header, classes, func_id, func_class, padding */
#define BTF_TRAMP2_SIZE(nr_classes, nr_funcs)				\
	((BTF_TRAMP2_HDR_SIZE + (nr_classes) * BTF_TRAMP_CLASS_SIZE +	\
	  (nr_funcs) * 6 + 3) / 4 * 4)

/*
 * Argument location (class.loc): one byte per part, two parts per
 * argument (an argument is at most 16 bytes, so at most two 8-byte slots).
 *   0xff                unused part
 *   bit 7 clear         register: bits 0-5 = N-th argument register of the
 *                       arch, 0-based (x86_64 rdi=0 ... r9=5; arm64 x0=0;
 *                       s390x r2=0; riscv64/loongarch64 a0=0; powerpc64 r3=0)
 *   bit 7 set           stack: bits 0-5 = K-th 8-byte stack argument slot
 *                       at the call, 0-based (powerpc64: K-th slot past the
 *                       eight register slots of the parameter save area)
 *   bit 6 (part 0 only) the argument is passed by reference; the part says
 *                       where the pointer is (s390x, 9..16-byte arguments)
 */
#define BTF_TRAMP_LOC_NONE	0xff
#define BTF_TRAMP_LOC_STACK	0x80
#define BTF_TRAMP_LOC_REF	0x40
#define BTF_TRAMP_LOC_IDX(b)	((b) & 0x3f)

/* Why a trampoline cannot attach (class.reason); 0 when it can. */
enum btf_tramp_reason {
	BTF_TRAMP_OK = 0,
	BTF_TRAMP_TOO_MANY_ARGS,	/* "too-many-args": more than 12 params */
	BTF_TRAMP_RET_UNSUPPORTED,	/* "ret-unsupported" */
	BTF_TRAMP_VARIADIC,		/* "variadic" */
	BTF_TRAMP_ARG_UNSUPPORTED,	/* "arg-unsupported": bad type or > 16 bytes */
	BTF_TRAMP_VOID_ARG,		/* "void-arg": size 0 */
	BTF_TRAMP_NO_TRAMPOLINE,	/* "no-trampoline": the arch has none */
	/* "too-many-slots": x86_64, powerpc64; arm64 v6.5-v6.15, riscv64 v6.3-v6.10 */
	BTF_TRAMP_TOO_MANY_SLOTS,
	/* "struct-on-stack": arm64 v6.16 only (9014cf56f13d to dc704d0cfa43) */
	BTF_TRAMP_STRUCT_ON_STACK,
	/* "arch-too-many-args": loongarch64 > 8, arm64 > 8 before v6.5 */
	BTF_TRAMP_ARCH_TOO_MANY_ARGS,
	/* "struct-arg": loongarch64, arm64 before v6.5 */
	BTF_TRAMP_STRUCT_ARG,
	BTF_TRAMP_UNRESOLVED,		/* "unresolved": v1 only, a name not in BTF */
	BTF_TRAMP_NR_REASONS,
};

/* v2 table header, 32 bytes */
struct btf_tramp2_hdr {
	u32 magic;		/* BTF_TRAMP_MAGIC */
	u16 version;		/* BTF_TRAMP2_VERSION */
	u16 machine;		/* ELF e_machine the models are for */
	u32 btf_crc32;		/* crc32 (zlib's) of the .BTF it was built from */
	u32 nr_funcs;
	u32 nr_classes;		/* <= BTF_TRAMP2_MAX_CLASSES */
	u16 class_size;		/* BTF_TRAMP_CLASS_SIZE */
	u16 max_slots;		/* most 8-byte slots of any attachable class */
	u32 size;		/* bytes of the table, padding included */
	u32 reserved;		/* 0 */
};

/* One distinct func model, 56 bytes: struct btf_func_model's fields first */
struct btf_tramp_class {
	u8 ret_size;		/* bytes; 0 for void */
	u8 ret_flags;		/* BTF_FMODEL_* of the return */
	u8 nr_args;
	u8 nr_slots;		/* sum over args of (size + 7) / 8 */
	u8 arg_size[BTF_TRAMP_MAX_ARGS];	/* bytes */
	u8 arg_flags[BTF_TRAMP_MAX_ARGS];	/* BTF_FMODEL_* */
	u8 attachable;		/* 1: the arch's trampoline accepts it */
	u8 reason;		/* enum btf_tramp_reason */
	u8 distilled;		/* 1: the model fields above are valid */
	u8 reserved;		/* 0 */
	u8 loc[BTF_TRAMP_MAX_ARGS][2];	/* BTF_TRAMP_LOC_*, when attachable */
};

/* ---- btf_tramp format: end ---- */

/* The image's .BTF, and its table (include/asm-generic/vmlinux.lds.h) */
extern char __start_BTF[];
extern char __stop_BTF[];
extern const u8 __start_BTF_tramp[];
extern const u8 __stop_BTF_tramp[];

struct btf;
struct btf_func_model;

#ifdef CONFIG_BPF_BTF_TRAMP
int btf_tramp_func_model(const struct btf *btf, u32 btf_id, struct btf_func_model *m,
			 u32 *class);
#else
static inline int btf_tramp_func_model(const struct btf *btf, u32 btf_id,
				       struct btf_func_model *m, u32 *class)
{
	return -ENOENT;
}
#endif

#endif /* _LINUX_BTF_TRAMP_H */
