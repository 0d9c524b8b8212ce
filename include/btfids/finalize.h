/* SPDX-License-Identifier: GPL-2.0 */
/*
 * finalize.h - the 7.x flow's last BTF stages, after the kfunc rewrite and
 * before the IDs are looked up (kernel tools/bpf/resolve_btfids/main.c,
 * finalize_btf()):
 *   1. 7.3 only: btf__dedup();
 *   2. --distill_base with a base: btf__distill_base(), the module's split
 *      BTF moved onto a distilled base of the base types it refers to; a
 *      base STRUCT, UNION or TYPEDEF that a slot names and the module's
 *      types do not use is kept too (a pointer to it is added first; the
 *      kernel tool leaves such a slot 0: docs/design.md, "Guarantees");
 *   3. sort by name: every type of the object's own part (all of vmlinux,
 *      type 0 included; the split part of a module), strcmp() of the names,
 *      anonymous ("") first, ties by original ID, applied with
 *      btf__permute(). The 7.x kernel looks vmlinux names up by binary
 *      search (kernel/bpf/btf.c) and does not check the order.
 * Idempotence: btf__dedup() lays the string section out again in type
 * order, so the kernel's 7.3 tool run on its own output (already sorted)
 * gives other bytes. When the input is sorted already and nothing was
 * added, the dedup runs on a copy; if it merges no type, the BTF is kept
 * as it came, strings and all.
 */
#ifndef _BTFIDS_FINALIZE_H
#define _BTFIDS_FINALIZE_H

#include <stdbool.h>
#include <bpf/btf.h>

#include "btfids/release.h"
#include "btfids/report.h"

struct btfids_final {
	struct btf *btf;	/* the final BTF (owned) */
	struct btf *base;	/* its distilled base (owned), or NULL: the base as given */
};

struct btfids_syms;

/*
 * Finalize @btf (consumed, freed on error too) for @flow. @added: types the
 * kfunc rewrite added; @distill: --distill_base (ignored without a base);
 * @keep: the object's slots (NULL: none), whose base types the distilled
 * base keeps. Returns 0 and *out, or a negative errno after an error line
 * naming @path.
 */
int btfids_finalize(struct btf *btf, int added, bool distill, enum btfids_flow flow,
		    const struct btfids_syms *keep, const char *path,
		    struct btfids_final *out, struct btfids_report *r);

/*
 * True when @btf's own types are in the order the sort gives them
 * (non-decreasing names), so the sort changes nothing.
 */
bool btfids_btf_sorted(const struct btf *btf);

#endif /* _BTFIDS_FINALIZE_H */
