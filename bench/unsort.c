// SPDX-License-Identifier: GPL-2.0
/*
 * unsort - turn a 7.x kernel's final (sorted) raw BTF back into an input
 * that is out of name order, like pahole's, for bench/run's 7.x flow.
 *
 *   unsort IN.btf OUT.btf
 *
 * Types are reordered by a hash of their name, ties (types of one name,
 * anonymous ones included) keeping their order, with libbpf's
 * btf__permute(); strings stay as they are. Sorting OUT by name, ties by
 * ID (the 7.x resolve_btfids) therefore gives back IN's order, and for
 * Debian's final .BTF, IN's bytes: bench/run checks that after every run.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>

struct key {
	uint32_t hash, id;
};

static uint32_t fnv(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static int cmp_key(const void *a, const void *b)
{
	const struct key *x = a, *y = b;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

int main(int argc, char **argv)
{
	struct btf *btf;
	struct key *k;
	__u32 *id_map, n, i, size;
	const void *raw;
	FILE *f;

	if (argc != 3) {
		fprintf(stderr, "usage: unsort IN.btf OUT.btf\n");
		return 2;
	}
	btf = btf__parse_raw(argv[1]);
	if (!btf) {
		fprintf(stderr, "unsort: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	n = btf__type_cnt(btf);
	k = calloc(n, sizeof(*k));
	id_map = calloc(n, sizeof(*id_map));
	if (!k || !id_map)
		return 1;
	for (i = 1; i < n; i++) {
		const char *name = btf__name_by_offset(btf, btf__type_by_id(btf, i)->name_off);

		k[i] = (struct key){ fnv(name ? name : ""), i };
	}
	qsort(k + 1, n - 1, sizeof(*k), cmp_key);	/* void stays ID 0 */
	for (i = 1; i < n; i++)
		id_map[k[i].id] = i;
	if (btf__permute(btf, id_map, n, NULL)) {
		fprintf(stderr, "unsort: btf__permute: %s\n", strerror(errno));
		return 1;
	}
	raw = btf__raw_data(btf, &size);
	f = fopen(argv[2], "w");
	if (!raw || !f || fwrite(raw, 1, size, f) != size || fclose(f)) {
		fprintf(stderr, "unsort: cannot write %s\n", argv[2]);
		return 1;
	}
	btf__free(btf);
	free(k);
	free(id_map);
	return 0;
}
