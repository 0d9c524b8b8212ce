// SPDX-License-Identifier: GPL-2.0
/* findings.c - the checks of `btfids check`; see include/btfids/findings.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "btfids/findings.h"

struct ctx {
	const struct btfids_syms *s;
	const struct btfids_layout *l;
	const struct btfids_names *names;
	struct btfids_findings *f;
};

const char *btfids_finding_type_str(enum btfids_finding_type type)
{
	static const char *const names[] = {
		[BTFIDS_F_UNRESOLVED] = "unresolved",
		[BTFIDS_F_STALE] = "stale",
		[BTFIDS_F_AMBIGUOUS] = "ambiguous",
		[BTFIDS_F_FLAGS] = "inconsistent-flags",
		[BTFIDS_F_DUPLICATE] = "duplicate-in-set",
	};

	return names[type];
}

bool btfids_finding_is_error(enum btfids_finding_type type)
{
	return type == BTFIDS_F_UNRESOLVED || type == BTFIDS_F_STALE;
}

static struct btfids_finding *add(struct btfids_findings *f, enum btfids_finding_type type,
				  const char *kind, const char *name)
{
	struct btfids_finding *fd;

	if (f->n == f->cap) {
		size_t n = f->cap ? 2 * f->cap : 16;
		void *p = reallocarray(f->v, n, sizeof(*f->v));

		if (!p)
			return NULL;
		f->v = p;
		f->cap = n;
	}
	fd = &f->v[f->n++];
	memset(fd, 0, sizeof(*fd));
	fd->type = type;
	fd->kind = kind;
	fd->name = name;
	f->counts[type]++;
	return fd;
}

static int cmp_size(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;

	return a < b ? -1 : a > b;
}

static int cmp_u32(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;

	return a < b ? -1 : a > b;
}

/* Sort and drop repeats; returns the new length. */
static size_t uniq(void *base, size_t n, size_t size,
		   int (*cmp)(const void *, const void *))
{
	char *v = base;
	size_t i, k = 0;

	qsort(v, n, size, cmp);
	for (i = 0; i < n; i++)
		if (!k || cmp(v + (k - 1) * size, v + i * size))
			memmove(v + k++ * size, v + i * size, size);
	return k;
}

static int cmp_slot_off(const void *pa, const void *pb, void *ctx)
{
	const struct btfids_syms *s = ctx;
	uint64_t a = s->slots[*(const size_t *)pa].off, b = s->slots[*(const size_t *)pb].off;

	return a < b ? -1 : a > b;
}

/* Room for @n slots in @fd; they are added in symbol order, then sorted. */
static int alloc_slots(struct btfids_finding *fd, size_t n)
{
	fd->slots = calloc(n + 1, sizeof(*fd->slots));
	return fd->slots ? 0 : -ENOMEM;
}

static void sort_slots(const struct ctx *c, struct btfids_finding *fd)
{
	qsort_r(fd->slots, fd->nr_slots, sizeof(*fd->slots), cmp_slot_off, (void *)c->s);
}

/* The groups whose slots ask for target @ti, in address order, and those slots. */
static int set_refs(const struct ctx *c, size_t ti, struct btfids_finding *fd)
{
	const struct btfids_syms *s = c->s;
	size_t i;

	fd->refs = calloc(s->targets[ti].nr_slots + 1, sizeof(*fd->refs));
	if (!fd->refs || alloc_slots(fd, s->targets[ti].nr_slots))
		return -ENOMEM;
	for (i = 0; i < s->nr_slots; i++) {
		if (s->slots[i].target != ti)
			continue;
		fd->slots[fd->nr_slots++] = i;
		if (c->l->slot_group[i] != BTFIDS_NONE)
			fd->refs[fd->nr_refs++] = c->l->slot_group[i];
	}
	fd->nr_refs = uniq(fd->refs, fd->nr_refs, sizeof(*fd->refs), cmp_size);
	sort_slots(c, fd);
	return 0;
}

static uint32_t *dup_ids(const uint32_t *ids, size_t n)
{
	uint32_t *v = calloc(n + 1, sizeof(*v));

	if (v && n)
		memcpy(v, ids, n * sizeof(*v));
	return v;
}

static int check_unresolved(const struct ctx *c)
{
	const struct btfids_syms *s = c->s;
	size_t i;

	for (i = 0; i < s->nr_targets; i++) {
		const struct btfids_target *t = &s->targets[i];
		struct btfids_finding *fd;

		if (t->id)
			continue;
		fd = add(c->f, BTFIDS_F_UNRESOLVED, btfids_kind_str(t->kind), t->name);
		if (!fd || set_refs(c, i, fd))
			return -ENOMEM;
		if (c->names)
			fd->nr_sugg = btfids_suggest(c->names, t->kind, t->name, fd->sugg);
	}
	return 0;
}

static int check_ambiguous(const struct ctx *c)
{
	const struct btfids_syms *s = c->s;
	size_t i;

	for (i = 0; i < s->nr_targets; i++) {
		const struct btfids_target *t = &s->targets[i];
		struct btfids_finding *fd;

		if (t->nr_ids < 2)
			continue;
		fd = add(c->f, BTFIDS_F_AMBIGUOUS, btfids_kind_str(t->kind), t->name);
		if (!fd || set_refs(c, i, fd))
			return -ENOMEM;
		fd->ids = dup_ids(t->ids, t->nr_ids);
		if (!fd->ids)
			return -ENOMEM;
		fd->nr_ids = t->nr_ids;
	}
	return 0;
}

struct group_flags {
	size_t group;
	uint32_t flags;
};

static int cmp_group_flags(const void *pa, const void *pb)
{
	const struct group_flags *a = pa, *b = pb;

	if (a->group != b->group)
		return a->group < b->group ? -1 : 1;
	return a->flags < b->flags ? -1 : a->flags > b->flags;
}

/* The (set8, flags) pairs target @ti's slots get; returns how many. */
static size_t target_flags(const struct ctx *c, size_t ti, struct group_flags *v)
{
	const struct btfids_layout *l = c->l;
	size_t i, n = 0;

	for (i = 0; i < c->s->nr_slots; i++) {
		size_t g = l->slot_group[i], e = l->slot_entry[i];

		if (c->s->slots[i].target != ti || g == BTFIDS_NONE || e == BTFIDS_NONE ||
		    l->groups[g].kind != BTFIDS_GROUP_SET8)
			continue;
		v[n++] = (struct group_flags){ g, l->entries[e].flags };
	}
	return uniq(v, n, sizeof(*v), cmp_group_flags);
}

static bool flags_differ(const struct group_flags *v, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (v[i].flags != v[0].flags)
			return true;
	return false;
}

static int flags_finding(const struct ctx *c, size_t ti, const struct group_flags *v,
			 size_t n)
{
	const struct btfids_target *t = &c->s->targets[ti];
	struct btfids_finding *fd;
	size_t i;

	fd = add(c->f, BTFIDS_F_FLAGS, btfids_kind_str(t->kind), t->name);
	if (!fd)
		return -ENOMEM;
	fd->refs = calloc(n, sizeof(*fd->refs));
	fd->ref_flags = calloc(n, sizeof(*fd->ref_flags));
	if (!fd->refs || !fd->ref_flags)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		fd->refs[i] = v[i].group;
		fd->ref_flags[i] = v[i].flags;
	}
	fd->nr_refs = n;
	if (alloc_slots(fd, t->nr_slots))
		return -ENOMEM;
	for (i = 0; i < c->s->nr_slots; i++) {
		size_t g = c->l->slot_group[i];

		if (c->s->slots[i].target == ti && g != BTFIDS_NONE &&
		    c->l->slot_entry[i] != BTFIDS_NONE && c->l->groups[g].kind == BTFIDS_GROUP_SET8)
			fd->slots[fd->nr_slots++] = i;
	}
	sort_slots(c, fd);
	return 0;
}

static int check_flags(const struct ctx *c)
{
	const struct btfids_syms *s = c->s;
	struct group_flags *v;
	size_t i, n;
	int err = 0;

	v = calloc(s->nr_slots + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < s->nr_targets && !err; i++) {
		n = target_flags(c, i, v);
		if (flags_differ(v, n))
			err = flags_finding(c, i, v, n);
	}
	free(v);
	return err;
}

/* The slots of target @ti in group @gi. */
static int group_slots(const struct ctx *c, size_t gi, size_t ti, struct btfids_finding *fd)
{
	size_t i;

	if (alloc_slots(fd, c->s->targets[ti].nr_slots))
		return -ENOMEM;
	for (i = 0; i < c->s->nr_slots; i++)
		if (c->s->slots[i].target == ti && c->l->slot_group[i] == gi)
			fd->slots[fd->nr_slots++] = i;
	sort_slots(c, fd);
	return 0;
}

/* Targets listed more than once in set group @gi; @v has room for every slot. */
static int set_duplicates(const struct ctx *c, size_t gi, size_t *v)
{
	const struct btfids_syms *s = c->s;
	size_t i, k, n = 0;

	for (i = 0; i < s->nr_slots; i++)
		if (c->l->slot_group[i] == gi)
			v[n++] = s->slots[i].target;
	qsort(v, n, sizeof(*v), cmp_size);
	for (i = 0; i < n; i = k) {
		const struct btfids_target *t = &s->targets[v[i]];
		struct btfids_finding *fd;

		for (k = i + 1; k < n && v[k] == v[i]; k++)
			;
		if (k - i < 2)
			continue;
		fd = add(c->f, BTFIDS_F_DUPLICATE, btfids_kind_str(t->kind), t->name);
		if (!fd || !(fd->refs = calloc(1, sizeof(*fd->refs))))
			return -ENOMEM;
		fd->refs[0] = gi;
		fd->nr_refs = 1;
		fd->times = k - i;
		if (group_slots(c, gi, v[i], fd))
			return -ENOMEM;
	}
	return 0;
}

static int check_duplicates(const struct ctx *c)
{
	size_t *v = calloc(c->s->nr_slots + 1, sizeof(*v));
	size_t i;
	int err = 0;

	if (!v)
		return -ENOMEM;
	for (i = 0; i < c->l->nr_groups && !err; i++)
		if (c->l->groups[i].kind != BTFIDS_GROUP_LIST)
			err = set_duplicates(c, i, v);
	free(v);
	return err;
}

/* One stale slot: its target, its group, and the value stored instead. */
struct stale_rec {
	size_t slot, target, group;
	uint32_t stored;
	bool has_stored;	/* false: no spare value left in the set */
};

struct stale_acc {
	struct stale_rec *v;
	size_t n, cap;
};

static int stale_add(struct stale_acc *a, size_t slot, size_t target, size_t group,
		     uint32_t stored, bool has_stored)
{
	if (a->n == a->cap) {
		size_t n = a->cap ? 2 * a->cap : 32;
		void *p = reallocarray(a->v, n, sizeof(*a->v));

		if (!p)
			return -ENOMEM;
		a->v = p;
		a->cap = n;
	}
	a->v[a->n++] = (struct stale_rec){ slot, target, group, stored, has_stored };
	return 0;
}

/* Lists keep their order: each slot's word must hold its target's ID. */
static int stale_lists(const struct ctx *c, struct stale_acc *a)
{
	const struct btfids_layout *l = c->l;
	size_t i;

	for (i = 0; i < c->s->nr_slots; i++) {
		size_t g = l->slot_group[i], e = l->slot_entry[i];
		size_t ti = c->s->slots[i].target;

		if (g == BTFIDS_NONE || e == BTFIDS_NONE || l->groups[g].kind != BTFIDS_GROUP_LIST ||
		    l->entries[e].id == c->s->targets[ti].id)
			continue;
		if (stale_add(a, i, ti, g, l->entries[e].id, true))
			return -ENOMEM;
	}
	return 0;
}

/* The set's count word and order; both are part of what a run writes. */
static int stale_header(const struct ctx *c, size_t gi)
{
	const struct btfids_group *g = &c->l->groups[gi];
	const struct btfids_entry *en = &c->l->entries[g->first];
	enum btfids_stale_what what = BTFIDS_STALE_COUNT;
	struct btfids_finding *fd;
	size_t k;

	if (g->count == g->set->cnt) {
		for (k = 1; k < g->nr && (int32_t)en[k - 1].id <= (int32_t)en[k].id; k++)
			;
		if (k >= g->nr)
			return 0;
		what = BTFIDS_STALE_ORDER;
	}
	fd = add(c->f, BTFIDS_F_STALE, btfids_group_kind_str(g->kind), g->name);
	if (!fd || !(fd->refs = calloc(1, sizeof(*fd->refs))))
		return -ENOMEM;
	fd->refs[0] = gi;
	fd->nr_refs = 1;
	fd->stale = what;
	if (what == BTFIDS_STALE_COUNT) {
		fd->ids = dup_ids(&g->set->cnt, 1);
		fd->stored = dup_ids(&g->count, 1);
		if (!fd->ids || !fd->stored)
			return -ENOMEM;
		fd->nr_ids = fd->nr_stored = 1;
	}
	return 0;
}

/* Take an unused entry of @g holding @id; false if there is none. */
static bool take(const struct btfids_layout *l, const struct btfids_group *g,
		 bool *used, uint32_t id)
{
	size_t k;

	for (k = 0; k < g->nr; k++) {
		if (!used[k] && l->entries[g->first + k].id == id) {
			used[k] = true;
			return true;
		}
	}
	return false;
}

/*
 * A sorted set's entries no longer sit at their symbols: compare the IDs
 * its slots ask for (and 0 for each entry without a symbol) with the
 * stored IDs as multisets. Each slot whose ID is missing is paired with
 * one of the values left over, in ascending order.
 */
static int stale_set_entries(const struct ctx *c, size_t gi, struct stale_acc *a,
			     size_t *slots, uint32_t *left, bool *used)
{
	const struct btfids_layout *l = c->l;
	const struct btfids_group *g = &l->groups[gi];
	size_t i, k, ns = 0, np = 0, nl = 0;

	for (i = 0; i < c->s->nr_slots; i++)
		if (l->slot_group[i] == gi)
			slots[ns++] = i;
	qsort_r(slots, ns, sizeof(*slots), cmp_slot_off, (void *)c->s);
	memset(used, 0, g->nr * sizeof(*used));
	for (i = 0; i < ns; i++)
		if (!take(l, g, used, c->s->targets[c->s->slots[slots[i]].target].id))
			slots[np++] = slots[i];
	for (i = ns; i < g->nr; i++)	/* BTF_ID_UNUSED entries stay 0 */
		take(l, g, used, 0);
	for (k = 0; k < g->nr; k++)
		if (!used[k])
			left[nl++] = l->entries[g->first + k].id;
	qsort(left, nl, sizeof(*left), cmp_u32);
	for (i = 0; i < np; i++)
		if (stale_add(a, slots[i], c->s->slots[slots[i]].target, gi,
			      i < nl ? left[i] : 0, i < nl))
			return -ENOMEM;
	return 0;
}

static int stale_sets(const struct ctx *c, struct stale_acc *a)
{
	size_t n = c->s->nr_slots + c->l->nr_entries + 1, i;
	size_t *slots = calloc(n, sizeof(*slots));
	uint32_t *left = calloc(n, sizeof(*left));
	bool *used = calloc(n, sizeof(*used));
	int err = slots && left && used ? 0 : -ENOMEM;

	for (i = 0; i < c->l->nr_groups && !err; i++) {
		if (c->l->groups[i].kind == BTFIDS_GROUP_LIST)
			continue;
		err = stale_header(c, i);
		if (!err)
			err = stale_set_entries(c, i, a, slots, left, used);
	}
	free(slots);
	free(left);
	free(used);
	return err;
}

static int cmp_stale(const void *pa, const void *pb)
{
	const struct stale_rec *a = pa, *b = pb;

	if (a->target != b->target)
		return a->target < b->target ? -1 : 1;
	return a->group < b->group ? -1 : a->group > b->group;
}

/* One finding per target: every group it is stale in, every value found. */
static int stale_finding(const struct ctx *c, const struct stale_rec *r, size_t n)
{
	const struct btfids_target *t = &c->s->targets[r->target];
	struct btfids_finding *fd;
	size_t i;

	fd = add(c->f, BTFIDS_F_STALE, btfids_kind_str(t->kind), t->name);
	if (!fd)
		return -ENOMEM;
	fd->stale = BTFIDS_STALE_ID;
	fd->refs = calloc(n, sizeof(*fd->refs));
	fd->stored = calloc(n, sizeof(*fd->stored));
	fd->ids = dup_ids(&t->id, 1);
	if (!fd->refs || !fd->stored || !fd->ids || alloc_slots(fd, n))
		return -ENOMEM;
	fd->nr_ids = 1;
	for (i = 0; i < n; i++) {
		fd->slots[fd->nr_slots++] = r[i].slot;
		fd->refs[fd->nr_refs++] = r[i].group;
		if (r[i].has_stored)
			fd->stored[fd->nr_stored++] = r[i].stored;
	}
	fd->nr_refs = uniq(fd->refs, fd->nr_refs, sizeof(*fd->refs), cmp_size);
	fd->nr_stored = uniq(fd->stored, fd->nr_stored, sizeof(*fd->stored), cmp_u32);
	sort_slots(c, fd);
	return 0;
}

static int check_stale(const struct ctx *c)
{
	struct stale_acc a = {};
	size_t i, k;
	int err;

	err = stale_lists(c, &a);
	if (!err)
		err = stale_sets(c, &a);
	if (!err && a.n)
		qsort(a.v, a.n, sizeof(*a.v), cmp_stale);
	for (i = 0; i < a.n && !err; i = k) {
		for (k = i + 1; k < a.n && a.v[k].target == a.v[i].target; k++)
			;
		err = stale_finding(c, &a.v[i], k - i);
	}
	free(a.v);
	return err;
}

void btfids_findings_free(struct btfids_findings *f)
{
	size_t i;

	for (i = 0; i < f->n; i++) {
		free(f->v[i].refs);
		free(f->v[i].ref_flags);
		free(f->v[i].ids);
		free(f->v[i].stored);
		free(f->v[i].slots);
	}
	free(f->v);
	memset(f, 0, sizeof(*f));
}

int btfids_findings_collect(const struct btfids_syms *s, const struct btfids_layout *l,
			    const struct btfids_names *names, bool verify,
			    struct btfids_findings *f)
{
	struct ctx c = { .s = s, .l = l, .names = names, .f = f };
	int err;

	memset(f, 0, sizeof(*f));
	err = check_unresolved(&c);
	if (!err && verify)
		err = check_stale(&c);
	if (!err)
		err = check_ambiguous(&c);
	if (!err)
		err = check_flags(&c);
	if (!err)
		err = check_duplicates(&c);
	if (err)
		btfids_findings_free(f);
	return err;
}
