/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tramp.h - trampoline calling-convention tables: the on-image formats and
 * a header-only consumer API, usable in the kernel (__KERNEL__) and in user
 * space. Two formats share the magic, the reasons and the model fields:
 *
 * v2, the table of vmlinux: every BTF FUNC of vmlinux BTF once, with the
 * index of its func model *class* (each distinct model once). In the 7.x
 * flow btfids writes it as <elf>.BTF_tramp from the final BTF (when the
 * image's linker script places .BTF_tramp, i.e. the kernel reads it, or
 * with --tramp_table); the kernel's scripts/gen-btf.sh links it into
 * vmlinux the way it links .BTF. The patched 7.3 kernel of kernel/7.3
 * reads it (its include/linux/btf_tramp.h: the format block below, made by
 * kernel/gen-btf-tramp-h.py). Format: the block "btf_tramp format" below.
 *
 * v1, declared sets (fixtures, out-of-tree images; subsumed by v2 in the
 * kernel series): a set names functions; btfids computes each one's
 * function model (the kernel's struct btf_func_model, kernel/bpf/btf.c
 * btf_distill_func_proto(), by the rules of the release the ELF says it
 * is, else v6.18's; fmodel.h) and where the target's trampoline reads each
 * argument, and writes the table while it resolves .BTF_ids (in place; in
 * the 7.x flow into <elf>.BTF_tramp, which --patch_btfids copies in).
 * Declaring a set (see BTF_TRAMP_SET_START below):
 *
 *   BTF_TRAMP_SET_START(my_set)
 *   BTF_TRAMP_ID(func, vfs_read, my_set)
 *   BTF_TRAMP_ID(func, vfs_write, my_set)
 *   BTF_TRAMP_SET_END(my_set)
 *
 * emits, in .BTF_ids, an ordinary BTF_ID_LIST of the functions (label
 * __BTF_TRAMP_IDS__my_set; each slot a normal __BTF_ID__func__ symbol, so
 * the kernel's resolve_btfids still accepts the object) and, in the
 * allocated section .BTF_tramp, a zero-filled table of the right size
 * (symbol __BTF_TRAMP__my_set, st_size = header + n entries). Nothing else
 * is needed at link time: no relink, no objcopy.
 *
 * v1 table layout. Every multi-byte field is in the TARGET's byte order
 * (the ELF's EI_DATA), naturally aligned; the table is 4-byte aligned:
 *
 *   struct btf_tramp_hdr     24 bytes
 *   struct btf_tramp_entry   nr_entries times, entry_size (60) bytes each:
 *                            btf_id, then the model as a struct
 *                            btf_tramp_class (v2's); sorted by btf_id
 *                            ascending (unresolved, id 0, first; ties keep
 *                            the set's order)
 *
 * A v1 table whose magic is 0 has not been filled by btfids yet.
 */
#ifndef _BTFIDS_TRAMP_H
#define _BTFIDS_TRAMP_H

#ifdef __KERNEL__
#include <linux/types.h>
typedef u8 btf_tramp_u8;
typedef u16 btf_tramp_u16;
typedef u32 btf_tramp_u32;
#else
#include <stddef.h>
#include <stdint.h>
typedef uint8_t btf_tramp_u8;
typedef uint16_t btf_tramp_u16;
typedef uint32_t btf_tramp_u32;
#endif

/* ---- btf_tramp format: begin (kernel/gen-btf-tramp-h.py copies it) ---- */
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
	btf_tramp_u32 magic;		/* BTF_TRAMP_MAGIC */
	btf_tramp_u16 version;		/* BTF_TRAMP2_VERSION */
	btf_tramp_u16 machine;		/* ELF e_machine the models are for */
	btf_tramp_u32 btf_crc32;	/* crc32 (zlib's) of the .BTF it was built from */
	btf_tramp_u32 nr_funcs;
	btf_tramp_u32 nr_classes;	/* <= BTF_TRAMP2_MAX_CLASSES */
	btf_tramp_u16 class_size;	/* BTF_TRAMP_CLASS_SIZE */
	btf_tramp_u16 max_slots;	/* most 8-byte slots of any attachable class */
	btf_tramp_u32 size;		/* bytes of the table, padding included */
	btf_tramp_u16 nr_verdicts;	/* version 3; 0 in version 2 */
	btf_tramp_u16 verdict_size;	/* BTF_TRAMP_VERDICT_SIZE in version 3; 0 in version 2 */
};

/* One distinct func model, 56 bytes: struct btf_func_model's fields first */
struct btf_tramp_class {
	btf_tramp_u8 ret_size;		/* bytes; 0 for void */
	btf_tramp_u8 ret_flags;		/* BTF_FMODEL_* of the return */
	btf_tramp_u8 nr_args;
	btf_tramp_u8 nr_slots;		/* sum over args of (size + 7) / 8 */
	btf_tramp_u8 arg_size[BTF_TRAMP_MAX_ARGS];	/* bytes */
	btf_tramp_u8 arg_flags[BTF_TRAMP_MAX_ARGS];	/* BTF_FMODEL_* */
	btf_tramp_u8 attachable;	/* 1: the arch's trampoline accepts it */
	btf_tramp_u8 reason;		/* enum btf_tramp_reason */
	btf_tramp_u8 distilled;		/* 1: the model fields above are valid */
	btf_tramp_u8 reserved;		/* 0 */
	btf_tramp_u8 loc[BTF_TRAMP_MAX_ARGS][2];	/* BTF_TRAMP_LOC_*, when attachable */
};

/*
 * One attach type's verdict, 4 bytes: the refusal (enum btf_tramp_refusal),
 * the step (enum btf_tramp_step) and the errno (positive; ENOTSUPP is the
 * kernel's 524), all 0 when taken; refusal BTF_TRAMP_NOT_JUDGED with the
 * rest 0 when not judged.
 */
struct btf_tramp_attach_verdict {
	btf_tramp_u8 refusal;
	btf_tramp_u8 step;
	btf_tramp_u16 err;
};

/* One distinct set of verdicts, 20 bytes: one per enum btf_tramp_attach */
struct btf_tramp_verdict {
	struct btf_tramp_attach_verdict at[BTF_TRAMP_NR_ATTACH];
};

/* ---- btf_tramp format: end ---- */

/* ---- v1 (declared sets) ---- */
#define BTF_TRAMP_VERSION	1
#define BTF_TRAMP_HDR_SIZE	24
#define BTF_TRAMP_ENTRY_SIZE	60	/* u32 btf_id + struct btf_tramp_class */

/* arg_flags / ret_flags bits: include/linux/bpf.h */
#define BTF_FMODEL_STRUCT_ARG	(1 << 0)	/* struct or union by value */
#define BTF_FMODEL_SIGNED_ARG	(1 << 1)	/* signed INT */
/* 7.3 on (include/linux/bpf.h); STRUCT_ARG is gone there */
#define BTF_FMODEL_ARENA_ARG	(1 << 2)	/* param named *__arena, *__arena__nullable */
#define BTF_FMODEL_NULLABLE_ARG	(1 << 3)	/* param named *__nullable, *__arena__nullable */

/* Table header, 24 bytes. */
struct btf_tramp_hdr {
	btf_tramp_u32 magic;		/* BTF_TRAMP_MAGIC once filled, else 0 */
	btf_tramp_u16 version;		/* BTF_TRAMP_VERSION */
	btf_tramp_u16 machine;		/* e_machine of the image */
	btf_tramp_u32 nr_entries;	/* functions in the set */
	btf_tramp_u16 entry_size;	/* BTF_TRAMP_ENTRY_SIZE */
	btf_tramp_u16 max_slots;	/* most 8-byte slots of any attachable entry */
	btf_tramp_u32 btf_crc32;	/* zlib crc32() of the .BTF bytes used */
	btf_tramp_u32 reserved;		/* 0 */
};

/*
 * One function, 60 bytes: its BTF ID, then its model as the 56 bytes of a
 * v2 class (the same struct, so v1 and v2 store a model alike).
 */
struct btf_tramp_entry {
	btf_tramp_u32 btf_id;		/* BTF FUNC type ID; 0: unresolved */
	struct btf_tramp_class model;	/* ret_size ... loc, as in a v2 table */
};

#define BTF_TRAMP_TABLE_SIZE(n)	(BTF_TRAMP_HDR_SIZE + (n) * BTF_TRAMP_ENTRY_SIZE)

/* ---- Declaring sets (assembler, like include/linux/btf_ids.h) ---- */
#ifndef __BTF_TRAMP_STR
#define __BTF_TRAMP_STR(x)	#x
#define BTF_TRAMP_STR(x)	__BTF_TRAMP_STR(x)
#endif

/*
 * BTF_TRAMP_SET_START(name): opens the list __BTF_TRAMP_IDS__name in
 * .BTF_ids (a global label, like BTF_ID_LIST_GLOBAL: a local one is
 * reached through section+addend GOT relocations that arm64 ld gets
 * wrong). C may read the resolved IDs as
 * `extern const u32 __BTF_TRAMP_IDS__name[];`. BTF_TRAMP_ID(func, f, name): one BTF_ID(func, f) slot in it.
 * BTF_TRAMP_SET_END(name): reserves BTF_TRAMP_TABLE_SIZE(n) zero bytes in
 * .BTF_tramp as the object __BTF_TRAMP__name, n = the list's slots, and
 * declares `extern const struct btf_tramp_hdr name;`-style access through
 * BTF_TRAMP_TABLE(name).
 */
#define BTF_TRAMP_SET_START(name)					\
asm(".pushsection .BTF_ids,\"a\"\n"					\
    ".balign 4\n"							\
    ".globl __BTF_TRAMP_IDS__" #name "\n"				\
    "__BTF_TRAMP_IDS__" #name ":\n"					\
    ".popsection\n");

#define __BTF_TRAMP_ID(kind, f, uniq)					\
asm(".pushsection .BTF_ids,\"a\"\n"					\
    ".local __BTF_ID__" #kind "__" #f "__" BTF_TRAMP_STR(uniq) "\n"	\
    ".type __BTF_ID__" #kind "__" #f "__" BTF_TRAMP_STR(uniq) ", STT_OBJECT\n" \
    ".size __BTF_ID__" #kind "__" #f "__" BTF_TRAMP_STR(uniq) ", 4\n"	\
    "__BTF_ID__" #kind "__" #f "__" BTF_TRAMP_STR(uniq) ":\n"		\
    ".zero 4\n"								\
    ".popsection\n");
#define ___BTF_TRAMP_UNIQ(a, b)	a##b
#define __BTF_TRAMP_UNIQ(a, b)	___BTF_TRAMP_UNIQ(a, b)
#define BTF_TRAMP_ID(kind, f, name)					\
	__BTF_TRAMP_ID(kind, f, __BTF_TRAMP_UNIQ(__COUNTER__, __LINE__))

#define BTF_TRAMP_SET_END(name)						\
asm(".pushsection .BTF_ids,\"a\"\n"					\
    "__BTF_TRAMP_IDS_END__" #name ":\n"					\
    ".popsection\n"							\
    ".pushsection .BTF_tramp,\"a\"\n"					\
    ".balign 4\n"							\
    ".globl __BTF_TRAMP__" #name "\n"					\
    ".type __BTF_TRAMP__" #name ", STT_OBJECT\n"			\
    "__BTF_TRAMP__" #name ":\n"						\
    ".zero " BTF_TRAMP_STR(BTF_TRAMP_HDR_SIZE) " + "			\
    BTF_TRAMP_STR(BTF_TRAMP_ENTRY_SIZE) " * ((__BTF_TRAMP_IDS_END__" #name \
    " - __BTF_TRAMP_IDS__" #name ") / 4)\n"				\
    ".size __BTF_TRAMP__" #name ", . - __BTF_TRAMP__" #name "\n"	\
    ".popsection\n");							\
extern const struct btf_tramp_hdr __BTF_TRAMP__##name;

/* The header of set @name's table (declared by BTF_TRAMP_SET_END). */
#define BTF_TRAMP_TABLE(name)	(&__BTF_TRAMP__##name)

/* Start/stop of all tables in an image (linker-scripts/btf_tramp.lds). */
extern const unsigned char __start_BTF_tramp[] __attribute__((weak));
extern const unsigned char __stop_BTF_tramp[] __attribute__((weak));

/* ---- Consumer API: the table is in native (= target) byte order ---- */

static inline const struct btf_tramp_entry *
btf_tramp_entries(const struct btf_tramp_hdr *h)
{
	return (const struct btf_tramp_entry *)((const char *)h + BTF_TRAMP_HDR_SIZE);
}

/* Filled by btfids, in a format this header understands. */
static inline int btf_tramp_filled(const struct btf_tramp_hdr *h)
{
	return h->magic == BTF_TRAMP_MAGIC && h->version == BTF_TRAMP_VERSION &&
	       h->entry_size == BTF_TRAMP_ENTRY_SIZE;
}

/* Filled, and computed from the BTF whose crc32 is @btf_crc32. */
static inline int btf_tramp_valid(const struct btf_tramp_hdr *h,
				  btf_tramp_u32 btf_crc32)
{
	return btf_tramp_filled(h) && h->btf_crc32 == btf_crc32;
}

/* The entry of BTF ID @id, or NULL: binary search, O(log n). */
static inline const struct btf_tramp_entry *
btf_tramp_find(const struct btf_tramp_hdr *h, btf_tramp_u32 id)
{
	const struct btf_tramp_entry *e = btf_tramp_entries(h);
	btf_tramp_u32 lo = 0, hi;

	if (!btf_tramp_filled(h) || !id)
		return NULL;
	hi = h->nr_entries;
	while (lo < hi) {
		btf_tramp_u32 mid = lo + (hi - lo) / 2;

		if (e[mid].btf_id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < h->nr_entries && e[lo].btf_id == id ? &e[lo] : NULL;
}

/* Walk the entries: for (e = btf_tramp_first(h); e; e = btf_tramp_next(h, e)) */
static inline const struct btf_tramp_entry *
btf_tramp_first(const struct btf_tramp_hdr *h)
{
	return btf_tramp_filled(h) && h->nr_entries ? btf_tramp_entries(h) : NULL;
}

static inline const struct btf_tramp_entry *
btf_tramp_next(const struct btf_tramp_hdr *h, const struct btf_tramp_entry *e)
{
	return e + 1 < btf_tramp_entries(h) + h->nr_entries ? e + 1 : NULL;
}

/*
 * Next table after @h in [__start_BTF_tramp, __stop_BTF_tramp): tables are
 * laid out back to back, 4-byte aligned, each BTF_TRAMP_TABLE_SIZE(n).
 * Pass NULL for the first. Returns NULL at the end or on an unfilled table.
 */
static inline const struct btf_tramp_hdr *
btf_tramp_next_table(const struct btf_tramp_hdr *h)
{
	const unsigned char *p, *end = __stop_BTF_tramp;

	if (!h)
		p = __start_BTF_tramp;
	else
		p = (const unsigned char *)h + BTF_TRAMP_TABLE_SIZE((size_t)h->nr_entries);
	if (!p || p > end || (size_t)(end - p) < BTF_TRAMP_HDR_SIZE)
		return NULL;
	h = (const struct btf_tramp_hdr *)p;
	/* the whole table, as its header counts it, must lie before the end */
	if (!btf_tramp_filled(h) ||
	    ((size_t)(end - p) - BTF_TRAMP_HDR_SIZE) / BTF_TRAMP_ENTRY_SIZE < h->nr_entries)
		return NULL;
	return h;
}

/* ---- v2 consumer API: the table in native (= target) byte order ---- */

static inline const struct btf_tramp_class *
btf_tramp2_classes(const struct btf_tramp2_hdr *h)
{
	return (const struct btf_tramp_class *)((const char *)h + BTF_TRAMP2_HDR_SIZE);
}

/* The verdicts (version 3; a version 2 table has nr_verdicts 0): after the classes */
static inline const struct btf_tramp_verdict *
btf_tramp2_verdicts(const struct btf_tramp2_hdr *h)
{
	return (const struct btf_tramp_verdict *)((const char *)h + BTF_TRAMP2_HDR_SIZE +
						  (size_t)h->nr_classes * BTF_TRAMP_CLASS_SIZE);
}

/* func_id[nr_funcs]: 4-byte aligned, since the header, a class and a verdict are */
static inline const btf_tramp_u32 *btf_tramp2_func_ids(const struct btf_tramp2_hdr *h)
{
	return (const btf_tramp_u32 *)((const char *)btf_tramp2_verdicts(h) +
				       (size_t)h->nr_verdicts * BTF_TRAMP_VERDICT_SIZE);
}

static inline const btf_tramp_u16 *btf_tramp2_func_classes(const struct btf_tramp2_hdr *h)
{
	return (const btf_tramp_u16 *)(btf_tramp2_func_ids(h) + h->nr_funcs);
}

/* func_verdict[nr_funcs], version 3 only */
static inline const btf_tramp_u16 *btf_tramp2_func_verdicts(const struct btf_tramp2_hdr *h)
{
	return btf_tramp2_func_classes(h) + h->nr_funcs;
}

/*
 * What btf_tramp2_check() found: the first check that fails (the order is
 * the function's; the values keep the order they were added in).
 */
enum btf_tramp2_status {
	BTF_TRAMP2_VALID = 0,
	BTF_TRAMP2_SHORT,		/* fewer bytes than a header */
	BTF_TRAMP2_BAD_MAGIC,
	BTF_TRAMP2_BAD_VERSION,
	BTF_TRAMP2_BAD_MACHINE,		/* another e_machine's models */
	BTF_TRAMP2_BAD_CLASS_SIZE,
	BTF_TRAMP2_BAD_SIZE,		/* size is not the section's length */
	BTF_TRAMP2_BAD_LAYOUT,		/* size != BTF_TRAMP2_SIZE(), too many classes */
	BTF_TRAMP2_BAD_FUNC_ID,		/* func_id 0 or not strictly ascending */
	BTF_TRAMP2_BAD_FUNC_CLASS,	/* func_class >= nr_classes */
	BTF_TRAMP2_BAD_CLASS,		/* a class out of range (btf_tramp2_class_ok()) */
	BTF_TRAMP2_BAD_CRC,		/* computed from another .BTF */
	BTF_TRAMP2_BAD_VERDICT_SIZE,	/* verdict_size not the version's */
	BTF_TRAMP2_BAD_FUNC_VERDICT,	/* func_verdict >= nr_verdicts */
	BTF_TRAMP2_BAD_VERDICT,		/* a verdict out of range (btf_tramp2_verdict_ok()) */
	BTF_TRAMP2_NR_STATUS,
};

static inline const char *btf_tramp2_status_str(int st)
{
	static const char *const str[BTF_TRAMP2_NR_STATUS] = {
		[BTF_TRAMP2_VALID] = "valid",
		[BTF_TRAMP2_SHORT] = "shorter than the 32-byte header",
		[BTF_TRAMP2_BAD_MAGIC] = "bad magic",
		[BTF_TRAMP2_BAD_VERSION] = "not version 2 or 3",
		[BTF_TRAMP2_BAD_MACHINE] = "models of another machine (e_machine differs)",
		[BTF_TRAMP2_BAD_CLASS_SIZE] = "class size is not 56",
		[BTF_TRAMP2_BAD_SIZE] = "size field is not the table's length",
		[BTF_TRAMP2_BAD_LAYOUT] = "header, classes and functions do not add up to its size",
		[BTF_TRAMP2_BAD_FUNC_ID] = "a func_id is 0 or not above the one before",
		[BTF_TRAMP2_BAD_FUNC_CLASS] = "a func_class is not a class index",
		[BTF_TRAMP2_BAD_CLASS] = "a class is out of range",
		[BTF_TRAMP2_BAD_CRC] = "computed from another .BTF (crc32 differs)",
		[BTF_TRAMP2_BAD_VERDICT_SIZE] = "verdict size is not 20 (version 3) or 0 (version 2)",
		[BTF_TRAMP2_BAD_FUNC_VERDICT] = "a func_verdict is not a verdict index",
		[BTF_TRAMP2_BAD_VERDICT] = "a verdict is out of range",
	};

	return st >= 0 && st < BTF_TRAMP2_NR_STATUS ? str[st] : "unknown status";
}

/*
 * A class a trampoline may be built from: nr_args <= 12, every arg_size
 * and ret_size <= 16, a known reason, attachable exactly when the reason
 * is OK, and then modelled (distilled): the kernel's check too
 * (kernel/bpf/btf_tramp.c btf_tramp_bad_class()).
 */
static inline int btf_tramp2_class_ok(const struct btf_tramp_class *c)
{
	int i;

	if (c->nr_args > BTF_TRAMP_MAX_ARGS || c->reason >= BTF_TRAMP_NR_REASONS ||
	    c->attachable != (c->reason == BTF_TRAMP_OK) || c->ret_size > 16 ||
	    (c->attachable && !c->distilled))
		return 0;
	for (i = 0; i < BTF_TRAMP_MAX_ARGS; i++)
		if (c->arg_size[i] > 16)
			return 0;
	return 1;
}

/*
 * A verdict a consumer may trust: for each attach type, a known refusal (or
 * not judged, step and errno 0); taken exactly when step and errno are 0.
 */
static inline int btf_tramp2_verdict_ok(const struct btf_tramp_verdict *v)
{
	int a;

	for (a = 0; a < BTF_TRAMP_NR_ATTACH; a++) {
		int r = v->at[a].refusal, quiet = !v->at[a].step && !v->at[a].err;

		if (r == BTF_TRAMP_NOT_JUDGED || r == BTF_TRAMP_TAKEN) {
			if (!quiet)
				return 0;
		} else if (r >= BTF_TRAMP_NR_REFUSALS || !v->at[a].step || !v->at[a].err ||
			   v->at[a].step >= BTF_TRAMP_NR_STEPS) {
			return 0;
		}
	}
	return 1;
}

/*
 * Check the @len bytes at @tab (4-byte aligned) as a v2 or v3 table for an image
 * of e_machine @machine whose .BTF has zlib crc32 @btf_crc32. Returns
 * BTF_TRAMP2_VALID or the first failed check (enum btf_tramp2_status);
 * *@where (when not NULL) gets the index of the function, class or verdict
 * at fault.
 */
static inline int btf_tramp2_check(const void *tab, size_t len, btf_tramp_u16 machine,
				   btf_tramp_u32 btf_crc32, btf_tramp_u32 *where)
{
	const struct btf_tramp2_hdr *h = (const struct btf_tramp2_hdr *)tab;
	const struct btf_tramp_class *c;
	const btf_tramp_u32 *id;
	const btf_tramp_u16 *cl;
	unsigned long long need;
	btf_tramp_u32 i;

	if (where)
		*where = 0;
	if (len < BTF_TRAMP2_HDR_SIZE)
		return BTF_TRAMP2_SHORT;
	if (h->magic != BTF_TRAMP_MAGIC)
		return BTF_TRAMP2_BAD_MAGIC;
	if (h->version != BTF_TRAMP2_VERSION && h->version != BTF_TRAMP3_VERSION)
		return BTF_TRAMP2_BAD_VERSION;
	if (h->machine != machine)
		return BTF_TRAMP2_BAD_MACHINE;
	if (h->class_size != BTF_TRAMP_CLASS_SIZE)
		return BTF_TRAMP2_BAD_CLASS_SIZE;
	if (h->version == BTF_TRAMP3_VERSION ? h->verdict_size != BTF_TRAMP_VERDICT_SIZE :
	    h->verdict_size || h->nr_verdicts)
		return BTF_TRAMP2_BAD_VERDICT_SIZE;
	if (h->size != len)
		return BTF_TRAMP2_BAD_SIZE;
	need = BTF_TRAMP2_SIZE(h->version, (unsigned long long)h->nr_classes,
			       (unsigned long long)h->nr_verdicts, (unsigned long long)h->nr_funcs);
	if (h->nr_classes > BTF_TRAMP2_MAX_CLASSES || need != len)
		return BTF_TRAMP2_BAD_LAYOUT;
	id = btf_tramp2_func_ids(h);
	cl = btf_tramp2_func_classes(h);
	for (i = 0; i < h->nr_funcs; i++) {
		if (where)
			*where = i;
		if (!id[i] || (i && id[i] <= id[i - 1]))
			return BTF_TRAMP2_BAD_FUNC_ID;
		if (cl[i] >= h->nr_classes)
			return BTF_TRAMP2_BAD_FUNC_CLASS;
		if (h->version == BTF_TRAMP3_VERSION &&
		    btf_tramp2_func_verdicts(h)[i] >= h->nr_verdicts)
			return BTF_TRAMP2_BAD_FUNC_VERDICT;
	}
	c = btf_tramp2_classes(h);
	for (i = 0; i < h->nr_classes; i++) {
		if (where)
			*where = i;
		if (!btf_tramp2_class_ok(&c[i]))
			return BTF_TRAMP2_BAD_CLASS;
	}
	for (i = 0; i < h->nr_verdicts; i++) {
		if (where)
			*where = i;
		if (!btf_tramp2_verdict_ok(&btf_tramp2_verdicts(h)[i]))
			return BTF_TRAMP2_BAD_VERDICT;
	}
	if (where)
		*where = 0;
	return h->btf_crc32 == btf_crc32 ? BTF_TRAMP2_VALID : BTF_TRAMP2_BAD_CRC;
}

/*
 * Index in func_id[] of BTF FUNC @id in a checked table, or -1 when the
 * table has no such function: binary search, O(log n).
 */
static inline long btf_tramp2_func_index(const struct btf_tramp2_hdr *h, btf_tramp_u32 id)
{
	const btf_tramp_u32 *ids = btf_tramp2_func_ids(h);
	btf_tramp_u32 lo = 0, hi = h->nr_funcs;

	while (lo < hi) {
		btf_tramp_u32 mid = lo + (hi - lo) / 2;

		if (ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo == h->nr_funcs || ids[lo] != id ? -1 : (long)lo;
}

/* Index of the class of BTF FUNC @id in a checked table, or -1 */
static inline long btf_tramp2_class_index(const struct btf_tramp2_hdr *h, btf_tramp_u32 id)
{
	long i = btf_tramp2_func_index(h, id);

	return i < 0 ? -1 : btf_tramp2_func_classes(h)[i];
}

/*
 * The verdicts of BTF FUNC @id in a checked version 3 table, or NULL (no
 * such function, or a version 2 table).
 */
static inline const struct btf_tramp_verdict *
btf_tramp2_find_verdict(const struct btf_tramp2_hdr *h, btf_tramp_u32 id)
{
	long i = h->version == BTF_TRAMP3_VERSION ? btf_tramp2_func_index(h, id) : -1;

	return i < 0 ? NULL : &btf_tramp2_verdicts(h)[btf_tramp2_func_verdicts(h)[i]];
}

/* The class of BTF FUNC @id in a checked table, or NULL. */
static inline const struct btf_tramp_class *
btf_tramp2_find(const struct btf_tramp2_hdr *h, btf_tramp_u32 id)
{
	long k = btf_tramp2_class_index(h, id);

	return k < 0 ? NULL : &btf_tramp2_classes(h)[k];
}

/*
 * The image's own v2 table, [__start_BTF_tramp, __stop_BTF_tramp), when
 * that holds one (magic and version; check it with btf_tramp2_check(),
 * *@len bytes, before use), else NULL.
 */
static inline const struct btf_tramp2_hdr *btf_tramp2_image(size_t *len)
{
	const unsigned char *p = __start_BTF_tramp, *end = __stop_BTF_tramp;
	const struct btf_tramp2_hdr *h = (const struct btf_tramp2_hdr *)p;

	if (!p || end < p || (size_t)(end - p) < BTF_TRAMP2_HDR_SIZE ||
	    h->magic != BTF_TRAMP_MAGIC ||
	    (h->version != BTF_TRAMP2_VERSION && h->version != BTF_TRAMP3_VERSION))
		return NULL;
	*len = end - p;
	return h;
}

#endif /* _BTFIDS_TRAMP_H */
