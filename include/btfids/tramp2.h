/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tramp2.h - btfids' side of the v2 trampoline table, the table of every
 * function (format: tramp.h, "btf_tramp format"): built in the 7.x flow
 * (resolve.c), read back and checked by `models` and `dump`. The models
 * follow fmodel.h's rules; a class is tramp_class.h's.
 */
#ifndef _BTFIDS_TRAMP2_H
#define _BTFIDS_TRAMP2_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <bpf/btf.h>

#include "btfids/elf.h"
#include "btfids/fmodel.h"
#include "btfids/report.h"
#include "btfids/verdict.h"

/*
 * The table built in the 7.x flow for <elf>.BTF_tramp: every
 * BTF_KIND_FUNC of @btf (the final BTF of a vmlinux; of a module, its split
 * BTF's own FUNCs, IDs from the base's type count on) in ID order, its model by @ru, each distinct
 * 56-byte class once (hashed), classes in order of first use; header crc32
 * of btf__raw_data(@btf), the <elf>.BTF bytes; target byte order @be.
 * Deterministic. Returns 0 and t->buf (t->size bytes), or a negative errno
 * after an error line naming @path (more than 65535 classes, no memory).
 */
struct btfids_tramp2 {
	unsigned char *buf;		/* the table; NULL: none */
	uint32_t size, nr_funcs, nr_classes, max_slots;
	uint32_t version;		/* BTF_TRAMP2_VERSION, or 3: with verdicts */
	uint32_t nr_verdicts;		/* distinct verdicts (version 3) */
};
/*
 * With @ai (the vmlinux's or the module's attach facts, verdict.h; NULL: none), the table
 * is version 3: each function's attach verdicts too, each distinct set of
 * them once, by the rules of @ai's release.
 */
int btfids_tramp2_build(const struct btf *btf, const struct btfids_tramp_rules *ru,
			const struct btfids_attach_info *ai, bool be, const char *path,
			struct btfids_tramp2 *t, struct btfids_report *r);
void btfids_tramp2_free(struct btfids_tramp2 *t);
/*
 * Does @len bytes at @p start like a v2 table (magic and version 2, in
 * @be order)? Only a first look: btfids_tramp2_read() checks it.
 */
bool btfids_tramp2_is(const unsigned char *p, size_t len, bool be);
/*
 * Does the file @path start like a v2 table (btfids_tramp2_is()) in byte
 * order @be (0 little, 1 big), or in either when @be < 0? False when it
 * cannot be read.
 */
bool btfids_tramp2_file_is(const char *path, int be);
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
 * ELF, e_machine; a module's split BTF needs @base_path, its vmlinux or
 * base BTF). JSON Lines by BTF ID, with "class" (and "verdicts" in
 * a version 3 table); only the functions btfids_models_wanted(@func, name)
 * (tramp_class.h) and, with @taken >= 0 (an enum btfids_attach), whose
 * verdict for it is taken (a version 2 table: an error). Returns 0, or a
 * negative errno after an error line.
 */
int btfids_tramp2_print(const char *path, const char *btf_path, const char *base_path,
			const char *func, int taken,
			FILE *out, struct btfids_report *r);

#endif /* _BTFIDS_TRAMP2_H */
