/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tramp_fill.h - btfids' side of the trampoline tables (format: tramp.h).
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
#include "btfids/json.h"
#include "btfids/syms.h"

struct btfids_tramp {
	struct btfids_section sec;	/* .BTF_tramp; index 0: none */
	unsigned char *buf;		/* new section bytes, sec.size long */
	size_t nr_tables;
};

/*
 * Build the tables of @e into t->buf. @s: the resolved symbols; @btf: the
 * BTF the IDs came from. Warns (through @r) for every entry that cannot
 * attach. Returns 0 (also when there is no .BTF_tramp) or a negative
 * errno after an error line.
 */
int btfids_tramp_fill(const struct btfids_elf *e, const struct btfids_syms *s,
		      const struct btf *btf, struct btfids_tramp *t,
		      struct btfids_report *r);
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
 * it, from the .BTF_ids slots that hold each ID.
 */
int btfids_tramp_print(const char *path, const char *base_path, FILE *out,
		       struct btfids_report *r);
/* One JSON Lines object, the model of function @name (BTF ID @id) (models.c). */
void btfids_models_print(struct btfids_json *j, const char *name, uint32_t id,
			 const struct btfids_fmodel *m);

#endif /* _BTFIDS_TRAMP_FILL_H */
