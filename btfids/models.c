// SPDX-License-Identifier: GPL-2.0
/*
 * models.c - the models verb: trampoline function models as JSON Lines.
 *
 *   btfids models --all [--arch NAME] [--kernel X.Y] [-b BASE] FILE
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
 * schema is fixed (README, "Trampoline tables"): name, id, attachable,
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
#include "btfids/fmodel.h"
#include "btfids/kfunc.h"
#include "btfids/patch.h"
#include "btfids/release.h"
#include "btfids/srctree.h"
#include "btfids/json.h"
#include "btfids/lookup.h"
#include "btfids/tramp_fill.h"

void btfids_models_print_class(struct btfids_json *j, const char *name, uint32_t id,
			       long cls, const struct btfids_fmodel *m)
{
	bool ok = m->reason == BTF_TRAMP_OK;
	unsigned int i;
	char loc[BTFIDS_FMODEL_LOC_LEN];

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
	if (ok) {
		btfids_json_name(j, "loc");
		btfids_json_start_array(j);
		for (i = 0; i < m->nr_args; i++) {
			btfids_fmodel_loc_str(m, i, loc, sizeof(loc));
			btfids_json_string(j, loc);
		}
		btfids_json_end_array(j);
	}
	btfids_json_end_object(j);
	btfids_json_newline(j);
}

void btfids_models_print(struct btfids_json *j, const char *name, uint32_t id,
			 const struct btfids_fmodel *m)
{
	btfids_models_print_class(j, name, id, -1, m);
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: btfids models --all [--arch NAME] [--kernel X.Y] [-b BASE] FILE\n"
		"       btfids models [-b BASE] ELF\n"
		"       btfids models [--btf BTF] VMLINUX | --btf BTF FILE.BTF_tramp\n\n"
		"Print BPF trampoline function models as JSON Lines, by BTF ID.\n\n"
		"  --all              every FUNC of FILE's BTF (ELF with .BTF, or raw BTF)\n"
		"  --arch NAME        target for raw BTF: x86_64 arm64 s390x riscv64\n"
		"                     loongarch64 powerpc64 powerpc64le i386 arm mips\n"
		"                     powerpc riscv32 (for an ELF: overrides e_machine)\n"
		"  --kernel X.Y       the rules of that kernel, 6.1 on (default: the release\n"
		"                     the ELF says, else the newest, v6.18's)\n"
		"  -b, --btf_base F   base BTF when FILE's BTF is split (a module)\n"
		"      --btf BTF      a v2 table's BTF (raw or ELF): names, crc32; needed\n"
		"                     for a raw FILE.BTF_tramp\n"
		"  -h, --help         this help\n\n"
		"Without --all, print the tables btfids stored in ELF's .BTF_tramp (v1\n"
		"sets, or the v2 table of every function, with each one's class), or\n"
		"in a raw FILE.BTF_tramp of the 7.x flow.\n"
		"Exit status: 0 ok, 255 failure, 129 usage error.\n");
}

/* The KF_IMPLICIT_ARGS kfuncs of @e's resolved .BTF_ids (tramp_fill.h). */
static int implicit_of_elf(struct btfids_elf *e, uint32_t **ids, size_t *n,
			   struct btfids_report *r)
{
	struct btfids_syms s = {};
	int err;

	*ids = NULL;
	*n = 0;
	if (!e->ids.size || !e->symtab_index)
		return 0;
	err = btfids_syms_collect(e, &s, r);
	if (!err)
		err = btfids_implicit_kfuncs(&s, e->ids.data, btfids_elf_big_endian(e), ids, n);
	btfids_syms_free(&s);
	return err;
}

/*
 * The kernel @e was built from (srctree.h) into *kernel, left as it is when
 * none is found (the newest rules); fails when its debug info names two.
 */
static int elf_kernel(const struct btfids_elf *e, unsigned int *kernel,
		      struct btfids_report *r)
{
	struct btfids_release rel;
	struct btfids_srctree t;
	int err = btfids_release_find(e, &rel, &t, r);

	if (!err)
		*kernel = BTFIDS_KERNEL(rel.major, rel.minor);
	return err == -ENOTUNIQ || err == -ENOMEM ? err : 0;
}

static int models_all(const char *path, const char *arch, unsigned int kernel,
		      const char *base_path, struct btfids_report *r)
{
	int kind = btfids_btf_file_kind(path), err;
	struct btfids_tramp_rules ru = {};
	struct btf *base = NULL, *btf;
	uint32_t id, first = 1, n;
	struct btfids_fmodel m;
	struct btfids_json j;
	char msg[128];

	if (kind == BTFIDS_FILE_ELF) {
		struct btfids_elf e;

		if (btfids_elf_open(&e, path, false, r))
			return -EINVAL;
		btfids_arch_from_elf(e.machine, e.elf_class, &ru.a);
		/* the rules of the kernel the ELF was built from, unless --kernel says */
		err = kernel ? 0 : elf_kernel(&e, &kernel, r);
		if (!err && (!kernel || kernel >= BTFIDS_KERNEL(7, 3)))
			err = implicit_of_elf(&e, &ru.implicit, &ru.nr_implicit, r);
		btfids_elf_close(&e);
		if (err)
			return err;
	} else if (kind < 0 || kind == BTFIDS_FILE_OTHER) {
		btfids_err(r, path, "cannot read BTF: %s", kind == BTFIDS_FILE_OTHER ?
			   "neither an ELF file nor raw BTF (no 0xeb9f magic)" :
			   kind == -EINVAL ? "not a regular file" : strerror(-kind));
		return -EINVAL;
	} else if (!arch) {
		btfids_err(r, path, "raw BTF: --arch NAME is required");
		return -EINVAL;
	}
	if (arch)
		btfids_arch_from_name(arch, &ru.a);	/* checked by do_models() */
	ru.a.kernel = kernel;
	if (base_path) {
		if (btfids_btf_load_base(base_path, &base, r)) {
			btfids_tramp_rules_free(&ru);
			return -EINVAL;
		}
		first = btf__type_cnt(base);
	}
	errno = 0;
	btf = base ? btf__parse_split(path, base) : btf__parse(path, NULL);
	if (!btf) {
		err = errno ? -errno : -EINVAL;
		btfids_err(r, path, "cannot read BTF: %s", btfids_btf_strerror(err, msg, sizeof(msg)));
		btf__free(base);
		btfids_tramp_rules_free(&ru);
		return err;
	}
	btfids_json_init(&j, stdout);
	n = btf__type_cnt(btf);
	for (id = first; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		if (!btf_is_func(t))
			continue;
		btfids_tramp_model(&ru, btf, id, &m);
		btfids_models_print(&j, btf__name_by_offset(btf, t->name_off), id, &m);
	}
	btfids_tramp_rules_free(&ru);
	btf__free(btf);
	btf__free(base);
	return fflush(stdout) ? -EIO : 0;
}

/* v1 sets (tramp.c) or a v2 table (tramp2.c), in an ELF or a raw file */
static int stored_tables(const char *path, const char *base, const char *btf,
			 struct btfids_report *r)
{
	struct btfids_elf e;
	bool v2;

	if (btfids_btf_file_kind(path) != BTFIDS_FILE_ELF)
		return btfids_tramp2_print(path, btf, stdout, r);
	if (btfids_elf_open(&e, path, false, r))
		return -EINVAL;
	v2 = e.tramp.index && btfids_tramp2_is(e.tramp.data, e.tramp.size,
					       btfids_elf_big_endian(&e));
	btfids_elf_close(&e);
	if (v2)
		return btfids_tramp2_print(path, btf, stdout, r);
	if (btf) {
		btfids_err(r, path, "--btf: its .BTF_tramp holds no v2 table (v1 tables are named from the ELF itself)");
		return -EINVAL;
	}
	return btfids_tramp_print(path, base, stdout, r);
}

static const struct option long_opts[] = {
	{ "all", no_argument, NULL, 'a' },
	{ "arch", required_argument, NULL, 'A' },
	{ "btf_base", required_argument, NULL, 'b' },
	{ "btf", required_argument, NULL, 'B' },
	{ "kernel", required_argument, NULL, 'K' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int do_models(int argc, char **argv)
{
	struct btfids_report rep = { .out = stderr };
	const char *arch = NULL, *base = NULL, *kernel_str = NULL, *btf = NULL;
	unsigned int kernel = 0;
	bool all = false;
	int c, err;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "b:h", long_opts, NULL)) != -1) {
		switch (c) {
		case 'a':
			all = true;
			break;
		case 'A':
			arch = optarg;
			break;
		case 'b':
			base = optarg;
			break;
		case 'B':
			btf = optarg;
			break;
		case 'K':
			kernel_str = optarg;
			break;
		case 'h':
			usage(stdout);
			return BTFIDS_EXIT_OK;
		default:
			fprintf(stderr, "btfids models: unknown option or missing argument: %s\n",
				argv[optind - 1]);
			usage(stderr);
			return BTFIDS_EXIT_USAGE;
		}
	}
	if (argc - optind != 1) {
		fprintf(stderr, "btfids models: %s\n", argc == optind ? "no ELF file given" :
			"one file at a time");
		usage(stderr);
		return BTFIDS_EXIT_USAGE;
	}
	if (arch && btfids_arch_from_name(arch, &(struct btfids_target_arch){})) {
		fprintf(stderr, "btfids models: unknown --arch %s (the targets are listed below)\n",
			arch);
		usage(stderr);
		return BTFIDS_EXIT_USAGE;
	}
	if (kernel_str && (!all || btfids_kernel_from_str(kernel_str, &kernel))) {
		fprintf(stderr, "btfids models: %s\n", all ? "--kernel takes a version: 6.12, 7.3" :
			"--kernel only with --all (stored tables are read back as they are)");
		usage(stderr);
		return BTFIDS_EXIT_USAGE;
	}
	if (btf && all) {
		fprintf(stderr, "btfids models: --btf names a stored v2 table's functions; --all reads FILE's own BTF\n");
		usage(stderr);
		return BTFIDS_EXIT_USAGE;
	}
	btfids_json_buffer(stdout);	/* a line per kernel function: 7 MB */
	if (all)
		err = models_all(argv[optind], arch, kernel, base, &rep);
	else
		err = stored_tables(argv[optind], base, btf, &rep);
	return err ? BTFIDS_EXIT_FAIL : BTFIDS_EXIT_OK;
}
