// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_patch.c - libFuzzer target over kbuild's last step of the 7.x flow,
 * `btfids --patch_btfids ELF.BTF_ids ELF`, through the verb's own entry
 * (do_resolve): the blob read and checked against .BTF_ids, the
 * ELF.BTF_tramp beside it (v1 tables patched in, a v2 table left alone),
 * both written into the ELF with libelf.
 *
 * Input (fuzzlib.h): opts, then three files: the ELF, the .BTF_ids blob,
 * and the .BTF_tramp file beside it.
 *   opts bit 0  write the .BTF_tramp file (else there is none)
 *        bit 1  no blob file at all (the "resolve took the 6.x flow" hint)
 */
#include "btfids.h"
#include "fuzzlib.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *argv[] = { "btfids", "--patch_btfids", NULL, NULL, NULL };
	struct fuzz_input in;

	fuzz_init();
	fuzz_split(data, size, 3, &in);
	argv[3] = fuzz_write(0, "vmlinux", in.part[0], in.len[0]);
	if (in.opts & 2)
		argv[2] = fuzz_path(1, "vmlinux.BTF_ids");
	else
		argv[2] = fuzz_write(1, "vmlinux.BTF_ids", in.part[1], in.len[1]);
	if (in.opts & 1)
		fuzz_write(2, "vmlinux.BTF_tramp", in.part[2], in.len[2]);
	fuzz_run(do_resolve, argv);
	fuzz_clean();
	return 0;
}
