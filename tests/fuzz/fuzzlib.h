/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzzlib.h - what the file-based libFuzzer targets share (fuzz_flow7.c,
 * fuzz_patch.c, fuzz_tramp.c): one input split into an options byte and
 * files, the files written into a private directory, a verb run on them
 * through its command line (btfids.h), the directory emptied again.
 *
 * Input layout (tests/fuzz/pack.py makes seeds in it):
 *   u8  opts                 each target says what its bits choose
 *   u32 len[nr - 1]          little endian: the first nr - 1 files' sizes
 *   the nr files' bytes      back to back; the last file takes the rest
 * A length past the end is cut to what is left, so every input is valid.
 */
#ifndef _BTFIDS_FUZZLIB_H
#define _BTFIDS_FUZZLIB_H

#include <stddef.h>
#include <stdint.h>

#define FUZZ_MAX_PARTS	4

struct fuzz_input {
	uint8_t opts;
	const uint8_t *part[FUZZ_MAX_PARTS];
	size_t len[FUZZ_MAX_PARTS];
};

/* Split @data (@size bytes) into @in: opts and @nr parts (nr <= FUZZ_MAX_PARTS). */
void fuzz_split(const uint8_t *data, size_t size, unsigned int nr, struct fuzz_input *in);

/*
 * The private directory (made once, under $TMPDIR or /tmp; removed at
 * exit), with @name appended: a static buffer per call slot @k (0-7).
 */
const char *fuzz_path(unsigned int k, const char *name);

/* Write @len bytes to fuzz_path(@k, @name); aborts when it cannot. */
const char *fuzz_write(unsigned int k, const char *name, const uint8_t *p, size_t len);

/* Remove every file of the private directory (after each input). */
void fuzz_clean(void);

/*
 * Once per process: libbpf's messages off, stdout to /dev/null (the verbs'
 * JSON and text; libFuzzer writes to stderr). btfids' own error lines go
 * to stderr: make fuzz runs the targets with -close_fd_mask=2.
 */
void fuzz_init(void);

/* Run verb @fn with the NULL-terminated @argv (argv[0] the verb's name). */
int fuzz_run(int (*fn)(int, char **), const char *const *argv);

#endif /* _BTFIDS_FUZZLIB_H */
