// SPDX-License-Identifier: GPL-2.0
/*
 * check_release - which kernel built an object (include/btfids/release.h):
 * release strings as the kernel writes them (init/version-timestamp.c,
 * include/linux/vermagic.h), the flow each release takes, and the release
 * read from every target's fixtures (the strings in
 * tests/fixtures/src/kfuncs7.c and module7.c).
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testlib.h"
#include "btfids/release.h"

static char **dirs;
static size_t nr_dirs;

static void setup(void)
{
	nr_dirs = tl_fixture_dirs(&dirs);
}

START_TEST(t_parse)
{
	struct btfids_release rel;

	ck_assert_int_eq(btfids_release_parse("7.2.13+deb14-cloud-amd64 SMP preempt", &rel), 0);
	ck_assert_uint_eq(rel.major, 7);
	ck_assert_uint_eq(rel.minor, 2);
	ck_assert_str_eq(rel.text, "7.2.13+deb14-cloud-amd64");
	ck_assert_int_eq(btfids_release_parse("6.12", &rel), 0);
	ck_assert_uint_eq(rel.major, 6);
	ck_assert_uint_eq(rel.minor, 12);
	ck_assert_int_eq(btfids_release_parse("7.3.0-rc7", &rel), 0);
	ck_assert_uint_eq(rel.minor, 3);
	ck_assert_int_eq(btfids_release_parse("7", &rel), -EINVAL);
	ck_assert_int_eq(btfids_release_parse("7.", &rel), -EINVAL);
	ck_assert_int_eq(btfids_release_parse("seven.two", &rel), -EINVAL);
	ck_assert_int_eq(btfids_release_parse("", &rel), -EINVAL);
	ck_assert_int_eq(btfids_release_parse("1000.1", &rel), -EINVAL);
}
END_TEST

/* gen-btf.sh since 7.0; kfunc discovery by set8 and dedup since 7.3 */
START_TEST(t_flow)
{
	static const struct {
		const char *rel;
		enum btfids_flow flow;
	} cases[] = {
		{ "5.15.0", BTFIDS_FLOW_6X }, { "6.12.57", BTFIDS_FLOW_6X },
		{ "6.19", BTFIDS_FLOW_6X }, { "7.0", BTFIDS_FLOW_72 },
		{ "7.1.4", BTFIDS_FLOW_72 }, { "7.2.13", BTFIDS_FLOW_72 },
		{ "7.3.0-rc7", BTFIDS_FLOW_73 }, { "7.10", BTFIDS_FLOW_73 },
		{ "8.0", BTFIDS_FLOW_73 },
	};
	struct btfids_release rel = {};
	size_t i;

	ck_assert_int_eq(btfids_release_flow(&rel), BTFIDS_FLOW_6X);	/* none found */
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ck_assert_int_eq(btfids_release_parse(cases[i].rel, &rel), 0);
		rel.from = "test";
		ck_assert_msg(btfids_release_flow(&rel) == cases[i].flow, "%s", cases[i].rel);
	}
}
END_TEST

static void read_release(const char *dir, const char *name, int want_err,
			 const char *want_text, const char *want_from)
{
	char *path = tl_path(dir, name);
	struct btfids_report r = { .out = stderr };
	struct btfids_release rel;
	struct btfids_elf e;

	ck_assert_int_eq(btfids_elf_open(&e, path, false, &r), 0);
	ck_assert_int_eq(btfids_release_read(&e, &rel), want_err);
	if (want_text) {
		ck_assert_str_eq(rel.text, want_text);
		ck_assert_str_eq(rel.from, want_from);
	} else {
		ck_assert_ptr_null(rel.from);
	}
	btfids_elf_close(&e);
	free(path);
}

/* every target: ELF32/64, both byte orders */
START_TEST(t_read)
{
	const char *dir = dirs[_i];

	read_release(dir, "image7.nobtf", 0, "7.3.0-fx7", "linux_banner");
	read_release(dir, "image7", 0, "7.3.0-fx7", "linux_banner");
	read_release(dir, "module7.nobtf.o", 0, "7.3.0-fx7", "vermagic");
	read_release(dir, "image", -ENOENT, NULL, NULL);
	read_release(dir, "module.o", -ENOENT, NULL, NULL);
}
END_TEST

/*
 * A copy of @dir/@name with the first @old in it made @new (padded with
 * spaces to @old's length, the file keeps its size); returns its path.
 */
static char *rewritten(const char *dir, const char *name, const char *old, const char *new)
{
	char *src = tl_path(dir, name), *path;
	unsigned char *buf, *at;
	size_t n;

	buf = tl_slurp(src, &n);
	at = memmem(buf, n, old, strlen(old));
	ck_assert_ptr_nonnull(at);
	memset(at, ' ', strlen(old));
	memcpy(at, new, strlen(new));
	path = tl_tmpfile(buf, n);
	free(buf);
	free(src);
	return path;
}

/*
 * A linux_banner or vermagic= that is there but does not parse: -EBADMSG,
 * which string (rel.bad) and its text to the end of its line, on every
 * target; "none found" (-ENOENT) stays for objects without either.
 */
START_TEST(t_read_unparsable)
{
	static const struct {
		const char *name, *old, *new, *bad, *text;
	} cases[] = {
		{ "image7.nobtf", "Linux version 7.3.0-fx7", "Linux version 1000.1", "linux_banner",
		  "Linux version 1000.1    (fixture@btfids) #1 SMP" },
		{ "image7.nobtf", "Linux version 7.3.0-fx7", "Linux version 7.-3", "linux_banner",
		  "Linux version 7.-3      (fixture@btfids) #1 SMP" },
		{ "module7.nobtf.o", "vermagic=7.3.0-fx7", "vermagic=7.", "vermagic",
		  "vermagic=7.        SMP preempt mod_unload " },
	};
	struct btfids_report r = { .out = stderr };
	struct btfids_release rel;
	struct btfids_elf e;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *path = rewritten(dirs[_i], cases[i].name, cases[i].old, cases[i].new);

		ck_assert_int_eq(btfids_elf_open(&e, path, false, &r), 0);
		ck_assert_int_eq(btfids_release_read(&e, &rel), -EBADMSG);
		ck_assert_ptr_null(rel.from);
		ck_assert_str_eq(rel.bad, cases[i].bad);
		ck_assert_str_eq(rel.text, cases[i].text);
		ck_assert_int_eq(btfids_release_flow(&rel), BTFIDS_FLOW_6X);
		btfids_elf_close(&e);
		unlink(path);
		free(path);
	}
}
END_TEST

static Suite *release_suite(void)
{
	Suite *s = suite_create("release");
	TCase *tc = tcase_create("release");

	setup();
	tcase_add_test(tc, t_parse);
	tcase_add_test(tc, t_flow);
	tcase_add_loop_test(tc, t_read, 0, nr_dirs);
	tcase_add_loop_test(tc, t_read_unparsable, 0, nr_dirs);
	suite_add_tcase(s, tc);
	return s;
}

TL_MAIN(release_suite)
