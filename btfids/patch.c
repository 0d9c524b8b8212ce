// SPDX-License-Identifier: GPL-2.0
/* patch.c - write IDs and counts into a copy of .BTF_ids and sort the sets. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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

static int cmp_set_desc(const void *pa, const void *pb)
{
	const struct btfids_set *a = *(const struct btfids_set *const *)pa;
	const struct btfids_set *b = *(const struct btfids_set *const *)pb;

	return strcmp(b->name, a->name);
}

int btfids_patch(const struct btfids_syms *s, unsigned char *buf, bool big_endian)
{
	const struct btfids_set **order;
	struct entry *v = NULL;
	uint32_t max_cnt = 0;
	size_t i;

	for (i = 0; i < s->nr_slots; i++)
		btfids_put32(buf + s->slots[i].off,
			     s->targets[s->slots[i].target].id, big_endian);
	for (i = 0; i < s->nr_sets; i++) {
		btfids_put32(buf + s->sets[i].off, s->sets[i].cnt, big_endian);
		if (s->sets[i].cnt > max_cnt)
			max_cnt = s->sets[i].cnt;
	}
	if (!s->nr_sets)
		return 0;
	order = calloc(s->nr_sets, sizeof(*order));
	if (max_cnt)
		v = calloc(max_cnt, sizeof(*v));
	if (!order || (max_cnt && !v)) {
		free(order);
		free(v);
		return -ENOMEM;
	}
	for (i = 0; i < s->nr_sets; i++)
		order[i] = &s->sets[i];
	qsort(order, s->nr_sets, sizeof(*order), cmp_set_desc);
	for (i = 0; i < s->nr_sets; i++)
		sort_set(order[i], buf, big_endian, v);
	free(order);
	free(v);
	return 0;
}
