// SPDX-License-Identifier: GPL-2.0
/* patch.c - write IDs and counts into a copy of .BTF_ids and sort the sets. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>

#include "btfids/patch.h"

struct entry {
	int32_t id;		/* signed, as the kernel compares IDs */
	uint32_t pos;		/* original index: ties keep their order */
	unsigned char flags[4];	/* set8 flags, raw target bytes */
};

static int cmp_entry(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;

	if (a->id != b->id)
		return a->id < b->id ? -1 : 1;
	return a->pos < b->pos ? -1 : a->pos > b->pos;
}

static void sort_set(const struct btfids_set *set, unsigned char *buf,
		     bool big_endian, struct entry *v)
{
	size_t stride = set->kind == BTFIDS_SET8 ? 8 : 4;
	unsigned char *p = buf + set->off + (set->kind == BTFIDS_SET8 ? 8 : 4);
	uint32_t i;

	for (i = 0; i < set->cnt; i++) {
		v[i].id = (int32_t)btfids_get32(p + i * stride, big_endian);
		v[i].pos = i;
		if (stride == 8)
			memcpy(v[i].flags, p + i * stride + 4, 4);
	}
	qsort(v, set->cnt, sizeof(*v), cmp_entry);
	for (i = 0; i < set->cnt; i++) {
		btfids_put32(p + i * stride, (uint32_t)v[i].id, big_endian);
		if (stride == 8)
			memcpy(p + i * stride + 4, v[i].flags, 4);
	}
}

static bool in_set(const struct btfids_set *set, uint64_t off)
{
	uint64_t hdr = set->kind == BTFIDS_SET8 ? 8 : 4;

	return off >= set->off + hdr && off < set->off + set->size;
}

static bool is_entry(const struct btfids_set *set, uint64_t off)
{
	uint64_t hdr = set->kind == BTFIDS_SET8 ? 8 : 4;
	uint64_t stride = set->kind == BTFIDS_SET8 ? 8 : 4;

	return in_set(set, off) && (off - set->off - hdr) % stride == 0;
}

/*
 * True if @set already holds what a run would give it: its count, its
 * entries sorted, and among them every ID its slots ask for. Sorting moved
 * entries away from their symbols (and BTF_ID_UNUSED holes with them), so
 * writing each slot again would clobber other entries and, in a set8, pair
 * IDs with other entries' flags; such a set is left as it is. Unresolved
 * input has a count word of 0, so there the kernel tool's bytes are kept.
 */
static bool set_final(const struct btfids_syms *s, const struct btfids_set *set,
		      const unsigned char *buf, bool big_endian, struct entry *v)
{
	size_t hdr = set->kind == BTFIDS_SET8 ? 8 : 4, stride = hdr;
	const unsigned char *p = buf + set->off + hdr;
	uint32_t i, n = 0;
	size_t k;

	if (btfids_get32(buf + set->off, big_endian) != set->cnt)
		return false;
	for (i = 1; i < set->cnt; i++)
		if ((int32_t)btfids_get32(p + stride * (i - 1), big_endian) >
		    (int32_t)btfids_get32(p + stride * i, big_endian))
			return false;
	for (k = 0; k < s->nr_slots; k++)
		if (is_entry(set, s->slots[k].off))
			v[n++] = (struct entry){ .id = s->targets[s->slots[k].target].id };
	qsort(v, n, sizeof(*v), cmp_entry);
	/* both ascending: every wanted ID must appear among the stored ones */
	for (i = 0, k = 0; k < n && i < set->cnt; i++)
		if ((int32_t)btfids_get32(p + stride * i, big_endian) == v[k].id)
			k++;
	return k == n;
}

static void write_slots(const struct btfids_syms *s, unsigned char *buf,
			bool big_endian, const bool *keep)
{
	size_t i, j;

	for (i = 0; i < s->nr_slots; i++) {
		for (j = 0; j < s->nr_sets; j++)
			if (keep[j] && in_set(&s->sets[j], s->slots[i].off))
				break;
		if (j == s->nr_sets)
			btfids_put32(buf + s->slots[i].off,
				     s->targets[s->slots[i].target].id, big_endian);
	}
}

static int cmp_set_desc(const void *pa, const void *pb)
{
	const struct btfids_set *a = *(const struct btfids_set *const *)pa;
	const struct btfids_set *b = *(const struct btfids_set *const *)pb;

	return strcmp(b->name, a->name);
}

int btfids_patch(const struct btfids_syms *s, unsigned char *buf, bool big_endian)
{
	const struct btfids_set **order = NULL;
	struct entry *v = NULL;
	bool *keep = NULL;
	uint32_t max_cnt = 1;
	int err = -ENOMEM;
	size_t i;

	for (i = 0; i < s->nr_sets; i++)
		if (s->sets[i].cnt > max_cnt)
			max_cnt = s->sets[i].cnt;
	order = calloc(s->nr_sets + 1, sizeof(*order));
	keep = calloc(s->nr_sets + 1, sizeof(*keep));
	v = calloc(max_cnt, sizeof(*v));
	if (!order || !keep || !v)
		goto out;
	for (i = 0; i < s->nr_sets; i++)
		keep[i] = set_final(s, &s->sets[i], buf, big_endian, v);
	write_slots(s, buf, big_endian, keep);
	for (i = 0; i < s->nr_sets; i++) {
		btfids_put32(buf + s->sets[i].off, s->sets[i].cnt, big_endian);
		order[i] = &s->sets[i];
	}
	qsort(order, s->nr_sets, sizeof(*order), cmp_set_desc);
	for (i = 0; i < s->nr_sets; i++)
		sort_set(order[i], buf, big_endian, v);
	err = 0;
out:
	free(order);
	free(keep);
	free(v);
	return err;
}

int btfids_patch_section(const struct btfids_elf *e, const struct btfids_syms *s,
			 unsigned char **out)
{
	unsigned char *buf = malloc(e->ids.size ? e->ids.size : 1);
	int err;

	*out = NULL;
	if (!buf)
		return -ENOMEM;
	/* data is never NULL for a present section, also when it is empty (elf.h) */
	memcpy(buf, e->ids.data, e->ids.size);
	err = btfids_patch(s, buf, btfids_elf_big_endian(e));
	if (err) {
		free(buf);
		return err;
	}
	*out = buf;
	return 0;
}

/* The name of @id in @btf and its kind (*kind); NULL when it has none a slot can ask for. */
static const char *id_name(const struct btf *btf, int32_t id, int *kind)
{
	const struct btf_type *t = id > 0 ? btf__type_by_id(btf, id) : NULL;

	*kind = t ? btfids_kind_of(t) : -1;
	return *kind < 0 ? NULL : btf__name_by_offset(btf, t->name_off);
}

/*
 * One resolved set8 back in link order: each stored pair at the entry of
 * the slot its ID names, in @v's order; pairs with ID 0 in the entries
 * left. @pos[i] is the slot target at entry i, or SIZE_MAX for none.
 */
static int unsort_set(const struct btfids_syms *s, const struct btfids_set *set,
		      const struct btf *btf, unsigned char *buf, bool be,
		      struct entry *v, size_t *pos, bool *used)
{
	unsigned char *p = buf + set->off + 8;
	uint32_t i, j, k = 0;
	const char *name;
	int kind;

	for (i = 0; i < set->cnt; i++) {
		v[i].id = (int32_t)btfids_get32(p + 8 * i, be);
		memcpy(v[i].flags, p + 8 * i + 4, 4);
		used[i] = false;
		pos[i] = SIZE_MAX;
	}
	for (i = 0; i < s->nr_slots; i++)
		if (is_entry(set, s->slots[i].off))
			pos[(s->slots[i].off - set->off - 8) / 8] = s->slots[i].target;
	for (j = 0; j < set->cnt; j++) {
		if (!v[j].id)
			continue;
		name = id_name(btf, v[j].id, &kind);
		for (i = 0; name && i < set->cnt; i++)
			if (pos[i] != SIZE_MAX && !used[i] && (int)s->targets[pos[i]].kind == kind &&
			    !strcmp(s->targets[pos[i]].name, name))
				break;
		if (!name || i == set->cnt)
			return -ESTALE;
		used[i] = true;
		btfids_put32(p + 8 * i, (uint32_t)v[j].id, be);
		memcpy(p + 8 * i + 4, v[j].flags, 4);
	}
	for (j = 0; j < set->cnt; j++) {
		if (v[j].id)
			continue;
		while (used[k])
			k++;
		used[k] = true;
		btfids_put32(p + 8 * k, 0, be);
		memcpy(p + 8 * k + 4, v[j].flags, 4);
	}
	return 0;
}

int btfids_patch_unsort(const struct btfids_syms *s, const struct btf *btf,
			unsigned char *buf, bool big_endian, const char **bad_set)
{
	uint32_t max_cnt = 1;
	struct entry *v;
	size_t i, *pos;
	bool *used;
	int err = 0;

	*bad_set = NULL;
	for (i = 0; i < s->nr_sets; i++)
		if (s->sets[i].cnt > max_cnt)
			max_cnt = s->sets[i].cnt;
	v = calloc(max_cnt, sizeof(*v));
	pos = calloc(max_cnt, sizeof(*pos));
	used = calloc(max_cnt, sizeof(*used));
	if (!v || !pos || !used)
		err = -ENOMEM;
	for (i = 0; !err && i < s->nr_sets; i++) {
		const struct btfids_set *set = &s->sets[i];

		if (set->kind != BTFIDS_SET8 || !set->cnt ||
		    btfids_get32(buf + set->off, big_endian) != set->cnt)
			continue;	/* the linker's count word is 0 */
		err = unsort_set(s, set, btf, buf, big_endian, v, pos, used);
		if (err)
			*bad_set = set->name;
	}
	free(v);
	free(pos);
	free(used);
	return err;
}
