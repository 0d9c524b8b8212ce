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
 * The rules a table's models follow (fmodel.h): the target and the release
 * (a.kernel; 0: the newest rules) and, from 7.3, the KF_IMPLICIT_ARGS
 * kfuncs, modelled on <name>_impl. btfids_tramp_rules_init(): for ELF @e
 * built from release @kernel, the kfuncs from @s and the resolved
 * .BTF_ids bytes @ids (either NULL: none). 0 or -ENOMEM.
 */
struct btfids_tramp_rules {
	struct btfids_target_arch a;
	uint32_t *implicit;		/* sorted BTF IDs; NULL: none */
	size_t nr_implicit;
};
int btfids_tramp_rules_init(struct btfids_tramp_rules *ru, const struct btfids_elf *e,
			    const struct btfids_syms *s, const unsigned char *ids,
			    unsigned int kernel);
void btfids_tramp_rules_free(struct btfids_tramp_rules *ru);
/*
 * The model of BTF FUNC @id of @btf by @ru, as every table and `models
 * --all` store it: @id 0 is "unresolved" (v1), a FUNC without a FUNC_PROTO
 * "arg-unsupported".
 */
void btfids_tramp_model(const struct btfids_tramp_rules *ru, const struct btf *btf,
			uint32_t id, struct btfids_fmodel *m);
/*
 * A model as the BTF_TRAMP_CLASS_SIZE (56) bytes of struct btf_tramp_class
 * (all bytes, no byte order: v1's entry after its btf_id, v2's class) and
 * back. Unused fields are 0, unused locations BTF_TRAMP_LOC_NONE.
 */
void btfids_tramp_put_class(unsigned char *p, const struct btfids_fmodel *m);
void btfids_tramp_get_class(const unsigned char *p, struct btfids_fmodel *m);

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
 * v2, the table of every function (tramp.h, "btf_tramp format"), built
 * in the 7.x flow for <elf>.BTF_tramp: every BTF_KIND_FUNC of @btf (the
 * final BTF of a vmlinux) in ID order, its model by @ru, each distinct
 * 56-byte class once (hashed), classes in order of first use; header crc32
 * of btf__raw_data(@btf), the <elf>.BTF bytes; target byte order @be.
 * Deterministic. Returns 0 and t->buf (t->size bytes), or a negative errno
 * after an error line naming @path (more than 65535 classes, no memory).
 */
struct btfids_tramp2 {
	unsigned char *buf;		/* the table; NULL: none */
	uint32_t size, nr_funcs, nr_classes, max_slots;
};
int btfids_tramp2_build(const struct btf *btf, const struct btfids_tramp_rules *ru,
			bool be, const char *path, struct btfids_tramp2 *t,
			struct btfids_report *r);
void btfids_tramp2_free(struct btfids_tramp2 *t);
/*
 * Does @len bytes at @p start like a v2 table (magic and version 2, in
 * @be order)? Only a first look: btfids_tramp2_read() checks it.
 */
bool btfids_tramp2_is(const unsigned char *p, size_t len, bool be);
/*
 * A v2 table read back: a host-order copy of the @len bytes at @p (@be:
 * their order), checked as the kernel does (btf_tramp2_check(): e_machine
 * @machine, or the table's own when @machine < 0; .BTF crc32 @crc). On a
 * bad table: -EINVAL after "FAILED @path: @what: v2 trampoline table: <the
 * check that failed>". t->buf is the host-order copy (struct
 * btf_tramp2_hdr at its start).
 */
int btfids_tramp2_read(const unsigned char *p, size_t len, bool be, int machine,
		       uint32_t crc, const char *path, const char *what,
		       struct btfids_tramp2 *t, struct btfids_report *r);
/*
 * The v2 table in @e's .BTF_tramp, read back and checked against @e's
 * e_machine and the crc32 of its .BTF (or of @btf_path's BTF bytes when
 * given). Returns 0 with t->buf NULL when .BTF_tramp holds no v2 table
 * (none, or v1 tables), 0 with the table, or a negative errno after an
 * error line.
 */
int btfids_tramp2_of_elf(const struct btfids_elf *e, const char *btf_path,
			 struct btfids_tramp2 *t, struct btfids_report *r);
/*
 * `btfids models [--btf BTF] FILE` of a v2 table: FILE a vmlinux whose
 * .BTF_tramp holds one (names and crc32 from its .BTF, or --btf's), or a
 * raw <elf>.BTF_tramp file (needs @btf_path: its names, crc32 and, for an
 * ELF, e_machine). JSON Lines by BTF ID, with "class". Returns 0, or a
 * negative errno after an error line.
 */
int btfids_tramp2_print(const char *path, const char *btf_path, FILE *out,
			struct btfids_report *r);

/*
 * `btfids models [-b BASE] ELF`: print the stored tables as JSON Lines.
 * Names come from ELF's BTF (split on @base_path when given) or, without
 * it, from the .BTF_ids slots that hold each ID.
 */
int btfids_tramp_print(const char *path, const char *base_path, FILE *out,
		       struct btfids_report *r);
/*
 * One JSON Lines object, the model of function @name (BTF ID @id)
 * (models.c); _class: with "class" @cls (a v2 table's class index).
 */
void btfids_models_print(struct btfids_json *j, const char *name, uint32_t id,
			 const struct btfids_fmodel *m);
void btfids_models_print_class(struct btfids_json *j, const char *name, uint32_t id,
			       long cls, const struct btfids_fmodel *m);

#endif /* _BTFIDS_TRAMP_FILL_H */
