// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_flow7.c - libFuzzer target over the 7.x flow as kbuild runs it
 * (scripts/gen-btf.sh): `btfids [--kernel R] [-b BASE] [--btf RAW]
 * [--distill_base] [--tramp_table] [--fatal_warnings] ELF`, through the
 * verb's own entry (do_resolve): classify, collect, load the raw BTF split
 * on the base, the type checks, the kfunc rewrite, dedup, distill, sort,
 * the lookup, the v1 and v2 trampoline tables and the write of
 * ELF.BTF_ids, ELF.BTF, ELF.BTF.base and ELF.BTF_tramp.
 *
 * Input (fuzzlib.h): opts, then two files: the ELF and the raw BTF.
 *   opts bits 0-1  --kernel 7.3, 7.2, 7.0, or none (the ELF's own release)
 *        bit 2     --distill_base
 *        bit 3     --tramp_table
 *        bits 4-5  -b: none, $FUZZ_BASE7 (default: the x86-64 fixture
 *                  image7), $FUZZ_VMLINUX_BTF (a real 7.x vmlinux's raw
 *                  .BTF, when set), none
 *        bit 6     no --btf: the ELF's own .BTF
 *        bit 7     --fatal_warnings
 */
#include <stdlib.h>
#include <unistd.h>

#include "btfids.h"
#include "fuzzlib.h"

static const char *base_file(unsigned int which)
{
	const char *b = NULL;

	if (which == 1) {
		b = getenv("FUZZ_BASE7");
		if (!b)
			b = "tests/build/fixtures/x86_64-linux-gnu/image7";
	} else if (which == 2) {
		b = getenv("FUZZ_VMLINUX_BTF");
	}
	return b && !access(b, R_OK) ? b : NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const kernels[] = { "7.3", "7.2", "7.0", NULL };
	const char *argv[16] = { "btfids" }, *elf, *base;
	struct fuzz_input in;
	int n = 1;

	fuzz_init();
	fuzz_split(data, size, 2, &in);
	elf = fuzz_write(0, "vmlinux", in.part[0], in.len[0]);
	if (kernels[in.opts & 3]) {
		argv[n++] = "--kernel";
		argv[n++] = kernels[in.opts & 3];
	}
	if (in.opts & 4)
		argv[n++] = "--distill_base";
	if (in.opts & 8)
		argv[n++] = "--tramp_table";
	base = base_file(in.opts >> 4 & 3);
	if (base) {
		argv[n++] = "-b";
		argv[n++] = base;
	}
	if (!(in.opts & 64)) {
		argv[n++] = "--btf";
		argv[n++] = fuzz_write(1, "vmlinux.BTF.1", in.part[1], in.len[1]);
	}
	if (in.opts & 128)
		argv[n++] = "--fatal_warnings";
	argv[n++] = elf;
	fuzz_run(do_resolve, argv);
	fuzz_clean();
	return 0;
}
