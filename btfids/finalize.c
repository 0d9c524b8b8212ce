// SPDX-License-Identifier: GPL-2.0
/* finalize.c - 7.x dedup, distilled base and sort by name; see finalize.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "btfids/finalize.h"

/* First type ID of @btf's own part: 0 for vmlinux (void sorts first) */
static __u32 own_start(const struct btf *btf)
{
	const struct btf *base = btf__base_btf(btf);

	return base ? btf__type_cnt(base) : 0;
}

static const char *type_name(const struct btf *btf, __u32 id)
{
	const char *n = btf__str_by_offset(btf, btf__type_by_id(btf, id)->name_off);

	return n ? n : "";
}

bool btfids_btf_sorted(const struct btf *btf)
{
	__u32 id, n = btf__type_cnt(btf);
	const char *prev = NULL, *cur;

	for (id = own_start(btf); id < n; id++, prev = cur) {
		cur = type_name(btf, id);
		if (prev && strcmp(prev, cur) > 0)
			return false;
	}
	return true;
}

static int cmp_names(const void *a, const void *b, void *btf)
{
	__u32 x = *(const __u32 *)a, y = *(const __u32 *)b;
	int d = strcmp(type_name(btf, x), type_name(btf, y));

	return d ? d : (x < y ? -1 : x > y);
}

static int sort_by_name(struct btf *btf)
{
	__u32 start = own_start(btf), n = btf__type_cnt(btf) - start, i;
	__u32 *order = calloc(n ? n : 1, sizeof(*order));
	__u32 *id_map = calloc(n ? n : 1, sizeof(*id_map));
	int err = -ENOMEM;

	if (order && id_map) {
		for (i = 0; i < n; i++)
			order[i] = start + i;
		qsort_r(order, n, sizeof(*order), cmp_names, btf);
		for (i = 0; i < n; i++)
			id_map[order[i] - start] = start + i;
		err = btf__permute(btf, id_map, n, NULL);
	}
	free(order);
	free(id_map);
	return err;
}

/* A copy of @btf on the same base, through its raw bytes. */
static struct btf *copy(const struct btf *btf)
{
	const void *raw;
	__u32 size;

	raw = btf__raw_data(btf, &size);
	if (!raw)
		return NULL;
	return btf__new_split(raw, size, (struct btf *)btf__base_btf(btf));
}

/*
 * btf__dedup(), except on a sorted BTF it leaves alone: there it would
 * only lay the strings out again (see finalize.h).
 */
static int dedup(struct btf **btf, int added)
{
	struct btf *c;
	int err;

	if (added || !btfids_btf_sorted(*btf))
		return btf__dedup(*btf, NULL);
	c = copy(*btf);
	if (!c)
		return -errno ?: -ENOMEM;
	err = btf__dedup(c, NULL);
	if (err || btf__type_cnt(c) == btf__type_cnt(*btf)) {
		btf__free(c);
		return err;
	}
	btf__free(*btf);
	*btf = c;
	return 0;
}

int btfids_finalize(struct btf *btf, int added, bool distill, enum btfids_flow flow,
		    const char *path, struct btfids_final *out, struct btfids_report *r)
{
	struct btf *base = NULL, *split = NULL;
	const char *what = "dedup";
	int err = 0;

	if (flow == BTFIDS_FLOW_73)
		err = dedup(&btf, added);
	if (!err && distill && btf__base_btf(btf)) {
		what = "distill the base BTF";
		err = btf__distill_base(btf, &base, &split);
		if (!err) {
			btf__free(btf);
			btf = split;
		}
	}
	if (!err) {
		what = "sort BTF by name";
		err = sort_by_name(btf);
	}
	if (err) {
		btfids_err(r, path, "cannot %s: %s", what, strerror(err < 0 ? -err : err));
		btf__free(btf);
		btf__free(base);
		return err < 0 ? err : -err;
	}
	out->btf = btf;
	out->base = base;
	return 0;
}
