// SPDX-License-Identifier: GPL-2.0
/*
 * micro.c - trampoline table lookup against distilling from BTF.
 *
 *   micro [-n FUNCS] [-r ROUNDS] VMLINUX
 *
 * User space, one process, warm caches. From VMLINUX's .BTF (libbpf):
 *  1. pick FUNCS (10,000) FUNC IDs by a fixed stride over all FUNCs;
 *  2. build their trampoline table in memory with btfids' own writer
 *     (btfids_tramp_build(), the bytes resolve stores in .BTF_tramp), for
 *     x86_64;
 *  3. check that, for every picked function, the table entry equals what
 *     the kernel-style distill below computes, and stop if one differs;
 *  4. time, in the same shuffled order, per pass over all FUNCS:
 *     - lookup: btf_tramp_find() of the header-only consumer API
 *       (include/btfids/tramp.h) plus copying the entry's model into a
 *       struct btf_func_model and testing "attachable";
 *     - distill: what the kernel does at attach time, written here against
 *       libbpf: FUNC -> name -> FUNC_PROTO, then btf_distill_func_proto()
 *       (kernel/bpf/btf.c, v6.18: > 12 args, return through modifiers,
 *       per arg variadic / size / void, flags) and the x86_64 refusal of
 *       __arch_prepare_bpf_trampoline() (nr_args plus the extra slots of
 *       struct args > 12). Every call walks the BTF again, as the kernel
 *       does for each attach; the JIT that the kernel runs next is not
 *       counted, so the ratio is a lower bound;
 *     - btfids: btfids_fmodel_compute(), btfids' own engine, which walks
 *       the BTF per call the same way and also places the arguments.
 *  Prints the median and min per function over ROUNDS passes and the
 *  ratio distill / lookup. Exit 0, or 1 on a mismatch or error.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>
#include <bpf/btf.h>

#include "btfids/fmodel.h"
#include "btfids/tramp.h"
#include "btfids/tramp_fill.h"

#define MAX_BPF_FUNC_ARGS	12

/* include/linux/bpf.h */
struct btf_func_model {
	uint8_t ret_size;
	uint8_t ret_flags;
	uint8_t nr_args;
	uint8_t arg_size[MAX_BPF_FUNC_ARGS];
	uint8_t arg_flags[MAX_BPF_FUNC_ARGS];
};

/* ---- The kernel's attach-time distill, against libbpf ---- */

/* btf_type_is_modifier() */
static bool k_is_modifier(const struct btf_type *t)
{
	switch (btf_kind(t)) {
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		return true;
	default:
		return false;
	}
}

/* btf_type_is_struct(): struct or union */
static bool k_is_struct(const struct btf_type *t)
{
	return btf_is_struct(t) || btf_is_union(t);
}

/*
 * __get_type_size(): libbpf's btf__type_by_id(btf, 0) is its static
 * zeroed void type, like the kernel's btf_void, so `const void` ends on a
 * kind-0 type and is refused the same way.
 */
static int k_get_type_size(const struct btf *btf, uint32_t id, const struct btf_type **ret)
{
	const struct btf_type *t;

	*ret = btf__type_by_id(btf, 0);
	if (!id)
		return 0;
	t = btf__type_by_id(btf, id);
	while (t && k_is_modifier(t))
		t = btf__type_by_id(btf, t->type);
	if (!t)
		return -EINVAL;
	*ret = t;
	if (btf_is_ptr(t))
		return 8;	/* the kernel's sizeof(void *) on x86_64 */
	if (btf_is_int(t) || btf_is_any_enum(t) || k_is_struct(t))
		return t->size;
	return -EINVAL;
}

/* __get_type_fmodel_flags() */
static uint8_t k_fmodel_flags(const struct btf_type *t)
{
	uint8_t flags = 0;

	if (k_is_struct(t))
		flags |= BTF_FMODEL_STRUCT_ARG;
	if (btf_is_int(t) && (btf_int_encoding(t) & BTF_INT_SIGNED))
		flags |= BTF_FMODEL_SIGNED_ARG;
	return flags;
}

/* btf_distill_func_proto() for FUNC_PROTO @func */
static int k_distill(const struct btf *btf, const struct btf_type *func,
		     struct btf_func_model *m)
{
	const struct btf_param *args = btf_params(func);
	unsigned int i, nargs = btf_vlen(func);
	const struct btf_type *t;
	int ret;

	if (nargs > MAX_BPF_FUNC_ARGS)
		return -EINVAL;
	ret = k_get_type_size(btf, func->type, &t);
	if (ret < 0 || k_is_struct(t))
		return -EINVAL;
	m->ret_size = ret;
	m->ret_flags = k_fmodel_flags(t);
	for (i = 0; i < nargs; i++) {
		if (i == nargs - 1 && !args[i].type)
			return -EINVAL;
		ret = k_get_type_size(btf, args[i].type, &t);
		if (ret < 0 || ret > 16)
			return -EINVAL;
		if (!ret)
			return -EINVAL;
		m->arg_size[i] = ret;
		m->arg_flags[i] = k_fmodel_flags(t);
	}
	m->nr_args = nargs;
	return 0;
}

/* The first refusal of x86_64 __arch_prepare_bpf_trampoline(). */
static int k_x86_nr_regs_ok(const struct btf_func_model *m)
{
	int i, nr_regs = m->nr_args;

	for (i = 0; i < m->nr_args; i++)
		if (m->arg_flags[i] & BTF_FMODEL_STRUCT_ARG)
			nr_regs += (m->arg_size[i] + 7) / 8 - 1;
	return nr_regs <= MAX_BPF_FUNC_ARGS ? 0 : -EOPNOTSUPP;
}

/*
 * Attach time for BTF ID @id (bpf_check_attach_target()): the FUNC, its
 * name, its FUNC_PROTO, the model, the arch check. 0: attachable; -EINVAL:
 * the distill refused; -EOPNOTSUPP: the arch refused (model filled).
 */
static int attach_distill(const struct btf *btf, uint32_t id, struct btf_func_model *m)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const char *tname;
	int err;

	if (!t || !btf_is_func(t))
		return -EINVAL;
	tname = btf__name_by_offset(btf, t->name_off);
	if (!tname || !*tname)
		return -EINVAL;
	t = btf__type_by_id(btf, t->type);
	if (!t || !btf_is_func_proto(t))
		return -EINVAL;
	err = k_distill(btf, t, m);
	return err ? err : k_x86_nr_regs_ok(m);
}

/* ---- The table side: header-only consumer API ---- */

static int attach_lookup(const struct btf_tramp_hdr *h, uint32_t id, struct btf_func_model *m)
{
	const struct btf_tramp_entry *e = btf_tramp_find(h, id);

	if (!e || !e->model.distilled)
		return -EINVAL;
	m->ret_size = e->model.ret_size;
	m->ret_flags = e->model.ret_flags;
	m->nr_args = e->model.nr_args;
	memcpy(m->arg_size, e->model.arg_size, sizeof(m->arg_size));
	memcpy(m->arg_flags, e->model.arg_flags, sizeof(m->arg_flags));
	return e->model.attachable ? 0 : -EOPNOTSUPP;
}

/* ---- Harness ---- */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* A checksum of every model produced, so no pass can be optimised away. */
static volatile uint64_t sink;

static uint64_t fold(const struct btf_func_model *m, int err)
{
	return m->ret_size + 3u * m->nr_args + 7u * m->arg_size[0] +
	       11u * m->arg_flags[m->nr_args ? m->nr_args - 1 : 0] + (err ? 13u : 0);
}

enum { LOOKUP, DISTILL, ENGINE, NR_WAYS };

static const char *const way_name[NR_WAYS] = {
	[LOOKUP] = "table lookup (btf_tramp_find + copy)",
	[DISTILL] = "kernel-style distill (libbpf walk)",
	[ENGINE] = "btfids engine (btfids_fmodel_compute)",
};

/* One timed pass over @ids, the @way way; ns per function * 1000. */
static uint64_t pass(int way, const struct btf *btf, const struct btf_tramp_hdr *h,
		     const struct btfids_target_arch *a, const uint32_t *ids, size_t n)
{
	struct btf_func_model m = {};
	struct btfids_fmodel fm;
	uint64_t t0, sum = 0;
	size_t i;
	int err;

	t0 = now_ns();
	for (i = 0; i < n; i++) {
		switch (way) {
		case LOOKUP:
			err = attach_lookup(h, ids[i], &m);
			break;
		case DISTILL:
			err = attach_distill(btf, ids[i], &m);
			break;
		default:
			err = btfids_fmodel_compute(btf, ids[i], a, &fm);
			m.ret_size = fm.ret_size;
			m.nr_args = fm.nr_args;
			err = err || fm.reason;
			break;
		}
		sum += fold(&m, err);
	}
	t0 = now_ns() - t0;
	sink += sum;
	return t0 * 1000 / n;
}

/* Every picked function: the table says what the kernel-style distill says. */
static int check_table(const struct btf *btf, const struct btf_tramp_hdr *h,
		       const uint32_t *ids, size_t n, size_t *attachable)
{
	size_t i, bad = 0;

	*attachable = 0;
	for (i = 0; i < n; i++) {
		struct btf_func_model k = {}, t = {};
		int ek = attach_distill(btf, ids[i], &k);
		int et = attach_lookup(h, ids[i], &t);
		bool same = ek == et;

		if (same && ek != -EINVAL)
			same = !memcmp(&k, &t, sizeof(k));
		if (!same && bad++ < 5)
			fprintf(stderr, "micro: id %u: distill %d, table %d\n", ids[i], ek, et);
		*attachable += !ek;
	}
	return bad ? -1 : 0;
}

int main(int argc, char **argv)
{
	size_t nfuncs = 0, n = 10000, rounds = 200, i, j, attachable;
	uint64_t *t[NR_WAYS], med[NR_WAYS], min[NR_WAYS], x = 0x9e3779b97f4a7c15ull;
	struct btfids_target_arch a;
	const struct btf_tramp_hdr *h;
	unsigned char *table;
	uint32_t *all, *ids, crc, size, id;
	const void *raw;
	struct btf *btf;
	int c, w;

	while ((c = getopt(argc, argv, "n:r:")) != -1) {
		if (c == 'n')
			n = strtoul(optarg, NULL, 0);
		else if (c == 'r')
			rounds = strtoul(optarg, NULL, 0);
		else
			goto usage;
	}
	if (optind != argc - 1 || !n || !rounds)
		goto usage;
	btf = btf__parse(argv[optind], NULL);
	if (!btf) {
		fprintf(stderr, "micro: %s: cannot read BTF: %s\n", argv[optind], strerror(errno));
		return 1;
	}
	all = calloc(btf__type_cnt(btf), sizeof(*all));
	for (id = 1; all && id < btf__type_cnt(btf); id++)
		if (btf_is_func(btf__type_by_id(btf, id)))
			all[nfuncs++] = id;
	if (!all || nfuncs < n) {
		fprintf(stderr, "micro: %zu FUNCs, fewer than %zu\n", nfuncs, n);
		return 1;
	}
	/* every (nfuncs / n)-th FUNC, by ID */
	ids = calloc(n, sizeof(*ids));
	for (i = 0; i < n; i++)
		ids[i] = all[i * nfuncs / n];

	btfids_arch_from_name("x86_64", &a);
	raw = btf__raw_data(btf, &size);
	crc = crc32(0, raw, size);
	table = malloc(BTF_TRAMP_TABLE_SIZE(n));
	if (!table || btfids_tramp_build(btf, &a, crc, false, ids, n, table)) {
		fprintf(stderr, "micro: cannot build the table\n");
		return 1;
	}
	h = (const struct btf_tramp_hdr *)table;
	if (!btf_tramp_valid(h, crc)) {
		fprintf(stderr, "micro: table not valid for its BTF\n");
		return 1;
	}
	printf("micro: %s: %zu FUNCs, %zu picked (every %.2fth by ID), table %zu bytes (x86_64)\n",
	       argv[optind], nfuncs, n, (double)nfuncs / n, (size_t)BTF_TRAMP_TABLE_SIZE(n));
	if (check_table(btf, h, ids, n, &attachable)) {
		fprintf(stderr, "micro: the table and the kernel-style distill differ\n");
		return 1;
	}
	printf("micro: check: all %zu table entries equal the kernel-style distill (%zu attachable)\n",
	       n, attachable);

	/* the attach order: shuffled (xorshift64, fixed seed), the same for all */
	for (i = n - 1; i > 0; i--) {
		uint32_t tmp;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		j = x % (i + 1);
		tmp = ids[i];
		ids[i] = ids[j];
		ids[j] = tmp;
	}
	for (w = 0; w < NR_WAYS; w++) {
		t[w] = calloc(rounds, sizeof(*t[w]));
		if (!t[w])
			return 1;
		pass(w, btf, h, &a, ids, n);	/* warm-up */
	}
	for (i = 0; i < rounds; i++)		/* interleaved: same noise for all */
		for (w = 0; w < NR_WAYS; w++)
			t[w][i] = pass(w, btf, h, &a, ids, n);
	printf("micro: ns per function, median (min) of %zu passes of %zu:\n", rounds, n);
	for (w = 0; w < NR_WAYS; w++) {
		qsort(t[w], rounds, sizeof(*t[w]), cmp_u64);
		med[w] = t[w][rounds / 2];
		min[w] = t[w][0];
		printf("micro:   %-40s %8.1f (%.1f)\n", way_name[w], med[w] / 1000.0,
		       min[w] / 1000.0);
	}
	printf("micro: ratio distill / lookup: %.1fx (median), %.1fx (min); btfids engine / lookup: %.1fx\n",
	       (double)med[DISTILL] / med[LOOKUP], (double)min[DISTILL] / min[LOOKUP],
	       (double)med[ENGINE] / med[LOOKUP]);
	for (w = 0; w < NR_WAYS; w++)
		free(t[w]);
	free(table);
	free(ids);
	free(all);
	btf__free(btf);
	return 0;
usage:
	fprintf(stderr, "usage: micro [-n FUNCS] [-r ROUNDS] VMLINUX\n");
	return 2;
}
