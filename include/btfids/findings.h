/* SPDX-License-Identifier: GPL-2.0 */
/*
 * findings.h - what `btfids check` finds wrong in the .BTF_ids of one
 * object, as data: the output module renders it as text, JSON or GitHub
 * annotations, so every format says the same.
 *
 *   unresolved          a name with no BTF type of its kind: the kernel
 *                       tool leaves its slots 0 (error)
 *   ambiguous           several BTF types of that kind and name: the lowest
 *                       ID is used (warning; the kernel tool's "multiple IDs")
 *   inconsistent-flags  one name in several set8 sets with different flags
 *                       words (warning)
 *   duplicate-in-set    one name listed more than once in one set (warning)
 *   stale               --verify: a stored ID that is not what the BTF says
 *                       now (error). Lists are compared slot by slot; sets
 *                       were sorted, so their entries are compared as
 *                       multisets; a set whose count word is wrong, or
 *                       whose IDs are not ascending, is stale as a whole
 *                       (kind "set" or "set8").
 */
#ifndef _BTFIDS_FINDINGS_H
#define _BTFIDS_FINDINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "btfids/layout.h"
#include "btfids/suggest.h"

enum btfids_finding_type {
	BTFIDS_F_UNRESOLVED,
	BTFIDS_F_STALE,
	BTFIDS_F_AMBIGUOUS,
	BTFIDS_F_FLAGS,
	BTFIDS_F_DUPLICATE,
	BTFIDS_NR_FINDING_TYPES,
};

/* What is stale, for BTFIDS_F_STALE. */
enum btfids_stale_what {
	BTFIDS_STALE_ID,	/* ids[0]: what BTF says; stored[]: found instead */
	BTFIDS_STALE_COUNT,	/* ids[0]: the entries; stored[0]: the count word */
	BTFIDS_STALE_ORDER,	/* the set's IDs are not ascending */
};

struct btfids_finding {
	enum btfids_finding_type type;
	enum btfids_stale_what stale;
	const char *kind;	/* func, struct, union, typedef; set, set8 (stale sets) */
	const char *name;
	size_t *refs;		/* groups (layout) that list it, address order */
	uint32_t *ref_flags;	/* inconsistent-flags: the flags word, per ref */
	size_t nr_refs;
	struct btfids_suggestion sugg[BTFIDS_MAX_SUGGESTIONS];	/* best first */
	size_t nr_sugg;
	uint32_t *ids;		/* ambiguous: every ID; stale: see above */
	size_t nr_ids;
	uint32_t *stored;	/* stale: the stored values */
	size_t nr_stored;
	size_t times;		/* duplicate-in-set: how often it is listed */
	/*
	 * The slots it is about, in address order: each one's BTF_ID() is a
	 * line to fix (srcloc.h). Unresolved, ambiguous: every slot of the
	 * name; inconsistent-flags: those in set8 sets; duplicate-in-set:
	 * those in the set; stale: the stale ones. A stale set as a whole
	 * has none: its place is its set's START macro (refs[0]).
	 */
	size_t *slots;
	size_t nr_slots;
};

struct btfids_findings {
	struct btfids_finding *v;	/* by type, then kind and name */
	size_t n, cap;
	size_t counts[BTFIDS_NR_FINDING_TYPES];
};

/* "unresolved", "stale", "ambiguous", "inconsistent-flags", "duplicate-in-set" */
const char *btfids_finding_type_str(enum btfids_finding_type type);
/* unresolved and stale are errors (the kernel reads a wrong ID); the rest warnings */
bool btfids_finding_is_error(enum btfids_finding_type type);

/*
 * Find everything wrong in @s (after btfids_lookup()) laid out as @l, with
 * suggestions from @names; @verify adds the stale checks against the
 * stored bytes. Returns 0 or -ENOMEM.
 */
int btfids_findings_collect(const struct btfids_syms *s, const struct btfids_layout *l,
			    const struct btfids_names *names, bool verify,
			    struct btfids_findings *f);
void btfids_findings_free(struct btfids_findings *f);

#endif /* _BTFIDS_FINDINGS_H */
