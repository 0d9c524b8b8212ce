// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_resolve.c - libFuzzer target over the whole resolve pipeline:
 * open -> collect symbols -> load the object's own BTF (split on the
 * fixture image when it is a relocatable object) -> look up -> patch a
 * copy of .BTF_ids in memory -> build the trampoline tables (resolve,
 * models; v2 built and read back) -> lay out .BTF_ids and collect the findings with suggestions
 * (check, dump). The input is written once to a memfd and opened
 * read-only through /proc/self/fd; nothing is ever written back.
 *
 * $FUZZ_BASE: base BTF for ET_REL inputs (default: the x86-64 fixture image).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "btfids/elf.h"
#include "btfids/findings.h"
#include "btfids/layout.h"
#include "btfids/lookup.h"
#include "btfids/patch.h"
#include "btfids/syms.h"
#include "btfids/tramp2.h"
#include "btfids/tramp_fill.h"

static struct btfids_report rep;
static struct btf *base;

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level, (void)fmt, (void)ap;
	return 0;
}

static void init(void)
{
	const char *b = getenv("FUZZ_BASE");

	libbpf_set_print(quiet);
	rep.out = fopen("/dev/null", "w");
	if (!rep.out)
		abort();
	if (!b)
		b = "tests/build/fixtures/x86_64-linux-gnu/image";
	base = btf__parse(b, NULL);	/* NULL: ET_REL inputs load unsplit */
}

/*
 * What resolve and models add: the .BTF_tramp tables (v1 sets; the v2 table
 * of every function, built, and read back from the ELF as dump and models
 * check it), in memory only.
 */
static void tables(const struct btfids_elf *e, const struct btfids_syms *s,
		   const struct btf *btf)
{
	struct btfids_tramp_rules ru;
	struct btfids_tramp t = {};
	struct btfids_tramp2 t2;

	btfids_tramp_fill(e, s, btf, NULL, 0, &t, &rep);
	btfids_tramp_free(&t);
	if (e->type != ET_REL && !btfids_tramp_rules_init(&ru, e, s, NULL, 0)) {
		if (!btfids_tramp2_build(btf, &ru, NULL, btfids_elf_big_endian(e), e->path, &t2, &rep))
			btfids_tramp2_free(&t2);
		btfids_tramp_rules_free(&ru);
	}
	if (!btfids_tramp2_of_elf(e, NULL, &t2, &rep))
		btfids_tramp2_free(&t2);
}

/* What check and dump add: the layout, the findings, the suggestions. */
static void findings(const struct btfids_elf *e, const struct btfids_syms *s,
		     const struct btf *btf)
{
	struct btfids_findings f = {};
	struct btfids_names names = {};
	struct btfids_layout l = {};

	if (!btfids_layout_build(e, s, &l, &rep) && !btfids_names_build(btf, &names))
		btfids_findings_collect(s, &l, &names, true, &f);
	btfids_findings_free(&f);
	btfids_names_free(&names);
	btfids_layout_free(&l);
}

static void pipeline(const char *path)
{
	struct btfids_syms s = {};
	unsigned char *buf = NULL;
	struct btf *btf = NULL;
	struct btfids_elf e;

	if (btfids_elf_open(&e, path, false, &rep))
		return;
	if (!e.ids.index || !e.symtab_index)
		goto out;
	if (btfids_syms_collect(&e, &s, &rep))
		goto out;
	if (btfids_btf_load(&e, NULL, e.type == ET_REL ? base : NULL, &btf, &rep))
		goto out;
	if (btfids_btf_check_types(btf, path, &rep))	/* the 7.x flow's type rules */
		goto out;
	if (btfids_lookup(btf, &s, path, &rep))
		goto out;
	if (btfids_patch_section(&e, &s, &buf))
		goto out;
	tables(&e, &s, btf);
	findings(&e, &s, btf);
out:
	free(buf);
	btf__free(btf);
	btfids_syms_free(&s);
	btfids_elf_close(&e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	size_t done = 0;
	int fd;

	if (!rep.out)
		init();
	fd = memfd_create("fuzz_resolve", MFD_CLOEXEC);
	if (fd < 0)
		abort();
	while (done < size) {
		ssize_t n = write(fd, data + done, size - done);

		if (n <= 0)
			abort();
		done += n;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	pipeline(path);
	close(fd);
	return 0;
}
