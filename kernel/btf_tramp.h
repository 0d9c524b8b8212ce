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
 *   struct btf_tramp_verdict  nr_verdicts times, verdict_size (20) bytes
 *                             each, byte for byte distinct (version 3 only)
 *   u32 func_id[nr_funcs]     BTF FUNC type IDs, strictly ascending
 *   u16 func_class[nr_funcs]  index of each one's class, same order
 *   u16 func_verdict[nr_funcs] index of each one's verdict (version 3 only)
 *   zero padding              to a multiple of 4: BTF_TRAMP2_SIZE() bytes
 *
 * A function the trampoline cannot attach to has a class whose attachable
 * is 0 and reason says why. Version 3 adds each function's attach verdicts:
 * for each attach type (enum btf_tramp_attach), whether the kernel takes a
 * program of that type on the function, and if not why (enum
 * btf_tramp_refusal), with the errno and the step that refuses it, by the
 * checks of the kernel release the table was built for (btfids'
 * include/btfids/verdict.h lists them); version 2 has none (nr_verdicts
 * and verdict_size 0). A consumer checks (the kernel at boot): magic,
 * version (2 or 3), machine (its own e_machine), class_size, size (the
 * section's length), verdict_size (BTF_TRAMP_VERDICT_SIZE in version 3,
 * else 0), size == BTF_TRAMP2_SIZE(version, nr_classes, nr_verdicts,
 * nr_funcs) with nr_classes <= BTF_TRAMP2_MAX_CLASSES, func_id non-zero
 * and strictly ascending, every func_class < nr_classes and func_verdict <
 * nr_verdicts, every class sane (nr_args <= BTF_TRAMP_MAX_ARGS, arg_size
 * <= 16, reason < BTF_TRAMP_NR_REASONS, attachable == (reason ==
 * BTF_TRAMP_OK)), every verdict sane (each attach type's refusal <
 * BTF_TRAMP_NR_REFUSALS or BTF_TRAMP_NOT_JUDGED; taken with step and errno
 * 0, refused with both non-zero, step < BTF_TRAMP_NR_STEPS), and btf_crc32
 * against the crc32 of its own .BTF. Lookup: binary search of func_id,
 * then func_class and func_verdict.
 */
#define BTF_TRAMP_MAGIC		0x50525442u	/* "BTRP" read as a little-endian u32 */
#define BTF_TRAMP2_VERSION	2
#define BTF_TRAMP3_VERSION	3		/* version 2 and the verdicts */
#define BTF_TRAMP_MAX_ARGS	12		/* MAX_BPF_FUNC_ARGS */
#define BTF_TRAMP2_HDR_SIZE	32
#define BTF_TRAMP_CLASS_SIZE	56
#define BTF_TRAMP_VERDICT_SIZE	20
#define BTF_TRAMP2_MAX_CLASSES	65535		/* func_class is 16 bits */
#define BTF_TRAMP2_MAX_VERDICTS	65535		/* nr_verdicts is 16 bits */

/*
 * Bytes of a table of @version (2 or 3): header, classes, verdicts,
 * func_id, func_class, func_verdict, padding
 */
#define BTF_TRAMP2_SIZE(version, nr_classes, nr_verdicts, nr_funcs)		\
	((BTF_TRAMP2_HDR_SIZE + (nr_classes) * BTF_TRAMP_CLASS_SIZE +		\
	  (nr_verdicts) * BTF_TRAMP_VERDICT_SIZE +				\
	  (nr_funcs) * ((version) >= BTF_TRAMP3_VERSION ? 8 : 6) + 3) / 4 * 4)

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

/*
 * The attach types a verdict is given for, in struct btf_tramp_verdict's
 * order: BPF_TRACE_FENTRY, BPF_TRACE_FEXIT, BPF_MODIFY_RETURN, and the
 * tracing_multi links (7.2 on) BPF_TRACE_FENTRY_MULTI, BPF_TRACE_FEXIT_MULTI.
 */
enum btf_tramp_attach {
	BTF_TRAMP_FENTRY = 0,
	BTF_TRAMP_FEXIT,
	BTF_TRAMP_FMOD_RET,
	BTF_TRAMP_FENTRY_MULTI,
	BTF_TRAMP_FEXIT_MULTI,
	BTF_TRAMP_NR_ATTACH,
};

/* Why an attach type is refused (struct btf_tramp_verdict's refusal) */
enum btf_tramp_refusal {
	BTF_TRAMP_TAKEN = 0,		/* "taken": no refusal */
	BTF_TRAMP_REF_MODEL,		/* the func model: its class's reason */
	BTF_TRAMP_REF_RET_OVER_8,	/* "ret-over-8": fexit/fmod_ret, return > 8 bytes */
	BTF_TRAMP_REF_NO_ADDRESS,	/* "no-address": no kallsyms address */
	BTF_TRAMP_REF_NOT_MODIFIABLE,	/* "not-modifiable": fmod_ret on neither list */
	BTF_TRAMP_REF_DENY,		/* "deny": in btf_id_deny */
	BTF_TRAMP_REF_NORETURN,		/* "noreturn": in noreturn_deny */
	BTF_TRAMP_REF_INIT_TEXT,	/* "init-text": no kernel text after boot */
	BTF_TRAMP_REF_NO_SITE,		/* "no-ftrace-site" */
	BTF_TRAMP_REF_CPU_ALT,		/* "cpu-alternative": EBUSY, or taken (verdict.h) */
	/* "ambiguous-name": kallsyms holds the name at two or more text addresses */
	BTF_TRAMP_REF_AMBIGUOUS,
	/*
	 * "same-call-site": tracing_multi, a lower BTF id the link takes names
	 * the function's call site too (two names of one function, one name
	 * twice in BTF); a link naming both is refused, each alone is taken
	 */
	BTF_TRAMP_REF_SAME_SITE,
	BTF_TRAMP_NR_REFUSALS,
	BTF_TRAMP_NOT_JUDGED = 0xff,	/* the release has no such attach type */
};

/* The step that refuses (struct btf_tramp_verdict's step) */
enum btf_tramp_step {
	BTF_TRAMP_STEP_NONE = 0,	/* taken, or not judged */
	BTF_TRAMP_STEP_LOAD,		/* BPF_PROG_LOAD (bpf_check_attach_target()) */
	BTF_TRAMP_STEP_ATTACH,		/* the attach (bpf_trampoline_link_prog()) */
	BTF_TRAMP_STEP_LINK,		/* BPF_LINK_CREATE of a tracing_multi link */
	BTF_TRAMP_NR_STEPS,
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
	u16 nr_verdicts;	/* version 3; 0 in version 2 */
	u16 verdict_size;	/* BTF_TRAMP_VERDICT_SIZE in version 3; 0 in version 2 */
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

/*
 * One attach type's verdict, 4 bytes: the refusal (enum btf_tramp_refusal),
 * the step (enum btf_tramp_step) and the errno (positive; ENOTSUPP is the
 * kernel's 524), all 0 when taken; refusal BTF_TRAMP_NOT_JUDGED with the
 * rest 0 when not judged.
 */
struct btf_tramp_attach_verdict {
	u8 refusal;
	u8 step;
	u16 err;
};

/* One distinct set of verdicts, 20 bytes: one per enum btf_tramp_attach */
struct btf_tramp_verdict {
	struct btf_tramp_attach_verdict at[BTF_TRAMP_NR_ATTACH];
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
