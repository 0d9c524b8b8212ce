/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tramp.h - trampoline calling-convention tables: the on-image format and
 * a header-only consumer API, usable in the kernel (__KERNEL__) and in user
 * space.
 *
 * A trampoline set names functions; btfids computes each one's function
 * model (the kernel's struct btf_func_model, kernel/bpf/btf.c
 * btf_distill_func_proto(), by the rules of the release the ELF says it is,
 * else v6.18's; fmodel.h) and where the target's trampoline reads each
 * argument, and writes the table while it resolves .BTF_ids (in place; in
 * the 7.x flow into <elf>.BTF_tramp, which --patch_btfids copies in). The
 * patched 7.3 kernel of kernel/7.3 reads this format (its
 * include/linux/btf_tramp.h). Declaring a set (see BTF_TRAMP_SET_START below):
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
 * Table layout. Every multi-byte field is in the TARGET's byte order (the
 * ELF's EI_DATA), naturally aligned; the table is 4-byte aligned:
 *
 *   struct btf_tramp_hdr     24 bytes
 *   struct btf_tramp_entry   nr_entries times, entry_size (60) bytes each,
 *                            sorted by btf_id ascending (unresolved, id 0,
 *                            first; ties keep the set's order)
 *
 * A table whose magic is 0 has not been filled by btfids yet.
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

#define BTF_TRAMP_MAGIC		0x50525442u	/* "BTRP" read as a LE u32 */
#define BTF_TRAMP_VERSION	1
#define BTF_TRAMP_MAX_ARGS	12		/* MAX_BPF_FUNC_ARGS */
#define BTF_TRAMP_HDR_SIZE	24
#define BTF_TRAMP_ENTRY_SIZE	60

/* arg_flags / ret_flags bits: include/linux/bpf.h */
#define BTF_FMODEL_STRUCT_ARG	(1 << 0)	/* struct or union by value */
#define BTF_FMODEL_SIGNED_ARG	(1 << 1)	/* signed INT */
/* 7.3 on (include/linux/bpf.h); STRUCT_ARG is gone there */
#define BTF_FMODEL_ARENA_ARG	(1 << 2)	/* param named *__arena, *__arena__nullable */
#define BTF_FMODEL_NULLABLE_ARG	(1 << 3)	/* param named *__nullable, *__arena__nullable */

/*
 * Argument location: one byte per part, two parts per argument (an
 * argument is at most 16 bytes, so at most two 8-byte slots).
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

/* Why a trampoline cannot attach (entry.reason); 0 when it can. */
enum btf_tramp_reason {
	BTF_TRAMP_OK = 0,
	BTF_TRAMP_TOO_MANY_ARGS,	/* "too-many-args": more than 12 params */
	BTF_TRAMP_RET_UNSUPPORTED,	/* "ret-unsupported" */
	BTF_TRAMP_VARIADIC,		/* "variadic" */
	BTF_TRAMP_ARG_UNSUPPORTED,	/* "arg-unsupported": bad type or > 16 bytes */
	BTF_TRAMP_VOID_ARG,		/* "void-arg": size 0 */
	BTF_TRAMP_NO_TRAMPOLINE,	/* "no-trampoline": the arch has none */
	BTF_TRAMP_TOO_MANY_SLOTS,	/* "too-many-slots": x86_64, powerpc64;
					 * arm64 v6.5-v6.15, riscv64 v6.3-v6.10 */
	BTF_TRAMP_STRUCT_ON_STACK,	/* "struct-on-stack": arm64 v6.16 only
					 * (9014cf56f13d to dc704d0cfa43) */
	BTF_TRAMP_ARCH_TOO_MANY_ARGS,	/* "arch-too-many-args": loongarch64 > 8,
					 * arm64 > 8 before v6.5 */
	BTF_TRAMP_STRUCT_ARG,		/* "struct-arg": loongarch64, arm64
					 * before v6.5 */
	BTF_TRAMP_UNRESOLVED,		/* "unresolved": the name is not a BTF FUNC */
	BTF_TRAMP_NR_REASONS,
};

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

/* One function, 60 bytes. The first fields are struct btf_func_model's. */
struct btf_tramp_entry {
	btf_tramp_u32 btf_id;		/* BTF FUNC type ID; 0: unresolved */
	btf_tramp_u8 ret_size;		/* bytes; 0 for void */
	btf_tramp_u8 ret_flags;		/* BTF_FMODEL_* of the return */
	btf_tramp_u8 nr_args;
	btf_tramp_u8 nr_slots;		/* sum over args of (size + 7) / 8 */
	btf_tramp_u8 arg_size[BTF_TRAMP_MAX_ARGS];	/* bytes */
	btf_tramp_u8 arg_flags[BTF_TRAMP_MAX_ARGS];	/* BTF_FMODEL_* */
	btf_tramp_u8 attachable;	/* 1: the arch's trampoline accepts it */
	btf_tramp_u8 reason;		/* enum btf_tramp_reason */
	btf_tramp_u8 distilled;		/* 1: the model fields above are valid */
	btf_tramp_u8 reserved;
	btf_tramp_u8 loc[BTF_TRAMP_MAX_ARGS][2];	/* BTF_TRAMP_LOC_*, when attachable */
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

#endif /* _BTFIDS_TRAMP_H */
