// SPDX-License-Identifier: GPL-2.0
/*
 * check_check.c - `btfids check` and `btfids dump`.
 *
 * Inputs: the fixture image and module of every built target
 * (tests/fixtures/src: fx_missing in fx_list and fx_set, fx_missing2 in
 * fx_kfuncs, two struct fx_dup, fx_mod_gone in the module), the check
 * fixtures built here by tests/fixtures/check/build.sh (one of each
 * finding, see findings.c), and the real Debian kernels when cached.
 * JSON output is parsed by python3's json module (tests/check_digest.py
 * turns it into one line per file, finding, group and entry); expected
 * names come from the fixture sources, IDs from libbpf lookups by name.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <linux/btf.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testlib.h"
#include "btfids/fmodel.h"
#include "btfids/kfunc.h"
#include "btfids/srcloc.h"

/* flags from tests/fixtures/src/types.h */
#define FX_F_ACQUIRE	(1 << 0)
#define FX_F_RELEASE	(1 << 1)
#define FX_F_RET_NULL	(1 << 2)
#define FX_F_SLEEPABLE	(1 << 5)

extern char **environ;

static char **dirs;
static size_t nr_dirs;
static char *ck_dir;		/* check fixtures, built in setup */

#define RUN(out, err, ...) tl_run_out(out, err, (const char *const[]){ __VA_ARGS__, NULL })

/* JSON Lines in @json, parsed by python3 and flattened (tests/check_digest.py). */
static char *digest(const char *json)
{
	char path[] = "/tmp/btfids-ck-json.XXXXXX";
	int fd = mkstemp(path), rc;
	char *out, *err;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, json, strlen(json)), (ssize_t)strlen(json));
	close(fd);
	rc = tl_spawn(&out, &err, (const char *const[]){ "python3", "tests/check_digest.py",
							  path, NULL });
	ck_assert_msg(rc == 0, "not valid JSON Lines (%s):\n%s", err, json);
	unlink(path);
	free(err);
	return out;
}

#define ASSERT_HAS(hay, needle) \
	ck_assert_msg(strstr(hay, needle), "expected '%s' in:\n%s", needle, hay)
#define ASSERT_HASNT(hay, needle) \
	ck_assert_msg(!strstr(hay, needle), "did not expect '%s' in:\n%s", needle, hay)

static void setup(void)
{
	char *cmd;

	nr_dirs = tl_fixture_dirs(&dirs);
	ck_dir = tl_path(tl_build_dir(), "check-fixtures");
	if (asprintf(&cmd, "tests/fixtures/check/build.sh %s", ck_dir) < 0 || system(cmd)) {
		fprintf(stderr, "check_check: cannot build the check fixtures\n");
		exit(2);
	}
	free(cmd);
}

/* Every ID of (@name, @kind) in @btf, ascending, as "a,b,c". */
static char *all_ids(const struct btf *btf, const char *name, int kind)
{
	char *s = NULL, *t;
	uint32_t id;

	for (id = 1; id < btf__type_cnt(btf); id++) {
		const struct btf_type *ty = btf__type_by_id(btf, id);

		if (btf_kind(ty) != kind || strcmp(btf__name_by_offset(btf, ty->name_off), name))
			continue;
		ck_assert_int_ge(asprintf(&t, "%s%s%u", s ? s : "", s ? "," : "", id), 0);
		free(s);
		s = t;
	}
	ck_assert_ptr_nonnull(s);
	return s;
}

static void assert_same_file(const char *a, const char *b)
{
	size_t na, nb;
	unsigned char *x = tl_slurp(a, &na), *y = tl_slurp(b, &nb);

	ck_assert_msg(na == nb && !memcmp(x, y, na), "%s differs from %s", b, a);
	free(x);
	free(y);
}

/* The fixture image of every target: unresolved and ambiguous, read-only. */
START_TEST(t_image)
{
	char *img = tl_path(dirs[_i], "image"), *copy = tl_tmpcopy(img);
	struct btf *btf = tl_btf(img, NULL);
	char *out, *d, *ids, want[256];

	ck_assert_int_eq(chmod(copy, 0444), 0);
	ck_assert_int_eq(RUN(&out, NULL, "check", "--format=json", copy), 1);
	d = digest(out);
	ASSERT_HAS(d, "F unresolved func fx_missing sets=fx_list,fx_set ");
	ASSERT_HAS(d, "F unresolved func fx_missing2 sets=fx_kfuncs ");
	ids = all_ids(btf, "fx_dup", BTF_KIND_STRUCT);
	ck_assert_ptr_nonnull(strchr(ids, ','));
	snprintf(want, sizeof(want), "F ambiguous struct fx_dup sets=fx_list sugg= ids=%s\n", ids);
	ASSERT_HAS(d, want);
	ASSERT_HAS(d, "FILE unresolved=2 stale=0 ambiguous=1 inconsistent-flags=0 duplicate-in-set=0 total=3\n");
	assert_same_file(img, copy);
	unlink(copy);
	btf__free(btf);
	free(copy);
	free(img);
	free(out);
	free(d);
	free(ids);
}
END_TEST

/* vmlinux then modules with -b; a module without its base is bad input. */
START_TEST(t_module)
{
	char *img = tl_path(dirs[_i], "image"), *mod = tl_path(dirs[_i], "module.o");
	char *out, *err, *d;

	ck_assert_int_eq(RUN(&out, NULL, "check", "--format=json", "-b", img, img, mod), 1);
	d = digest(out);
	ASSERT_HAS(d, "F unresolved func fx_missing sets=fx_list,fx_set ");
	ASSERT_HAS(d, "F unresolved func fx_mod_gone sets=mod_list sugg= ids=\n");
	ASSERT_HAS(d, "FILE unresolved=1 stale=0 ambiguous=0 inconsistent-flags=0 duplicate-in-set=0 total=1\n");
	free(out);
	free(d);
	ck_assert_int_eq(RUN(&out, &err, "check", mod), 2);
	ASSERT_HAS(err, "FAILED ");
	ASSERT_HAS(err, "-b vmlinux");
	ASSERT_HAS(out, "btfids check: 1 file: 0 clean, 0 with findings, 1 unreadable\n");
	free(out);
	free(err);
	ck_assert_int_eq(RUN(&out, NULL, "check", "--format=json", mod), 2);
	d = digest(out);
	ASSERT_HAS(d, "ERROR ");
	free(out);
	free(d);
	free(img);
	free(mod);
}
END_TEST

/* One of each finding (tests/fixtures/check/findings.c), before and after resolving. */
static void assert_findings(const char *path)
{
	struct btf *btf = tl_btf(path, NULL);
	char *out, *d, *ids, want[256];

	ck_assert_int_eq(RUN(&out, NULL, "check", "--format=json", path), 1);
	d = digest(out);
	ASSERT_HAS(d, "F unresolved func ck_opne sets=ck_list,ck_set sugg=func:ck_open ");
	ASSERT_HAS(d, "F unresolved func ck_task sets=ck_list sugg=struct:ck_task ");
	ASSERT_HAS(d, "F unresolved func ck_writ sets=ck_list sugg=func:ck_write,func:ck_wait,struct:ck_writ,func:ck_writev");
	ASSERT_HAS(d, "F unresolved func ck_zzz_gone sets=ck_single sugg= ids=\n");
	ids = all_ids(btf, "ck_dup", BTF_KIND_STRUCT);
	snprintf(want, sizeof(want), "F ambiguous struct ck_dup sets=ck_list sugg= ids=%s\n", ids);
	ASSERT_HAS(d, want);
	ASSERT_HAS(d, "F inconsistent-flags func ck_open sets=ck_kfuncs_a,ck_kfuncs_b sugg= ids= flags=1,5\n");
	ASSERT_HASNT(d, "inconsistent-flags func ck_close");
	ASSERT_HAS(d, "F duplicate-in-set func ck_read sets=ck_set sugg= ids= times=2\n");
	ASSERT_HAS(d, "FILE unresolved=4 stale=0 ambiguous=1 inconsistent-flags=1 duplicate-in-set=1 total=7\n");
	btf__free(btf);
	free(out);
	free(d);
	free(ids);
}

START_TEST(t_findings)
{
	char *src = tl_path(ck_dir, "findings"), *copy = tl_tmpcopy(src);

	assert_findings(src);
	ck_assert_int_eq(TL_RUN(NULL, copy), 0);	/* sorted sets: flags moved */
	assert_findings(copy);
	unlink(copy);
	free(copy);
	free(src);
}
END_TEST

/* The suggestion's ID is the type's ID (libbpf), best-first order is the text's too. */
START_TEST(t_text)
{
	char *src = tl_path(ck_dir, "findings"), *out, want[512];
	struct btf *btf = tl_btf(src, NULL);
	const char *p, *q;

	ck_assert_int_eq(RUN(&out, NULL, "check", src), 1);
	snprintf(want, sizeof(want), "%s: error: unresolved func ck_opne: ", src);
	ASSERT_HAS(out, want);
	snprintf(want, sizeof(want), "%s:   listed in list ck_list, set ck_set\n", src);
	ASSERT_HAS(out, want);
	snprintf(want, sizeof(want), "%s:   did you mean func ck_open?\n", src);
	ASSERT_HAS(out, want);
	ASSERT_HAS(out, "did you mean struct ck_task (same name, other kind)?\n");
	p = strstr(out, "did you mean func ck_write, func ck_wait, struct ck_writ");
	ck_assert_ptr_nonnull(p);
	q = strstr(out, "unresolved func ck_zzz_gone");
	ck_assert_ptr_nonnull(q);
	ASSERT_HAS(q, "no similar func in the BTF");
	ASSERT_HAS(out, "warning: func ck_open has different flags in different sets: 0x1 (KF_ACQUIRE) in set8 ck_kfuncs_a, 0x5 (KF_ACQUIRE|KF_RET_NULL) in set8 ck_kfuncs_b\n");
	ASSERT_HAS(out, "warning: func ck_read is listed 2 times in set ck_set\n");
	ASSERT_HAS(out, "btfids check: 1 file: 0 clean, 1 with findings, 0 unreadable (4 unresolved, 1 ambiguous, 1 inconsistent-flags, 1 duplicate-in-set)\n");
	free(out);
	ck_assert_int_eq(RUN(&out, NULL, "check", "--format=json", src), 1);
	snprintf(want, sizeof(want), "{\"kind\":\"func\",\"name\":\"ck_open\",\"id\":%u,",
		 tl_id(btf, "ck_open", BTF_KIND_FUNC));
	ASSERT_HAS(out, want);
	btf__free(btf);
	free(out);
	free(src);
}
END_TEST

START_TEST(t_github)
{
	char *src = tl_path(ck_dir, "findings"), *out, *line, *save = NULL, want[512];
	int errors = 0, warnings = 0;

	ck_assert_int_eq(RUN(&out, NULL, "check", "--format=github", src), 1);
	snprintf(want, sizeof(want), "::error file=%s,title=btfids%%3A unresolved func ck_opne::unresolved func ck_opne: ", src);
	ASSERT_HAS(out, want);
	ASSERT_HAS(out, "%0Alisted in list ck_list, set ck_set%0Adid you mean func ck_open?\n");
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		errors += !strncmp(line, "::error file=", 13);
		warnings += !strncmp(line, "::warning file=", 15);
		ck_assert_msg(!strncmp(line, "::", 2) || !strncmp(line, "btfids check: ", 14) ||
			      strstr(line, ": 7 findings: "), "stray line: %s", line);
	}
	ck_assert_int_eq(errors, 4);
	ck_assert_int_eq(warnings, 3);
	free(out);
	free(src);
}
END_TEST

START_TEST(t_exit_codes)
{
	char *clean = tl_path(ck_dir, "clean"), *bad = tl_path(ck_dir, "findings");
	char *out, *err, *d;

	ck_assert_int_eq(RUN(&out, NULL, "check", "--format=json", clean), 0);
	d = digest(out);
	ASSERT_HAS(d, "total=0\n");
	free(out);
	free(d);
	ck_assert_int_eq(RUN(&out, NULL, "check", "--werror", clean), 0);
	ASSERT_HAS(out, "ok: 7 slots for 6 names, 2 sets; all resolve\n");
	free(out);
	ck_assert_int_eq(RUN(&out, NULL, "check", "--verify", clean), 1);	/* never resolved */
	ASSERT_HAS(out, "this file was never resolved");
	free(out);
	ck_assert_int_eq(RUN(&out, NULL, "check", bad), 1);
	free(out);
	ck_assert_int_eq(RUN(&out, NULL, "check", "--werror", bad), 2);
	free(out);
	ck_assert_int_eq(RUN(&out, NULL, "check", clean, bad), 1);
	ASSERT_HAS(out, "btfids check: 2 files: 1 clean, 1 with findings, 0 unreadable");
	free(out);
	ck_assert_int_eq(RUN(&out, &err, "check", clean, "/nonexistent/vmlinux", bad), 2);
	ASSERT_HAS(err, "FAILED /nonexistent/vmlinux: ");
	ASSERT_HAS(out, "btfids check: 3 files: 1 clean, 1 with findings, 1 unreadable");
	free(out);
	free(err);
	ck_assert_int_eq(RUN(&out, &err, "check", "tests/fixtures/check/build.sh"), 2);
	ASSERT_HAS(err, "not an ELF file");
	free(out);
	free(err);
	ck_assert_int_eq(RUN(&out, &err, "check", "--format=xml", clean), 2);
	ASSERT_HAS(err, "unknown format 'xml'");
	free(out);
	free(err);
	ck_assert_int_eq(RUN(&out, NULL, "check", "--no-such-option", clean), 2);
	free(out);
	ck_assert_int_eq(tl_run_out(&out, NULL, (const char *const[]){ "check", NULL }), 2);
	free(out);
	ck_assert_int_eq(RUN(&out, NULL, "check", "--help"), 0);
	ASSERT_HAS(out, "Usage: btfids check");
	free(out);
	ck_assert_int_eq(RUN(&out, &err, "check", "-b", "/nonexistent/base", clean), 2);
	ASSERT_HAS(err, "FAILED /nonexistent/base: ");
	free(out);
	free(err);
	/* json: the file is a field; the error does not name it again */
	ck_assert_int_eq(RUN(&out, NULL, "check", "--format=json", "/nonexistent/vmlinux"), 2);
	ASSERT_HAS(out, "{\"file\":\"/nonexistent/vmlinux\",\"error\":\"cannot open: ");
	free(out);
	free(clean);
	free(bad);
}
END_TEST

/* Overwrite the u32 at @off of .BTF_ids in @path, in the target's order. */
static void poke(const char *path, uint64_t off, uint32_t v)
{
	struct tl_elf e;
	unsigned char b[4];
	int fd, i;

	tl_elf_open(&e, path);
	for (i = 0; i < 4; i++)
		b[e.big_endian ? 3 - i : i] = v >> (8 * i);
	fd = open(path, O_WRONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pwrite(fd, b, 4, e.ids_off + off), 4);
	close(fd);
	tl_elf_close(&e);
}

static uint64_t sym_off(const char *path, const char *sym)
{
	struct tl_elf e;
	uint64_t off;

	tl_elf_open(&e, path);
	off = tl_sym_off(&e, sym);
	tl_elf_close(&e);
	return off;
}

/* The highest-ID name of fx_set (image.c) and that ID, from libbpf. */
static const char *fx_set_last(const struct btf *btf, uint32_t *id)
{
	static const char *const names[] = { "fx_write", "fx_open", "fx_read" };
	const char *best = NULL;
	int i;

	*id = 0;
	for (i = 0; i < 3; i++) {
		uint32_t x = tl_id(btf, names[i], BTF_KIND_FUNC);

		if (x > *id) {
			*id = x;
			best = names[i];
		}
	}
	return best;
}

START_TEST(t_verify)
{
	char *img = tl_path(dirs[_i], "image"), *copy = tl_tmpcopy(img), *out, *d, want[256];
	struct btf *btf = tl_btf(img, NULL);
	const char *last;
	uint32_t last_id;

	ck_assert_int_eq(TL_RUN(NULL, copy), 0);
	ck_assert_int_eq(RUN(&out, NULL, "check", "--verify", "--format=json", copy), 1);
	d = digest(out);
	ASSERT_HAS(d, " stale=0 ");
	free(out);
	free(d);
	/* a list slot, the last (highest) entry of a sorted set, a count word */
	poke(copy, sym_off(copy, "fx_list"), 32767);
	poke(copy, sym_off(copy, "fx_set") + 16, 32766);
	poke(copy, sym_off(copy, "fx_set8"), 7);
	last = fx_set_last(btf, &last_id);
	ck_assert_int_eq(RUN(&out, NULL, "check", "--verify", "--format=json", copy), 1);
	d = digest(out);
	snprintf(want, sizeof(want), "F stale func fx_read sets=fx_list sugg= ids=%u stored=32767\n",
		 tl_id(btf, "fx_read", BTF_KIND_FUNC));
	ASSERT_HAS(d, want);
	snprintf(want, sizeof(want), "F stale func %s sets=fx_set sugg= ids=%u stored=32766\n",
		 last, last_id);
	ASSERT_HAS(d, want);
	ASSERT_HAS(d, "F stale set8 fx_set8 sets=fx_set8 sugg= ids=2 stored=7\n");
	ASSERT_HAS(d, " stale=3 ");
	free(out);
	free(d);
	/* without --verify stored IDs are not looked at */
	ck_assert_int_eq(RUN(&out, NULL, "check", "--format=json", copy), 1);
	d = digest(out);
	ASSERT_HAS(d, " stale=0 ");
	free(out);
	free(d);
	/* never resolved: every count word and ID is 0 */
	ck_assert_int_eq(RUN(&out, NULL, "check", "--verify", img), 1);
	ASSERT_HAS(out, "this file was never resolved");
	free(out);
	btf__free(btf);
	unlink(copy);
	free(copy);
	free(img);
}
END_TEST

struct pair {
	const char *name;
	uint32_t flags;
};

START_TEST(t_dump)
{
	char *img = tl_path(dirs[_i], "image"), *copy = tl_tmpcopy(img), *out, *d, want[256];
	struct btf *btf = tl_btf(img, NULL);
	static const struct pair kf[] = {
		{ "fx_poll", FX_F_SLEEPABLE }, { "fx_close", FX_F_RELEASE },
		{ "fx_open", FX_F_ACQUIRE | FX_F_RET_NULL },
	};
	size_t i;

	ck_assert_int_eq(TL_RUN(NULL, copy), 0);
	ck_assert_int_eq(RUN(&out, NULL, "dump", "--format=json", copy), 0);
	d = digest(out);
	snprintf(want, sizeof(want),
		 "G list fx_list\nE func fx_read id=%u\nE struct fx_task id=%u\nE - - id=0\n"
		 "E union fx_val id=%u\nE typedef fx_id_t id=%u\nE func fx_missing id=0\n"
		 "E struct fx_dup id=%u\nG list fx_single\n",
		 tl_id(btf, "fx_read", BTF_KIND_FUNC), tl_id(btf, "fx_task", BTF_KIND_STRUCT),
		 tl_id(btf, "fx_val", BTF_KIND_UNION), tl_id(btf, "fx_id_t", BTF_KIND_TYPEDEF),
		 tl_id(btf, "fx_dup", BTF_KIND_STRUCT));
	ASSERT_HAS(d, want);
	ASSERT_HAS(d, "G set8 fx_kfuncs count=4 flags=1\nE func fx_missing2 id=0 flags=3\n");
	for (i = 0; i < sizeof(kf) / sizeof(kf[0]); i++) {
		snprintf(want, sizeof(want), "E func %s id=%u flags=%u\n", kf[i].name,
			 tl_id(btf, kf[i].name, BTF_KIND_FUNC), kf[i].flags);
		ASSERT_HAS(d, want);
	}
	free(out);
	free(d);
	ck_assert_int_eq(RUN(&out, NULL, "dump", copy), 0);
	ASSERT_HAS(out, "set8 fx_kfuncs at 0x");
	ASSERT_HAS(out, ", count word 4, flags 0x1 (KFUNCS)\n");
	/* an empty set's count word is 0 resolved or not: no "not resolved yet" */
	ASSERT_HAS(out, "set fx_empty at 0x");
	ck_assert_msg(!strstr(out, "0 entries, count word 0 (not resolved yet)"), "%s", out);
	free(out);
	/* a module: without -b its split BTF is not read, the dump goes on unnamed */
	{
		char *mod = tl_path(dirs[_i], "module.o"), *m = tl_tmpcopy(mod);

		ck_assert_int_eq(TL_RUN(NULL, "-b", img, m), 0);
		ck_assert_int_eq(RUN(&out, NULL, "dump", m), 0);
		ASSERT_HAS(out, "no BTF, so sorted sets' entries are not named");
		free(out);
		ck_assert_int_eq(RUN(&out, NULL, "dump", "-b", img, m), 0);
		ck_assert_msg(!strstr(out, "no BTF"), "%s", out);
		free(out);
		unlink(m);
		free(m);
		free(mod);
	}
	ck_assert_int_eq(RUN(&out, NULL, "dump", "/nonexistent"), 2);
	free(out);
	btf__free(btf);
	unlink(copy);
	free(copy);
	free(img);
}
END_TEST

/* --- real kernels --- */

static const char *kernels(void)
{
	static char path[4096];
	const char *k = getenv("BTFIDS_KERNELS");

	if (k)
		return k;
	snprintf(path, sizeof(path), "%s/btfids/kernels", tl_cache_dir());
	return path;
}

static bool have_kernels(const char *why)
{
	char *a = tl_path(kernels(), "amd64-6.12/vmlinux");
	char *b = tl_path(kernels(), "s390x-6.12/vmlinux");
	bool ok = !access(a, R_OK) && !access(b, R_OK);

	if (!ok)
		printf("check_check: %s: skipped (Debian kernels not in %s: run %s/fetch-kernels as root)\n",
		       why, kernels(), tl_realdata());
	free(a);
	free(b);
	return ok;
}

START_TEST(t_real_verify)
{
	char *a, *b, *out;

	if (!have_kernels("real kernels are clean"))
		return;
	a = tl_path(kernels(), "amd64-6.12/vmlinux");
	b = tl_path(kernels(), "s390x-6.12/vmlinux");
	ck_assert_int_eq(RUN(&out, NULL, "check", "--verify", a, b), 0);
	ASSERT_HAS(out, "btfids check: 2 files: 2 clean, 0 with findings, 0 unreadable\n");
	free(out);
	ck_assert_int_eq(RUN(&out, NULL, "dump", "--format=json", b), 0);
	free(digest(out));
	free(out);
	free(a);
	free(b);
}
END_TEST

/* Optimal string alignment distance, small and plain (test's own). */
static int osa(const char *a, const char *b)
{
	int la = strlen(a), lb = strlen(b), i, j, d[130][130];

	if (la > 128 || lb > 128)
		return 99;
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++) {
		for (j = 1; j <= lb; j++) {
			int v = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	}
	return d[la][lb];
}

/* No other BTF name of any of the four kinds within 2 edits of @name. */
static bool lonely(const struct btf *btf, const char *name, uint32_t self)
{
	uint32_t id;

	for (id = 1; id < btf__type_cnt(btf); id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		int k = btf_kind(t);

		const char *other = btf__name_by_offset(btf, t->name_off);
		int diff = (int)strlen(other) - (int)strlen(name);

		if (diff > 2 || diff < -2)
			continue;
		if (id == self || (k != BTF_KIND_FUNC && k != BTF_KIND_STRUCT &&
				   k != BTF_KIND_UNION && k != BTF_KIND_TYPEDEF))
			continue;
		if (osa(name, other) <= 2)
			return false;
	}
	return true;
}

struct pick {
	char name[128];		/* a func named only in lists */
	char label[128];	/* the label of its (first) list */
	uint32_t id;
};

/* "__BTF_ID__func__NAME__123" -> NAME */
static bool func_of(const char *sym, char *name, size_t size)
{
	const char *p = sym + strlen("__BTF_ID__func__"), *end = strrchr(sym, '_');

	if (strncmp(sym, "__BTF_ID__func__", 16) || !end || end - p < 2 || end[-1] != '_' ||
	    (size_t)(end - 1 - p) >= size)
		return false;
	memcpy(name, p, end - 1 - p);
	name[end - 1 - p] = 0;
	return true;
}

/*
 * The symbols of .BTF_ids of @path by address: the test's own reading of
 * the layout (a list label is a plain symbol before the slots).
 */
struct sym {
	char *name;
	uint64_t value;
};

static size_t ids_syms(const char *path, struct sym **out)
{
	int fd = open(path, O_RDONLY);
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
	Elf_Scn *scn = NULL;
	size_t shstr, ids = 0, n = 0;

	*out = NULL;
	ck_assert_ptr_nonnull(elf);
	elf_getshdrstrndx(elf, &shstr);
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		gelf_getshdr(scn, &sh);
		if (!strcmp(elf_strptr(elf, shstr, sh.sh_name), ".BTF_ids"))
			ids = elf_ndxscn(scn);
	}
	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *data = elf_getdata(scn, NULL);
		GElf_Shdr sh;
		size_t i;

		gelf_getshdr(scn, &sh);
		if (sh.sh_type != SHT_SYMTAB)
			continue;
		*out = calloc(sh.sh_size / sh.sh_entsize, sizeof(**out));
		for (i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;

			gelf_getsym(data, i, &s);
			if (s.st_shndx != ids)
				continue;
			(*out)[n++] = (struct sym){ strdup(elf_strptr(elf, sh.sh_link, s.st_name)),
						    s.st_value };
		}
	}
	elf_end(elf);
	close(fd);
	return n;
}

/* A func in a list (no set symbol at or before it in its run) whose name is lonely. */
static bool pick_func(const char *path, const struct btf *btf, struct pick *p)
{
	struct sym *v;
	size_t n = ids_syms(path, &v), i, j;
	bool found = false;

	for (i = 0; i < n && !found; i++) {
		const struct sym *label = NULL;
		char name[128];
		int id;

		if (!func_of(v[i].name, name, sizeof(name)))
			continue;
		for (j = 0; j < n; j++)	/* nearest symbol below that is not a slot */
			if (v[j].value <= v[i].value && (!label || v[j].value > label->value) &&
			    (!strncmp(v[j].name, "__BTF_ID__set", 13) ||
			     strncmp(v[j].name, "__BTF_ID__", 10)))
				label = &v[j];
		if (!label || !strncmp(label->name, "__BTF_ID__set", 13) || name[0] == '_' ||
		    strlen(name) < 8)
			continue;
		for (j = 0; j < n; j++)	/* its name: only in this one list, and one label here */
			if ((j != i && func_of(v[j].name, p->name, sizeof(p->name)) &&
			     !strcmp(p->name, name)) ||
			    (&v[j] != label && v[j].value == label->value &&
			     (strncmp(v[j].name, "__BTF_ID__", 10) ||
			      !strncmp(v[j].name, "__BTF_ID__set", 13))))
				break;
		id = btf__find_by_name_kind(btf, name, BTF_KIND_FUNC);
		if (j < n || id <= 0 || !lonely(btf, name, id))
			continue;
		snprintf(p->name, sizeof(p->name), "%s", name);
		snprintf(p->label, sizeof(p->label), "%s", label->name);
		p->id = id;
		found = true;
	}
	for (i = 0; i < n; i++)
		free(v[i].name);
	free(v);
	return found;
}

/* File offset of the name of type @id in .BTF of @path (raw .BTF: header, types, strings). */
static uint64_t btf_name_file_off(const char *path, const struct btf *btf, uint32_t id)
{
	int fd = open(path, O_RDONLY);
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
	Elf_Scn *scn = NULL;
	size_t shstr;
	uint64_t off = 0;

	elf_getshdrstrndx(elf, &shstr);
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		uint32_t hdr[6];

		gelf_getshdr(scn, &sh);
		if (strcmp(elf_strptr(elf, shstr, sh.sh_name), ".BTF"))
			continue;
		ck_assert_int_eq(pread(fd, hdr, sizeof(hdr), sh.sh_offset), (ssize_t)sizeof(hdr));
		ck_assert_uint_eq(hdr[0] & 0xffff, 0xeb9f);	/* little-endian host and file */
		/* btf_header: magic/version/flags, hdr_len, type_off, type_len, str_off */
		off = sh.sh_offset + hdr[1] + hdr[4] + btf__type_by_id(btf, id)->name_off;
	}
	elf_end(elf);
	close(fd);
	ck_assert_uint_ne(off, 0);
	return off;
}

/*
 * Rename one FUNC of a copy of the amd64 vmlinux in its BTF strings (one
 * letter, same length), clear the slots with mkunresolved: check reports
 * exactly that name, its list, and the new name first.
 */
START_TEST(t_real_rename)
{
	char *v, *copy, *cleared, *out, *d, *cmd, *tool, want[512], renamed[128];
	struct btf *btf;
	struct pick p;
	uint64_t off;
	size_t len;
	int fd;

	if (!have_kernels("renamed function in a real vmlinux"))
		return;
	tool = tl_path(tl_realdata(), "mkunresolved");
	if (access(tool, X_OK)) {
		printf("check_check: renamed function in a real vmlinux: skipped (no %s: the workspace's shared/realdata, not in this repository)\n",
		       tool);
		free(tool);
		return;
	}
	v = tl_path(kernels(), "amd64-6.12/vmlinux");
	btf = tl_btf(v, NULL);
	ck_assert_msg(pick_func(v, btf, &p), "no function in a list to rename");
	len = strlen(p.name);
	snprintf(renamed, sizeof(renamed), "%s", p.name);
	renamed[len - 1] = renamed[len - 1] == 'q' ? 'z' : 'q';
	ck_assert_int_lt(btf__find_by_name_kind(btf, renamed, BTF_KIND_FUNC), 0);
	printf("check_check: renaming func %s (list %s) to %s in a copy of %s\n",
	       p.name, p.label, renamed, v);
	off = btf_name_file_off(v, btf, p.id);
	copy = tl_tmpcopy(v);
	fd = open(copy, O_WRONLY);
	ck_assert_int_eq(pwrite(fd, &renamed[len - 1], 1, off + len - 1), 1);
	close(fd);
	cleared = tl_path("/tmp", "btfids-ck-renamed");
	ck_assert_int_ge(asprintf(&cmd, "%s %s %s >/dev/null", tool, copy, cleared), 0);
	free(tool);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_int_eq(RUN(&out, NULL, "check", "--format=json", cleared), 1);
	d = digest(out);
	snprintf(want, sizeof(want), "F unresolved func %s sets=%s sugg=func:%s", p.name,
		 p.label, renamed);
	ASSERT_HAS(d, want);
	ASSERT_HAS(d, "FILE unresolved=1 stale=0 ambiguous=0 inconsistent-flags=0 duplicate-in-set=0 total=1\n");
	free(out);
	free(d);
	ck_assert_int_eq(RUN(&out, NULL, "check", cleared), 1);
	snprintf(want, sizeof(want), "did you mean func %s", renamed);
	ASSERT_HAS(out, want);
	free(out);
	unlink(copy);
	unlink(cleared);
	btf__free(btf);
	free(cmd);
	free(copy);
	free(cleared);
	free(v);
}
END_TEST

/* ---- where in the sources: tests/fixtures/check/tree, its marks ---- */

#define TREE	"tests/fixtures/check/tree"

/*
 * The marks of @rel in the fixture tree, read with strstr (not with
 * btfids' scanner), in text order: comments "want: KIND NAME" and
 * "seen: KIND NAME" at the end of a line. @name set: the lines of its
 * "want" marks, as "rel:line" joined by ','. @name NULL: every mark, as
 * "kind name line" lines.
 */
static char *marks(const char *rel, const char *kind, const char *name)
{
	char *path = tl_path(TREE, rel), *text, *line, *buf = NULL, need[160];
	size_t size, len = 0;
	FILE *m = open_memstream(&buf, &len);
	const char *sep = "";
	unsigned int n;

	line = (char *)tl_slurp(path, &size);
	text = strndup(line, size);	/* tl_slurp() does not end it with a NUL */
	free(line);
	ck_assert_ptr_nonnull(text);
	ck_assert_ptr_nonnull(m);
	snprintf(need, sizeof(need), "/* want: %s %s */", kind ? kind : "", name ? name : "");
	for (line = text, n = 1; line && *line; n++) {
		char *end = strchr(line, '\n'), *p, k[16], nm[64];

		if (end)
			*end = 0;
		if (name && strstr(line, need)) {
			fprintf(m, "%s%s:%u", sep, rel, n);
			sep = ",";
		} else if (!name && ((p = strstr(line, "/* want: ")) || (p = strstr(line, "/* seen: ")))) {
			ck_assert_int_eq(sscanf(p + 9, "%15s %63s", k, nm), 2);
			fprintf(m, "%s %s %u\n", k, nm, n);
		}
		line = end ? end + 1 : NULL;
	}
	fclose(m);
	free(text);
	free(path);
	return buf;
}

/* The P line check_digest.py prints: shown at the first mark, every mark listed */
static char *place_line(const char *type, const char *kind, const char *name)
{
	char *a = marks("kernel/a/place.c", kind, name);
	char *c = marks("kernel/c/other.c", kind, name);
	char *first, *line;

	ck_assert_msg(*a || *c, "no mark for %s %s", kind, name);
	first = strndup(*a ? a : c, strcspn(*a ? a : c, ","));
	ck_assert_int_ge(asprintf(&line, "P %s %s %s %s %s%s%s\n", type, kind, name, first, a,
				  *a && *c ? "," : "", c), 0);
	free(first);
	free(a);
	free(c);
	return line;
}

/* Every macro of the fixture, in order, at the marks' lines: no more, no fewer. */
START_TEST(t_src_scan)
{
	static const char *const files[] = { "kernel/a/place.c", "kernel/c/other.c" };
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *path = tl_path(TREE, files[i]), *text, *want, *got = NULL;
		struct btfids_src_macro *v;
		size_t size, n, k, len = 0;
		FILE *m = open_memstream(&got, &len);

		text = (char *)tl_slurp(path, &size);
		ck_assert_int_eq(btfids_src_scan(text, size, &v, &n), 0);
		for (k = 0; k < n; k++)
			fprintf(m, "%s %.*s %u\n", btfids_kind_str(v[k].kind), (int)v[k].name_len,
				v[k].name, v[k].line);
		fclose(m);
		want = marks(files[i], NULL, NULL);
		ck_assert_msg(!strcmp(got, want), "%s: scanned\n%s\nmarked\n%s", files[i], got, want);
		free(v);
		free(text);
		free(path);
		free(got);
		free(want);
	}
}
END_TEST

/* The __LINE__ part of "__BTF_ID__<kind>__<name>__<__COUNTER__><__LINE__>" */
START_TEST(t_src_sym_line)
{
	const char *sym = "__BTF_ID__func__bpf_task_acquire__9633100";

	ck_assert_uint_eq(btfids_src_sym_line(sym, 3100), 4);
	ck_assert_uint_eq(btfids_src_sym_line(sym, 100), 3);	/* counter 9633 */
	ck_assert_uint_eq(btfids_src_sym_line(sym, 3101), 0);
	ck_assert_uint_eq(btfids_src_sym_line(sym, 9633100), 0);	/* no counter left */
	ck_assert_uint_eq(btfids_src_sym_line("__BTF_ID__func__x__05", 5), 1);
	ck_assert_uint_eq(btfids_src_sym_line("__BTF_ID__set__x", 5), 0);
}
END_TEST

/* check_digest.py's P lines of the place fixture are at the marks */
static void assert_places(const char *d)
{
	static const char *const named[][3] = {
		{ "unresolved", "func", "pl_gone_a" },	/* 2 slots here, 1 in other.c */
		{ "unresolved", "func", "pl_gone_b" },	/* not the #if 0 one */
		{ "unresolved", "func", "pl_gone_c" },	/* on BTF_ID_FLAGS()'s 2nd line */
		{ "unresolved", "func", "pl_gone_d" },
		{ "unresolved", "func", "pl_gone_single" },
		{ "unresolved", "struct", "pl_gone_struct" },
		{ "duplicate-in-set", "func", "ck_read" },
		{ "inconsistent-flags", "func", "ck_open" },
	};
	char *want;
	size_t i;

	for (i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
		want = place_line(named[i][0], named[i][1], named[i][2]);
		ASSERT_HAS(d, want);
		free(want);
	}
	/* only PL_IDS() writes it: the file, no line, and why */
	ASSERT_HAS(d, "P unresolved func pl_hidden kernel/c/other.c:- kernel/c/other.c:-\n");
	ASSERT_HAS(d, "W kernel/c/other.c has no BTF_ID() naming func pl_hidden (made by another macro?)\n");
}

/* btfids check --format=json @argv... (NULL-terminated): at the marks, in tree @root */
static void assert_json_places(const char *root, const char *const argv[])
{
	char *out, *d, *want;

	ck_assert_int_eq(tl_run_out(&out, NULL, argv), 1);
	d = digest(out);
	assert_places(d);
	ck_assert_int_ge(asprintf(&want, "SOURCE %s\n", root), 0);
	ASSERT_HAS(d, want);
	free(want);
	free(out);
	free(d);
}

/* "kernel/a/place.c" and "19" of the first "want: func pl_gone_a" mark */
static void first_mark(char **file, char **line)
{
	char *a = marks("kernel/a/place.c", "func", "pl_gone_a");

	a[strcspn(a, ",")] = 0;
	*line = strdup(strchr(a, ':') + 1);
	*strchr(a, ':') = 0;
	*file = a;
}

/* --source: every finding at its marks; text, github and json agree */
START_TEST(t_place)
{
	char *elf = tl_path(ck_dir, "place"), *root = realpath(TREE, NULL), *out, *want;
	char *file, *line;

	assert_json_places(root, (const char *const[]){ "check", "--format=json", "--source",
							TREE, elf, NULL });

	first_mark(&file, &line);
	ck_assert_int_eq(RUN(&out, NULL, "check", "--source", TREE, elf), 1);
	ck_assert_int_ge(asprintf(&want, "%s:%s: error: unresolved func pl_gone_a: ", file, line), 0);
	ASSERT_HAS(out, want);
	free(want);
	free(out);
	ck_assert_int_eq(RUN(&out, NULL, "check", "--format=github", "--source", TREE, elf), 1);
	ck_assert_int_ge(asprintf(&want, "::error file=%s,line=%s,title=btfids%%3A unresolved func pl_gone_a::",
				  file, line), 0);
	ASSERT_HAS(out, want);
	free(want);
	free(out);
	free(file);
	free(line);
	free(root);
	free(elf);
}
END_TEST

/* --verify on a file never resolved: each set's count is stale, at its START */
START_TEST(t_place_verify)
{
	static const char *const sets[][2] = {
		{ "set", "pl_set" }, { "set8", "pl_kfuncs" }, { "set8", "pl_set8" },
	};
	char *elf = tl_path(ck_dir, "place"), *out, *d, *want;
	size_t i;

	ck_assert_int_eq(RUN(&out, NULL, "check", "--verify", "--format=json", "--source", TREE,
			     elf), 1);
	d = digest(out);
	for (i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		want = place_line("stale", sets[i][0], sets[i][1]);
		ASSERT_HAS(d, want);
		free(want);
	}
	free(out);
	free(d);
	free(elf);
}
END_TEST

/* In a copy of the tree (its build/ folder), no --source is needed; outside, nothing is placed */
START_TEST(t_place_found)
{
	char dir[] = "/tmp/btfids-ck-tree.XXXXXX", *cmd, *elf, *root, *out, *d;
	char *src = tl_path(ck_dir, "place");

	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_ge(asprintf(&cmd, "cp -r %s %s/tree && mkdir %s/tree/build && cp %s %s/tree/build/",
				  TREE, dir, dir, src, dir), 0);
	ck_assert_int_eq(system(cmd), 0);
	free(cmd);
	elf = tl_path(dir, "tree/build/place");
	root = tl_path(dir, "tree");
	assert_json_places(root, (const char *const[]){ "check", "--format=json", elf, NULL });
	/* the fixtures' own folder is in no kernel tree */
	ck_assert_int_eq(RUN(&out, NULL, "check", "--format=json", src), 1);
	d = digest(out);
	ASSERT_HAS(d, "SOURCE -\n");
	ASSERT_HAS(d, "P unresolved func pl_gone_a -:- -:-,-:-,-:-\n");
	ASSERT_HASNT(d, "\nW ");
	free(out);
	free(d);
	ck_assert_int_ge(asprintf(&cmd, "rm -rf %s", dir), 0);
	ck_assert_int_eq(system(cmd), 0);
	free(cmd);
	free(root);
	free(elf);
	free(src);
}
END_TEST

/*
 * The KF_* names dump and check print for set8 flags, by the values of
 * include/linux/btf.h in each release: 6.1 (KF_KPTR_GET 1 << 3,
 * KF_TRUSTED_ARGS 1 << 4, KF_SLEEPABLE 1 << 5), 6.12 (KF_ITER_NEXT 1 << 9,
 * KF_RCU_PROTECTED 1 << 11), 7.3 (KF_TRUSTED_ARGS gone, KF_IMPLICIT_ARGS
 * 1 << 16, KF_PERFMON 1 << 18); a bit a release does not define stays hex.
 */
START_TEST(t_kf_names)
{
	static const struct {
		uint32_t flags;
		unsigned int kernel;
		const char *want;
	} cases[] = {
		{ 0x5, 0, "KF_ACQUIRE|KF_RET_NULL" },
		{ 0x0, BTFIDS_KERNEL(7, 3), "0" },
		{ 0x38, BTFIDS_KERNEL(6, 1), "KF_KPTR_GET|KF_TRUSTED_ARGS|KF_SLEEPABLE" },
		{ 0xa04, BTFIDS_KERNEL(6, 12), "KF_RET_NULL|KF_ITER_NEXT|KF_RCU_PROTECTED" },
		{ 0x8, BTFIDS_KERNEL(6, 12), "0x8" },			/* KF_KPTR_GET: until 6.3 */
		{ 0x10080, BTFIDS_KERNEL(7, 2), "KF_RCU|KF_IMPLICIT_ARGS" },
		{ 0x40012, BTFIDS_KERNEL(7, 3), "KF_RELEASE|KF_PERFMON|0x10" },
		{ 0x80000001, 0, "KF_ACQUIRE|0x80000000" },
	};
	char buf[256];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		ck_assert_str_eq(btfids_kf_names(cases[i].flags, cases[i].kernel, buf, sizeof(buf)),
				 cases[i].want);
	/* a short buffer is cut, never overrun */
	ck_assert_str_eq(btfids_kf_names(0x5, 0, buf, 8), "KF_ACQU");
}
END_TEST

static Suite *check_suite(void)
{
	Suite *s = suite_create("check");
	TCase *tc = tcase_create("fixtures"), *real = tcase_create("real");

	setup();
	elf_version(EV_CURRENT);
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, t_image, 0, nr_dirs);
	tcase_add_loop_test(tc, t_module, 0, nr_dirs);
	tcase_add_loop_test(tc, t_verify, 0, nr_dirs);
	tcase_add_loop_test(tc, t_dump, 0, nr_dirs);
	tcase_add_test(tc, t_findings);
	tcase_add_test(tc, t_kf_names);
	tcase_add_test(tc, t_text);
	tcase_add_test(tc, t_github);
	tcase_add_test(tc, t_exit_codes);
	tcase_add_test(tc, t_src_scan);
	tcase_add_test(tc, t_src_sym_line);
	tcase_add_test(tc, t_place);
	tcase_add_test(tc, t_place_verify);
	tcase_add_test(tc, t_place_found);
	suite_add_tcase(s, tc);
	tcase_set_timeout(real, 600);
	tcase_add_test(real, t_real_verify);
	tcase_add_test(real, t_real_rename);
	suite_add_tcase(s, real);
	return s;
}

TL_MAIN(check_suite)
