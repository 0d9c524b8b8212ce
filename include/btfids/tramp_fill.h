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
 * 7.3 on, a tracing program attached to a KF_IMPLICIT_ARGS kfunc gets the
 * proto of <name>_impl, the one with the implicit args (v7.3
 * kernel/bpf/verifier.c btf_attach_func_proto()). btfids_implicit_kfuncs():
 * those kfuncs, the pairs with that flag of the BTF_SET8_KFUNCS sets of
 * @s in the resolved .BTF_ids bytes @ids (byte order @be): *out, sorted,
 * *n of them (NULL when none); 0 or -ENOMEM. btfids_attach_func(): the
 * FUNC whose proto an attach to @id reads: <name>_impl's for those.
 */
int btfids_implicit_kfuncs(const struct btfids_syms *s, const unsigned char *ids, bool be,
			   uint32_t **out, size_t *n);
uint32_t btfids_attach_func(const struct btf *btf, uint32_t id, const uint32_t *implicit,
			    size_t n);
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
