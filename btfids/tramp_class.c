// SPDX-License-Identifier: GPL-2.0
/*
 * tramp_class.c - one function model as the tables store it (struct
 * btf_tramp_class) and as `btfids models` prints it (tramp_class.h),
 * and which functions `models --func` prints.
 */
#include <fnmatch.h>
#include <stddef.h>
#include <string.h>

#include "btfids/tramp_class.h"

/* The format's sizes, which the consumers' BTF_TRAMP_*_SIZE name */
_Static_assert(sizeof(struct btf_tramp_class) == BTF_TRAMP_CLASS_SIZE, "class size");
_Static_assert(sizeof(struct btf_tramp_entry) == BTF_TRAMP_ENTRY_SIZE, "v1 entry size");
_Static_assert(offsetof(struct btf_tramp_entry, model) == 4, "v1 entry: model after btf_id");

void btfids_tramp_put_class(struct btf_tramp_class *c, const struct btfids_fmodel *m)
{
	memset(c, 0, sizeof(*c));
	c->ret_size = m->ret_size;
	c->ret_flags = m->ret_flags;
	c->nr_args = m->nr_args;
	c->nr_slots = m->nr_slots;
	memcpy(c->arg_size, m->arg_size, sizeof(c->arg_size));
	memcpy(c->arg_flags, m->arg_flags, sizeof(c->arg_flags));
	c->attachable = m->reason == BTF_TRAMP_OK;
	c->reason = m->reason;
	c->distilled = m->distilled;
	memcpy(c->loc, m->loc, sizeof(c->loc));
}

void btfids_tramp_get_class(const struct btf_tramp_class *c, struct btfids_fmodel *m)
{
	memset(m, 0, sizeof(*m));
	m->ret_size = c->ret_size;
	m->ret_flags = c->ret_flags;
	m->nr_args = c->nr_args > BTF_TRAMP_MAX_ARGS ? BTF_TRAMP_MAX_ARGS : c->nr_args;
	m->nr_slots = c->nr_slots;
	memcpy(m->arg_size, c->arg_size, sizeof(m->arg_size));
	memcpy(m->arg_flags, c->arg_flags, sizeof(m->arg_flags));
	m->reason = c->attachable ? BTF_TRAMP_OK : (c->reason ? c->reason : BTF_TRAMP_NR_REASONS);
	m->distilled = c->distilled;
	memcpy(m->loc, c->loc, sizeof(m->loc));
}

/* "loc": one string per argument (fmodel.h btfids_fmodel_loc_str()) */
static void print_loc(struct btfids_json *j, const struct btfids_fmodel *m)
{
	char loc[BTFIDS_FMODEL_LOC_LEN];
	unsigned int i;

	btfids_json_name(j, "loc");
	btfids_json_start_array(j);
	for (i = 0; i < m->nr_args; i++) {
		btfids_fmodel_loc_str(m, i, loc, sizeof(loc));
		btfids_json_string(j, loc);
	}
	btfids_json_end_array(j);
}

static void print_verdicts(struct btfids_json *j, const struct btfids_verdict *v)
{
	int a;

	btfids_json_name(j, "verdicts");
	btfids_json_start_object(j);
	for (a = 0; a < BTFIDS_NR_ATTACH; a++) {
		if (!v[a].given)
			continue;
		btfids_json_name(j, btfids_attach_str(a));
		btfids_json_start_object(j);
		btfids_json_bool_field(j, "taken", v[a].refusal == BTFIDS_TAKEN);
		if (v[a].refusal != BTFIDS_TAKEN) {
			btfids_json_string_field(j, "reason", btfids_verdict_str(&v[a]));
			btfids_json_string_field(j, "errno", btfids_errno_str(v[a].err));
			btfids_json_string_field(j, "step", btfids_step_str(v[a].step));
		}
		btfids_json_end_object(j);
	}
	btfids_json_end_object(j);
}

void btfids_tramp_class_print(struct btfids_json *j, const char *name, uint32_t id,
			      long cls, const struct btfids_fmodel *m)
{
	btfids_tramp_class_print_verdicts(j, name, id, cls, m, NULL);
}

void btfids_tramp_class_print_verdicts(struct btfids_json *j, const char *name, uint32_t id,
				       long cls, const struct btfids_fmodel *m,
				       const struct btfids_verdict *v)
{
	bool ok = m->reason == BTF_TRAMP_OK;

	btfids_json_start_object(j);
	btfids_json_string_field(j, "name", name);
	btfids_json_uint_field(j, "id", id);
	if (cls >= 0)
		btfids_json_uint_field(j, "class", cls);
	btfids_json_bool_field(j, "attachable", ok);
	if (!ok)
		btfids_json_string_field(j, "reason", btfids_fmodel_reason_str(m->reason));
	if (m->distilled) {
		btfids_json_uint_field(j, "nr_args", m->nr_args);
		btfids_json_uint_field(j, "ret_size", m->ret_size);
		btfids_json_uint_field(j, "ret_flags", m->ret_flags);
		btfids_json_u8_array_field(j, "arg_size", m->arg_size, m->nr_args);
		btfids_json_u8_array_field(j, "arg_flags", m->arg_flags, m->nr_args);
		btfids_json_uint_field(j, "slots", m->nr_slots);
	}
	if (ok)
		print_loc(j, m);
	if (v)
		print_verdicts(j, v);
	btfids_json_end_object(j);
	btfids_json_newline(j);
}

bool btfids_models_wanted(const char *pattern, const char *name)
{
	return !pattern || !fnmatch(pattern, name, 0);
}
