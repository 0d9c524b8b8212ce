/* SPDX-License-Identifier: GPL-2.0 */
/*
 * write.h - where a resolve run's result goes: the one choice at the end
 * of the pipeline.
 *
 *   in place  6.x flow: new .BTF_ids (and .BTF_tramp) bytes written over the
 *             sections with pwrite(); every other byte of the ELF stays.
 *   copy      6.x flow with -o OUT: a patched copy, written beside OUT as a
 *             temporary file and renamed over it.
 *   raw       7.x flow (scripts/gen-btf.sh): the ELF is only read; the
 *             result is files named after it (or after -o OUT):
 *               <ELF>.BTF_ids   the whole section, target byte order; only
 *                               when the ELF has .BTF_ids and a symbol table
 *               <ELF>.BTF       the final BTF (libbpf's raw bytes: split BTF
 *                               for a module, in the input's byte order)
 *               <ELF>.BTF.base  the distilled base, with --distill_base
 *               <ELF>.BTF_tramp the trampoline tables: v1, when the ELF has
 *                               declared sets; else the v2 table of every
 *                               function, when the run made one (resolve.c)
 *             Each is written to a temporary file first; all are renamed
 *             once all are written. Any of the four that this run does not
 *             produce is removed, so kbuild (which patches <ELF>.BTF_ids in
 *             when the file exists) never picks up a stale one; a failed
 *             run removes all four.
 */
#ifndef _BTFIDS_WRITE_H
#define _BTFIDS_WRITE_H

#include <bpf/btf.h>

#include "btfids/elf.h"
#include "btfids/report.h"
#include "btfids/tramp2.h"
#include "btfids/tramp_fill.h"

enum btfids_dest {
	BTFIDS_DEST_IN_PLACE,
	BTFIDS_DEST_COPY,
	BTFIDS_DEST_RAW,
};

struct btfids_result {
	const unsigned char *ids;	/* new .BTF_ids, ids.size bytes; NULL: none */
	const struct btfids_tramp *tramp;	/* tables; NULL or sec.index 0: none */
	const struct btfids_tramp2 *tramp2;	/* raw: the v2 table; NULL or no buf: none */
	const struct btf *btf;		/* raw: the final BTF */
	const struct btf *base;		/* raw: the distilled base, or NULL */
};

/*
 * Write @res for @e to @dest (@out: -o's file, or the raw files' prefix;
 * NULL: @e's path). Returns 0 or a negative errno after an error line; on
 * error nothing of the result is left (in place: the ELF as it was).
 */
int btfids_write_result(struct btfids_elf *e, enum btfids_dest dest, const char *out,
			const struct btfids_result *res, struct btfids_report *r);

/* Remove the raw outputs named after @prefix (a failed 7.x run). */
void btfids_write_remove_raw(const char *prefix, struct btfids_report *r);

#endif /* _BTFIDS_WRITE_H */
