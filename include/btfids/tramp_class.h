/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tramp_class.h - one function model as the tables store it and as
 * `btfids models` prints it, in one place: v1 tables (tramp.c), the v2
 * table (tramp2.c) and `models --all` (models.c) all call these, and
 * which functions `models --func` prints (btfids_models_wanted()).
 *
 * Stored: struct btf_tramp_class of tramp.h, 56 bytes of u8 fields (no
 * byte order): a v2 table's class, and a v1 entry after its btf_id.
 * Printed: one JSON Lines object, the schema of btfids-models(1): name,
 * id, [class], attachable, then reason when not
 * attachable, the model (nr_args, ret_size, ret_flags, arg_size,
 * arg_flags, slots) when it was distilled, and loc when attachable.
 */
#ifndef _BTFIDS_TRAMP_CLASS_H
#define _BTFIDS_TRAMP_CLASS_H

#include <stdbool.h>
#include <stdint.h>

#include "btfids/fmodel.h"
#include "btfids/json.h"
#include "btfids/tramp.h"
#include "btfids/verdict.h"

/*
 * Model @m as a struct btf_tramp_class at @c (every byte set: unused
 * fields 0, unused locations BTF_TRAMP_LOC_NONE as @m has them), and back:
 * from the stored bytes alone (nr_args capped at BTF_TRAMP_MAX_ARGS; a
 * refusal without a reason reads as BTF_TRAMP_NR_REASONS, "unknown").
 */
void btfids_tramp_put_class(struct btf_tramp_class *c, const struct btfids_fmodel *m);
void btfids_tramp_get_class(const struct btf_tramp_class *c, struct btfids_fmodel *m);

/*
 * One JSON Lines object to @j: the model @m of function @name, BTF ID
 * @id; with "class" @cls when @cls >= 0 (a v2 table's class index).
 */
void btfids_tramp_class_print(struct btfids_json *j, const char *name, uint32_t id,
			      long cls, const struct btfids_fmodel *m);

/*
 * The same line with, last, "verdicts" when @v is not NULL: an object of
 * one member per attach type the release has (verdict.h; "fentry",
 * "fexit", "fmod_ret", "fentry.multi", "fexit.multi"), each
 * {"taken": true} or {"taken": false, "reason": R, "errno": E,
 * "step": "load"|"attach"|"link"}, R a verdict.h name or the model's reason.
 */
void btfids_tramp_class_print_verdicts(struct btfids_json *j, const char *name, uint32_t id,
				       long cls, const struct btfids_fmodel *m,
				       const struct btfids_verdict *v);

/*
 * models --func: whether function @name is printed: @pattern NULL (all),
 * or @name matches it as fnmatch(3) matches a file name ("bpf_*", "vfs_rea?").
 * Every printer path calls it before btfids_tramp_class_print(): v1
 * tables (btfids_tramp_print()), the v2 table (btfids_tramp2_print()) and
 * `models --all` (models.c). Here, with the printer, so that tramp.c and
 * tramp2.c need not call into models.c (no circle: tests/deps.sh).
 */
bool btfids_models_wanted(const char *pattern, const char *name);

#endif /* _BTFIDS_TRAMP_CLASS_H */
