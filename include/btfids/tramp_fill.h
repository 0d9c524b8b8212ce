/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tramp_fill.h - btfids' side of the v1 trampoline tables, declared sets
 * (format: tramp.h; v2, the table of every function: tramp2.h).
 *
 * During resolve, after the IDs are looked up: find every table symbol
 * __BTF_TRAMP__<set> in .BTF_tramp and its list __BTF_TRAMP_IDS__<set> in
 * .BTF_ids, compute each listed function's model for the ELF's arch
 * (fmodel.h), and build the new .BTF_tramp bytes in the target's byte
 * order. Nothing is written until btfids_tramp_write(), after every check.
 */
#ifndef _BTFIDS_TRAMP_FILL_H
#define _BTFIDS_TRAMP_FILL_H

#include <stdio.h>
#include <bpf/btf.h>

#include "btfids/elf.h"
#include "btfids/fmodel.h"
#include "btfids/syms.h"

struct btfids_tramp {
	struct btfids_section sec;	/* .BTF_tramp; index 0: none */
	unsigned char *buf;		/* new section bytes, sec.size long */
	size_t nr_tables;
};

/*
 * Build the tables of @e into t->buf. @s: the resolved symbols; @btf: the
 * BTF the IDs came from (7.x: the final BTF, whose bytes become .BTF);
 * @ids: the resolved .BTF_ids bytes (for the set8 kfunc flags; NULL:
 * none); @kernel: BTFIDS_KERNEL() of the release @e was built from, whose
 * rules the models follow (fmodel.h; 0: unknown, the newest rules). Warns
 * (through @r) for every entry that cannot attach. Returns 0 (also when
 * there is no .BTF_tramp) or a negative errno after an error line.
 */
int btfids_tramp_fill(const struct btfids_elf *e, const struct btfids_syms *s,
		      const struct btf *btf, const unsigned char *ids, unsigned int kernel,
		      struct btfids_tramp *t, struct btfids_report *r);
/*
 * One table in memory, the bytes resolve writes: the functions @ids (BTF
 * FUNC IDs of @btf, 0 for unresolved; any order) for target @a, header
 * crc @btf_crc32, in big- or little-endian order. @out must hold
 * BTF_TRAMP_TABLE_SIZE(n) bytes. Returns 0 or -ENOMEM.
 */
int btfids_tramp_build(const struct btf *btf, const struct btfids_target_arch *a,
		       uint32_t btf_crc32, bool big_endian, const uint32_t *ids, size_t n,
		       unsigned char *out);
/* Write t->buf over .BTF_tramp of the file open as @e (one pwrite). */
int btfids_tramp_write(const struct btfids_elf *e, const struct btfids_tramp *t,
		       struct btfids_report *r);
void btfids_tramp_free(struct btfids_tramp *t);

/*
 * `btfids models [-b BASE] ELF`: print the stored tables as JSON Lines.
 * Names come from ELF's BTF (split on @base_path when given) or, without
 * it, from the .BTF_ids slots that hold each ID. Only the functions
 * btfids_models_wanted(@func, name) (tramp_class.h).
 */
int btfids_tramp_print(const char *path, const char *base_path, const char *func,
		       FILE *out, struct btfids_report *r);

#endif /* _BTFIDS_TRAMP_FILL_H */
