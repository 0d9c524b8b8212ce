// SPDX-License-Identifier: GPL-2.0
/*
 * replay.c - a fuzz target without libFuzzer: `replay_<target> FILE...`
 * runs LLVMFuzzerTestOneInput() once on each FILE's bytes, as libFuzzer
 * runs a crash file. make check builds one per target with ASan and UBSan
 * (tests/fuzzregress.sh replays the kept findings): a finding that comes
 * back aborts with the sanitizer's report; exit 0 when all ran.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL, *p;
	size_t len = 0, cap = 0, n;

	if (!f) {
		perror(path);
		return -1;
	}
	do {
		if (len == cap) {
			cap = cap ? cap * 2 : 1 << 16;
			p = realloc(buf, cap);
			if (!p)
				abort();
			buf = p;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	int i, err = 0;

	for (i = 1; i < argc; i++)
		err |= replay(argv[i]);
	return err ? 1 : 0;
}
