// SPDX-License-Identifier: GPL-2.0
/*
 * check_srctree - the release of an object that carries none, from the
 * kernel tree its debug info names (include/btfids/srctree.h), on every
 * target's fixtures (ELF32/64, both byte orders, ET_REL debug info that
 * libdwfl relocates). The trees, their top Makefile and Kconfig, and where
 * each object was built are tests/fixtures/build.sh's: the expected
 * releases and paths are the ones it wrote. Then the resolve verb on them:
 * the flow each takes, the failure on two releases, and --patch_btfids
 * without the file a 6.x-flow run never writes.
 */
#include <check.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testlib.h"
#include "btfids/srctree.h"

#define HOST_FIX	"fixtures/x86_64-linux-gnu"
#define PROG_TESTS	"/tools/testing/selftests/bpf/prog_tests/"

static char **dirs;
static size_t nr_dirs;

static void setup(void)
{
	nr_dirs = tl_fixture_dirs(&dirs);
}

/* btfids_release_find() on @dir/@name: its return, @rel and @t */
static int find(const char *dir, const char *name, struct btfids_release *rel,
		struct btfids_srctree *t)
{
	struct btfids_report r = { .out = fopen("/dev/null", "w") };	/* two.o's FAILED line */
	char *path = tl_path(dir, name);
	struct btfids_elf e;
	int err;

	ck_assert_ptr_nonnull(r.out);
	ck_assert_int_eq(btfids_elf_open(&e, path, false, &r), 0);
	err = btfids_release_find(&e, rel, t, &r);
	btfids_elf_close(&e);
	fclose(r.out);
	free(path);
	return err;
}

/* The real path of @dir/trees/@tree, and of the source built there. */
static void tree_paths(const char *dir, const char *tree, const char *file,
		       char *top, char *src)
{
	char *trees = tl_path(dir, "trees"), *t = tl_path(trees, tree);

	ck_assert_ptr_nonnull(realpath(t, top));
	snprintf(src, PATH_MAX, "%s" PROG_TESTS "%s", top, file);
	free(trees);
	free(t);
}

/* @name, built in trees/@tree, has the release @text of that tree, and @flow */
static void expect_tree(const char *dir, const char *name, const char *tree,
			const char *text, enum btfids_flow flow)
{
	char top[PATH_MAX], src[PATH_MAX];
	struct btfids_release rel;
	struct btfids_srctree t;

	tree_paths(dir, tree, "module.c", top, src);
	ck_assert_int_eq(find(dir, name, &rel, &t), 0);
	ck_assert_str_eq(rel.from, BTFIDS_FROM_SRCTREE);
	ck_assert_str_eq(rel.text, text);
	ck_assert_int_eq(btfids_release_flow(&rel), flow);
	ck_assert_str_eq(t.top, top);
	ck_assert_str_eq(t.src, src);
	ck_assert_uint_eq(t.nr_units, 1);
	ck_assert_uint_eq(t.nr_in_tree, 1);
}

/*
 * tree73.o: built by absolute path (the selftests' way); tree612.o: by a
 * path relative to DW_AT_comp_dir (kbuild's way)
 */
START_TEST(t_tree)
{
	expect_tree(dirs[_i], "tree73.o", "linux-7.3", "7.3.0-rc7", BTFIDS_FLOW_73);
	expect_tree(dirs[_i], "tree612.o", "linux-6.12", "6.12.57", BTFIDS_FLOW_6X);
}
END_TEST

/* units of a 7.3 and a 6.12 tree: no answer, both named */
START_TEST(t_two_trees)
{
	char top73[PATH_MAX], top612[PATH_MAX], src[PATH_MAX];
	struct btfids_release rel;
	struct btfids_srctree t;

	tree_paths(dirs[_i], "linux-7.3", "module.c", top73, src);
	tree_paths(dirs[_i], "linux-6.12", "module.c", top612, src);
	ck_assert_int_eq(find(dirs[_i], "two.o", &rel, &t), -ENOTUNIQ);
	ck_assert_str_eq(rel.text, "7.3.0-rc7");
	ck_assert_str_eq(t.top, top73);
	ck_assert_str_eq(t.other.text, "6.12.57");
	ck_assert_str_eq(t.other_top, top612);
	ck_assert_uint_eq(t.nr_units, 2);
	ck_assert_uint_eq(t.nr_in_tree, 2);
}
END_TEST

/* a linux_banner wins, and the debug info is not even read */
START_TEST(t_banner_first)
{
	struct btfids_release rel;
	struct btfids_srctree t;

	ck_assert_int_eq(find(dirs[_i], "banner612.o", &rel, &t), 0);
	ck_assert_str_eq(rel.from, "linux_banner");
	ck_assert_str_eq(rel.text, "7.3.0-fx7");
	ck_assert_uint_eq(t.nr_units, 0);
	ck_assert(!t.dwarf);
}
END_TEST

/* no release, and the reason -v gives */
static void expect_none(const char *dir, const char *name, unsigned int units,
			const char *why_part)
{
	struct btfids_release rel;
	struct btfids_srctree t;
	char why[PATH_MAX + 96];

	ck_assert_int_eq(find(dir, name, &rel, &t), -ENOENT);
	ck_assert_ptr_null(rel.from);
	ck_assert_int_eq(btfids_release_flow(&rel), BTFIDS_FLOW_6X);
	ck_assert_uint_eq(t.nr_units, units);
	ck_assert_uint_eq(t.nr_in_tree, 0);
	btfids_srctree_why(&t, why, sizeof(why));
	ck_assert_msg(strstr(why, why_part), "%s: \"%s\" lacks \"%s\"", name, why, why_part);
}

START_TEST(t_none)
{
	const char *dir = dirs[_i];

	expect_none(dir, "gone73.o", 1, "gone-7.3" PROG_TESTS "module.c, is not on this machine");
	expect_none(dir, "nokconfig.o", 1, "nokconfig-7.3" PROG_TESTS "module.c, is in no kernel tree");
	expect_none(dir, "badver.o", 1, "is in no kernel tree");
	expect_none(dir, "nodwarf.o", 0, "no debug info");
	/* the fixture image: its 4 objects, built in tests/fixtures/src */
	expect_none(dir, "image", 4, "tests/fixtures/src/image.c, are in no kernel tree");
}
END_TEST

/* the resolve verb on the host's objects: which flow each one takes */
static char *fix;

static char *copy_of(const char *name)
{
	char *src = tl_path(fix, name), *copy = tl_tmpcopy(src);

	free(src);
	return copy;
}

static bool exists(const char *path, const char *suffix)
{
	char *p;
	bool yes;

	ck_assert_int_ge(asprintf(&p, "%s%s", path, suffix), 0);
	yes = !access(p, F_OK);
	unlink(p);
	free(p);
	return yes;
}

/*
 * btfids -b image --btf module.btf on a copy of @name: exit 0, and either
 * the 7.x flow (ELF as it was, ELF.BTF_ids and ELF.BTF written) or the 6.x
 * one (ELF changed in place, no ELF.BTF_ids).
 */
static void resolve_flow(const char *name, bool flow7)
{
	char *o = copy_of(name), *image = tl_path(fix, "image"),
	     *btf = tl_path(fix, "module.btf"), *err;
	size_t n0, n1;
	unsigned char *before = tl_slurp(o, &n0), *after;

	ck_assert_int_eq(TL_RUN(&err, "-b", image, "--btf", btf, o), 0);
	after = tl_slurp(o, &n1);
	ck_assert_msg((n0 == n1 && !memcmp(before, after, n0)) == flow7, "%s", name);
	ck_assert(exists(o, ".BTF_ids") == flow7);
	ck_assert(exists(o, ".BTF") == flow7);
	unlink(o);
	free(before), free(after), free(err), free(o), free(image), free(btf);
}

START_TEST(t_resolve_flow)
{
	resolve_flow("tree73.o", true);
	resolve_flow("tree612.o", false);
}
END_TEST

/* two releases: exit 255, both trees named, the file untouched */
START_TEST(t_resolve_two)
{
	char *o = copy_of("two.o"), *err;
	size_t n0, n1;
	unsigned char *before = tl_slurp(o, &n0), *after;

	ck_assert_int_eq(TL_RUN(&err, o), 255);
	ck_assert_msg(strstr(err, "FAILED") && strstr(err, "two kernel releases") &&
		      strstr(err, "7.3.0-rc7 in ") && strstr(err, "6.12.57 in ") &&
		      strstr(err, "trees/linux-6.12") && strstr(err, "--kernel"), "%s", err);
	after = tl_slurp(o, &n1);
	ck_assert(n0 == n1 && !memcmp(before, after, n0));
	ck_assert(!exists(o, ".BTF_ids"));
	unlink(o);
	free(before), free(after), free(err), free(o);
}
END_TEST

/* btfids --patch_btfids COPY.BTF_ids COPY, COPY a copy of @name: its stderr */
static char *patch_missing(const char *name)
{
	char *o = copy_of(name), *blob, *err;

	ck_assert_int_ge(asprintf(&blob, "%s.BTF_ids", o), 0);
	unlink(blob);
	ck_assert_int_eq(TL_RUN(&err, "--patch_btfids", blob, o), 255);
	unlink(o);
	free(o), free(blob);
	return err;
}

/* kbuild 7.x's next step after a run that took the 6.x flow: what happened */
START_TEST(t_patch_missing)
{
	char *err = patch_missing("gone73.o");

	ck_assert_msg(strstr(err, "FAILED") && strstr(err, "cannot open") &&
		      strstr(err, "carries no kernel release") &&
		      strstr(err, "not on this machine") && strstr(err, "--kernel"), "%s", err);
	free(err);
	err = patch_missing("tree73.o");	/* with a release, the plain error */
	ck_assert_msg(strstr(err, "cannot open") && !strstr(err, "no kernel release"), "%s", err);
	free(err);
}
END_TEST

static Suite *srctree_suite(void)
{
	Suite *s = suite_create("srctree");
	TCase *tc = tcase_create("srctree");

	setup();
	fix = tl_path(tl_build_dir(), HOST_FIX);
	tcase_add_loop_test(tc, t_tree, 0, nr_dirs);
	tcase_add_loop_test(tc, t_two_trees, 0, nr_dirs);
	tcase_add_loop_test(tc, t_banner_first, 0, nr_dirs);
	tcase_add_loop_test(tc, t_none, 0, nr_dirs);
	tcase_add_test(tc, t_resolve_flow);
	tcase_add_test(tc, t_resolve_two);
	tcase_add_test(tc, t_patch_missing);
	suite_add_tcase(s, tc);
	return s;
}

TL_MAIN(srctree_suite)
