// SPDX-License-Identifier: GPL-2.0
/*
 * dump.c - the dump verb: the lists and sets of .BTF_ids as stored, with
 * each entry's kind, name, ID and (set8) flags, and the header of a v2
 * trampoline table in .BTF_tramp (checked as the kernel checks it:
 * tramp2.c). Read-only.
 *
 * Per file: open (read-only) -> collect symbols -> load BTF and look up
 * when there is BTF -> lay out (layout.c) -> print. BTF is only needed to
 * name the entries of sets that were sorted, which no longer sit at their
 * symbols: without it those entries print without a name. One printer per
 * group and per entry serves text and JSON.
 *
 * Exit status: 0, or 2 for bad input or usage.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "btfids.h"
#include "btfids/cmdline.h"
#include "btfids/fmodel.h"
#include "btfids/kfunc.h"
#include "btfids/layout.h"
#include "btfids/lookup.h"
#include "btfids/output.h"
#include "btfids/tramp2.h"

struct dump_opts {
	const char *btf_path;
	const char *base_path;
	struct btf *base;
	struct btfids_report rep;
	struct btfids_out out;
};

struct dumped {
	const char *path;
	struct btfids_elf e;
	bool opened;
	bool has_ids;
	bool named;		/* BTF was there: sorted sets' entries are named */
	unsigned int kernel;	/* its release (banner, vermagic): KF_* names; 0 unknown */
	struct btfids_syms s;
	struct btf *btf;
	struct btfids_layout l;
	struct btfids_tramp2 t2;	/* the v2 table of .BTF_tramp; buf NULL: none */
};

void btfids_dump_usage(FILE *f)
{
	fprintf(f,
		"Usage: btfids dump [--format=text|json] [-b BASE] [--btf FILE] ELF...\n\n"
		"Print every list and set of .BTF_ids as stored: each entry's kind, name,\n"
		"ID and (set8) flags, and the header of a v2 trampoline table in\n"
		".BTF_tramp (checked: e_machine, layout, crc32 of .BTF). Read-only.\n\n"
		"      --format=FMT      text (default) or json (one line per file)\n"
		"  -b, --btf_base BASE   base BTF for modules (vmlinux or raw BTF)\n"
		"      --btf FILE        read BTF from FILE instead of the ELF's .BTF\n"
		"  -h, --help            this help\n\n"
		"BTF names the entries of sets that were already sorted; without it they\n"
		"print as '?'. Exit status: 0 ok, 2 bad input or usage.\n");
}

/*
 * A module without -b: its .BTF is read if it stands alone. If a .BTF with
 * a sound header does not parse on its own, it is split BTF that needs the
 * vmlinux it sits on: the dump goes on unnamed. A broken header is an error.
 */
static int load_module_btf(struct dump_opts *o, struct dumped *d)
{
	struct btfids_capture c;
	char *msg;
	int err;

	err = btfids_btf_check_header(&d->e, &o->rep);
	if (err)
		return err;
	if (btfids_capture_begin(&c, &o->rep))
		return -ENOMEM;
	err = btfids_btf_load(&d->e, NULL, NULL, &d->btf, &o->rep);
	msg = btfids_capture_end(&c);
	if (err == -ENOMEM)
		btfids_err(&o->rep, NULL, "%s", msg ? msg : "out of memory");
	else if (err)
		btfids_dbg(&o->rep, 0, "btfids dump: %s: .BTF does not parse on its own (split BTF needs -b vmlinux); sorted set entries print as ?\n",
			   d->path);
	free(msg);
	if (err && err != -ENOMEM) {
		d->btf = NULL;
		return 0;
	}
	return err;
}

/* BTF when there is some: its own .BTF, --btf, split on -b for modules. */
static int load_btf(struct dump_opts *o, struct dumped *d)
{
	struct btf *base = d->e.type == ET_REL ? o->base : NULL;
	int err;

	if (!o->btf_path && !d->e.btf.index)
		return 0;
	if (!o->btf_path && d->e.btf.nobits) {
		btfids_dbg(&o->rep, 0, "btfids dump: %s: .BTF is NOBITS (no bytes in the file: a debug-only copy?); sorted set entries print as ? (--btf FILE names them)\n",
			   d->path);
		return 0;
	}
	if (!o->btf_path && !base && d->e.type == ET_REL && !d->e.btf_base.index)
		err = load_module_btf(o, d);
	else
		err = btfids_btf_load(&d->e, o->btf_path, base, &d->btf, &o->rep);
	if (base && !o->btf_path)
		btfids_say_other_build_elf("btfids dump", &d->e, err, o->base_path, &o->rep);
	if (!err && !d->btf)
		return 0;
	if (!err)
		err = btfids_lookup(d->btf, &d->s, d->path, &o->rep);
	d->named = !err;
	return err;
}

static int analyse(struct dump_opts *o, struct dumped *d)
{
	struct btfids_release rel;
	int err;

	err = btfids_elf_open(&d->e, d->path, false, &o->rep);
	if (err)
		return err;
	d->opened = true;
	if (!btfids_release_read(&d->e, &rel))
		d->kernel = BTFIDS_KERNEL(rel.major, rel.minor);
	err = btfids_elf_check_ids_named(&d->e, &o->rep);
	if (!err)
		err = btfids_tramp2_of_elf(&d->e, o->btf_path, &d->t2, &o->rep);
	if (err)
		return err;
	d->has_ids = d->e.ids.index && d->e.symtab_index;
	if (!d->has_ids)
		return 0;
	err = btfids_syms_collect(&d->e, &d->s, &o->rep);
	if (!err)
		err = load_btf(o, d);
	if (!err)
		err = btfids_layout_build(&d->e, &d->s, &d->l, &o->rep);
	return err;
}

static void release(struct dumped *d)
{
	btfids_tramp2_free(&d->t2);
	btfids_layout_free(&d->l);
	btf__free(d->btf);
	btfids_syms_free(&d->s);
	if (d->opened)
		btfids_elf_close(&d->e);
}

/* The slot an entry holds the ID of, if it can be told. */
static const struct btfids_slot *entry_slot(const struct dumped *d,
					    const struct btfids_entry *en)
{
	const struct btfids_group *g = &d->l.groups[en->group];

	if (en->slot == BTFIDS_NONE || (g->kind != BTFIDS_GROUP_LIST && g->sorted && !d->named))
		return NULL;
	return &d->s.slots[en->slot];
}

/* Slots that belong to group @gi. */
static size_t group_slots(const struct dumped *d, size_t gi)
{
	size_t i, n = 0;

	for (i = 0; i < d->s.nr_slots; i++)
		n += d->l.slot_group[i] == gi;
	return n;
}

/*
 * The text for an entry without a name: a word no symbol asks for
 * (BTF_ID_UNUSED, which stays 0, also in a sorted set with fewer slots
 * than entries), or a sorted set's entry no slot could be matched to.
 */
static const char *unnamed(const struct dumped *d, const struct btfids_entry *en)
{
	const struct btfids_group *g = &d->l.groups[en->group];

	if (g->kind == BTFIDS_GROUP_LIST || !g->sorted)
		return "(no symbol)";
	if (d->named && !en->id && group_slots(d, en->group) < g->nr)
		return "(no symbol)";
	return "?";
}

static void print_entry(struct dump_opts *o, const struct dumped *d,
			const struct btfids_entry *en)
{
	const struct btfids_slot *sl = entry_slot(d, en);
	const struct btfids_target *t = sl ? &d->s.targets[sl->target] : NULL;
	bool set8 = d->l.groups[en->group].kind == BTFIDS_GROUP_SET8;
	struct btfids_json *j = &o->out.jw;
	char names[256];

	if (o->out.fmt == BTFIDS_FMT_JSON) {
		btfids_json_start_object(j);
		btfids_json_uint_field(j, "offset", en->off);
		btfids_json_string_field(j, "kind", t ? btfids_kind_str(t->kind) : NULL);
		btfids_json_string_field(j, "name", t ? t->name : NULL);
		btfids_json_uint_field(j, "id", en->id);
		if (set8)
			btfids_json_uint_field(j, "flags", en->flags);
		btfids_json_end_object(j);
		return;
	}
	fprintf(o->out.out, "  0x%04llx  %-8s %-40s %10u",
		(unsigned long long)en->off, t ? btfids_kind_str(t->kind) : "",
		t ? t->name : unnamed(d, en), en->id);
	if (set8 && en->flags)
		fprintf(o->out.out, "  flags %#x (%s)", en->flags,
			btfids_kf_names(en->flags, d->kernel, names, sizeof(names)));
	else if (set8)
		fprintf(o->out.out, "  flags 0");
	fputc('\n', o->out.out);
}

static void print_group_head(struct dump_opts *o, const struct btfids_group *g)
{
	struct btfids_json *j = &o->out.jw;
	FILE *out = o->out.out;

	if (o->out.fmt == BTFIDS_FMT_JSON) {
		btfids_json_string_field(j, "kind", btfids_group_kind_str(g->kind));
		btfids_json_string_field(j, "name", g->name);
		btfids_json_uint_field(j, "offset", g->off);
		if (g->kind != BTFIDS_GROUP_LIST) {
			btfids_json_uint_field(j, "count", g->count);
			btfids_json_bool_field(j, "sorted", g->sorted);
		}
		if (g->kind == BTFIDS_GROUP_SET8)
			btfids_json_uint_field(j, "flags", g->flags);
		return;
	}
	fprintf(out, "%s %s at 0x%llx: %zu entr%s", btfids_group_kind_str(g->kind),
		*g->name ? g->name : "(before any label)", (unsigned long long)g->off,
		g->nr, g->nr == 1 ? "y" : "ies");
	if (g->kind != BTFIDS_GROUP_LIST)
		fprintf(out, ", count word %u%s", g->count,
			g->sorted ? "" : " (not resolved yet)");
	if (g->kind == BTFIDS_GROUP_SET8)
		fprintf(out, ", flags %#x%s", g->flags, g->flags & 1 ? " (KFUNCS)" : "");
	fputc('\n', out);
}

static void print_group(struct dump_opts *o, const struct dumped *d,
			const struct btfids_group *g)
{
	struct btfids_json *j = &o->out.jw;
	bool json = o->out.fmt == BTFIDS_FMT_JSON;
	size_t k;

	if (json)
		btfids_json_start_object(j);
	print_group_head(o, g);
	if (json) {
		btfids_json_name(j, "entries");
		btfids_json_start_array(j);
	}
	for (k = g->first; k < g->first + g->nr; k++)
		print_entry(o, d, &d->l.entries[k]);
	if (json) {
		btfids_json_end_array(j);
		btfids_json_end_object(j);
	}
}

/* The v2 table's header, when .BTF_tramp holds one (it was checked). */
static void print_tramp2(struct dump_opts *o, const struct dumped *d)
{
	const struct btf_tramp2_hdr *h = (const struct btf_tramp2_hdr *)d->t2.buf;
	struct btfids_json *j = &o->out.jw;

	if (!h)
		return;
	if (o->out.fmt == BTFIDS_FMT_JSON) {
		btfids_json_name(j, "tramp");
		btfids_json_start_object(j);
		btfids_json_uint_field(j, "version", h->version);
		btfids_json_uint_field(j, "machine", h->machine);
		btfids_json_uint_field(j, "functions", h->nr_funcs);
		btfids_json_uint_field(j, "classes", h->nr_classes);
		btfids_json_uint_field(j, "verdicts", h->nr_verdicts);
		btfids_json_uint_field(j, "max_slots", h->max_slots);
		btfids_json_uint_field(j, "size", h->size);
		btfids_json_uint_field(j, "btf_crc32", h->btf_crc32);
		btfids_json_end_object(j);
		return;
	}
	fprintf(o->out.out, "%s: .BTF_tramp: trampoline table v%u, %u functions in %u classes, %u distinct verdicts, max %u slots, %u bytes, e_machine %u, .BTF crc32 %#010x (matches)\n",
		d->path, h->version, h->nr_funcs, h->nr_classes, h->nr_verdicts, h->max_slots,
		h->size, h->machine, h->btf_crc32);
}

static void print_file_head(struct dump_opts *o, const struct dumped *d)
{
	struct btfids_json *j = &o->out.jw;
	const struct btfids_section *ids = &d->e.ids;

	if (o->out.fmt == BTFIDS_FMT_JSON) {
		btfids_json_string_field(j, "file", d->path);
		btfids_json_name(j, "section");
		btfids_json_start_object(j);
		btfids_json_uint_field(j, "address", ids->addr);
		btfids_json_uint_field(j, "size", ids->size);
		btfids_json_bool_field(j, "big_endian", btfids_elf_big_endian(&d->e));
		btfids_json_end_object(j);
		btfids_json_bool_field(j, "btf", d->named);
		print_tramp2(o, d);
		return;
	}
	if (!d->has_ids) {
		fprintf(o->out.out, "%s: no .BTF_ids section (or no symbols)\n", d->path);
		print_tramp2(o, d);
		return;
	}
	fprintf(o->out.out, "%s: .BTF_ids at 0x%llx, %llu bytes, %s-endian: %zu slot%s for %zu name%s, %zu list%s, %zu set%s%s\n",
		d->path, (unsigned long long)ids->addr, (unsigned long long)ids->size,
		btfids_elf_big_endian(&d->e) ? "big" : "little",
		d->s.nr_slots, d->s.nr_slots == 1 ? "" : "s",
		d->s.nr_targets, d->s.nr_targets == 1 ? "" : "s",
		d->l.nr_groups - d->s.nr_sets, d->l.nr_groups - d->s.nr_sets == 1 ? "" : "s",
		d->s.nr_sets, d->s.nr_sets == 1 ? "" : "s",
		d->named ? "" : "; no BTF, so sorted sets' entries are not named");
	print_tramp2(o, d);
}

static void print_file(struct dump_opts *o, const struct dumped *d)
{
	struct btfids_json *j = &o->out.jw;
	bool json = o->out.fmt == BTFIDS_FMT_JSON;
	size_t i;

	if (json)
		btfids_json_start_object(j);
	print_file_head(o, d);
	if (json) {
		btfids_json_name(j, "groups");
		btfids_json_start_array(j);
	}
	for (i = 0; i < d->l.nr_groups; i++)
		print_group(o, d, &d->l.groups[i]);
	if (json) {
		btfids_json_end_array(j);
		btfids_json_end_object(j);
		btfids_json_newline(j);
	}
}

static int dump_one(struct dump_opts *o, const char *path)
{
	struct dumped d = { .path = path };
	struct btfids_capture cap;
	char *errs;
	int err;

	if (btfids_capture_begin(&cap, &o->rep))
		return -1;
	err = analyse(o, &d);
	errs = btfids_capture_end(&cap);
	if (err || errs)
		btfids_out_error(&o->out, path, errs ? errs : "cannot dump");
	else
		print_file(o, &d);
	fflush(o->out.out);
	free(errs);
	release(&d);
	return err || errs ? -1 : 0;
}

enum { OPT_BTF = 256, OPT_FORMAT };

static const struct option long_opts[] = {
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "btf", required_argument, NULL, OPT_BTF },
	{ "btf_base", required_argument, NULL, 'b' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* Returns the index of the first ELF, 0 after --help, -1 on a usage error. */
static int parse_args(int argc, char **argv, struct dump_opts *o, enum btfids_format *fmt)
{
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":b:h", long_opts, NULL)) != -1) {
		switch (c) {
		case OPT_FORMAT:
			if (btfids_format_parse(optarg, fmt) || *fmt == BTFIDS_FMT_GITHUB) {
				fprintf(stderr, "btfids dump: unknown format '%s' (text or json)\n", optarg);
				return -1;
			}
			break;
		case OPT_BTF:
			o->btf_path = optarg;
			break;
		case 'b':
			o->base_path = optarg;
			break;
		case 'h':
			btfids_dump_usage(stdout);
			return 0;
		case ':':
			/* the value as --help names it */
			fprintf(stderr, "btfids dump: option %s needs %s\n", argv[optind - 1],
				optopt == OPT_FORMAT ? "an FMT" : optopt == 'b' ? "a BASE" : "a FILE");
			return -1;
		default:
			btfids_unknown_option("btfids dump", argv[optind - 1], long_opts);
			return -1;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "btfids dump: no ELF file given\n");
		return -1;
	}
	return optind;
}

int do_dump(int argc, char **argv)
{
	enum btfids_format fmt = BTFIDS_FMT_TEXT;
	struct dump_opts o = {};
	int i, first, failed = 0;

	first = parse_args(argc, argv, &o, &fmt);
	if (first <= 0) {
		if (first < 0)
			btfids_try_help("dump");
		return first < 0 ? BTFIDS_EXIT_BAD : BTFIDS_EXIT_OK;
	}
	btfids_out_init(&o.out, fmt, NULL, NULL);
	if (btfids_out_load_base(&o.out, &o.rep, o.base_path, &o.base))
		return 2;
	for (i = first; i < argc; i++)
		failed |= dump_one(&o, argv[i]) != 0;
	btf__free(o.base);
	return failed ? 2 : 0;
}
