// SPDX-License-Identifier: GPL-2.0
/*
 * check.c - the check verb: what is wrong with the .BTF_ids of each file,
 * read-only.
 *
 * Per file, top to bottom: open (read-only) -> collect symbols -> load
 * BTF -> look up -> lay out lists and sets -> index BTF names -> find
 * (findings.c) -> place the findings' slots in the kernel sources, when
 * the file is in a kernel tree or --source names one (srcloc.c) -> print.
 * The findings are data; one printer per finding renders it as text, JSON
 * or a GitHub annotation, and the text of the message and hint, and the
 * places (the first one is where the finding is shown), are the same in
 * all three.
 *
 * Exit status: 0 clean, 1 findings, 2 bad input or usage (--werror: 2 for
 * findings too). With several files the worst status wins.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "btfids.h"
#include "btfids/cmdline.h"
#include "btfids/findings.h"
#include "btfids/fmodel.h"
#include "btfids/kfunc.h"
#include "btfids/lookup.h"
#include "btfids/output.h"
#include "btfids/srcloc.h"

#define CHECK_CLEAN	0
#define CHECK_FINDINGS	1
#define CHECK_BAD	2

struct check_opts {
	const char *btf_path;
	const char *base_path;
	const char *source;		/* --source: the kernel tree, absolute */
	bool verify;
	bool werror;
	struct btf *base;		/* parsed once, for every module */
	struct btfids_src_tree tree;	/* the last tree used, for the next file */
	struct btfids_report rep;
	struct btfids_out out;
	/* totals for the summary */
	size_t files, clean, with_findings, failed;
	size_t counts[BTFIDS_NR_FINDING_TYPES];
};

/* Everything known about one file. */
struct checked {
	const char *path;
	struct btfids_elf e;
	bool opened;
	bool has_ids;			/* .BTF_ids and a symbol table */
	unsigned int kernel;		/* its release (banner, vermagic): KF_* names; 0 unknown */
	struct btfids_syms s;
	struct btf *btf;
	struct btfids_layout l;
	struct btfids_names names;
	struct btfids_findings f;
	const char *root;		/* the kernel tree searched, or NULL */
	struct btfids_srcmap map;	/* where the findings' slots were declared */
};

void btfids_check_usage(FILE *f)
{
	fprintf(f,
		"Usage: btfids check [--format=text|json|github] [-b BASE] [--btf FILE]\n"
		"                    [--source DIR] [--verify] [--werror] ELF...\n\n"
		"Report what is wrong with the .BTF_ids of each ELF (vmlinux or module),\n"
		"without changing it: names that do not resolve (with the closest BTF names),\n"
		"names with several BTF types, kfuncs with different flags in different\n"
		"sets, names listed twice in one set.\n\n"
		"      --format=FMT      text (default), json (one line per file) or github\n"
		"                        (GitHub Actions annotations)\n"
		"  -b, --btf_base BASE   base BTF for modules (vmlinux or raw BTF); a vmlinux\n"
		"                        in the same run is read on its own BTF\n"
		"      --btf FILE        read BTF from FILE instead of the ELF's .BTF\n"
		"      --source DIR      the kernel tree the ELF was built from, to point each\n"
		"                        finding at its BTF_ID() line (default: the tree the\n"
		"                        ELF sits in, if any)\n"
		"      --verify          also compare the stored IDs, counts and order with\n"
		"                        what the BTF gives now (for resolved files)\n"
		"      --werror          exit 2, not 1, when there are findings\n"
		"  -h, --help            this help\n\n"
		"Exit status: 0 clean, 1 findings, 2 bad input or usage.\n");
}

static int load_btf(struct check_opts *o, struct checked *c)
{
	/* -b is for modules (split BTF); a vmlinux among them has its own */
	struct btf *base = c->e.type == ET_REL ? o->base : NULL;
	int err;

	err = btfids_btf_load(&c->e, o->btf_path, base, &c->btf, &o->rep);
	if (base && !o->btf_path)
		btfids_say_other_build_elf("btfids check", &c->e, err, o->base_path, &o->rep);
	return err;
}

/* The slots and sets @c's findings are about. */
static int wanted(const struct checked *c, bool **slot, bool **set)
{
	size_t i, k;

	*slot = calloc(c->s.nr_slots + 1, sizeof(**slot));
	*set = calloc(c->s.nr_sets + 1, sizeof(**set));
	if (!*slot || !*set)
		return -ENOMEM;
	for (i = 0; i < c->f.n; i++) {
		const struct btfids_finding *f = &c->f.v[i];

		for (k = 0; k < f->nr_slots; k++)
			(*slot)[f->slots[k]] = true;
		if (f->type == BTFIDS_F_STALE && f->stale != BTFIDS_STALE_ID)
			(*set)[c->l.groups[f->refs[0]].set - c->s.sets] = true;
	}
	return 0;
}

/*
 * Place the findings in the kernel tree: --source, or the one the file
 * sits in; none, and the findings stay on the file. Returns 0 or -ENOMEM.
 */
static int locate(struct check_opts *o, struct checked *c)
{
	bool *slot = NULL, *set = NULL;
	char *found = NULL;
	const char *root = o->source;
	int err;

	if (!c->f.n)
		return 0;
	if (!root) {
		err = btfids_src_find_tree(c->path, &found);
		if (err)
			return err == -ENOMEM ? err : 0;
		root = found;
	}
	if (!o->tree.root || strcmp(o->tree.root, root)) {
		btfids_src_tree_free(&o->tree);
		err = btfids_src_tree_init(&o->tree, root);
		free(found);
		if (err)
			return err;
	} else {
		free(found);
	}
	err = wanted(c, &slot, &set);
	if (!err)
		err = btfids_srcmap_build(&c->map, &o->tree, &c->e, &c->s, slot, set);
	if (!err)
		c->root = o->tree.root;
	free(slot);
	free(set);
	return err;
}

/* Read and analyse one file; errors go to o->rep. */
static int analyse(struct check_opts *o, struct checked *c)
{
	struct btfids_release rel;
	int err;

	err = btfids_elf_open(&c->e, c->path, false, &o->rep);
	if (err)
		return err;
	c->opened = true;
	if (!btfids_release_read(&c->e, &rel))
		c->kernel = BTFIDS_KERNEL(rel.major, rel.minor);
	err = btfids_elf_check_ids_named(&c->e, &o->rep);
	if (err)
		return err;
	c->has_ids = c->e.ids.index && c->e.symtab_index;
	if (!c->has_ids)
		return 0;
	err = btfids_syms_collect(&c->e, &c->s, &o->rep);
	if (!err)
		err = load_btf(o, c);
	if (!err)
		err = btfids_lookup(c->btf, &c->s, c->path, &o->rep);
	if (!err)
		err = btfids_layout_build(&c->e, &c->s, &c->l, &o->rep);
	if (!err && btfids_names_build(c->btf, &c->names))
		err = -ENOMEM;
	if (!err && btfids_findings_collect(&c->s, &c->l, &c->names, o->verify, &c->f))
		err = -ENOMEM;
	if (!err)
		err = locate(o, c);
	if (err == -ENOMEM)
		btfids_err(&o->rep, c->path, "out of memory");
	return err;
}

static void release(struct checked *c)
{
	btfids_srcmap_free(&c->map);
	btfids_findings_free(&c->f);
	btfids_names_free(&c->names);
	btfids_layout_free(&c->l);
	btf__free(c->btf);
	btfids_syms_free(&c->s);
	if (c->opened)
		btfids_elf_close(&c->e);
}

/* "set fx_set", "list fx_list", "list (before any label)" */
static void put_group(FILE *m, const struct btfids_group *g)
{
	fprintf(m, "%s %s", btfids_group_kind_str(g->kind),
		*g->name ? g->name : "(before any label)");
}

static void put_ids(FILE *m, const uint32_t *ids, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(m, "%s%u", i ? ", " : "", ids[i]);
}

static void headline_stale(FILE *m, const struct btfids_finding *f)
{
	fprintf(m, "stale %s %s: ", f->kind, f->name);
	if (f->stale == BTFIDS_STALE_COUNT)
		fprintf(m, "its count word is %u, but it has %u entries",
			f->stored[0], f->ids[0]);
	else if (f->stale == BTFIDS_STALE_ORDER)
		fputs("its IDs are not in ascending order", m);
	else if (!f->nr_stored)
		fprintf(m, "the BTF gives ID %u, which is not stored", f->ids[0]);
	else {
		fprintf(m, "stored ID%s ", f->nr_stored > 1 ? "s" : "");
		put_ids(m, f->stored, f->nr_stored);
		fprintf(m, ", but the BTF gives %u", f->ids[0]);
	}
}

static void headline_flags(FILE *m, const struct checked *c, const struct btfids_finding *f)
{
	char names[256];
	size_t i;

	fprintf(m, "%s %s has different flags in different sets: ", f->kind, f->name);
	for (i = 0; i < f->nr_refs; i++) {
		fprintf(m, "%s%#x (%s) in ", i ? ", " : "", f->ref_flags[i],
			btfids_kf_names(f->ref_flags[i], c->kernel, names, sizeof(names)));
		put_group(m, &c->l.groups[f->refs[i]]);
	}
}

/* One line that says what is wrong. */
static void headline(FILE *m, const struct checked *c, const struct btfids_finding *f)
{
	switch (f->type) {
	case BTFIDS_F_UNRESOLVED:
		fprintf(m, "unresolved %s %s: the BTF has no %s of that name, so its ID stays 0",
			f->kind, f->name, f->kind);
		break;
	case BTFIDS_F_STALE:
		headline_stale(m, f);
		break;
	case BTFIDS_F_AMBIGUOUS:
		fprintf(m, "ambiguous %s %s: %zu BTF types have that kind and name (IDs ",
			f->kind, f->name, f->nr_ids);
		put_ids(m, f->ids, f->nr_ids);
		fprintf(m, "); the lowest, %u, is used", f->ids[0]);
		break;
	case BTFIDS_F_FLAGS:
		headline_flags(m, c, f);
		break;
	case BTFIDS_F_DUPLICATE:
		fprintf(m, "%s %s is listed %zu times in ", f->kind, f->name, f->times);
		put_group(m, &c->l.groups[f->refs[0]]);
		break;
	default:
		break;
	}
}

/* Where it is listed, for the findings whose headline does not say; else nothing. */
static void where(FILE *m, const struct checked *c, const struct btfids_finding *f)
{
	size_t i;

	if (f->type == BTFIDS_F_FLAGS || f->type == BTFIDS_F_DUPLICATE || !f->nr_refs ||
	    (f->type == BTFIDS_F_STALE && f->stale != BTFIDS_STALE_ID))
		return;
	fputs("listed in ", m);
	for (i = 0; i < f->nr_refs; i++) {
		fputs(i ? ", " : "", m);
		put_group(m, &c->l.groups[f->refs[i]]);
	}
}

static void hint_unresolved(FILE *m, const struct btfids_finding *f)
{
	size_t i;

	if (!f->nr_sugg) {
		fprintf(m, "no similar %s in the BTF: was it renamed, removed, made static inline or left out by this configuration? Fix or drop the BTF_ID(), or put it under the #ifdef that builds the %s",
			f->kind, f->kind);
		return;
	}
	fputs("did you mean ", m);
	for (i = 0; i < f->nr_sugg; i++) {
		const struct btfids_suggestion *sg = &f->sugg[i];
		const char *k = btfids_kind_str(sg->kind);

		fprintf(m, "%s%s %s", i ? ", " : "", k, sg->name);
		if (strcmp(k, f->kind))
			fputs(" (same name, other kind)", m);
	}
	fputs("?", m);
}

/* What to do about it. */
static void hint(FILE *m, const struct checked *c, const struct btfids_finding *f)
{
	(void)c;
	switch (f->type) {
	case BTFIDS_F_UNRESOLVED:
		hint_unresolved(m, f);
		break;
	case BTFIDS_F_STALE:
		fputs("the BTF changed after .BTF_ids was filled, or it was never filled: run btfids (or the kernel's resolve_btfids) on this file again", m);
		break;
	case BTFIDS_F_AMBIGUOUS:
		fprintf(m, "the kernel uses the lowest ID; if you mean another of these types, rename one of them");
		break;
	case BTFIDS_F_FLAGS:
		fputs("give it the same flags in every BTF_ID_FLAGS() that lists it, or the kernel treats it differently depending on the set", m);
		break;
	case BTFIDS_F_DUPLICATE:
		fputs("remove the extra BTF_ID() lines: a set should list each name once", m);
		break;
	default:
		break;
	}
}

typedef void (*writer_fn)(FILE *m, const struct checked *c, const struct btfids_finding *f);

/* What one of the writers above writes, as a malloc'd string; NULL if empty. */
static char *render(writer_fn fn, const struct checked *c, const struct btfids_finding *f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return NULL;
	fn(m, c, f);
	fclose(m);
	if (buf && !*buf) {
		free(buf);
		buf = NULL;
	}
	return buf;
}

/* One place a finding is about: a slot's (or a set's) and its list or set. */
struct place {
	const struct btfids_srcloc *loc;	/* NULL: no kernel tree was searched */
	size_t group;				/* in c->l.groups */
};

/* The three lines every format prints (what, where, what to do), and the places. */
struct texts {
	char *headline, *where, *hint;
	struct place *places;
	size_t nr_places;
	size_t shown;		/* the place it is shown at: the first with a line, */
				/* else the first with a file; nr_places: the ELF */
};

/* The places of @f, in address order: its slots, or its set's START. */
static int places_make(struct texts *t, const struct checked *c, const struct btfids_finding *f)
{
	bool whole_set = f->type == BTFIDS_F_STALE && f->stale != BTFIDS_STALE_ID;
	size_t n = whole_set ? 1 : f->nr_slots, i;

	t->places = calloc(n + 1, sizeof(*t->places));
	if (!t->places)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct place *p = &t->places[i];

		if (whole_set) {
			p->group = f->refs[0];
			p->loc = c->root ? &c->map.set[c->l.groups[p->group].set - c->s.sets] : NULL;
		} else {
			p->group = c->l.slot_group[f->slots[i]];
			p->loc = c->root ? &c->map.slot[f->slots[i]] : NULL;
		}
	}
	t->nr_places = n;
	t->shown = n;
	if (!c->root)
		return 0;
	for (t->shown = 0; t->shown < n && !t->places[t->shown].loc->line; t->shown++)
		;
	if (t->shown == n)
		for (t->shown = 0; t->shown < n && !t->places[t->shown].loc->file; t->shown++)
			;
	return 0;
}

static int texts_make(struct texts *t, const struct checked *c, const struct btfids_finding *f)
{
	memset(t, 0, sizeof(*t));
	t->headline = render(headline, c, f);
	t->where = render(where, c, f);
	t->hint = render(hint, c, f);
	if (!t->headline || !t->hint || places_make(t, c, f))
		return -ENOMEM;
	return 0;
}

static void texts_free(struct texts *t)
{
	free(t->headline);
	free(t->where);
	free(t->hint);
	free(t->places);
}

static const char *severity(const struct btfids_finding *f)
{
	return btfids_finding_is_error(f->type) ? "error" : "warning";
}

static const char *why(const struct btfids_srcloc *at)
{
	return at->why ? at->why : "not asked for";
}

/* The place the finding is shown at, or NULL (then it is the ELF's). */
static const struct btfids_srcloc *shown(const struct texts *t)
{
	return t->shown < t->nr_places ? t->places[t->shown].loc : NULL;
}

/* Why the shown place has no line, when a tree was searched; else NULL. */
static const char *not_placed(const struct texts *t)
{
	const struct btfids_srcloc *at = shown(t);

	if (!t->nr_places || !t->places[0].loc || (at && at->line))
		return NULL;
	return why(at ? at : t->places[0].loc);
}

/* "kernel/bpf/btf.c:123", "kernel/bpf/btf.c" or the ELF: compilers' and kbuild's prefix */
static void put_at(FILE *m, const struct checked *c, const struct btfids_srcloc *at)
{
	if (!at || !at->file)
		fputs(c->path, m);
	else if (!at->line)
		fputs(at->file, m);
	else
		fprintf(m, "%s:%u", at->file, at->line);
}

/* ", in set8 X" (@sep ", in ") */
static void put_place_group(FILE *m, const struct checked *c, const struct place *p,
			    const char *sep)
{
	if (p->group != BTFIDS_NONE) {
		fputs(sep, m);
		put_group(m, &c->l.groups[p->group]);
	}
}

/*
 * The places other than the shown one, for notes: none without a tree, and
 * none that only repeat the shown place's "not placed" with the same why.
 */
static bool other_place(const struct checked *c, const struct texts *t, size_t i)
{
	const struct btfids_srcloc *loc = t->places[i].loc, *at = shown(t);
	const char *np = not_placed(t);

	if (!c->root || i == t->shown)
		return false;
	return loc->file || (at && at->file) || !np || strcmp(why(loc), np);
}

/* Text: each other place on a line of its own, as a compiler's note. */
static void text_notes(FILE *out, const struct checked *c, const struct texts *t)
{
	size_t i;

	for (i = 0; i < t->nr_places; i++) {
		const struct place *p = &t->places[i];

		if (!other_place(c, t, i))
			continue;
		put_at(out, c, p->loc);
		fputs(": note: also named here", out);
		put_place_group(out, c, p, ", in ");
		if (!p->loc->line)
			fprintf(out, " (not placed in the source: %s)", why(p->loc));
		fputc('\n', out);
	}
}

/*
 * Error or warning, then where and what to do, indented, each line
 * starting with the place ("path:line: " like a compiler, or the ELF);
 * then the other places. A hint that only repeats the one just above
 * (same kind of finding) is left out.
 */
static void print_text(struct check_opts *o, const struct checked *c,
		       const struct btfids_finding *f, const struct texts *t)
{
	bool repeat = f > c->f.v && f[-1].type == f->type && f->type != BTFIDS_F_UNRESOLVED;
	FILE *out = o->out.out;
	char *at = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&at, &len);

	if (!m)
		return;
	put_at(m, c, shown(t));
	fclose(m);
	fprintf(out, "%s: %s: %s\n", at, severity(f), t->headline);
	if (t->where)
		fprintf(out, "%s:   %s\n", at, t->where);
	if (!repeat)
		fprintf(out, "%s:   %s\n", at, t->hint);
	if (not_placed(t))
		fprintf(out, "%s:   not placed in the source: %s\n", at, not_placed(t));
	text_notes(out, c, t);
	free(at);
}

/* GitHub: one annotation, at the shown place; the other places in its message. */
static void github_message(FILE *m, const struct checked *c, const struct texts *t)
{
	size_t i;

	fprintf(m, "%s\n%s%s%s", t->headline, t->where ? t->where : "", t->where ? "\n" : "",
		t->hint);
	if (not_placed(t))
		fprintf(m, "\nnot placed in the source: %s", not_placed(t));
	for (i = 0; i < t->nr_places; i++) {
		const struct place *p = &t->places[i];

		if (!other_place(c, t, i))
			continue;
		fputs("\nalso named", m);
		if (p->loc->file) {
			fputs(p->loc->line ? " at " : " in ", m);
			put_at(m, c, p->loc);
		}
		put_place_group(m, c, p, p->loc->file ? ", in " : " in ");
		if (!p->loc->line)
			fprintf(m, " (not placed in the source: %s)", why(p->loc));
	}
	if (shown(t) && shown(t)->file)
		fprintf(m, "\n(in %s)", c->path);
}

static void print_github(struct check_opts *o, const struct checked *c,
			 const struct btfids_finding *f, const struct texts *t)
{
	const struct btfids_srcloc *at = shown(t);
	char *title = NULL, *msg = NULL;
	size_t len = 0;
	FILE *m;

	if (asprintf(&title, "btfids: %s %s %s", btfids_finding_type_str(f->type),
		     f->kind, f->name) < 0)
		title = NULL;
	m = open_memstream(&msg, &len);
	if (m) {
		github_message(m, c, t);
		fclose(m);
	}
	btfids_out_annotation(&o->out, severity(f), at && at->file ? at->file : c->path,
			      at ? at->line : 0, title, msg ? msg : t->headline);
	free(title);
	free(msg);
}

static void json_refs(struct btfids_json *j, const struct checked *c,
		      const struct btfids_finding *f)
{
	size_t i;

	btfids_json_name(j, "sets");
	btfids_json_start_array(j);
	for (i = 0; i < f->nr_refs; i++)
		btfids_json_string(j, c->l.groups[f->refs[i]].name);
	btfids_json_end_array(j);
	btfids_json_name(j, "set_kinds");
	btfids_json_start_array(j);
	for (i = 0; i < f->nr_refs; i++)
		btfids_json_string(j, btfids_group_kind_str(c->l.groups[f->refs[i]].kind));
	btfids_json_end_array(j);
}

static void json_suggestions(struct btfids_json *j, const struct btfids_finding *f)
{
	size_t i;

	/* the schema: names, best first; details alongside */
	btfids_json_name(j, "suggestions");
	btfids_json_start_array(j);
	for (i = 0; i < f->nr_sugg; i++)
		btfids_json_string(j, f->sugg[i].name);
	btfids_json_end_array(j);
	btfids_json_name(j, "suggestion_details");
	btfids_json_start_array(j);
	for (i = 0; i < f->nr_sugg; i++) {
		btfids_json_start_object(j);
		btfids_json_string_field(j, "kind", btfids_kind_str(f->sugg[i].kind));
		btfids_json_string_field(j, "name", f->sugg[i].name);
		btfids_json_uint_field(j, "id", f->sugg[i].id);
		btfids_json_uint_field(j, "distance", f->sugg[i].distance);
		btfids_json_end_object(j);
	}
	btfids_json_end_array(j);
}

static void json_file_line(struct btfids_json *j, const struct btfids_srcloc *at)
{
	btfids_json_name(j, "file");
	if (at && at->file)
		btfids_json_string(j, at->file);
	else
		btfids_json_null(j);
	btfids_json_name(j, "line");
	if (at && at->line)
		btfids_json_uint(j, at->line);
	else
		btfids_json_null(j);
}

/* "file"/"line": the shown place; "locations": every place */
static void json_places(struct btfids_json *j, const struct checked *c, const struct texts *t)
{
	size_t i;

	json_file_line(j, shown(t));
	btfids_json_name(j, "locations");
	btfids_json_start_array(j);
	for (i = 0; i < t->nr_places; i++) {
		const struct place *p = &t->places[i];
		const struct btfids_group *g = &c->l.groups[p->group];

		btfids_json_start_object(j);
		json_file_line(j, p->loc);
		if (p->group != BTFIDS_NONE) {
			btfids_json_string_field(j, "set", g->name);
			btfids_json_string_field(j, "set_kind", btfids_group_kind_str(g->kind));
		}
		if (p->loc && !p->loc->line)
			btfids_json_string_field(j, "why", why(p->loc));
		btfids_json_end_object(j);
	}
	btfids_json_end_array(j);
}

static void print_json(struct check_opts *o, const struct checked *c,
		       const struct btfids_finding *f, const struct texts *t)
{
	struct btfids_json *j = &o->out.jw;
	static const char *const what[] = { "id", "count", "order" };

	btfids_json_start_object(j);
	btfids_json_string_field(j, "type", btfids_finding_type_str(f->type));
	btfids_json_string_field(j, "severity", severity(f));
	btfids_json_string_field(j, "kind", f->kind);
	btfids_json_string_field(j, "name", f->name);
	json_refs(j, c, f);
	json_suggestions(j, f);
	btfids_json_uint_array_field(j, "ids", f->ids, f->nr_ids);
	if (f->type == BTFIDS_F_STALE) {
		btfids_json_string_field(j, "stale", what[f->stale]);
		btfids_json_uint_array_field(j, "stored", f->stored, f->nr_stored);
	}
	if (f->type == BTFIDS_F_FLAGS)
		btfids_json_uint_array_field(j, "flags", f->ref_flags, f->nr_refs);
	if (f->type == BTFIDS_F_DUPLICATE)
		btfids_json_uint_field(j, "times", f->times);
	btfids_json_string_field(j, "message", t->headline);
	btfids_json_string_field(j, "hint", t->hint);
	json_places(j, c, t);
	btfids_json_end_object(j);
}

/* Every finding goes through here, whatever the format. */
static void print_finding(struct check_opts *o, const struct checked *c,
			  const struct btfids_finding *f)
{
	struct texts t;

	if (texts_make(&t, c, f)) {
		fprintf(o->out.err, "btfids check: out of memory\n");
	} else if (o->out.fmt == BTFIDS_FMT_JSON) {
		print_json(o, c, f, &t);
	} else if (o->out.fmt == BTFIDS_FMT_GITHUB) {
		print_github(o, c, f, &t);
	} else {
		print_text(o, c, f, &t);
	}
	texts_free(&t);
}

static const char *plural(size_t n)
{
	return n == 1 ? "" : "s";
}

/* "2 unresolved, 1 ambiguous" */
static void put_counts(FILE *m, const size_t *counts)
{
	const char *sep = "";
	int i;

	for (i = 0; i < BTFIDS_NR_FINDING_TYPES; i++) {
		if (!counts[i])
			continue;
		fprintf(m, "%s%zu %s", sep, counts[i],
			btfids_finding_type_str((enum btfids_finding_type)i));
		sep = ", ";
	}
}

/* Nothing stored at all: --verify on a file that was never resolved. */
static bool never_resolved(const struct checked *c)
{
	size_t i;

	for (i = 0; i < c->l.nr_groups; i++)
		if (c->l.groups[i].kind != BTFIDS_GROUP_LIST && c->l.groups[i].count)
			return false;
	for (i = 0; i < c->l.nr_entries; i++)
		if (c->l.entries[i].id)
			return false;
	return c->f.counts[BTFIDS_F_STALE] > 0;
}

static void file_line_text(struct check_opts *o, const struct checked *c)
{
	FILE *out = o->out.out;

	if (!c->has_ids) {
		fprintf(out, "%s: ok: no .BTF_ids section (or no symbols), nothing to check\n",
			c->path);
		return;
	}
	if (!c->f.n) {
		fprintf(out, "%s: ok: %zu slot%s for %zu name%s, %zu set%s; all resolve%s\n",
			c->path, c->s.nr_slots, plural(c->s.nr_slots),
			c->s.nr_targets, plural(c->s.nr_targets), c->s.nr_sets,
			plural(c->s.nr_sets), o->verify ? ", stored IDs up to date" : "");
		return;
	}
	fprintf(out, "%s: %zu finding%s: ", c->path, c->f.n, plural(c->f.n));
	put_counts(out, c->f.counts);
	if (never_resolved(c))
		fputs(" (every stored ID and count is 0: this file was never resolved)", out);
	fputc('\n', out);
}

static void file_json(struct check_opts *o, const struct checked *c)
{
	struct btfids_json *j = &o->out.jw;
	size_t i;

	btfids_json_start_object(j);
	btfids_json_string_field(j, "file", c->path);
	btfids_json_name(j, "source");
	if (c->root)
		btfids_json_string(j, c->root);
	else
		btfids_json_null(j);
	btfids_json_name(j, "findings");
	btfids_json_start_array(j);
	for (i = 0; i < c->f.n; i++)
		print_finding(o, c, &c->f.v[i]);
	btfids_json_end_array(j);
	btfids_json_name(j, "counts");
	btfids_json_start_object(j);
	for (i = 0; i < BTFIDS_NR_FINDING_TYPES; i++)
		btfids_json_uint_field(j, btfids_finding_type_str((enum btfids_finding_type)i),
				       c->f.counts[i]);
	btfids_json_uint_field(j, "total", c->f.n);
	btfids_json_end_object(j);
	btfids_json_end_object(j);
	btfids_json_newline(j);
}

static void print_file(struct check_opts *o, const struct checked *c)
{
	size_t i;

	if (o->out.fmt == BTFIDS_FMT_JSON) {
		file_json(o, c);
		return;
	}
	for (i = 0; i < c->f.n; i++)
		print_finding(o, c, &c->f.v[i]);
	file_line_text(o, c);
}

static int check_one(struct check_opts *o, const char *path)
{
	struct checked c = { .path = path };
	struct btfids_capture cap;
	char *errs;
	int err, i, status;

	if (btfids_capture_begin(&cap, &o->rep)) {
		fprintf(stderr, "btfids check: out of memory\n");
		return CHECK_BAD;
	}
	err = analyse(o, &c);
	errs = btfids_capture_end(&cap);
	o->files++;
	if (err || errs) {
		btfids_out_error(&o->out, path, errs ? errs : "cannot check");
		o->failed++;
		status = CHECK_BAD;
	} else {
		print_file(o, &c);
		for (i = 0; i < BTFIDS_NR_FINDING_TYPES; i++)
			o->counts[i] += c.f.counts[i];
		o->clean += !c.f.n;
		o->with_findings += !!c.f.n;
		status = c.f.n ? CHECK_FINDINGS : CHECK_CLEAN;
	}
	fflush(o->out.out);
	free(errs);
	release(&c);
	return status;
}

/* The last line of text and github output. */
static void summary(struct check_opts *o)
{
	FILE *out = o->out.out;

	if (o->out.fmt == BTFIDS_FMT_JSON)
		return;
	fprintf(out, "btfids check: %zu file%s: %zu clean, %zu with findings, %zu unreadable",
		o->files, plural(o->files), o->clean, o->with_findings, o->failed);
	if (o->with_findings) {
		fputs(" (", out);
		put_counts(out, o->counts);
		fputc(')', out);
	}
	fputc('\n', out);
}

enum { OPT_BTF = 256, OPT_FORMAT, OPT_SOURCE, OPT_VERIFY, OPT_WERROR };

static const struct option long_opts[] = {
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "btf", required_argument, NULL, OPT_BTF },
	{ "btf_base", required_argument, NULL, 'b' },
	{ "source", required_argument, NULL, OPT_SOURCE },
	{ "verify", no_argument, NULL, OPT_VERIFY },
	{ "werror", no_argument, NULL, OPT_WERROR },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* Returns the index of the first ELF, 0 after --help, -1 on a usage error. */
static int parse_args(int argc, char **argv, struct check_opts *o,
		      enum btfids_format *fmt)
{
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":b:h", long_opts, NULL)) != -1) {
		switch (c) {
		case OPT_FORMAT:
			if (btfids_format_parse(optarg, fmt)) {
				fprintf(stderr, "btfids check: unknown format '%s' (text, json or github)\n",
					optarg);
				return -1;
			}
			break;
		case OPT_BTF:
			o->btf_path = optarg;
			break;
		case 'b':
			o->base_path = optarg;
			break;
		case OPT_SOURCE:
			o->source = optarg;
			break;
		case OPT_VERIFY:
			o->verify = true;
			break;
		case OPT_WERROR:
			o->werror = true;
			break;
		case 'h':
			btfids_check_usage(stdout);
			return 0;
		case ':':
			/* the value as --help names it */
			fprintf(stderr, "btfids check: option %s needs %s\n", argv[optind - 1],
				optopt == OPT_FORMAT ? "an FMT" : optopt == 'b' ? "a BASE" :
				optopt == OPT_SOURCE ? "a DIR" : "a FILE");
			return -1;
		default:
			btfids_unknown_option("btfids check", argv[optind - 1], long_opts);
			return -1;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "btfids check: no ELF file given\n");
		return -1;
	}
	return optind;
}

/* --source DIR: an existing directory, made absolute (paths are relative to it). */
static int source_dir(struct check_opts *o, char **abs)
{
	const char *bad = NULL;
	struct stat st;
	char *msg;

	*abs = NULL;
	if (!o->source)
		return 0;
	if (stat(o->source, &st))
		bad = strerror(errno);
	else if (!S_ISDIR(st.st_mode))
		bad = "not a directory";
	else if (!(*abs = realpath(o->source, NULL)))
		bad = strerror(errno);
	if (!bad) {
		o->source = *abs;
		return 0;
	}
	if (asprintf(&msg, "%s: --source: %s", o->source, bad) < 0)
		msg = NULL;
	btfids_out_error(&o->out, o->source, msg ? msg : "--source: cannot use it");
	free(msg);
	return -EINVAL;
}

int do_check(int argc, char **argv)
{
	enum btfids_format fmt = BTFIDS_FMT_TEXT;
	struct check_opts o = {};
	int i, first, status = CHECK_CLEAN;
	char *source = NULL;

	first = parse_args(argc, argv, &o, &fmt);
	if (first <= 0) {
		if (first < 0)
			btfids_try_help("check");
		return first < 0 ? CHECK_BAD : CHECK_CLEAN;
	}
	btfids_out_init(&o.out, fmt, NULL, NULL);
	if (source_dir(&o, &source) || btfids_out_load_base(&o.out, &o.rep, o.base_path, &o.base)) {
		free(source);
		return CHECK_BAD;
	}
	for (i = first; i < argc; i++) {
		int st = check_one(&o, argv[i]);

		if (st > status)
			status = st;
	}
	summary(&o);
	btf__free(o.base);
	btfids_src_tree_free(&o.tree);
	free(source);
	if (status == CHECK_FINDINGS && o.werror)
		status = CHECK_BAD;
	return status;
}
