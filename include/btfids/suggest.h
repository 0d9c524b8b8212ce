/* SPDX-License-Identifier: GPL-2.0 */
/*
 * suggest.h - "did you mean": BTF names close to one that did not resolve.
 *
 * Candidates, for a NAME of kind K:
 *   - BTF types of kind K whose name is at most a few edits away (optimal
 *     string alignment distance: insert, delete, replace, swap two
 *     neighbours), the bound growing with the name: 1 edit up to 4
 *     characters, 2 up to 8, else 3;
 *   - BTF types of kind K whose name extends NAME or is cut from it
 *     (a shared prefix of at least 5 characters, up to 8 more or fewer
 *     characters): foo_bar for foo_bar_v2 and back;
 *   - NAME itself under another of the four kinds (func, struct, union,
 *     typedef): a BTF_ID() with the wrong kind. Changing the kind counts
 *     as one edit.
 * Best first: fewest edits; then the same kind; then the longer shared
 * prefix; then by name. Each distinct (kind, name) once.
 *
 * Speed: the names of each kind are indexed once per BTF, sorted by
 * length, so a query only reads names of a possible length, and the edit
 * distance stops as soon as it exceeds the bound (a 150k-type vmlinux
 * answers in well under a millisecond per name).
 */
#ifndef _BTFIDS_SUGGEST_H
#define _BTFIDS_SUGGEST_H

#include <stddef.h>
#include <stdint.h>
#include <bpf/btf.h>

#include "btfids/syms.h"

#define BTFIDS_MAX_SUGGESTIONS	5

struct btfids_suggestion {
	enum btfids_kind kind;	/* func, struct, union or typedef */
	const char *name;	/* in the BTF's strings */
	uint32_t id;		/* lowest BTF type ID with that kind and name */
	unsigned int distance;	/* edits, the kind change counted as one */
};

struct btfids_name_ref;

/* Names of the four kinds of one BTF (base types included). */
struct btfids_names {
	struct btfids_name_ref *v[BTFIDS_NR_TYPE_KINDS];	/* by length, then name */
	size_t n[BTFIDS_NR_TYPE_KINDS];
	const struct btf *btf;
};

/* Index @btf's names. Returns 0 or -ENOMEM. */
int btfids_names_build(const struct btf *btf, struct btfids_names *ix);
void btfids_names_free(struct btfids_names *ix);

/*
 * Up to BTFIDS_MAX_SUGGESTIONS names for (@kind, @name) into @out, best
 * first; returns how many.
 */
size_t btfids_suggest(const struct btfids_names *ix, enum btfids_kind kind,
		      const char *name, struct btfids_suggestion *out);

/*
 * The first of @words (@n of them) fewest edits from @word, within the
 * bound above (1 edit up to 4 characters, 2 up to 8, else 3): a mistyped
 * verb's or option's did-you-mean. NULL when none is that close, or when
 * @word is one of them.
 */
const char *btfids_suggest_word(const char *word, const char *const *words, size_t n);

#endif /* _BTFIDS_SUGGEST_H */
