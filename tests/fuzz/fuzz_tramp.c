// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_tramp.c - libFuzzer target over the trampoline tables as the
 * readers take them, through the verbs' own entries: `btfids models
 * --btf BTF FILE.BTF_tramp` (a raw v2 table, checked as the kernel checks
 * it, every function named from BTF), and, when the table file is an ELF,
 * `btfids models [--btf BTF] ELF` (its v1 sets read back, or its v2
 * table) and `btfids dump [--btf BTF] ELF` (the v2 header, checked).
 *
 * Input (fuzzlib.h): opts, then two files: the BTF (raw, or an ELF with
 * .BTF) and the table (a raw .BTF_tramp, or an ELF).
 *   opts bit 0  no --btf (a raw table is then refused; an ELF's own .BTF)
 *        bit 1  dump --format=json
 */
#include <stdbool.h>

#include "btfids.h"
#include "fuzzlib.h"

static bool is_elf(const uint8_t *p, size_t len)
{
	return len >= 4 && p[0] == 0x7f && p[1] == 'E' && p[2] == 'L' && p[3] == 'F';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *models[6] = { "models" }, *dump[6] = { "dump" };
	const char *btf, *tab;
	struct fuzz_input in;
	int m = 1, d = 1;

	fuzz_init();
	fuzz_split(data, size, 2, &in);
	btf = fuzz_write(0, "vmlinux.BTF", in.part[0], in.len[0]);
	tab = fuzz_write(1, is_elf(in.part[1], in.len[1]) ? "vmlinux" : "vmlinux.BTF_tramp",
			 in.part[1], in.len[1]);
	if (!(in.opts & 1)) {
		models[m++] = dump[d++] = "--btf";
		models[m++] = dump[d++] = btf;
	}
	models[m++] = tab;
	fuzz_run(do_models, models);
	if (is_elf(in.part[1], in.len[1])) {
		if (in.opts & 2)
			dump[d++] = "--format=json";
		dump[d++] = tab;
		fuzz_run(do_dump, dump);
	}
	fuzz_clean();
	return 0;
}
