// SPDX-License-Identifier: GPL-2.0
/*
 * models.c - the models verb: trampoline function models as JSON Lines.
 *
 *   btfids models --all [--arch NAME] [--kernel RELEASE] [-b BASE] FILE
 *       every FUNC of FILE's BTF (an ELF with .BTF, or raw BTF, which
 *       needs --arch), computed now, in BTF ID order, by the rules of the
 *       release the ELF says it is, or of --kernel (6.1 on; fmodel.h);
 *   btfids models [-b BASE] ELF
 *       the trampoline tables stored in ELF's .BTF_tramp, read back from
 *       their bytes (not recomputed), each table in BTF ID order; BASE
 *       only names the entries of a module (split BTF);
 *   btfids models [--btf BTF] VMLINUX | --btf BTF FILE.BTF_tramp
 *       a v2 table (every function, class-indexed: tramp2.c), in a
 *       vmlinux's .BTF_tramp or the raw file the 7.x flow writes, checked
 *       as the kernel checks it, named from BTF (the ELF's, or --btf's);
 *       each line also has "class".
 *
 * One JSON object a line, written by the one JSON writer (json.c); the
 * schema is fixed (btfids-models(1)): name, id, attachable,
 * then reason when not attachable, then the model (nr_args, ret_size,
 * ret_flags, arg_size, arg_flags, slots) when it was distilled, then loc
 * when attachable.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "btfids.h"
#include "btfids/cmdline.h"
#include "btfids/fmodel.h"
#include "btfids/kfunc.h"
#include "btfids/patch.h"
#include "btfids/release.h"
#include "btfids/srctree.h"
#include "btfids/json.h"
#include "btfids/lookup.h"
#include "btfids/tramp2.h"
#include "btfids/tramp_class.h"
#include "btfids/verdict.h"
#include "btfids/tramp_fill.h"

void btfids_models_usage(FILE *f)
{
	fprintf(f,
		"Usage: btfids models --all [--arch NAME] [--kernel RELEASE] [-b BASE]\n"
		"                     [--func PATTERN] [--verdicts] [--taken TYPE] [-v] FILE\n"
		"       btfids models [-b BASE] [--func PATTERN] ELF\n"
		"       btfids models [--btf BTF] [--func PATTERN] [--taken TYPE]\n"
		"                     VMLINUX | --btf BTF FILE.BTF_tramp\n\n"
		"Print BPF trampoline function models as JSON Lines, by BTF ID.\n\n"
		"  -a, --all             every FUNC of FILE's BTF (ELF with .BTF, or raw BTF)\n"
		"      --arch NAME       target for raw BTF: x86_64 arm64 s390x riscv64\n"
		"                        loongarch64 powerpc64 powerpc64le i386 arm mips\n"
		"                        powerpc riscv32 (for an ELF: overrides e_machine;\n"
		"                        another machine than the ELF's gets no verdicts)\n"
		"      --kernel RELEASE  the rules of that kernel, 6.1 to 7.3 (default: the\n"
		"                        release the ELF says; none found: v6.18's models,\n"
		"                        the newest verdicts)\n"
		"  -b, --btf_base BASE   base BTF when FILE's BTF is split (a module); a vmlinux\n"
		"                        is read on its own BTF\n"
		"      --btf BTF         a v2 table's BTF (raw or ELF): names, crc32; needed\n"
		"                        for a raw FILE.BTF_tramp\n"
		"  -f, --func PATTERN    only the functions whose name matches PATTERN (a shell\n"
		"                        glob: bpf_iter_*, vfs_read)\n"
		"      --verdicts        with --all on an x86_64, arm64 or s390x vmlinux (or an\n"
		"                        x86_64 module, with -b VMLINUX), by its own\n"
		"                        machine's rules: each function's attach\n"
		"                        verdicts, taken or refused with the kernel's reason,\n"
		"                        errno and step: fentry, fexit, fmod_ret; x86_64 from\n"
		"                        7.2 on also fentry.multi, fexit.multi (tracing_multi)\n"
		"      --taken TYPE      only the functions an attach of TYPE takes (fentry,\n"
		"                        fexit, fmod_ret, fentry.multi, fexit.multi): --all\n"
		"                        --verdicts's, or a version 3 table's (on a running\n"
		"                        kernel: --btf /sys/kernel/btf/vmlinux\n"
		"                        /sys/kernel/btf_tramp/vmlinux)\n"
		"  -v, --verbose         say on stderr which architecture's and kernel's rules\n"
		"                        --all used, and where the release came from\n"
		"  -h, --help            this help\n\n"
		"Without --all, print the tables btfids stored in ELF's .BTF_tramp (v1\n"
		"sets, or the v2 table of every function, with each one's class), or\n"
		"in a raw FILE.BTF_tramp of the 7.x flow.\n"
		"Exit status: 0 ok, 2 bad input or usage.\n");
}

struct models_opts {
	const char *arch;	/* --arch */
	const char *kernel_str;	/* --kernel */
	unsigned int kernel;	/* its BTFIDS_KERNEL(); 0: the ELF's, else none (fmodel.h) */
	const char *base;	/* -b */
	const char *btf;	/* --btf */
	const char *func;	/* --func */
	bool all;
	bool verdicts;		/* --verdicts */
	int taken;		/* --taken: an enum btfids_attach; -1: every function */
	int verbose;
	struct btfids_report rep;
};

/*
 * The kernel @e was built from (srctree.h) into *kernel and what said it
 * into @from, both left as they are when none is found (fmodel.h's 0);
 * fails when its debug info names two.
 */
static int elf_kernel(const struct btfids_elf *e, unsigned int *kernel, char *from,
		      size_t len, struct btfids_report *r)
{
	struct btfids_release rel;
	struct btfids_srctree t;
	int err = btfids_release_find(e, &rel, &t, r);

	if (!err) {
		*kernel = BTFIDS_KERNEL(rel.major, rel.minor);
		snprintf(from, len, "%s, from %s", rel.text, !rel.from ? "the ELF" :
			 !strcmp(rel.from, BTFIDS_FROM_SRCTREE) ? "its kernel tree" : rel.from);
	}
	return err == -ENOTUNIQ || err == -ENOMEM ? err : 0;
}

/*
 * FILE (or --btf's) is a file that can be read: else an error line naming
 * it and what it is instead. Returns BTFIDS_FILE_* or a negative errno.
 */
static int readable(const char *path, const char *opt, struct btfids_report *r)
{
	int kind = btfids_btf_file_kind(path);

	if (kind >= 0)
		return kind;
	btfids_err(r, path, "%s%scannot read it: %s", opt ? opt : "", opt ? ": " : "",
		   kind == -EISDIR ? "a directory" : kind == -EINVAL ? "not a regular file" :
		   strerror(-kind));
	return kind;
}

/* -v: the rules --all follows, on stderr (stdout is the JSON Lines) */
static void say_rules(const struct models_opts *o, const char *path,
		      const struct btfids_tramp_rules *ru, const char *from, bool own_base)
{
	unsigned int k = ru->a.kernel;
	char rel[256] = "v6.18's (no release found; the verdicts: the newest kernel's)";

	if (!o->verbose)
		return;
	if (k)
		snprintf(rel, sizeof(rel), "Linux %u.%u's (%s)%s", k >> 8, k & 0xff,
			 o->kernel_str ? "--kernel" : from,
			 k < BTFIDS_KERNEL(6, 1) ? ", which are 6.1's: the oldest btfids knows" : "");
	fprintf(stderr, "btfids models: %s: the %s rules (%s) of %s%s\n", path, ru->a.name,
		o->arch ? "--arch" : "its e_machine", rel,
		own_base ? "; -b not used: a vmlinux's BTF is its own" : "");
}

/* A module's BTF does not parse alone: say that -b names its base. */
static void btf_fail(const char *path, int err, bool based, struct btfids_report *r)
{
	char msg[128];

	btfids_err(r, path, "cannot read BTF: %s%s", btfids_btf_strerror(err, msg, sizeof(msg)),
		   based ? "" : " (a module's BTF is split: name its base with -b vmlinux)");
}

/*
 * Verdicts are read from the ELF's own code (its symbols, ftrace sites,
 * alternatives: verdict.h) by its own machine's rules: --arch naming
 * another machine gets none, and a warning that says so.
 */
static bool own_arch(const struct models_opts *o, const struct btfids_elf *e,
		     struct btfids_report *r)
{
	struct btfids_target_arch a, own;
	char mach[32];

	if (!o->arch)
		return true;
	btfids_arch_from_name(o->arch, &a);	/* checked by parse_args() */
	btfids_arch_from_elf(e->machine, e->elf_class, &own);
	if (a.machine == own.machine && a.ptr_size == own.ptr_size)
		return true;
	if (own.arch != BTFIDS_ARCH_NONE)
		snprintf(mach, sizeof(mach), "%s", own.name);
	else
		snprintf(mach, sizeof(mach), "e_machine %u", own.machine);
	btfids_warn(r, "%s: no attach verdicts: --arch %s is not its machine, %s (verdicts are read from the ELF's own code)",
		    e->path, o->arch, mach);
	return false;
}

/*
 * A module's verdicts read from it and from its vmlinux (-b: whether that
 * kernel has error injection, and is the patched one); no -b: a warning
 */
static int module_verdicts(struct models_opts *o, const struct btfids_elf *e,
			   unsigned int kernel, struct btfids_attach_info **ai)
{
	struct btfids_elf base = { .fd = -1 };
	int err;

	if (!o->base) {
		btfids_warn(&o->rep, "%s: no attach verdicts: a module needs its vmlinux (-b)",
			    e->path);
		return 0;
	}
	if (btfids_btf_file_kind(o->base) != BTFIDS_FILE_ELF) {
		btfids_warn(&o->rep, "%s: no attach verdicts: -b %s is raw BTF, and a module's verdicts need its vmlinux's ELF",
			    e->path, o->base);
		return 0;
	}
	if (btfids_elf_open(&base, o->base, false, &o->rep))
		return -EINVAL;
	err = btfids_attach_info_read_module(e, &base, kernel, ai, &o->rep);
	btfids_elf_close(&base);
	return err;
}

/*
 * The verdicts of an ELF's functions need its symbols while the lines are
 * written: the ELF stays open that long (@e->elf NULL when FILE is raw BTF).
 */
static int models_elf(struct models_opts *o, const char *path, struct btfids_elf *e,
		      struct btfids_tramp_rules *ru, unsigned int *kernel, char *from,
		      size_t len, bool *own_base, struct btfids_attach_info **ai)
{
	struct btfids_report *r = &o->rep;
	int err;

	if (btfids_elf_open(e, path, false, r))
		return -EINVAL;
	/* a vmlinux's BTF is its own, and so is -b's when it names FILE */
	*own_base = o->base && (e->type != ET_REL || btfids_same_file(o->base, path));
	/* the rules of the kernel the ELF was built from, unless --kernel says */
	err = *kernel ? 0 : elf_kernel(e, kernel, from, len, r);
	if (!err)
		err = btfids_tramp_rules_of_elf(ru, e, *kernel, r);
	if (!err && o->verdicts && own_arch(o, e, r))
		err = e->type == ET_REL ? module_verdicts(o, e, *kernel, ai) :
		      btfids_attach_info_read(e, NULL, *kernel, ai, r);
	return err > 0 ? 0 : err;
}

/*
 * Every FUNC's verdicts from @first on into *@out, in id order, made one id
 * a call site for tracing_multi (btfids_verdicts_one_site() wants them
 * all, whatever --func prints); 0, or -ENOMEM
 */
static int models_verdicts(const struct btfids_attach_info *ai, struct btfids_tramp_rules *ru,
			   const struct btf *btf, uint32_t first,
			   struct btfids_verdict (**out)[BTFIDS_NR_ATTACH])
{
	uint32_t n = btf__type_cnt(btf), id, k = 0;
	struct btfids_verdict (*v)[BTFIDS_NR_ATTACH] = calloc(n - first + 1, sizeof(*v));
	uint32_t *ids = calloc(n - first + 1, sizeof(*ids));
	const char **names = calloc(n - first + 1, sizeof(*names));
	struct btfids_fmodel m;
	long err = -ENOMEM;

	if (!v || !ids || !names)
		goto out;
	for (id = first; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		if (!btf_is_func(t))
			continue;
		names[k] = btf__name_by_offset(btf, t->name_off);
		ids[k] = id;
		btfids_tramp_model(ru, btf, id, &m);
		btfids_verdicts(ai, names[k], id, &m, v[k]);
		k++;
	}
	err = btfids_verdicts_one_site(ai, ids, names, k, v);
out:
	free(ids);
	free(names);
	if (err < 0) {
		free(v);
		return err;
	}
	*out = v;
	return 0;
}

static int models_all(struct models_opts *o, const char *path)
{
	struct btfids_report *r = &o->rep;
	int kind = readable(path, NULL, r), err;
	struct btfids_verdict (*all)[BTFIDS_NR_ATTACH] = NULL, *v = NULL;
	struct btfids_attach_info *ai = NULL;
	struct btfids_tramp_rules ru = {};
	struct btfids_elf e = { .fd = -1 };
	struct btf *base = NULL, *btf;
	unsigned int kernel = o->kernel;
	uint32_t id, first = 1, n, k = 0;
	bool own_base = false;
	struct btfids_fmodel m;
	struct btfids_json j;
	char from[160] = "";

	if (kind == BTFIDS_FILE_ELF) {
		err = models_elf(o, path, &e, &ru, &kernel, from, sizeof(from), &own_base, &ai);
		if (err) {
			btfids_tramp_rules_free(&ru);
			if (e.elf)
				btfids_elf_close(&e);
			return err;
		}
	} else if (kind < 0) {
		return kind;
	} else if (kind == BTFIDS_FILE_OTHER) {
		btfids_err(r, path, "cannot read BTF: neither an ELF file nor raw BTF (no 0xeb9f magic)");
		return -EINVAL;
	} else if (!o->arch) {
		btfids_err(r, path, "raw BTF: --arch NAME is required");
		return -EINVAL;
	} else if (o->verdicts) {
		btfids_warn(r, "%s: no attach verdicts: raw BTF (verdicts are read from a vmlinux's own code)",
			    path);
	}
	if (o->arch)
		btfids_arch_from_name(o->arch, &ru.a);	/* checked by do_models() */
	ru.a.kernel = kernel;
	err = 0;
	if (o->base && !own_base) {
		if (btfids_btf_load_base(o->base, &base, r)) {
			err = -EINVAL;
			goto out;
		}
		first = btf__type_cnt(base);
	}
	if (e.elf) {	/* checked, and refused in one line, as check and dump do */
		if (!e.btf.index) {
			btfids_err(r, path, "no .BTF section: nothing to model (encode BTF with pahole first)");
			err = -ENODATA;
			goto out;
		}
		err = btfids_btf_load(&e, NULL, base, &btf, r);
		if (base)
			btfids_say_other_build_elf("btfids models", &e, err, o->base, r);
		if (err)
			goto out;
	} else {
		errno = 0;
		btf = base ? btf__parse_split(path, base) : btf__parse(path, NULL);
		if (!btf) {
			err = errno ? -errno : -EINVAL;
			btf_fail(path, err, base, r);
			goto out;
		}
	}
	if (o->taken >= 0 && !ai) {
		btfids_err(r, path, "--taken %s: no attach verdicts for this file (an x86_64, arm64 or s390x vmlinux with ftrace has them, and an x86_64 module with -b VMLINUX)",
			   btfids_attach_str(o->taken));
		btf__free(btf);
		err = -EINVAL;
		goto out;
	}
	say_rules(o, path, &ru, from, own_base);
	if (ai) {
		err = models_verdicts(ai, &ru, btf, first, &all);
		if (err) {
			btfids_err(r, path, "no memory for the attach verdicts");
			btf__free(btf);
			goto out;
		}
	}
	btfids_json_init(&j, stdout);
	n = btf__type_cnt(btf);
	for (id = first; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const char *name = btf__name_by_offset(btf, t->name_off);

		if (!btf_is_func(t))
			continue;
		/* the k-th FUNC: models_verdicts() went in the same order */
		v = all ? all[k] : NULL;
		k++;
		if (!btfids_models_wanted(o->func, name))
			continue;
		if (o->taken >= 0 && (!v || !v[o->taken].given || v[o->taken].refusal))
			continue;
		btfids_tramp_model(&ru, btf, id, &m);
		btfids_tramp_class_print_verdicts(&j, name, id, -1, &m, v);
	}
	free(all);
	btf__free(btf);
	err = fflush(stdout) ? -EIO : 0;
out:
	btfids_attach_info_free(ai);
	btfids_tramp_rules_free(&ru);
	btf__free(base);
	if (e.elf)
		btfids_elf_close(&e);
	return err;
}

/* v1 sets (tramp.c) or a v2 table (tramp2.c), in an ELF or a raw file */
static int stored_tables(struct models_opts *o, const char *path)
{
	struct btfids_report *r = &o->rep;
	int kind = readable(path, NULL, r);
	struct btfids_elf e;
	bool v2;

	if (kind < 0)
		return kind;
	if (kind == BTFIDS_FILE_RAW_BTF) {
		btfids_err(r, path, "raw BTF holds no trampoline table: --all --arch NAME models its functions");
		return -EINVAL;
	}
	if (kind == BTFIDS_FILE_OTHER && !btfids_tramp2_file_is(path, -1)) {
		btfids_err(r, path, "neither an ELF file nor a raw trampoline table (the <ELF>.BTF_tramp of the 7.x flow: no v2 table magic)");
		return -EINVAL;
	}
	if (kind != BTFIDS_FILE_ELF)
		return btfids_tramp2_print(path, o->btf, o->base, o->func, o->taken, stdout, r);
	if (btfids_elf_open(&e, path, false, r))
		return -EINVAL;
	v2 = e.tramp.index && btfids_tramp2_is(e.tramp.data, e.tramp.size,
					       btfids_elf_big_endian(&e));
	btfids_elf_close(&e);
	if (v2)
		return btfids_tramp2_print(path, o->btf, o->base, o->func, o->taken, stdout, r);
	if (o->btf) {
		btfids_err(r, path, "--btf: its .BTF_tramp holds no v2 table (v1 tables are named from the ELF itself)");
		return -EINVAL;
	}
	if (o->taken >= 0) {
		btfids_err(r, path, "--taken: its .BTF_tramp holds no version 3 table, no verdicts (--all --verdicts computes them)");
		return -EINVAL;
	}
	return btfids_tramp_print(path, o->base, o->func, stdout, r);
}

static const struct option long_opts[] = {
	{ "all", no_argument, NULL, 'a' },
	{ "arch", required_argument, NULL, 'A' },
	{ "btf_base", required_argument, NULL, 'b' },
	{ "btf", required_argument, NULL, 'B' },
	{ "kernel", required_argument, NULL, 'K' },
	{ "func", required_argument, NULL, 'f' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "verdicts", no_argument, NULL, 'V' },
	{ "taken", required_argument, NULL, 'T' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* A usage error: its line, then where the help is. Returns the exit status. */
static int usage_err(const char *fmt, const char *arg)
{
	fputs("btfids models: ", stderr);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	btfids_try_help("models");
	return BTFIDS_EXIT_BAD;
}

/* The options into @o; returns -1 when they are fine, else the exit status. */
static int parse_args(int argc, char **argv, struct models_opts *o)
{
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ab:f:vh", long_opts, NULL)) != -1) {
		switch (c) {
		case 'a':
			o->all = true;
			break;
		case 'A':
			o->arch = optarg;
			break;
		case 'b':
			o->base = optarg;
			break;
		case 'B':
			o->btf = optarg;
			break;
		case 'K':
			o->kernel_str = optarg;
			break;
		case 'f':
			o->func = optarg;
			break;
		case 'v':
			o->verbose++;
			break;
		case 'V':
			o->verdicts = true;
			break;
		case 'T':
			for (o->taken = 0; o->taken < BTFIDS_NR_ATTACH; o->taken++)
				if (!strcmp(optarg, btfids_attach_str(o->taken)))
					break;
			if (o->taken == BTFIDS_NR_ATTACH)
				return usage_err("--taken %s: not an attach type (fentry, fexit, fmod_ret, fentry.multi, fexit.multi)",
						 optarg);
			break;
		case 'h':
			btfids_models_usage(stdout);
			return BTFIDS_EXIT_OK;
		case ':':
			return usage_err(optopt == 'A' ? "option %s needs a NAME" :
					 optopt == 'K' ? "option %s needs a RELEASE (6.12, 7.2, 7.3...)" :
					 optopt == 'f' ? "option %s needs a PATTERN" :
					 optopt == 'T' ? "option %s needs a TYPE (fentry.multi, ...)" :
					 optopt == 'b' ? "option %s needs a BASE" :
					 "option %s needs a FILE", argv[optind - 1]);
		default:
			btfids_unknown_option("btfids models", argv[optind - 1], long_opts);
			btfids_try_help("models");
			return BTFIDS_EXIT_BAD;
		}
	}
	if (argc - optind != 1)
		return usage_err("%s", argc == optind ? "no ELF file given" : "one file at a time");
	if (o->arch && btfids_arch_from_name(o->arch, &(struct btfids_target_arch){}))
		return usage_err("unknown --arch %s (--help lists the targets)", o->arch);
	if (o->kernel_str && !o->all)
		return usage_err("%s", "--kernel only with --all (stored tables are read back as they are)");
	if (o->kernel_str && btfids_kernel_from_str(o->kernel_str, &o->kernel))
		return usage_err("--kernel %s: not a kernel release (--kernel takes a version: 6.12, 7.2, 7.3)",
				 o->kernel_str);
	if (o->taken >= 0 && o->all)
		o->verdicts = true;
	if (o->verdicts && !o->all)
		return usage_err("%s", "--verdicts only with --all (a version 3 table, in an ELF or raw, shows its own)");
	if (o->btf && o->all)
		return usage_err("%s", "--btf names a stored v2 table's functions; --all reads FILE's own BTF");
	return -1;
}

int do_models(int argc, char **argv)
{
	struct models_opts o = { .rep = { .out = stderr }, .taken = -1 };
	int err;

	err = parse_args(argc, argv, &o);
	if (err >= 0)
		return err;
	if (o.btf && readable(o.btf, "--btf", &o.rep) < 0)
		return BTFIDS_EXIT_BAD;
	btfids_json_buffer(stdout);	/* a line per kernel function: 7 MB */
	if (o.all)
		err = models_all(&o, argv[optind]);
	else
		err = stored_tables(&o, argv[optind]);
	return err ? BTFIDS_EXIT_BAD : BTFIDS_EXIT_OK;
}
