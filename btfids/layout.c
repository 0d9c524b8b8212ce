// SPDX-License-Identifier: GPL-2.0
/* layout.c - lists, sets and their entries; see include/btfids/layout.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "btfids/layout.h"
#include "btfids/patch.h"

#define BTF_ID_PREFIX	"__BTF_ID__"

const char *btfids_group_kind_str(enum btfids_group_kind kind)
{
	static const char *const names[] = {
		[BTFIDS_GROUP_LIST] = "list",
		[BTFIDS_GROUP_SET] = "set",
		[BTFIDS_GROUP_SET8] = "set8",
	};

	return names[kind];
}

struct label {
	const char *name;
	uint64_t off;
};

struct build {
	const struct btfids_elf *e;
	const struct btfids_syms *s;
	struct btfids_layout *l;
	struct label *labels;	/* every label, address order */
	size_t nr_labels;
	size_t *by_off;		/* slot indexes sorted by offset */
	size_t cap_groups;
};

/*
 * Linker-made bounds, section symbols and the ARM/AArch64 mapping symbols
 * ($d, $x: ELF for the Arm Architecture, "Mapping symbols") are not list
 * labels.
 */
static bool is_label(const GElf_Sym *st, const char *name)
{
	int type = GELF_ST_TYPE(st->st_info);

	return *name && *name != '$' && type != STT_SECTION && type != STT_FILE &&
	       strncmp(name, BTF_ID_PREFIX, strlen(BTF_ID_PREFIX)) &&
	       strncmp(name, "__start_", 8) && strncmp(name, "__stop_", 7);
}

static int cmp_label(const void *pa, const void *pb)
{
	const struct label *a = pa, *b = pb;
	bool ua = a->name[0] == '_', ub = b->name[0] == '_';

	if (a->off != b->off)
		return a->off < b->off ? -1 : 1;
	if (ua != ub)		/* aliases: prefer the plain name */
		return ua ? 1 : -1;
	return strcmp(a->name, b->name);
}

static int collect_labels(struct build *b)
{
	const struct btfids_elf *e = b->e;
	size_t i;

	b->labels = calloc(e->nr_syms + 1, sizeof(*b->labels));
	if (!b->labels)
		return -ENOMEM;
	for (i = btfids_elf_next_sym_in(e, 0, e->ids.index); i < e->nr_syms;
	     i = btfids_elf_next_sym_in(e, i + 1, e->ids.index)) {
		const char *name;
		size_t shndx;
		GElf_Sym st;
		uint64_t off;

		if (btfids_elf_sym(e, i, &st, &shndx, &name) || shndx != e->ids.index ||
		    !is_label(&st, name) || !btfids_elf_ids_offset(e, st.st_value, &off) ||
		    off >= e->ids.size)
			continue;
		b->labels[b->nr_labels++] = (struct label){ name, off };
	}
	qsort(b->labels, b->nr_labels, sizeof(*b->labels), cmp_label);
	return 0;
}

static const struct btfids_set *set_at(const struct btfids_syms *s, uint64_t off)
{
	size_t i;

	for (i = 0; i < s->nr_sets; i++)
		if (off >= s->sets[i].off && off < s->sets[i].off + s->sets[i].size)
			return &s->sets[i];
	return NULL;
}

/* The last label at or before @off, set labels included; "" if none. */
static const char *label_before(const struct build *b, uint64_t off)
{
	const char *name = "";
	size_t i;

	for (i = 0; i < b->nr_labels && b->labels[i].off <= off; i++)
		if (!i || b->labels[i].off != b->labels[i - 1].off)
			name = b->labels[i].name;
	return name;
}

static struct btfids_group *add_group(struct build *b)
{
	struct btfids_layout *l = b->l;

	if (l->nr_groups == b->cap_groups) {
		size_t n = b->cap_groups ? 2 * b->cap_groups : 32;
		void *p = reallocarray(l->groups, n, sizeof(*l->groups));

		if (!p)
			return NULL;
		l->groups = p;
		b->cap_groups = n;
	}
	memset(&l->groups[l->nr_groups], 0, sizeof(*l->groups));
	return &l->groups[l->nr_groups++];
}

static int add_sets(struct build *b)
{
	bool be = btfids_elf_big_endian(b->e);
	const unsigned char *d = b->e->ids.data;
	size_t i;

	for (i = 0; i < b->s->nr_sets; i++) {
		const struct btfids_set *set = &b->s->sets[i];
		struct btfids_group *g = add_group(b);

		if (!g)
			return -ENOMEM;
		g->kind = set->kind == BTFIDS_SET8 ? BTFIDS_GROUP_SET8 : BTFIDS_GROUP_SET;
		g->name = set->name;
		g->off = set->off;
		g->end = set->off + set->size;
		g->set = set;
		g->count = btfids_get32(d + set->off, be);
		if (set->kind == BTFIDS_SET8)
			g->flags = btfids_get32(d + set->off + 4, be);
		/*
		 * Any count word but 0 means a run sorted it, even a wrong one;
		 * an empty set (st_size: no entries) is the same either way.
		 */
		g->sorted = g->count != 0 || set->cnt == 0;
	}
	return 0;
}

/* One list per label outside the sets (aliases at one address: one list). */
static int add_lists(struct build *b)
{
	size_t i;

	for (i = 0; i < b->nr_labels; i++) {
		struct btfids_group *g;

		if ((i && b->labels[i].off == b->labels[i - 1].off) ||
		    set_at(b->s, b->labels[i].off))
			continue;
		g = add_group(b);
		if (!g)
			return -ENOMEM;
		g->kind = BTFIDS_GROUP_LIST;
		g->name = b->labels[i].name;
		g->off = b->labels[i].off;
	}
	return 0;
}

static int cmp_group(const void *pa, const void *pb)
{
	const struct btfids_group *a = pa, *b = pb;

	if (a->off != b->off)
		return a->off < b->off ? -1 : 1;
	return (a->kind == BTFIDS_GROUP_LIST) - (b->kind == BTFIDS_GROUP_LIST);
}

/* A list runs to the next group, or to the end of the section. */
static void end_lists(struct build *b)
{
	struct btfids_layout *l = b->l;
	size_t i;

	for (i = 0; i < l->nr_groups; i++) {
		struct btfids_group *g = &l->groups[i];

		if (g->kind != BTFIDS_GROUP_LIST)
			continue;
		g->end = i + 1 < l->nr_groups ? l->groups[i + 1].off : b->e->ids.size;
		g->end &= ~(uint64_t)3;
		if (g->end < g->off)
			g->end = g->off;
	}
}

/* The slot at exactly @off, or BTFIDS_NONE (binary search). */
static size_t slot_at(const struct build *b, uint64_t off)
{
	size_t lo = 0, hi = b->s->nr_slots;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t o = b->s->slots[b->by_off[mid]].off;

		if (o == off)
			return b->by_off[mid];
		if (o < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return BTFIDS_NONE;
}

/* Slots outside every group (after a set, before any label): a list each run. */
static int add_gap_lists(struct build *b)
{
	const struct btfids_syms *s = b->s;
	size_t i, n = b->l->nr_groups;
	uint64_t covered_end = 0;
	struct btfids_group *g;

	for (i = 0; i < s->nr_slots; i++) {
		const struct btfids_slot *sl = &s->slots[b->by_off[i]];
		size_t k;
		bool in = false;

		for (k = 0; k < n && !in; k++)
			in = sl->off >= b->l->groups[k].off && sl->off < b->l->groups[k].end;
		if (in || sl->off < covered_end)
			continue;
		g = add_group(b);
		if (!g)
			return -ENOMEM;
		g->kind = BTFIDS_GROUP_LIST;
		g->name = label_before(b, sl->off);
		g->off = sl->off;
		g->end = b->e->ids.size & ~(uint64_t)3;
		for (k = 0; k < n; k++)	/* up to the next group */
			if (b->l->groups[k].off > sl->off && b->l->groups[k].off < g->end)
				g->end = b->l->groups[k].off;
		covered_end = g->end;
	}
	return 0;
}

static int add_entry(struct build *b, size_t group, uint64_t off, size_t *cap)
{
	struct btfids_layout *l = b->l;
	bool be = btfids_elf_big_endian(b->e);
	struct btfids_entry *en;

	if (l->nr_entries == *cap) {
		size_t n = *cap ? 2 * *cap : 256;
		void *p = reallocarray(l->entries, n, sizeof(*l->entries));

		if (!p)
			return -ENOMEM;
		l->entries = p;
		*cap = n;
	}
	en = &l->entries[l->nr_entries++];
	en->off = off;
	en->group = group;
	en->slot = BTFIDS_NONE;
	en->id = btfids_get32(b->e->ids.data + off, be);
	en->flags = l->groups[group].kind == BTFIDS_GROUP_SET8 ?
		    btfids_get32(b->e->ids.data + off + 4, be) : 0;
	return 0;
}

static int add_entries(struct build *b)
{
	struct btfids_layout *l = b->l;
	size_t i, cap = 0;
	int err = 0;

	for (i = 0; i < l->nr_groups && !err; i++) {
		struct btfids_group *g = &l->groups[i];
		uint64_t stride = g->kind == BTFIDS_GROUP_SET8 ? 8 : 4;
		uint64_t off = g->off;

		if (g->kind != BTFIDS_GROUP_LIST)
			off += stride;
		g->first = l->nr_entries;
		for (; off + stride <= g->end && !err; off += stride)
			err = add_entry(b, i, off, &cap);
		g->nr = l->nr_entries - g->first;
	}
	return err;
}

/* Sorted set: the slots, in address order, take equal stored IDs in order. */
static void match_sorted(struct build *b, size_t gi)
{
	const struct btfids_syms *s = b->s;
	struct btfids_layout *l = b->l;
	const struct btfids_group *g = &l->groups[gi];
	size_t i, k;

	for (i = 0; i < s->nr_slots; i++) {
		size_t si = b->by_off[i];
		uint32_t want = s->targets[s->slots[si].target].id;

		if (l->slot_group[si] != gi)
			continue;
		for (k = g->first; k < g->first + g->nr; k++) {
			if (l->entries[k].slot == BTFIDS_NONE && l->entries[k].id == want) {
				l->entries[k].slot = si;
				l->slot_entry[si] = k;
				break;
			}
		}
	}
}

static void match_slots(struct build *b)
{
	struct btfids_layout *l = b->l;
	size_t i, k;

	for (i = 0; i < b->s->nr_slots; i++)
		l->slot_entry[i] = l->slot_group[i] = BTFIDS_NONE;
	for (i = 0; i < l->nr_groups; i++) {
		const struct btfids_group *g = &l->groups[i];

		for (k = g->first; k < g->first + g->nr; k++) {
			size_t si = slot_at(b, l->entries[k].off);

			if (si == BTFIDS_NONE)
				continue;
			l->slot_group[si] = i;
			if (g->kind == BTFIDS_GROUP_LIST || !g->sorted) {
				l->entries[k].slot = si;
				l->slot_entry[si] = k;
			}
		}
		if (g->kind != BTFIDS_GROUP_LIST && g->sorted)
			match_sorted(b, i);
	}
}

static int cmp_slot_off(const void *pa, const void *pb, void *ctx)
{
	const struct btfids_syms *s = ctx;
	uint64_t a = s->slots[*(const size_t *)pa].off;
	uint64_t b = s->slots[*(const size_t *)pb].off;

	return a < b ? -1 : a > b;
}

static int sort_slots(struct build *b)
{
	size_t i;

	b->by_off = calloc(b->s->nr_slots + 1, sizeof(*b->by_off));
	if (!b->by_off)
		return -ENOMEM;
	for (i = 0; i < b->s->nr_slots; i++)
		b->by_off[i] = i;
	qsort_r(b->by_off, b->s->nr_slots, sizeof(*b->by_off), cmp_slot_off,
		(void *)b->s);
	return 0;
}

static int build_groups(struct build *b)
{
	struct btfids_layout *l = b->l;
	int err;

	err = collect_labels(b);
	if (!err)
		err = sort_slots(b);
	if (!err)
		err = add_sets(b);
	if (!err)
		err = add_lists(b);
	if (err)
		return err;
	if (l->nr_groups)
		qsort(l->groups, l->nr_groups, sizeof(*l->groups), cmp_group);
	end_lists(b);
	err = add_gap_lists(b);
	if (err)
		return err;
	if (l->nr_groups)
		qsort(l->groups, l->nr_groups, sizeof(*l->groups), cmp_group);
	return 0;
}

int btfids_layout_build(const struct btfids_elf *e, const struct btfids_syms *s,
			struct btfids_layout *l, struct btfids_report *r)
{
	struct build b = { .e = e, .s = s, .l = l };
	int err;

	memset(l, 0, sizeof(*l));
	err = build_groups(&b);
	if (!err)
		err = add_entries(&b);
	if (!err) {
		l->slot_group = calloc(s->nr_slots + 1, sizeof(*l->slot_group));
		l->slot_entry = calloc(s->nr_slots + 1, sizeof(*l->slot_entry));
		err = l->slot_group && l->slot_entry ? 0 : -ENOMEM;
	}
	if (!err)
		match_slots(&b);
	free(b.labels);
	free(b.by_off);
	if (err) {
		btfids_layout_free(l);
		btfids_err(r, e->path, "out of memory");
	}
	return err;
}

void btfids_layout_free(struct btfids_layout *l)
{
	free(l->groups);
	free(l->entries);
	free(l->slot_group);
	free(l->slot_entry);
	memset(l, 0, sizeof(*l));
}
