/* SPDX-License-Identifier: GPL-2.0 */
/*
 * testlib.h - helpers shared by the Check suites in tests/check_*.c.
 *
 * Expected values never come from btfids itself: tests read the files with
 * libelf and look names up with libbpf (btf__find_by_name_kind), and compare
 * with what the fixture sources say.
 */
#ifndef _BTFIDS_TESTLIB_H
#define _BTFIDS_TESTLIB_H

#include <check.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <bpf/btf.h>

/* tests/build, or $BTFIDS_TEST_BUILD */
const char *tl_build_dir(void);
/* ${XDG_CACHE_HOME:-$HOME/.cache}: the scripts' cache of kernels and trees */
const char *tl_cache_dir(void);
/* the btfids binary under test: $BTFIDS, else btfids/btfids */
const char *tl_btfids(void);
/* ../shared/realdata (mkunresolved, cmpids, ...), or $BTFIDS_REALDATA */
const char *tl_realdata(void);

/* Fixture directories built by tests/fixtures/build-all.sh: "native" first. */
size_t tl_fixture_dirs(char ***dirs);
/* "<dir>/<name>", malloc'd */
char *tl_path(const char *dir, const char *name);

/* @size bytes of @data in a fresh temporary file; returns its malloc'd path. */
char *tl_tmpfile(const void *data, size_t size);
/* Copy @src to a fresh temporary file; returns its malloc'd path. */
char *tl_tmpcopy(const char *src);
/* Whole file; *size set. */
unsigned char *tl_slurp(const char *path, size_t *size);

/*
 * Run btfids with @argv (NULL-terminated, without argv[0]); its stderr goes
 * to *err (malloc'd, NUL-terminated). Returns the exit status, or -1.
 */
int tl_run(char **err, const char *const argv[]);
#define TL_RUN(err, ...) tl_run(err, (const char *const[]){ __VA_ARGS__ __VA_OPT__(,) NULL })
/* The same with stdout in *out (malloc'd, NUL-terminated; NULL: discarded). */
int tl_run_out(char **out, char **err, const char *const argv[]);
#define TL_RUN_OUT(out, err, ...) \
	tl_run_out(out, err, (const char *const[]){ __VA_ARGS__ __VA_OPT__(,) NULL })
/*
 * Any program: @argv[0] (searched in PATH) with its arguments; stdout in
 * *out and stderr in *err when not NULL. Returns the exit status, or -1.
 */
int tl_spawn(char **out, char **err, const char *const argv[]);

/* What tests need of an ELF, read with libelf. */
struct tl_elf {
	unsigned char *file;	/* whole file */
	size_t size;
	bool big_endian;
	bool rel;		/* ET_REL */
	uint64_t ids_off;	/* .BTF_ids file offset */
	uint64_t ids_addr;
	uint64_t ids_size;
	void *elf;		/* Elf * */
	int fd;
};
void tl_elf_open(struct tl_elf *e, const char *path);
void tl_elf_close(struct tl_elf *e);
/* Offset in .BTF_ids of the symbol @name (a list label, set symbol, ...). */
uint64_t tl_sym_off(struct tl_elf *e, const char *name);
/* u32 at byte @off of .BTF_ids, in the target's order */
uint32_t tl_ids_word(struct tl_elf *e, uint64_t off);
/* u32 #i after label @name */
uint32_t tl_label_word(struct tl_elf *e, const char *name, unsigned int i);

/* libbpf: parse @path (split on @base_path when not NULL) */
struct btf *tl_btf(const char *path, const char *base_path);
/* lowest ID of (@name, @kind); 0 when absent */
uint32_t tl_id(const struct btf *btf, const char *name, int kind);

/* A Check main() that runs one suite and exits non-zero on failures. */
#define TL_MAIN(suite_fn)						\
int main(void)								\
{									\
	SRunner *sr = srunner_create(suite_fn());			\
	int failed;							\
									\
	srunner_run_all(sr, CK_NORMAL);					\
	failed = srunner_ntests_failed(sr);				\
	srunner_free(sr);						\
	return failed ? 1 : 0;						\
}

#endif /* _BTFIDS_TESTLIB_H */
