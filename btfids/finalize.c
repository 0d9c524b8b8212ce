// SPDX-License-Identifier: GPL-2.0
/* finalize.c - 7.x dedup, distilled base and sort by name; see finalize.h. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "btfids/finalize.h"
#include "btfids/syms.h"

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

/*
 * A named type to sort: its name looked up once, and its first 8 bytes as
 * a big-endian number (zero-padded), which orders like strcmp() whenever
 * two names differ there; only names that share them need a strcmp().
 */
struct named {
	uint64_t key;
	const char *name;
	__u32 id;
};

static uint64_t name_key(const char *s)
{
	uint64_t k = 0;
	int i;

	for (i = 0; i < 8; i++) {
		k = k << 8 | (unsigned char)*s;
		s += !!*s;
	}
	return k;
}

static int cmp_names(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int d;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	d = strcmp(x->name, y->name);
	return d ? d : (x->id < y->id ? -1 : x->id > y->id);
}

/*
 * Order by name, anonymous ("") first, ties by ID. The anonymous types need
 * no sorting: they come first, in ID order; only the named ones are sorted.
 */
static int sort_by_name(struct btf *btf)
{
	__u32 start = own_start(btf), n = btf__type_cnt(btf) - start, i, anon = 0, named;
	struct named *order = calloc(n ? n : 1, sizeof(*order));
	__u32 *id_map = calloc(n ? n : 1, sizeof(*id_map));
	int err = -ENOMEM;

	if (order && id_map) {
		for (i = 0; i < n; i++)
			if (!*type_name(btf, start + i))
				id_map[i] = start + anon++;
		named = anon;
		for (i = 0; i < n; i++) {
			const char *name = type_name(btf, start + i);

			if (*name)
				order[named++] = (struct named){ name_key(name), name, start + i };
		}
		qsort(order + anon, n - anon, sizeof(*order), cmp_names);
		for (i = anon; i < n; i++)
			id_map[order[i].id - start] = start + i;
		/* gone before libbpf's copies of the BTF: less peak memory */
		free(order);
		order = NULL;
		for (i = 0; i < n && id_map[i] == start + i; i++)
			;
		/*
		 * Sorted already (a final BTF): btf__permute() would only copy
		 * the whole BTF into modifiable memory to put it back as it was.
		 */
		err = i == n ? 0 : btf__permute(btf, id_map, n, NULL);
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

/*
 * Base types a STRUCT/UNION/TYPEDEF slot of @keep names that the full base
 * has and the distilled result (@split) does not: their IDs in the full
 * base (the lowest of each name, as the lookup takes), at most @max.
 */
static size_t missing(const struct btfids_syms *keep, const struct btf *full,
		      const struct btf *split, __u32 *ids, size_t max)
{
	size_t i, n = 0;

	for (i = 0; keep && i < keep->nr_targets && n < max; i++) {
		const struct btfids_target *t = &keep->targets[i];
		int kind = btfids_kind_btf(t->kind);
		__s32 id;

		if (t->kind == BTFIDS_FUNC || btf__find_by_name_kind(split, t->name, kind) >= 0)
			continue;
		id = btf__find_by_name_kind(full, t->name, kind);
		if (id > 0)
			ids[n++] = id;
	}
	return n;
}

/*
 * btf__distill_base() keeps the base types the module's own types refer
 * to. A slot naming another one would come out 0 (the kernel tool's
 * "unresolved symbol"): for each, a pointer to it is added to the split
 * BTF first, so that the distilled base carries it (a sized, member-less
 * STRUCT/UNION; a TYPEDEF moves into the split BTF) and the kernel maps
 * the slot's ID to its own at load (kernel/bpf/btf.c btf_relocate_id()).
 * FUNCs are never in a distilled base: those stay 0 with the warning.
 */
static int distill(struct btf **btf, struct btf **base, const struct btfids_syms *keep,
		   const char *path, struct btfids_report *r)
{
	const struct btf *full = btf__base_btf(*btf);
	struct btf *split = NULL;
	size_t n = keep ? keep->nr_targets : 0, i, nr;
	__u32 *ids = calloc(n ? n : 1, sizeof(*ids));
	int err = ids ? btf__distill_base(*btf, base, &split) : -ENOMEM;

	nr = err ? 0 : missing(keep, full, split, ids, n);
	for (i = 0; i < nr && !err; i++) {
		btfids_dbg(r, 1, "%s: base type '%s' (ID %u) named in .BTF_ids kept in the distilled base\n",
			   path, btf__name_by_offset(full, btf__type_by_id(full, ids[i])->name_off), ids[i]);
		err = btf__add_ptr(*btf, ids[i]);
		err = err < 0 ? err : 0;
	}
	if (nr) {
		btf__free(*base);
		btf__free(split);
		*base = split = NULL;
		if (!err)
			err = btf__distill_base(*btf, base, &split);
	}
	free(ids);
	if (err)
		return err;
	btf__free(*btf);
	*btf = split;
	return 0;
}

int btfids_finalize(struct btf *btf, int added, bool distill_base, enum btfids_flow flow,
		    const struct btfids_syms *keep, const char *path,
		    struct btfids_final *out, struct btfids_report *r)
{
	struct btf *base = NULL;
	const char *what = "dedup";
	int err = 0;

	if (flow == BTFIDS_FLOW_73)
		err = dedup(&btf, added);
	if (!err && distill_base && btf__base_btf(btf)) {
		what = "distill the base BTF";
		err = distill(&btf, &base, keep, path, r);
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
