/* SPDX-License-Identifier: GPL-2.0 */
/*
 * syms.h - the __BTF_ID__ symbols of an object, as slots, sets and the
 * names they ask for.
 *
 * Symbol grammar (kernel include/linux/btf_ids.h, tools/bpf/resolve_btfids):
 *   __BTF_ID__<kind>__<name>__<uniq>  kind: func, struct, union, typedef;
 *                                     name is up to the last "__"
 *   __BTF_ID__set__<name>             a struct btf_id_set
 *   __BTF_ID__set8__<name>            a struct btf_id_set8
 * Only symbols defined in .BTF_ids count. Offsets are bytes from the start
 * of .BTF_ids; every slot and set is 4-byte aligned and inside the section.
 */
#ifndef _BTFIDS_SYMS_H
#define _BTFIDS_SYMS_H

#include <stddef.h>
#include <stdint.h>
#include <linux/btf.h>

#include "btfids/elf.h"

enum btfids_kind {
	BTFIDS_FUNC,
	BTFIDS_STRUCT,
	BTFIDS_UNION,
	BTFIDS_TYPEDEF,
	BTFIDS_NR_TYPE_KINDS,
	BTFIDS_SET = BTFIDS_NR_TYPE_KINDS,
	BTFIDS_SET8,
};

/* "func", "struct", "union", "typedef", "set", "set8" */
const char *btfids_kind_str(enum btfids_kind kind);
/* BTF_KIND_FUNC, BTF_KIND_STRUCT, ... for the four type kinds */
int btfids_kind_btf(enum btfids_kind kind);
/*
 * The other way: the kind of a BTF FUNC/STRUCT/UNION/TYPEDEF, else -1.
 * Inline: the lookup asks it of every type of a vmlinux.
 */
static inline int btfids_kind_of(const struct btf_type *t)
{
	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_FUNC:
		return BTFIDS_FUNC;
	case BTF_KIND_STRUCT:
		return BTFIDS_STRUCT;
	case BTF_KIND_UNION:
		return BTFIDS_UNION;
	case BTF_KIND_TYPEDEF:
		return BTFIDS_TYPEDEF;
	default:
		return -1;
	}
}

/* One (kind, name) to look up in BTF; many slots may share it. */
struct btfids_target {
	enum btfids_kind kind;
	char *name;
	uint32_t id;		/* lowest matching BTF type ID; 0: unresolved */
	uint32_t nr_ids;	/* how many BTF types matched */
	uint32_t *ids;		/* all of them, ascending (nr_ids entries) */
	size_t nr_slots;	/* how many slots ask for it */
};

/* A 4-byte slot that receives the ID of one target. */
struct btfids_slot {
	uint64_t off;		/* in .BTF_ids, 4-aligned */
	size_t target;		/* index into targets[] */
	const char *sym;	/* symbol name (valid while the ELF is open) */
	size_t symidx;		/* its index in the symbol table */
};

/* A set or set8; its count word sits at off. */
struct btfids_set {
	enum btfids_kind kind;	/* BTFIDS_SET or BTFIDS_SET8 */
	const char *name;	/* after __BTF_ID__set__ / set8__ */
	uint64_t off;		/* in .BTF_ids, 4-aligned */
	uint64_t size;		/* st_size: header + entries, bytes */
	uint32_t cnt;		/* number of entries, from size */
	size_t symidx;		/* its index in the symbol table */
};

/* A target's table slot: its full hash, so most misses need no strcmp. */
struct btfids_hash_slot {
	uint32_t hash;
	uint32_t target;	/* target index + 1; 0: empty */
};

struct btfids_syms {
	struct btfids_slot *slots;	/* in symbol table order */
	size_t nr_slots;
	struct btfids_target *targets;	/* sorted by kind, then name */
	size_t nr_targets;
	struct btfids_hash_slot *hash;	/* open addressing, 4 slots per target */
	size_t hash_mask;		/* table size - 1 (a power of two) */
	uint64_t *prefix;		/* bit per first two name bytes: a cheap "no" */
	struct btfids_set *sets;	/* in symbol table order */
	size_t nr_sets;
	/* slots per type kind: bounds the kernel tool's lookup loop */
	size_t nr_kind_slots[BTFIDS_NR_TYPE_KINDS];
};

/*
 * Collect the __BTF_ID__ symbols of @e. Returns 0, or a negative errno
 * after printing what is wrong (unknown kind, malformed name, slot or set
 * outside .BTF_ids or misaligned, set size not a whole number of entries,
 * duplicate set name). An object without .BTF_ids or symbols yields none.
 */
int btfids_syms_collect(const struct btfids_elf *e, struct btfids_syms *s,
			struct btfids_report *r);
void btfids_syms_free(struct btfids_syms *s);

/*
 * The hash of every name table here: @name taken 8 bytes at a time (host
 * byte order: the value is only ever compared within one run) and mixed
 * with its length and @kind.
 */
uint32_t btfids_name_hash(enum btfids_kind kind, const char *name);

/* The first two bytes of a name (the NUL included for shorter ones). */
static inline unsigned int btfids_name_prefix(const char *name)
{
	return (unsigned char)name[0] | (name[0] ? (unsigned char)name[1] << 8 : 0);
}

/*
 * False when no target can be named @name: a bit per two-byte prefix, the
 * cheap "no" for most of a vmlinux's names, inline in the lookup's loop.
 */
static inline bool btfids_syms_may_have(const struct btfids_syms *s, const char *name)
{
	unsigned int p = btfids_name_prefix(name);

	return s->prefix && (s->prefix[p / 64] & (1ull << (p % 64)));
}

/* The target of (kind, name), or NULL. One hash probe on average. */
struct btfids_target *btfids_syms_find(const struct btfids_syms *s,
				       enum btfids_kind kind, const char *name);

#endif /* _BTFIDS_SYMS_H */
