// SPDX-License-Identifier: GPL-2.0
/*
 * resolve.c - the resolve verb: the kernel's resolve_btfids.
 *
 * Per object, top to bottom:
 *   open -> classify (which kernel built it: release.h) -> collect symbols
 *   -> load BTF -> [7.x: kfunc rewrite -> dedup, distill, sort] -> look up
 *   -> patch a copy of .BTF_ids -> trampoline tables (v1 sets; 7.x
 *   vmlinux: the v2 table of every function) -> write the result
 * and only the last step writes (write.h: in place, -o's copy, or the 7.x
 * raw files). Every check happens before it, so a failed run leaves the
 * ELF as it was. Several objects may share one base BTF (-b), parsed once.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "btfids.h"
#include "btfids/cmdline.h"
#include "btfids/finalize.h"
#include "btfids/kfunc.h"
#include "btfids/lookup.h"
#include "btfids/patch.h"
#include "btfids/release.h"
#include "btfids/srctree.h"
#include "btfids/tramp2.h"
#include "btfids/verdict.h"
#include "btfids/tramp_fill.h"
#include "btfids/write.h"

struct resolve_opts {
	const char *btf_path;
	const char *base_path;
	const char *output;		/* -o: write a patched copy here */
	const char *patch_blob;		/* --patch_btfids BLOB */
	const char *kernel;		/* --kernel RELEASE: overrides the ELF's own */
	bool fatal_warnings;
	bool distill_base;		/* --distill_base (7.x) */
	bool distill_said;		/* ... and that a 6.x run ignores it */
	bool batch;			/* several objects on one base */
	bool tramp_table;		/* --tramp_table: the v2 table, placed or not */
	bool base_elf_tried;		/* --btf_base opened as an ELF (once, for modules' tables) */
	struct btfids_elf base_elf;	/* then it; .elf NULL: raw BTF, or unreadable */
	struct btf *base;		/* parsed once for all objects */
	int base_err;			/* why it could not be, then */
	int base_verified;		/* 7.x: 1 its types pass the kernel's checks, < 0 not */
	struct btfids_btf_index *base_index;	/* its names, when several objects share it */
	struct btfids_report rep;
};

void btfids_resolve_usage(FILE *f)
{
	fprintf(f,
		"Usage: btfids [resolve] [OPTIONS] ELF...\n"
		"       btfids [resolve] --patch_btfids BLOB ELF\n\n"
		"Fill the .BTF_ids section of each ELF (vmlinux or a module), the way the\n"
		"kernel it was built from expects: 6.x in place; 7.x (scripts/gen-btf.sh)\n"
		"rewrites and sorts the BTF and writes ELF.BTF_ids, ELF.BTF (and with\n"
		"--distill_base ELF.BTF.base), leaving ELF as it is. The kernel release is\n"
		"read from the ELF (linux_banner in vmlinux, vermagic= in a module's\n"
		".modinfo), else from the kernel tree its debug info names (a test object);\n"
		"an ELF with none is taken as 6.x unless --kernel says, one that does not\n"
		"parse is an error unless --kernel says.\n"
		"-v prints how each ELF was classified.\n\n"
		"  -v, --verbose          more output (repeat for more)\n"
		"      --btf FILE         read BTF from FILE (raw or ELF), not the ELF's .BTF\n"
		"  -b, --btf_base FILE    base BTF for split (module) BTF: vmlinux or raw BTF\n"
		"      --fatal_warnings   fail (exit 255, nothing written) on any warning\n"
		"      --distill_base     7.x: distill the base, write ELF.BTF.base\n"
		"      --kernel RELEASE   take the ELF as built from RELEASE (6.12, 7.2, 7.3...)\n"
		"      --tramp_table      7.x vmlinux: write ELF.BTF_tramp, the trampoline table\n"
		"                         of every function, also when the ELF's linker script\n"
		"                         does not place .BTF_tramp (__start_BTF_tramp)\n"
		"  -o, --output FILE      6.x: write the patched copy to FILE, leave ELF as it is;\n"
		"                         7.x: name the output files FILE.BTF_ids, FILE.BTF...\n"
		"      --patch_btfids BLOB  copy BLOB (exactly the section's size) into .BTF_ids,\n"
		"                           and BLOB's .BTF_tramp sibling, if any, into .BTF_tramp\n"
		"      --no-fail          accepted and ignored (5.x kbuild passed it)\n"
		"      --version          btfids' and libbpf's versions (alone: btfids --version)\n"
		"  -h, --help             this help (exit status 129, as the kernel tool's)\n\n"
		"Exit status, the kernel tool's (kbuild's link step reads it): 0 ok,\n"
		"255 failure, 129 usage error.\n");
}

static const char *plural(size_t n)
{
	return n == 1 ? "" : "s";
}

/* -v: one line per object; -vv: also every slot with the ID it gets. */
static void summary(struct resolve_opts *o, const struct btfids_elf *e,
		    const struct btfids_syms *s)
{
	size_t i, unresolved = 0;

	for (i = 0; i < s->nr_targets; i++)
		unresolved += !s->targets[i].id;
	btfids_dbg(&o->rep, 1, "%s: %zu slot%s for %zu name%s (%zu unresolved), %zu set%s, %llu bytes of .BTF_ids\n",
		   e->path, s->nr_slots, plural(s->nr_slots), s->nr_targets,
		   plural(s->nr_targets), unresolved, s->nr_sets, plural(s->nr_sets),
		   (unsigned long long)e->ids.size);
	for (i = 0; i < s->nr_slots && o->rep.verbose >= 2; i++) {
		const struct btfids_target *t = &s->targets[s->slots[i].target];

		btfids_dbg(&o->rep, 2, "%s: .BTF_ids+0x%04llx  %-7s %-40s ID %u\n", e->path,
			   (unsigned long long)s->slots[i].off, btfids_kind_str(t->kind),
			   t->name, t->id);
	}
}

/* What one object's run works on, stage by stage. */
struct run {
	struct btfids_elf e;
	struct btfids_release rel;
	bool classified;		/* flow is known */
	enum btfids_flow flow;
	struct btfids_syms s;
	struct btf *btf;		/* the BTF the IDs come from (final, in 7.x) */
	struct btf *base;		/* 7.x --distill_base: the distilled base */
	struct btfids_tramp t;
	bool tramp2;			/* 7.x vmlinux: make the v2 table */
	const char *tramp2_why;		/* what asked for it */
	struct btfids_tramp2 t2;
	unsigned char *ids;		/* the new .BTF_ids; NULL: none to write */
	bool own_base;			/* -b names this very vmlinux: not split */
};

/*
 * The base BTF of @u's: -b's, unless -b names the ELF itself and it is no
 * module ("btfids -b vmlinux vmlinux", a vmlinux in a batch of its
 * modules): a vmlinux's BTF is its own, as check and dump read it. Split
 * on itself, every type would be there twice ("multiple IDs" for each).
 */
static struct btf *base_of(const struct resolve_opts *o, const struct run *u)
{
	return u->own_base ? NULL : o->base;
}


/*
 * Which kernel built @path: --kernel, else its linux_banner or vermagic,
 * else the kernel tree its debug info names (srctree.h). Fails when that
 * names trees of two releases, and when a banner or vermagic is there but
 * does not parse: a wrong guess patches a 7.x object in place or a 6.x one
 * not at all.
 */
static int classify(struct resolve_opts *o, struct run *u)
{
	struct btfids_srctree t;
	char why[PATH_MAX + 96];
	int err = 0;

	if (o->kernel) {
		btfids_release_parse(o->kernel, &u->rel);	/* checked with the options */
		u->rel.from = "--kernel";
	} else {
		err = btfids_release_find(&u->e, &u->rel, &t, &o->rep);
	}
	if (err == -EBADMSG) {
		btfids_err(&o->rep, u->e.path, "%s \"%s\" does not name a kernel release (MAJOR.MINOR, each 0 to 999): 6.x or 7.x flow unknown (--kernel RELEASE to say)",
			   u->rel.bad, u->rel.text);
		return err;
	}
	if (err == -ENOTUNIQ || err == -ENOMEM)
		return err;
	u->flow = btfids_release_flow(&u->rel);
	u->classified = true;
	if (u->rel.from && !strcmp(u->rel.from, BTFIDS_FROM_SRCTREE))
		btfids_dbg(&o->rep, 1, "%s: Linux %s (from the kernel tree %s, its top Makefile; the debug info names %s): %s\n",
			   u->e.path, u->rel.text, t.top, t.src, btfids_flow_str(u->flow));
	else if (u->rel.from)
		btfids_dbg(&o->rep, 1, "%s: Linux %s (from %s): %s\n", u->e.path, u->rel.text,
			   u->rel.from, btfids_flow_str(u->flow));
	else
		btfids_dbg(&o->rep, 1, "%s: no kernel release found (no linux_banner, no vermagic; %s): %s (--kernel to choose)\n",
			   u->e.path, btfids_srctree_why(&t, why, sizeof(why)), btfids_flow_str(u->flow));
	return 0;
}

/*
 * 7.x: the BTF to be rewritten and written passes the kernel's type checks
 * (verify.h), named by its file; so does its base where types of it are
 * written: a distilled base (a module's own .BTF.base, --distill_base).
 * -b's is checked once, and only with --distill_base: it is a vmlinux's
 * BTF, which a module's run reads but does not write, and kbuild runs one
 * process per module (2 ms each for the types of a vmlinux).
 */
static int check_types(struct resolve_opts *o, struct run *u)
{
	const struct btf *base = btf__base_btf(u->btf);
	const char *from = o->btf_path ? o->btf_path : u->e.path;
	int err = 0;

	if (base && base == o->base) {
		if (o->distill_base && !o->base_verified)
			o->base_verified = btfids_btf_check_types(base, o->base_path, &o->rep) ?: 1;
		err = o->base_verified < 0 ? o->base_verified : 0;
	} else if (base) {	/* a distilled .BTF.base */
		err = btfids_btf_check_types(base, from, &o->rep);
	}
	return err ? err : btfids_btf_check_types(u->btf, from, &o->rep);
}

/*
 * 7.x: .BTF_ids in link order for the kfunc rewrite, which pairs flags with
 * names by offset (*ids: a copy, NULL without .BTF_ids). An image the 7.x
 * flow finished (a packaged vmlinux or module, run again) has its set8s
 * resolved and sorted against its own .BTF: they are paired back by ID
 * (patch.h), so that the run gives back the image's bytes. Resolved against
 * another BTF (--btf), they cannot be: refused, nothing written.
 */
static int ids_in_link_order(struct resolve_opts *o, struct run *u, unsigned char **ids)
{
	const char *set;
	int err;

	*ids = NULL;
	if (!u->e.ids.index)
		return 0;
	*ids = malloc(u->e.ids.size + 1);
	if (!*ids) {
		btfids_err(&o->rep, u->e.path, "out of memory");
		return -ENOMEM;
	}
	memcpy(*ids, u->e.ids.data, u->e.ids.size);
	err = btfids_patch_unsort(&u->s, u->btf, *ids, btfids_elf_big_endian(&u->e), &set);
	if (err == -ESTALE)
		btfids_err(&o->rep, u->e.path, ".BTF_ids was resolved against another BTF than %s (set8 %s holds an ID that names none of its kfuncs there), so its kfunc flags cannot be paired: give the BTF it was resolved against, or the image before --patch_btfids; nothing written",
			   o->btf_path ? o->btf_path : "its own .BTF", set);
	else if (err)
		btfids_err(&o->rep, u->e.path, "out of memory");
	if (err) {
		free(*ids);
		*ids = NULL;
	}
	return err;
}

/* 7.x: the kfunc rewrite, then dedup, distill and sort (kfunc.h, finalize.h) */
static int rewrite_btf(struct resolve_opts *o, struct run *u)
{
	struct btfids_final f;
	unsigned char *ids;
	int added, err;

	err = check_types(o, u);
	if (!err)
		err = ids_in_link_order(o, u, &ids);
	if (err)
		return err;
	added = btfids_kfuncs_rewrite(u->btf, &u->e, &u->s, ids, u->flow, &o->rep);
	free(ids);
	if (added < 0)
		return added;
	err = btfids_finalize(u->btf, added, o->distill_base, u->flow, &u->s, u->e.path,
			      &f, &o->rep);
	u->btf = NULL;
	if (err)
		return err;
	u->btf = f.btf;
	u->base = f.base;
	return 0;
}

/* A copy of .BTF_ids with every slot, count and set filled in. */
static int patch_ids(struct resolve_opts *o, struct run *u)
{
	int err;

	if (!u->e.ids.size || !u->e.symtab_index)
		return 0;
	err = btfids_patch_section(&u->e, &u->s, &u->ids);
	if (err)
		btfids_err(&o->rep, u->e.path, "out of memory");
	return err;
}

/* The kernel whose model rules the tables follow: the release, or none (0: v6.18's, fmodel.h) */
static unsigned int release_rules(const struct run *u)
{
	return u->rel.from ? BTFIDS_KERNEL(u->rel.major, u->rel.minor) : 0;
}

/*
 * The base vmlinux (--btf_base) as an ELF, opened once for a run or a
 * batch of modules (whether it places .BTF_tramp, what the modules'
 * verdicts need of it), or NULL when it is raw BTF or cannot be read
 * (said then)
 */
static const struct btfids_elf *base_elf(struct resolve_opts *o)
{
	if (!o->base_elf_tried) {
		o->base_elf_tried = true;
		o->base_elf.fd = -1;
		if (btfids_btf_file_kind(o->base_path) == BTFIDS_FILE_ELF &&
		    btfids_elf_open(&o->base_elf, o->base_path, false, &o->rep))
			o->base_elf.elf = NULL;
	}
	return o->base_elf.elf ? &o->base_elf : NULL;
}

/* The base vmlinux places .BTF_tramp: a kernel that reads the tables, whose modules get one each */
static bool base_places_tramp(struct resolve_opts *o)
{
	const struct btfids_elf *b = base_elf(o);

	return b && btfids_elf_defines(b, "__start_BTF_tramp");
}

/*
 * The v2 table of every function (include/btfids/tramp.h): in the 7.x
 * flow, for a vmlinux (not ET_REL, no split BTF) whose linker script
 * places .BTF_tramp (__start_BTF_tramp: the kernel reads the table), or
 * with --tramp_table, unless .BTF_tramp holds declared sets (those keep
 * their v1 tables). A mainline kernel gets no extra file.
 */
static int want_tramp2(struct resolve_opts *o, struct run *u)
{
	bool module = u->e.type == ET_REL || base_of(o, u);
	const char *no = NULL;

	if (u->flow == BTFIDS_FLOW_6X)	/* --tramp_table refused by resolve_one() */
		return 0;
	if (module && !base_of(o, u))
		no = "a module's table needs its vmlinux (--btf_base)";
	else if (u->e.tramp.size)
		no = ".BTF_tramp holds declared sets: their v1 tables are written";
	if (no && o->tramp_table) {
		btfids_err(&o->rep, u->e.path, "--tramp_table: %s", no);
		return -EINVAL;
	}
	if (no)
		return 0;
	if (module ? base_places_tramp(o) : btfids_elf_defines(&u->e, "__start_BTF_tramp"))
		u->tramp2_why = module ? "its vmlinux places .BTF_tramp" :
				"its linker script places .BTF_tramp";
	else if (o->tramp_table)
		u->tramp2_why = "--tramp_table";
	u->tramp2 = u->tramp2_why != NULL;
	return 0;
}

/*
 * A module's (verdict.h btfids_attach_info_read_module()), on its vmlinux
 * (--btf_base): an x86_64 module with ftrace call sites
 */
static int module_attach_info(struct resolve_opts *o, struct run *u,
			      struct btfids_attach_info **ai)
{
	const struct btfids_elf *b;
	int err;

	if (u->e.machine != EM_X86_64)
		return 0;
	b = base_elf(o);
	if (!b) {
		btfids_warn(&o->rep, "%s: the trampoline table is version 2, without attach verdicts: --btf_base %s is not an ELF btfids can read, and a module's verdicts need its vmlinux's",
			    u->e.path, o->base_path);
		return 0;
	}
	err = btfids_attach_info_read_module(&u->e, b, release_rules(u), ai, &o->rep);
	if (err < 0)	/* 1: no verdicts, said */
		btfids_warn(&o->rep, "%s: the trampoline table is version 2, without attach verdicts (above: why)",
			    u->e.path);
	return 0;
}

/*
 * The facts of @u the attach verdicts need (verdict.h), or NULL: only an
 * x86_64, arm64 or s390x vmlinux with ftrace call sites gets verdicts; its table is then
 * version 3. When they cannot be read (said), the table is version 2:
 * the link goes on.
 */
static int attach_info(struct resolve_opts *o, struct run *u, struct btfids_attach_info **ai)
{
	*ai = NULL;
	if (u->e.type == ET_REL)
		return module_attach_info(o, u, ai);
	if ((u->e.machine != EM_X86_64 && u->e.machine != EM_AARCH64 && u->e.machine != EM_S390) ||
	    !btfids_elf_defines(&u->e, "__start_mcount_loc"))
		return 0;
	if (btfids_attach_info_read(&u->e, u->ids, release_rules(u), ai, &o->rep) < 0)
		btfids_warn(&o->rep, "%s: the trampoline table is version 2, without attach verdicts (above: why)",
			    u->e.path);
	return 0;
}

/* The table from the final BTF, by the release's rules; -v says what it is. */
static int build_tramp2(struct resolve_opts *o, struct run *u)
{
	struct btfids_attach_info *ai = NULL;
	struct btfids_tramp_rules ru;
	struct btfids_tramp2 *t = &u->t2;
	int err;

	err = btfids_tramp_rules_init(&ru, &u->e, &u->s, u->ids, release_rules(u));
	if (err) {
		btfids_err(&o->rep, u->e.path, "out of memory");
		return err;
	}
	err = attach_info(o, u, &ai);
	if (!err)
		err = btfids_tramp2_build(u->btf, &ru, ai, btfids_elf_big_endian(&u->e), u->e.path,
					  t, &o->rep);
	if (!err)
		btfids_dbg(&o->rep, 1, "%s: trampoline table v%u (%s): %u functions, %u classes, %u verdicts, %u bytes (%.2f a function), %s, %s rules\n",
			   u->e.path, t->version, u->tramp2_why, t->nr_funcs, t->nr_classes,
			   t->nr_verdicts, t->size,
			   t->nr_funcs ? (double)t->size / t->nr_funcs : 0.0, ru.a.name,
			   u->rel.from ? u->rel.text : "no release found: v6.18's");
	btfids_attach_info_free(ai);
	btfids_tramp_rules_free(&ru);
	return err;
}

/* Everything up to the write. */
static int compute(struct resolve_opts *o, struct run *u)
{
	unsigned int warnings = o->rep.warnings;
	bool has_ids = u->e.ids.index && u->e.symtab_index;
	int err = 0;

	if (has_ids)
		err = btfids_syms_collect(&u->e, &u->s, &o->rep);
	/* no slot and no set: stripped? (the scan is only paid then) */
	if (!err && !u->s.nr_slots && !u->s.nr_sets)
		err = btfids_elf_check_ids_named(&u->e, &o->rep);
	if (!err)
		err = want_tramp2(o, u);
	if (has_ids)	/* the BTF work needs memory, not the symbol table */
		btfids_elf_drop_syms(&u->e);
	if (!err) {
		err = btfids_btf_load(&u->e, o->btf_path, base_of(o, u), &u->btf, &o->rep);
		if (err == -EINVAL && base_of(o, u) && !o->btf_path)
			btfids_say_other_build("btfids", u->e.path, &u->rel,
					       btfids_elf_big_endian(&u->e), o->base_path, &o->rep);
	}
	if (!err && u->flow != BTFIDS_FLOW_6X)
		err = rewrite_btf(o, u);
	if (!err && has_ids)
		err = btfids_lookup_indexed(u->btf, u->base || u->own_base ? NULL : o->base_index,
					    &u->s, u->e.path, &o->rep);
	if (!err)
		err = patch_ids(o, u);
	if (!err && has_ids)	/* trampoline tables: built now, written with .BTF_ids */
		err = btfids_tramp_fill(&u->e, &u->s, u->btf, u->ids, release_rules(u),
					&u->t, &o->rep);
	if (!err && u->tramp2)
		err = build_tramp2(o, u);
	if (err)
		return err;
	if (o->fatal_warnings && o->rep.warnings != warnings) {
		btfids_err(&o->rep, u->e.path, "%u warning(s) with --fatal_warnings; %s",
			   o->rep.warnings - warnings, u->flow == BTFIDS_FLOW_6X ?
			   "file left unchanged" : "no output written");
		return -EINVAL;
	}
	return 0;
}

/*
 * -o: say what is wrong with OUT before any work (and any warning): a
 * directory, or a place where no file can be made.
 */
static int check_output(const char *out, struct btfids_report *r)
{
	char *copy, *dir;
	struct stat st;
	int err = 0;

	if (!*out) {
		btfids_err(r, NULL, "-o: an empty file name");
		return -EINVAL;
	}
	if (out[strlen(out) - 1] == '/' || (!stat(out, &st) && S_ISDIR(st.st_mode))) {
		btfids_err(r, out, "names a directory (-o takes the file to write)");
		return -EISDIR;
	}
	copy = strdup(out);
	if (!copy)
		return -ENOMEM;
	dir = dirname(copy);
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		btfids_err(r, out, "no directory %s to write it in", dir);
		err = -ENOENT;
	} else if (access(dir, W_OK | X_OK)) {
		err = -errno;
		btfids_err(r, out, "cannot write in %s: %s", dir, strerror(-err));
	}
	free(copy);
	return err;
}

static void run_free(struct run *u)
{
	btfids_tramp2_free(&u->t2);
	btfids_tramp_free(&u->t);
	free(u->ids);
	btf__free(u->btf);
	btf__free(u->base);
	btfids_syms_free(&u->s);
	btfids_elf_close(&u->e);
}

/* 6.x writes into the ELF (opened read-write for it); 7.x only reads it */
static int open_elf(struct resolve_opts *o, struct run *u, const char *path)
{
	int err = btfids_elf_open(&u->e, path, false, &o->rep);

	if (!err)
		err = classify(o, u);
	if (err || u->flow != BTFIDS_FLOW_6X || o->output)
		return err;
	btfids_elf_close(&u->e);
	return btfids_elf_open(&u->e, path, true, &o->rep);
}

/*
 * -b, parsed once, for the first object that needs it: after that object
 * is open and classified, so that its failure is that object's (a 7.x
 * run's stale outputs removed). A batch indexes its names.
 */
static int load_base(struct resolve_opts *o)
{
	if (!o->base_path || o->base || o->base_err)
		return o->base_err;
	o->base_err = btfids_btf_load_base(o->base_path, &o->base, &o->rep);
	if (!o->base_err && o->batch && btfids_btf_index_new(o->base, &o->base_index)) {
		btfids_err(&o->rep, o->base_path, "cannot index base BTF (malformed, or out of memory)");
		o->base_err = -ENOMEM;
	}
	return o->base_err;
}

/*
 * A failed run: outputs of an earlier 7.x run would be stale (kbuild links
 * or patches in whatever <ELF>.BTF* it finds; docs/design.md, "Guarantees"). They
 * go unless the run is known to be 6.x: by the ELF's release, or, when the
 * ELF could not be read or classified, by --kernel.
 */
static void forget_outputs(struct resolve_opts *o, const struct run *u, const char *path)
{
	struct btfids_release rel;

	if (u->classified && u->flow == BTFIDS_FLOW_6X)
		return;
	if (!u->classified && o->kernel && !btfids_release_parse(o->kernel, &rel) &&
	    (rel.from = "--kernel", btfids_release_flow(&rel) == BTFIDS_FLOW_6X))
		return;
	btfids_write_remove_raw(o->output ? o->output : path, &o->rep);
}

static int resolve_one(struct resolve_opts *o, const char *path)
{
	struct run u = {};
	enum btfids_dest dest;
	int err;

	err = open_elf(o, &u, path);
	if (!err)	/* bad input even where it is not used: refused */
		err = load_base(o);
	/*
	 * -b is a module's base; a vmlinux's BTF is its own (not split), as
	 * check, dump and models read it. The kernel's tool would parse it as
	 * split on -b's, every ID shifted by the base's type count.
	 */
	if (!err && o->base_path && u.e.type != ET_REL) {
		u.own_base = true;
		if (btfids_same_file(o->base_path, path))
			btfids_dbg(&o->rep, 1, "%s: -b names this vmlinux itself: its BTF is read as its own, not split\n",
				   path);
		else
			btfids_dbg(&o->rep, 0, "btfids: %s: not a module: -b %s not used, a vmlinux's BTF is its own\n",
				   path, o->base_path);
	}
	if (err) {
		forget_outputs(o, &u, path);
		run_free(&u);
		return err;
	}
	dest = u.flow != BTFIDS_FLOW_6X ? BTFIDS_DEST_RAW :
	       o->output ? BTFIDS_DEST_COPY : BTFIDS_DEST_IN_PLACE;
	/* 6.x kbuild has pahole write .BTF.base (scripts/Makefile.btf); say so, once */
	if (dest != BTFIDS_DEST_RAW && o->distill_base && !o->distill_said) {
		btfids_dbg(&o->rep, 0, "btfids: %s: --distill_base ignored: the 6.x flow writes no ELF.BTF.base (pahole puts .BTF.base in a 6.x module)\n",
			   path);
		o->distill_said = true;
	}
	if (dest != BTFIDS_DEST_RAW && o->tramp_table) {
		btfids_err(&o->rep, path, "--tramp_table: the 6.x flow links no <ELF>.BTF_tramp (the 7.x flow writes it); file left unchanged");
		err = -EINVAL;
		goto out;
	}
	if (dest != BTFIDS_DEST_RAW && (!u.e.ids.index || !u.e.symtab_index)) {
		err = btfids_elf_check_ids_named(&u.e, &o->rep);	/* stripped? */
		if (err)
			goto out;
		btfids_dbg(&o->rep, 1, "%s: no .BTF_ids or no symbol table, nothing to do\n", path);
		err = o->output ? btfids_write_result(&u.e, dest, o->output,
						      &(struct btfids_result){}, &o->rep) : 0;
		goto out;
	}
	err = compute(o, &u);
	if (!err) {
		summary(o, &u.e, &u.s);
		err = btfids_write_result(&u.e, dest, o->output, &(struct btfids_result){
			.ids = u.ids, .tramp = &u.t, .tramp2 = &u.t2, .btf = u.btf,
			.base = u.base,
		}, &o->rep);
	} else {
		forget_outputs(o, &u, path);
	}
out:
	run_free(&u);
	return err;
}

/*
 * @path's bytes into *buf, which must be exactly @size (the section's):
 * 0, -ENOENT when @path does not exist and @may_lack, else an error line.
 */
static int read_blob(const char *path, const char *elf, const char *sec, uint64_t size,
		     bool may_lack, unsigned char **buf, struct btfids_report *r)
{
	struct stat st;
	int fd, err = -EINVAL;

	*buf = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT && may_lack)
		return -ENOENT;
	if (fd < 0 || fstat(fd, &st)) {
		btfids_err(r, path, "cannot open: %s", strerror(errno));
		goto out;
	}
	if ((uint64_t)st.st_size != size) {
		btfids_err(r, elf, "size mismatch - %s section is %llu bytes, %s is %llu bytes",
			   sec, (unsigned long long)size, path, (unsigned long long)st.st_size);
		goto out;
	}
	*buf = malloc(size + 1);
	if (!*buf || pread(fd, *buf, size, 0) != (ssize_t)size) {
		btfids_err(r, path, "cannot read");
		goto out;
	}
	err = 0;
out:
	if (fd >= 0)
		close(fd);
	if (err) {
		free(*buf);
		*buf = NULL;
	}
	return err;
}

/*
 * The trampoline tables the 7.x run wrote beside BLOB (<elf>.BTF_ids ->
 * <elf>.BTF_tramp), for the image's .BTF_tramp: *buf, or NULL when there
 * is none to write (no such file: the kernel's resolve_btfids made BLOB;
 * or the v2 table, which gen-btf.sh linked into the image already).
 */
static int tramp_blob(struct resolve_opts *o, const struct btfids_elf *e,
		      unsigned char **buf)
{
	size_t n = strlen(o->patch_blob), k = strlen(".BTF_ids");
	char *path;
	int err;

	*buf = NULL;
	if (n < k || strcmp(o->patch_blob + n - k, ".BTF_ids") ||
	    asprintf(&path, "%.*s.BTF_tramp", (int)(n - k), o->patch_blob) < 0)
		return 0;
	if (btfids_tramp2_file_is(path, btfids_elf_big_endian(e))) {
		btfids_dbg(&o->rep, 1, "%s: %s is the v2 table, linked by gen-btf.sh (not patched in): .BTF_tramp left as it is\n",
			   e->path, path);
		err = 0;
	} else if (!e->tramp.index) {
		err = access(path, F_OK) ? 0 : -EINVAL;
		if (err)
			btfids_err(&o->rep, e->path, "%s holds trampoline tables, but the image has no .BTF_tramp section (another image?)",
				   path);
	} else {
		err = read_blob(path, e->path, ".BTF_tramp", e->tramp.size, true, buf, &o->rep);
		if (err == -ENOENT) {
			btfids_dbg(&o->rep, 1, "%s: no %s, .BTF_tramp left as it is\n", e->path, path);
			err = 0;
		}
	}
	free(path);
	return err;
}

/*
 * --patch_btfids BLOB ELF without BLOB: when ELF carries no release, the
 * resolve run before it took the 6.x flow (unless it had --kernel),
 * patched ELF in place and wrote no BLOB. Say so; true when said.
 */
static bool blob_not_written(struct resolve_opts *o, const struct btfids_elf *e)
{
	struct btfids_release rel;
	struct btfids_srctree t;
	char why[PATH_MAX + 96];

	if (!access(o->patch_blob, F_OK) || errno != ENOENT ||
	    btfids_release_find(e, &rel, &t, &o->rep) != -ENOENT)
		return false;
	btfids_err(&o->rep, o->patch_blob, "cannot open: %s: %s carries no kernel release (no linux_banner, no vermagic; %s), so resolving it took the 6.x flow, in place, and wrote no %s; resolve it with --kernel RELEASE (the 7.x release of the tree that builds it)",
		   strerror(ENOENT), e->path, btfids_srctree_why(&t, why, sizeof(why)),
		   o->patch_blob);
	return true;
}

/*
 * 7.0's --patch_btfids: BLOB is the whole .BTF_ids, already in target
 * order. btfids also copies <elf>.BTF_tramp, when its 7.x run wrote one,
 * into .BTF_tramp. Every file is read and checked before the first write.
 */
static int patch_blob(struct resolve_opts *o, const char *path)
{
	unsigned char *ids = NULL, *tramp = NULL;
	struct btfids_elf e;
	int err;

	err = btfids_elf_open(&e, path, true, &o->rep);
	if (err)
		return err;
	err = -EINVAL;
	if (!e.ids.index) {
		btfids_err(&o->rep, path, "section .BTF_ids not found");
		goto out;
	}
	if (blob_not_written(o, &e))
		goto out;
	err = read_blob(o->patch_blob, path, ".BTF_ids", e.ids.size, false, &ids, &o->rep);
	if (!err)
		err = tramp_blob(o, &e, &tramp);
	if (!err)
		err = btfids_elf_write_ids(&e, ids, &o->rep);
	if (!err && tramp)
		err = btfids_tramp_write(&e, &(struct btfids_tramp){
			.sec = e.tramp, .buf = tramp, .nr_tables = 1 }, &o->rep);
out:
	free(ids);
	free(tramp);
	btfids_elf_close(&e);
	return err;
}

enum { OPT_BTF = 256, OPT_FATAL, OPT_PATCH, OPT_NO_FAIL, OPT_DISTILL, OPT_KERNEL, OPT_TRAMP };

static const struct option long_opts[] = {
	{ "verbose", no_argument, NULL, 'v' },
	{ "btf", required_argument, NULL, OPT_BTF },
	{ "btf_base", required_argument, NULL, 'b' },
	{ "fatal_warnings", no_argument, NULL, OPT_FATAL },
	{ "distill_base", no_argument, NULL, OPT_DISTILL },
	{ "kernel", required_argument, NULL, OPT_KERNEL },
	{ "tramp_table", no_argument, NULL, OPT_TRAMP },
	{ "patch_btfids", required_argument, NULL, OPT_PATCH },
	{ "output", required_argument, NULL, 'o' },
	{ "no-fail", no_argument, NULL, OPT_NO_FAIL },	/* 5.x kbuild; a no-op */
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* What an option's value is, as --help names it. */
static const char *value_name(int opt)
{
	switch (opt) {
	case OPT_KERNEL:
		return "a RELEASE (6.12, 7.2, 7.3...)";
	case OPT_PATCH:
		return "a BLOB (the <ELF>.BTF_ids a 7.x run wrote)";
	default:
		return "a FILE";
	}
}

/* Returns the index of the first ELF argument, or -1 after a usage error. */
static int parse_args(int argc, char **argv, struct resolve_opts *o)
{
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":vb:o:h", long_opts, NULL)) != -1) {
		switch (c) {
		case 'v':
			o->rep.verbose++;
			break;
		case OPT_BTF:
			o->btf_path = optarg;
			break;
		case 'b':
			o->base_path = optarg;
			break;
		case OPT_FATAL:
			o->fatal_warnings = true;
			break;
		case OPT_PATCH:
			o->patch_blob = optarg;
			break;
		case 'o':
			o->output = optarg;
			break;
		case OPT_NO_FAIL:
			break;
		case OPT_DISTILL:
			o->distill_base = true;
			break;
		case OPT_TRAMP:
			o->tramp_table = true;
			break;
		case OPT_KERNEL: {
			struct btfids_release rel;

			if (btfids_release_parse(optarg, &rel)) {
				fprintf(stderr, "btfids: --kernel %s: not a kernel release (e.g. 6.12, 7.2, 7.3)\n",
					optarg);
				return -1;
			}
			o->kernel = optarg;
			break;
		}
		case 'h':
			btfids_resolve_usage(stdout);
			exit(BTFIDS_EXIT_USAGE);
		case ':':
			fprintf(stderr, "btfids: option %s needs %s\n", argv[optind - 1],
				value_name(optopt));
			return -1;
		default:
			btfids_unknown_option("btfids", argv[optind - 1], long_opts);
			return -1;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "btfids: no ELF file given\n");
		return -1;
	}
	/* the kernel tool takes one file: more is a batch of modules on one base */
	if (argc - optind > 1 && !o->base_path && !o->output && !o->patch_blob) {
		fprintf(stderr, "btfids: several ELF files are a batch of modules: name their base with -b vmlinux\n");
		return -1;
	}
	if ((o->output || o->patch_blob) && argc - optind != 1) {
		fprintf(stderr, "btfids: -o and --patch_btfids take exactly one ELF file\n");
		return -1;
	}
	if (o->output && o->patch_blob) {
		fprintf(stderr, "btfids: --patch_btfids edits in place; it does not take -o\n");
		return -1;
	}
	/* -o naming the input itself (a link to it included) is an in-place run */
	if (o->output && btfids_same_file(o->output, argv[optind]))
		o->output = NULL;
	return optind;
}

int do_resolve(int argc, char **argv)
{
	struct resolve_opts o = {};
	int i, first, failed = 0;

	first = parse_args(argc, argv, &o);
	if (first < 0) {
		btfids_try_help(NULL);
		return BTFIDS_EXIT_USAGE;
	}
	if (o.patch_blob)
		return patch_blob(&o, argv[first]) ? BTFIDS_EXIT_FAIL : BTFIDS_EXIT_OK;
	if (o.output && check_output(o.output, &o.rep))	/* before any work */
		return BTFIDS_EXIT_FAIL;
	/* a batch looks the base's names up in an index instead of walking it each time */
	o.batch = argc - first > 1;
	for (i = first; i < argc; i++)
		failed |= resolve_one(&o, argv[i]) != 0;
	btfids_btf_index_free(o.base_index);
	btf__free(o.base);
	if (o.base_elf.elf)
		btfids_elf_close(&o.base_elf);
	return failed ? BTFIDS_EXIT_FAIL : BTFIDS_EXIT_OK;
}
