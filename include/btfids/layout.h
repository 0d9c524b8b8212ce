/* SPDX-License-Identifier: GPL-2.0 */
/*
 * layout.h - the lists and sets of .BTF_ids as a reader sees them: which
 * list or set each slot belongs to, and which stored word holds its ID.
 *
 * Groups, in address order:
 *   set, set8  a __BTF_ID__set__NAME / __BTF_ID__set8__NAME symbol; its
 *              range [off, off + st_size) holds the count (and flags) word
 *              and the entries
 *   list       a BTF_ID_LIST label: a symbol in .BTF_ids that is not a
 *              __BTF_ID__ symbol (nor the linker's __start_ / __stop_
 *              bounds, nor an Arm mapping symbol such as $d), outside
 *              every set; it runs to the next group or
 *              the end of the section. Words before the first label form a
 *              list with an empty name.
 * A slot belongs to the set whose range holds it, otherwise to the nearest
 * list label at or before it (include/linux/btf_ids.h puts the label right
 * before the BTF_ID()s of a list).
 *
 * Entries are the 4-byte words of a list, or the entries of a set (a
 * set8 entry is the {id, flags} pair). An entry's slot is the slot whose ID
 * it holds. In a list, and in a set that was never resolved (count word
 * not equal to its number of entries, e.g. linker output), that is the
 * slot at the entry's own address. A resolved set was sorted by ID
 * (btfids/patch.c, the kernel's sets_patch()), which moved entries away
 * from their symbols: there slots are matched to entries by ID, the slots
 * in address order to the equal IDs in stored order (the sort is stable),
 * and a slot whose ID is stored nowhere (stale) has no entry.
 */
#ifndef _BTFIDS_LAYOUT_H
#define _BTFIDS_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "btfids/elf.h"
#include "btfids/syms.h"

#define BTFIDS_NONE	((size_t)-1)

enum btfids_group_kind {
	BTFIDS_GROUP_LIST,
	BTFIDS_GROUP_SET,
	BTFIDS_GROUP_SET8,
};

struct btfids_group {
	enum btfids_group_kind kind;
	const char *name;	/* label or set name; "" for words before any label */
	uint64_t off;		/* in .BTF_ids: the label, or the set's count word */
	uint64_t end;		/* first byte after the group */
	const struct btfids_set *set;	/* sets only */
	uint32_t count;		/* sets: stored count word */
	uint32_t flags;		/* set8: stored header flags word */
	bool sorted;		/* sets: count word == entries (resolved) */
	size_t first, nr;	/* its entries: entries[first .. first + nr) */
};

struct btfids_entry {
	uint64_t off;		/* of the ID word, in .BTF_ids */
	size_t group;		/* index into groups[] */
	size_t slot;		/* index into syms slots[], or BTFIDS_NONE */
	uint32_t id;		/* stored ID word */
	uint32_t flags;		/* set8: stored flags word; else 0 */
};

struct btfids_layout {
	struct btfids_group *groups;	/* address order */
	size_t nr_groups;
	struct btfids_entry *entries;	/* group by group, address order */
	size_t nr_entries;
	size_t *slot_group;	/* per slot: its group */
	size_t *slot_entry;	/* per slot: the entry holding its ID, or BTFIDS_NONE */
};

/*
 * Build the layout of @e's .BTF_ids from its symbols @s. Slots are matched
 * to sorted set entries by their targets' IDs, so call it after
 * btfids_lookup() (with no BTF, all IDs 0, sorted sets match only
 * unresolved entries). Returns 0, or -ENOMEM after an error line.
 */
int btfids_layout_build(const struct btfids_elf *e, const struct btfids_syms *s,
			struct btfids_layout *l, struct btfids_report *r);
void btfids_layout_free(struct btfids_layout *l);

/* "list", "set", "set8" */
const char *btfids_group_kind_str(enum btfids_group_kind kind);

#endif /* _BTFIDS_LAYOUT_H */
