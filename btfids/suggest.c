// SPDX-License-Identifier: GPL-2.0
/* suggest.c - close BTF names for "did you mean"; see include/btfids/suggest.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "btfids/suggest.h"

#define MAX_NAME	128	/* longer names are compared by prefix only */
#define PREFIX_MIN	5	/* shared prefix that makes an extension a candidate */
#define PREFIX_EXTRA	8	/* at most this many more or fewer characters */

struct btfids_name_ref {
	const char *name;
	uint32_t len;
	uint32_t id;
};

/* By length, then name, then ID: equal names are neighbours, lowest ID first. */
static int cmp_ref(const void *pa, const void *pb)
{
	const struct btfids_name_ref *a = pa, *b = pb;
	int c;

	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	c = strcmp(a->name, b->name);
	if (c)
		return c;
	return a->id < b->id ? -1 : a->id > b->id;
}

int btfids_names_build(const struct btf *btf, struct btfids_names *ix)
{
	uint32_t id, nr = btf__type_cnt(btf);
	int k;

	memset(ix, 0, sizeof(*ix));
	ix->btf = btf;
	for (k = 0; k < BTFIDS_NR_TYPE_KINDS; k++) {
		ix->v[k] = calloc(nr, sizeof(*ix->v[k]));
		if (!ix->v[k]) {
			btfids_names_free(ix);
			return -ENOMEM;
		}
	}
	for (id = 1; id < nr; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const char *name = t ? btf__name_by_offset(btf, t->name_off) : NULL;

		k = t ? btfids_kind_of(t) : -1;
		if (k < 0 || !name || !*name)
			continue;
		ix->v[k][ix->n[k]++] = (struct btfids_name_ref){ name, strlen(name), id };
	}
	for (k = 0; k < BTFIDS_NR_TYPE_KINDS; k++)
		qsort(ix->v[k], ix->n[k], sizeof(*ix->v[k]), cmp_ref);
	return 0;
}

void btfids_names_free(struct btfids_names *ix)
{
	int k;

	for (k = 0; k < BTFIDS_NR_TYPE_KINDS; k++)
		free(ix->v[k]);
	memset(ix, 0, sizeof(*ix));
}

/* First index in @k's names with length >= @len. */
static size_t first_of_len(const struct btfids_names *ix, int k, size_t len)
{
	size_t lo = 0, hi = ix->n[k];

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ix->v[k][mid].len < len)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static const struct btfids_name_ref *find_exact(const struct btfids_names *ix, int k,
						const char *name, size_t len)
{
	size_t i;

	for (i = first_of_len(ix, k, len); i < ix->n[k] && ix->v[k][i].len == len; i++)
		if (!strcmp(ix->v[k][i].name, name))
			return &ix->v[k][i];
	return NULL;
}

static unsigned int min3(unsigned int a, unsigned int b, unsigned int c)
{
	unsigned int m = a < b ? a : b;

	return m < c ? m : c;
}

/*
 * Optimal string alignment distance of @a and @b, or @max + 1 as soon as
 * it is certain to exceed @max. Only the band |i - j| <= @max of the
 * table can hold values up to @max, so only the band is computed (cells
 * beside it count as @max + 1), and a row without a cell up to @max ends
 * the search.
 */
static unsigned int osa_distance(const char *a, size_t la, const char *b, size_t lb,
				 unsigned int max)
{
	unsigned int rows[3][MAX_NAME + 2];
	unsigned int *p2 = rows[0], *p = rows[1], *c = rows[2], *t;
	size_t i, j;

	if (la > MAX_NAME || lb > MAX_NAME || (la > lb ? la - lb : lb - la) > max)
		return max + 1;
	for (j = 0; j <= lb + 1; j++)
		p[j] = j <= max ? j : max + 1;
	for (i = 1; i <= la; i++) {
		size_t lo = i > max ? i - max : 1, hi = i + max < lb ? i + max : lb;
		unsigned int row_min = max + 1;

		c[0] = i <= max ? i : max + 1;
		c[lo - 1] = lo > 1 ? max + 1 : c[0];
		row_min = c[lo - 1];
		for (j = lo; j <= hi; j++) {
			unsigned int v = min3(p[j] + 1, c[j - 1] + 1,
					      p[j - 1] + (a[i - 1] != b[j - 1]));

			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    p2[j - 2] + 1 < v)
				v = p2[j - 2] + 1;
			c[j] = v;
			if (v < row_min)
				row_min = v;
		}
		c[hi + 1] = max + 1;
		if (row_min > max)
			return max + 1;
		t = p2;
		p2 = p;
		p = c;
		c = t;
	}
	return p[lb] <= max ? p[lb] : max + 1;
}

static unsigned int max_edits(size_t len)
{
	return len <= 4 ? 1 : len <= 8 ? 2 : 3;
}

const char *btfids_suggest_word(const char *word, const char *const *words, size_t n)
{
	size_t len = strlen(word), i;
	unsigned int max = max_edits(len), best = max + 1;
	const char *found = NULL;

	for (i = 0; i < n; i++) {
		unsigned int d = osa_distance(word, len, words[i], strlen(words[i]), max);

		if (!d)
			return NULL;
		if (d < best) {
			best = d;
			found = words[i];
		}
	}
	return found;
}

static size_t common_prefix(const char *a, const char *b)
{
	size_t n = 0;

	while (a[n] && a[n] == b[n])
		n++;
	return n;
}

struct cand {
	struct btfids_suggestion s;
	size_t prefix;		/* characters shared with the asked name */
	bool other_kind;
};

/* Best first: fewer edits, same kind, longer shared prefix, name. */
static int cmp_cand(const struct cand *a, const struct cand *b)
{
	if (a->s.distance != b->s.distance)
		return a->s.distance < b->s.distance ? -1 : 1;
	if (a->other_kind != b->other_kind)
		return a->other_kind ? 1 : -1;
	if (a->prefix != b->prefix)
		return a->prefix > b->prefix ? -1 : 1;
	if (a->s.kind != b->s.kind)
		return a->s.kind < b->s.kind ? -1 : 1;
	return strcmp(a->s.name, b->s.name);
}

struct best {
	struct cand v[BTFIDS_MAX_SUGGESTIONS];
	size_t n;
};

/* Keep the best BTFIDS_MAX_SUGGESTIONS, in order (insertion). */
static void offer(struct best *b, const struct cand *c)
{
	size_t i = b->n;

	if (b->n == BTFIDS_MAX_SUGGESTIONS) {
		if (cmp_cand(c, &b->v[b->n - 1]) >= 0)
			return;
		i = --b->n;
	}
	while (i > 0 && cmp_cand(c, &b->v[i - 1]) < 0) {
		b->v[i] = b->v[i - 1];
		i--;
	}
	b->v[i] = *c;
	b->n++;
}

/* Edits from @name to @r, or UINT32_MAX when @r is not a candidate. */
static unsigned int candidate_distance(const char *name, size_t len,
				       const struct btfids_name_ref *r)
{
	unsigned int max = max_edits(len);
	size_t diff = r->len > len ? r->len - len : len - r->len;
	unsigned int d = max + 1;

	if (diff <= max)
		d = osa_distance(name, len, r->name, r->len, max);
	if (d <= max)
		return d;
	if (diff <= PREFIX_EXTRA && (r->len < len ? r->len : len) >= PREFIX_MIN &&
	    common_prefix(name, r->name) == (r->len < len ? r->len : len))
		return diff;
	return UINT32_MAX;
}

static void same_kind(const struct btfids_names *ix, int k, const char *name,
		      struct best *b)
{
	size_t len = strlen(name), i;
	size_t lo = len > PREFIX_EXTRA ? len - PREFIX_EXTRA : 0;

	for (i = first_of_len(ix, k, lo); i < ix->n[k] && ix->v[k][i].len <= len + PREFIX_EXTRA; i++) {
		const struct btfids_name_ref *r = &ix->v[k][i];
		struct cand c = { .s = { .kind = k, .name = r->name, .id = r->id } };

		if (i && r->len == ix->v[k][i - 1].len && !strcmp(r->name, ix->v[k][i - 1].name))
			continue;	/* the lowest ID of a name came first */
		c.s.distance = candidate_distance(name, len, r);
		if (c.s.distance == UINT32_MAX || !c.s.distance)
			continue;
		c.prefix = common_prefix(name, r->name);
		offer(b, &c);
	}
}

size_t btfids_suggest(const struct btfids_names *ix, enum btfids_kind kind,
		      const char *name, struct btfids_suggestion *out)
{
	size_t len = strlen(name), i;
	struct best b = { .n = 0 };
	int k;

	same_kind(ix, kind, name, &b);
	for (k = 0; k < BTFIDS_NR_TYPE_KINDS; k++) {
		const struct btfids_name_ref *r;
		struct cand c = { .other_kind = true };

		if (k == (int)kind)
			continue;
		r = find_exact(ix, k, name, len);
		if (!r)
			continue;
		c.s = (struct btfids_suggestion){ k, r->name, r->id, 1 };
		c.prefix = len;
		offer(&b, &c);
	}
	for (i = 0; i < b.n; i++)
		out[i] = b.v[i].s;
	return b.n;
}
