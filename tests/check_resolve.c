// SPDX-License-Identifier: GPL-2.0
/*
 * check_resolve.c - btfids on the fixture image and module of every built
 * target (tests/fixtures/build-all.sh): exact bytes of every list and set,
 * checked against libbpf lookups by name and the fixture sources
 * (tests/fixtures/src/image.c, module.c); exit codes and messages of the
 * kernel's resolve_btfids; nothing outside .BTF_ids changes.
 */
#include <elf.h>
#include <errno.h>
#include <libgen.h>
#include <linux/btf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testlib.h"
#include "btfids/elf.h"
#include "btfids/patch.h"

/* flags from tests/fixtures/src/types.h */
#define FX_F_ACQUIRE	(1 << 0)
#define FX_F_RELEASE	(1 << 1)
#define FX_F_RET_NULL	(1 << 2)
#define FX_F_SLEEPABLE	(1 << 5)

static char **dirs;
static size_t nr_dirs;

static void setup(void)
{
	nr_dirs = tl_fixture_dirs(&dirs);
}

/* A resolved copy of <dir>/<name>; *err gets btfids' stderr. */
static char *resolved(const char *dir, const char *name, const char *base, char **err)
{
	char *src = tl_path(dir, name), *copy = tl_tmpcopy(src);
	char *b = base ? tl_path(dir, base) : NULL;
	int rc = b ? TL_RUN(err, "-b", b, copy) : TL_RUN(err, copy);

	ck_assert_msg(rc == 0, "btfids %s: exit %d: %s", src, rc, err ? *err : "");
	free(src);
	free(b);
	return copy;
}

static int cmp_u32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return x < y ? -1 : x > y;
}

START_TEST(t_lists)
{
	const char *dir = dirs[_i];
	char *err, *img = resolved(dir, "image", NULL, &err);
	struct btf *btf = tl_btf(img, NULL);
	struct tl_elf e;

	ck_assert_ptr_nonnull(strstr(err, "WARN: resolve_btfids: unresolved symbol fx_missing\n"));
	ck_assert_ptr_nonnull(strstr(err, "WARN: resolve_btfids: unresolved symbol fx_missing2\n"));
	tl_elf_open(&e, img);
	ck_assert_uint_eq(tl_label_word(&e, "fx_list", 0), tl_id(btf, "fx_read", BTF_KIND_FUNC));
	ck_assert_uint_eq(tl_label_word(&e, "fx_list", 1), tl_id(btf, "fx_task", BTF_KIND_STRUCT));
	ck_assert_uint_eq(tl_label_word(&e, "fx_list", 2), 0);
	ck_assert_uint_eq(tl_label_word(&e, "fx_list", 3), tl_id(btf, "fx_val", BTF_KIND_UNION));
	ck_assert_uint_eq(tl_label_word(&e, "fx_list", 4), tl_id(btf, "fx_id_t", BTF_KIND_TYPEDEF));
	ck_assert_uint_eq(tl_label_word(&e, "fx_list", 5), 0);
	ck_assert_uint_eq(tl_label_word(&e, "fx_single", 0), tl_id(btf, "fx_open", BTF_KIND_FUNC));
	ck_assert_uint_eq(tl_label_word(&e, "fx_global", 0), tl_id(btf, "fx_close", BTF_KIND_FUNC));
	ck_assert_uint_eq(tl_label_word(&e, "fx_global", 3), tl_id(btf, "fx_task", BTF_KIND_STRUCT));
	ck_assert_uint_ne(tl_label_word(&e, "fx_list", 0), 0);
	ck_assert_uint_ne(tl_label_word(&e, "fx_list", 4), 0);
	tl_elf_close(&e);
	btf__free(btf);
	unlink(img);
	free(img);
	free(err);
}
END_TEST

/* Several STRUCT fx_dup (funcs.c, dup.c): the lowest ID, with a warning. */
START_TEST(t_ambiguous)
{
	char *err, *img = resolved(dirs[_i], "image", NULL, &err);
	struct btf *btf = tl_btf(img, NULL);
	uint32_t id, first = 0, second = 0;
	char want[128];
	struct tl_elf e;

	for (id = 1; id < btf__type_cnt(btf); id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		if (!btf_is_struct(t) || strcmp(btf__name_by_offset(btf, t->name_off), "fx_dup"))
			continue;
		if (!first)
			first = id;
		else if (!second)
			second = id;
	}
	ck_assert_uint_ne(second, 0);
	tl_elf_open(&e, img);
	ck_assert_uint_eq(tl_label_word(&e, "fx_list", 6), first);
	snprintf(want, sizeof(want), "WARN: multiple IDs found for 'fx_dup': %u, %u - using %u\n",
		 first, second, first);
	ck_assert_msg(strstr(err, want), "expected '%s' in: %s", want, err);
	tl_elf_close(&e);
	btf__free(btf);
	unlink(img);
	free(img);
	free(err);
}
END_TEST

START_TEST(t_sets)
{
	char *img = resolved(dirs[_i], "image", NULL, NULL);
	struct btf *btf = tl_btf(img, NULL);
	uint32_t want[4] = {
		tl_id(btf, "fx_write", BTF_KIND_FUNC), tl_id(btf, "fx_open", BTF_KIND_FUNC),
		0, tl_id(btf, "fx_read", BTF_KIND_FUNC),
	};
	struct tl_elf e;
	int i;

	qsort(want, 4, sizeof(want[0]), cmp_u32);
	tl_elf_open(&e, img);
	ck_assert_uint_eq(tl_label_word(&e, "fx_set", 0), 4);
	for (i = 0; i < 4; i++)
		ck_assert_uint_eq(tl_label_word(&e, "fx_set", 1 + i), want[i]);
	ck_assert_uint_eq(tl_label_word(&e, "__BTF_ID__set__fx_set", 0), 4);
	ck_assert_uint_eq(tl_label_word(&e, "fx_empty", 0), 0);
	/* fx_holes: fx_write, a BTF_ID_UNUSED hole (0), fx_open; sorted */
	want[0] = tl_id(btf, "fx_write", BTF_KIND_FUNC);
	want[1] = 0;
	want[2] = tl_id(btf, "fx_open", BTF_KIND_FUNC);
	qsort(want, 3, sizeof(want[0]), cmp_u32);
	ck_assert_uint_eq(tl_label_word(&e, "fx_holes", 0), 3);
	for (i = 0; i < 3; i++)
		ck_assert_uint_eq(tl_label_word(&e, "fx_holes", 1 + i), want[i]);
	tl_elf_close(&e);
	btf__free(btf);
	unlink(img);
	free(img);
}
END_TEST

struct pair {
	uint32_t id, flags;
};

static int cmp_pair(const void *a, const void *b)
{
	return cmp_u32(a, b);
}

static void check_set8(struct tl_elf *e, const char *label, uint32_t hdr_flags,
		       struct pair *want, int n)
{
	int i;

	if (n)
		qsort(want, n, sizeof(*want), cmp_pair);
	ck_assert_uint_eq(tl_label_word(e, label, 0), n);
	ck_assert_uint_eq(tl_label_word(e, label, 1), hdr_flags);
	for (i = 0; i < n; i++) {
		ck_assert_uint_eq(tl_label_word(e, label, 2 + 2 * i), want[i].id);
		ck_assert_uint_eq(tl_label_word(e, label, 3 + 2 * i), want[i].flags);
	}
}

START_TEST(t_set8)
{
	char *img = resolved(dirs[_i], "image", NULL, NULL);
	struct btf *btf = tl_btf(img, NULL);
	struct pair kf[] = {
		{ tl_id(btf, "fx_poll", BTF_KIND_FUNC), FX_F_SLEEPABLE },
		{ tl_id(btf, "fx_close", BTF_KIND_FUNC), FX_F_RELEASE },
		{ tl_id(btf, "fx_open", BTF_KIND_FUNC), FX_F_ACQUIRE | FX_F_RET_NULL },
		{ 0, FX_F_ACQUIRE | FX_F_RELEASE },
	};
	struct pair s8[] = {
		{ tl_id(btf, "fx_ioctl", BTF_KIND_FUNC), 0x70 },
		{ tl_id(btf, "fx_read", BTF_KIND_FUNC), 0 },
	};
	struct tl_elf e;

	tl_elf_open(&e, img);
	check_set8(&e, "fx_kfuncs", 1 /* BTF_SET8_KFUNCS */, kf, 4);
	check_set8(&e, "fx_set8", 0, s8, 2);
	check_set8(&e, "fx_kfuncs_empty", 1, NULL, 0);
	tl_elf_close(&e);
	btf__free(btf);
	unlink(img);
	free(img);
}
END_TEST

/* 150 slots of one name, more than the kernel tool's old ADDR_CNT of 100 */
START_TEST(t_many_slots)
{
	char *img = resolved(dirs[_i], "image", NULL, NULL);
	struct btf *btf = tl_btf(img, NULL);
	uint32_t id = tl_id(btf, "fx_write", BTF_KIND_FUNC);
	struct tl_elf e;
	int i;

	ck_assert_uint_ne(id, 0);
	tl_elf_open(&e, img);
	for (i = 0; i < 150; i++)
		ck_assert_uint_eq(tl_label_word(&e, "fx_many", i), id);
	tl_elf_close(&e);
	btf__free(btf);
	unlink(img);
	free(img);
}
END_TEST

/* Only .BTF_ids changes; a second run changes nothing at all. */
START_TEST(t_only_section_changes)
{
	char *src = tl_path(dirs[_i], "image");
	char *img = resolved(dirs[_i], "image", NULL, NULL);
	unsigned char *a, *b, *c;
	size_t na, nb, nc, i, changed = 0;
	struct tl_elf e;

	tl_elf_open(&e, img);
	a = tl_slurp(src, &na);
	b = tl_slurp(img, &nb);
	ck_assert_uint_eq(na, nb);
	for (i = 0; i < na; i++) {
		if (a[i] == b[i])
			continue;
		ck_assert_msg(i >= e.ids_off && i < e.ids_off + e.ids_size,
			      "byte %zu outside .BTF_ids changed", i);
		changed++;
	}
	ck_assert_uint_gt(changed, 0);
	ck_assert_int_eq(TL_RUN(NULL, img), 0);
	c = tl_slurp(img, &nc);
	ck_assert_uint_eq(nb, nc);
	ck_assert_int_eq(memcmp(b, c, nb), 0);
	tl_elf_close(&e);
	unlink(img);
	free(a);
	free(b);
	free(c);
	free(img);
	free(src);
}
END_TEST

static void assert_unchanged(const char *orig, const char *copy)
{
	size_t na, nb;
	unsigned char *a = tl_slurp(orig, &na), *b = tl_slurp(copy, &nb);

	ck_assert_uint_eq(na, nb);
	ck_assert_msg(!memcmp(a, b, na), "%s was modified", copy);
	free(a);
	free(b);
}

START_TEST(t_fatal_warnings)
{
	char *src = tl_path(dirs[_i], "image"), *img = tl_tmpcopy(src), *err;

	ck_assert_int_eq(TL_RUN(&err, "--fatal_warnings", img), 255);
	ck_assert_ptr_nonnull(strstr(err, "WARN: "));
	ck_assert_ptr_nonnull(strstr(err, "FAILED"));
	assert_unchanged(src, img);
	unlink(img);
	free(img);
	free(src);
	free(err);
}
END_TEST

START_TEST(t_module)
{
	const char *dir = dirs[_i];
	char *err, *m1 = resolved(dir, "module.o", "image", &err);
	char *m2 = resolved(dir, "module.o", "image.btf", NULL);
	char *base = tl_path(dir, "image");
	struct btf *btf = tl_btf(m1, base);
	struct btf *base_btf = tl_btf(base, NULL);
	struct pair kf[] = {
		{ tl_id(btf, "fx_mod_exit", BTF_KIND_FUNC), FX_F_SLEEPABLE },
		{ tl_id(btf, "fx_mod_init", BTF_KIND_FUNC), FX_F_ACQUIRE },
		{ tl_id(btf, "fx_open", BTF_KIND_FUNC), FX_F_RELEASE },
	};
	uint32_t set[3] = {
		tl_id(btf, "fx_mod_exit", BTF_KIND_FUNC), tl_id(btf, "fx_poll", BTF_KIND_FUNC),
		tl_id(btf, "fx_mod_init", BTF_KIND_FUNC),
	};
	uint32_t own = tl_id(btf, "fx_mod_priv", BTF_KIND_STRUCT);
	struct tl_elf e;
	int i;

	ck_assert_ptr_nonnull(strstr(err, "unresolved symbol fx_mod_gone\n"));
	/* the module's own types come after the base's; base names resolve into it */
	ck_assert_uint_ge(own, btf__type_cnt(base_btf));
	ck_assert_uint_eq(tl_id(btf, "fx_task", BTF_KIND_STRUCT),
			  tl_id(base_btf, "fx_task", BTF_KIND_STRUCT));
	tl_elf_open(&e, m1);
	ck_assert_uint_eq(tl_label_word(&e, "mod_list", 0), tl_id(base_btf, "fx_task", BTF_KIND_STRUCT));
	ck_assert_uint_eq(tl_label_word(&e, "mod_list", 1), tl_id(btf, "fx_mod_init", BTF_KIND_FUNC));
	ck_assert_uint_eq(tl_label_word(&e, "mod_list", 2), own);
	ck_assert_uint_eq(tl_label_word(&e, "mod_list", 3), tl_id(base_btf, "fx_read", BTF_KIND_FUNC));
	ck_assert_uint_eq(tl_label_word(&e, "mod_list", 4), 0);
	check_set8(&e, "mod_kfuncs", 1, kf, 3);
	qsort(set, 3, sizeof(set[0]), cmp_u32);
	ck_assert_uint_eq(tl_label_word(&e, "mod_set", 0), 3);
	for (i = 0; i < 3; i++)
		ck_assert_uint_eq(tl_label_word(&e, "mod_set", 1 + i), set[i]);
	tl_elf_close(&e);
	assert_unchanged(m1, m2);	/* -b ELF and -b raw BTF agree */
	btf__free(btf);
	btf__free(base_btf);
	unlink(m1);
	unlink(m2);
	free(m1);
	free(m2);
	free(base);
	free(err);
}
END_TEST

/*
 * Several modules in one run: the same bytes and messages as separate runs.
 * The batch looks the base's names up in an index, single runs walk the
 * base: module_dup.o's ambiguous fx_dup must warn the same in both.
 */
START_TEST(t_batch)
{
	const char *dir = dirs[_i];
	char *base = tl_path(dir, "image"), *src[2], *single[2], *batch[2];
	char *err[2], *errb, *want;
	int i;

	src[0] = tl_path(dir, "module.o");
	src[1] = tl_path(dir, "module_dup.o");
	for (i = 0; i < 2; i++) {
		single[i] = tl_tmpcopy(src[i]);
		batch[i] = tl_tmpcopy(src[i]);
		ck_assert_int_eq(TL_RUN(&err[i], "-b", base, single[i]), 0);
	}
	ck_assert_ptr_nonnull(strstr(err[1], "WARN: multiple IDs found for 'fx_dup': "));
	ck_assert_int_eq(TL_RUN(&errb, "-b", base, batch[0], batch[1]), 0);
	ck_assert_int_ge(asprintf(&want, "%s%s", err[0], err[1]), 0);
	ck_assert_str_eq(errb, want);
	for (i = 0; i < 2; i++) {
		assert_unchanged(single[i], batch[i]);
		unlink(single[i]);
		unlink(batch[i]);
		free(single[i]);
		free(batch[i]);
		free(src[i]);
		free(err[i]);
	}
	free(base);
	free(errb);
	free(want);
}
END_TEST

/*
 * Each target's fixtures really are of its ELF class, byte order and
 * machine (from e_ident and e_machine, read by hand), so the Check suites
 * and tests/cross.sh cover ELF32 and big endian for real. The architecture
 * is the first part of the fixture directory's name (the GNU triple).
 */
static const struct {
	const char *arch;
	unsigned char class, data;
	uint16_t machine;
} elf_targets[] = {
	{ "x86_64", ELFCLASS64, ELFDATA2LSB, EM_X86_64 },
	{ "i686", ELFCLASS32, ELFDATA2LSB, EM_386 },
	{ "aarch64", ELFCLASS64, ELFDATA2LSB, EM_AARCH64 },
	{ "arm", ELFCLASS32, ELFDATA2LSB, EM_ARM },
	{ "s390x", ELFCLASS64, ELFDATA2MSB, EM_S390 },
	{ "powerpc64le", ELFCLASS64, ELFDATA2LSB, EM_PPC64 },
	{ "powerpc64", ELFCLASS64, ELFDATA2MSB, EM_PPC64 },
	{ "powerpc", ELFCLASS32, ELFDATA2MSB, EM_PPC },
	{ "riscv64", ELFCLASS64, ELFDATA2LSB, EM_RISCV },
	{ "mips", ELFCLASS32, ELFDATA2MSB, EM_MIPS },
};

START_TEST(t_elf_class)
{
	char *copy = strdup(dirs[_i]), *arch = basename(copy), *names[] = { "image", "module.o" };
	size_t i, n;

	arch[strcspn(arch, "-")] = 0;
	for (i = 0; i < sizeof(elf_targets) / sizeof(elf_targets[0]); i++)
		if (!strcmp(elf_targets[i].arch, arch))
			break;
	ck_assert_msg(i < sizeof(elf_targets) / sizeof(elf_targets[0]),
		      "%s: add its ELF class, byte order and machine to elf_targets", dirs[_i]);
	for (n = 0; n < 2; n++) {
		char *path = tl_path(dirs[_i], names[n]);
		size_t size;
		unsigned char *f = tl_slurp(path, &size);
		uint16_t machine;

		ck_assert_uint_ge(size, 20);
		ck_assert_int_eq(memcmp(f, ELFMAG, SELFMAG), 0);
		machine = f[EI_DATA] == ELFDATA2MSB ? f[18] << 8 | f[19] : f[19] << 8 | f[18];
		ck_assert_msg(f[EI_CLASS] == elf_targets[i].class, "%s: ELF class %d", path, f[EI_CLASS]);
		ck_assert_msg(f[EI_DATA] == elf_targets[i].data, "%s: byte order %d", path, f[EI_DATA]);
		ck_assert_msg(machine == elf_targets[i].machine, "%s: e_machine %u", path, machine);
		free(f);
		free(path);
	}
	free(copy);
}
END_TEST

/* --btf FILE (raw) gives the same result as the image's own .BTF. */
START_TEST(t_btf_option)
{
	const char *dir = dirs[_i];
	char *own = resolved(dir, "image", NULL, NULL);
	char *src = tl_path(dir, "image"), *raw = tl_path(dir, "image.btf");
	char *copy = tl_tmpcopy(src);

	ck_assert_int_eq(TL_RUN(NULL, "--btf", raw, copy), 0);
	assert_unchanged(own, copy);
	unlink(own);
	unlink(copy);
	free(own);
	free(copy);
	free(src);
	free(raw);
}
END_TEST

/* --patch_btfids: exactly the section's size, else FAILED and untouched. */
START_TEST(t_patch_btfids)
{
	const char *dir = dirs[_i];
	char *done = resolved(dir, "image", NULL, NULL);
	char *src = tl_path(dir, "image"), *copy = tl_tmpcopy(src), *err;
	char blob[] = "/tmp/btfids-blob.XXXXXX";
	struct tl_elf e;
	int fd;

	tl_elf_open(&e, done);
	fd = mkstemp(blob);
	ck_assert_int_eq(write(fd, e.file + e.ids_off, e.ids_size), (ssize_t)e.ids_size);
	close(fd);
	ck_assert_int_eq(TL_RUN(NULL, "--patch_btfids", blob, copy), 0);
	assert_unchanged(done, copy);
	unlink(copy);
	free(copy);
	copy = tl_tmpcopy(src);
	ck_assert_int_eq(truncate(blob, e.ids_size - 4), 0);
	ck_assert_int_eq(TL_RUN(&err, "--patch_btfids", blob, copy), 255);
	ck_assert_ptr_nonnull(strstr(err, "FAILED"));
	ck_assert_ptr_nonnull(strstr(err, "size mismatch"));
	assert_unchanged(src, copy);
	tl_elf_close(&e);
	unlink(blob);
	unlink(copy);
	unlink(done);
	free(copy);
	free(done);
	free(src);
	free(err);
}
END_TEST

START_TEST(t_usage)
{
	char *err;

	ck_assert_int_eq(TL_RUN(&err), 129);
	free(err);
	/* resolve's usage errors: 129, what was wrong and the help, not the usage */
	ck_assert_int_eq(TL_RUN(&err, "--no-such-option", "x"), 129);
	ck_assert_str_eq(err, "btfids: unknown option --no-such-option\n"
			 "Try 'btfids --help' for more information.\n");
	free(err);
	ck_assert_int_eq(TL_RUN(&err, "--btf"), 129);
	free(err);
	ck_assert_int_eq(TL_RUN(&err, "-o", "/tmp/x", "--patch_btfids", "blob", "elf"), 129);
	free(err);
	/* a mistyped verb is btfids' own usage error: 2, as "help chek" */
	ck_assert_int_eq(TL_RUN(&err, "chek", "/nonexistent/vmlinux"), 2);
	ck_assert_ptr_nonnull(strstr(err, "'chek' is neither a verb nor a file"));
	free(err);
	ck_assert_int_eq(TL_RUN(&err, "/nonexistent/vmlinux"), 255);
	ck_assert_ptr_nonnull(strstr(err, "FAILED /nonexistent/vmlinux: "));
	free(err);
	/* two files without -b (the kernel tool takes one): nothing is written */
	{
		char *src = tl_path(dirs[0], "image"), *img = tl_tmpcopy(src);
		char *msrc = tl_path(dirs[0], "module.o"), *mod = tl_tmpcopy(msrc);

		ck_assert_int_eq(TL_RUN(&err, img, mod), 129);
		ck_assert_ptr_nonnull(strstr(err, "-b vmlinux"));
		assert_unchanged(src, img);
		assert_unchanged(msrc, mod);
		free(err);
		ck_assert_int_eq(TL_RUN(&err, "--", "-b", img, mod), 129);
		assert_unchanged(src, img);
		free(err);
		unlink(img);
		unlink(mod);
		free(img);
		free(mod);
		free(src);
		free(msrc);
	}
}
END_TEST

/* No .BTF_ids (an object of the image): nothing to do, exit 0. */
START_TEST(t_no_btf_ids)
{
	char *src = tl_path(dirs[_i], "funcs.o"), *copy = tl_tmpcopy(src);

	ck_assert_int_eq(TL_RUN(NULL, copy), 0);
	assert_unchanged(src, copy);
	unlink(copy);
	free(copy);
	free(src);
}
END_TEST

/* A base of the other byte order is another target: refused, file untouched. */
START_TEST(t_base_other_byte_order)
{
	char *root = tl_path(tl_build_dir(), "fixtures");
	char *le = tl_path(root, "x86_64-linux-gnu"), *be = tl_path(root, "s390x-linux-gnu");
	char *mod = tl_path(le, "module.o"), *base = tl_path(be, "image");
	char *copy, *err;

	if (access(base, R_OK)) {
		printf("resolve: base of the other byte order: skipped (no s390x fixture)\n");
		goto out;
	}
	copy = tl_tmpcopy(mod);
	ck_assert_int_eq(TL_RUN(&err, "-b", base, copy), 255);
	ck_assert_ptr_nonnull(strstr(err, "little-endian but its base BTF is big-endian"));
	assert_unchanged(mod, copy);
	unlink(copy);
	free(copy);
	free(err);
out:
	free(root);
	free(le);
	free(be);
	free(mod);
	free(base);
}
END_TEST

/* -o with nothing to resolve still writes the (unchanged) copy. */
START_TEST(t_output_nothing_to_do)
{
	char *src = tl_path(dirs[_i], "funcs.o");
	char *out = tl_path("/tmp", "btfids-test-out-funcs.o");

	unlink(out);
	ck_assert_int_eq(TL_RUN(NULL, "-o", out, src), 0);
	assert_unchanged(src, out);
	unlink(out);
	free(out);
	free(src);
}
END_TEST

/*
 * An out-of-tree module carries its base in .BTF.base (kernel
 * scripts/Makefile.btf), split on it as the kernel tool's libbpf does. A
 * .BTF.base that is no distilled base (here the image's whole BTF, with
 * typedefs and funcs, which a distilled base never holds: libbpf 1.8's
 * btf_parse_elf) is refused, the file named and left as it was. A real
 * distilled base is tests/flow7.sh's.
 */
START_TEST(t_btf_base_section)
{
	const char *dir = dirs[_i];
	char *src = tl_path(dir, "module.o"), *raw = tl_path(dir, "image.btf");
	char *mod = tl_tmpcopy(src), *cmd, *err = NULL;
	char *with = tl_path("/tmp", "btfids-test-btfbase.o");
	size_t n_before, n_after;
	unsigned char *before, *after;

	ck_assert_int_ge(asprintf(&cmd, "objcopy --add-section .BTF.base=%s %s %s",
				  raw, mod, with), 0);
	ck_assert_int_eq(system(cmd), 0);
	before = tl_slurp(with, &n_before);
	ck_assert_int_eq(TL_RUN(&err, with), 255);
	ck_assert_msg(strstr(err, "FAILED ") && strstr(err, "does not fit its base BTF"),
		      "no FAILED line about the base in: %s", err);
	after = tl_slurp(with, &n_after);
	ck_assert_uint_eq(n_before, n_after);
	ck_assert_int_eq(memcmp(before, after, n_before), 0);
	unlink(with);
	unlink(mod);
	free(before);
	free(after);
	free(err);
	free(cmd);
	free(with);
	free(src);
	free(raw);
}
END_TEST

/* -o writes a patched copy and leaves the input alone. */
START_TEST(t_output)
{
	const char *dir = dirs[_i];
	char *done = resolved(dir, "image", NULL, NULL);
	char *src = tl_path(dir, "image"), *copy = tl_tmpcopy(src);
	char *out = tl_path("/tmp", "btfids-test-out");

	ck_assert_int_eq(chmod(copy, 0444), 0);
	ck_assert_int_eq(TL_RUN(NULL, "-o", out, copy), 0);
	assert_unchanged(src, copy);
	assert_unchanged(done, out);
	unlink(out);
	/* -o a directory, or into none: said before any work, nothing written */
	{
		const char *bad_out[] = { "/tmp", "/nonexistent-btfids/out", "", "new-dir/" };
		size_t k;

		for (k = 0; k < 4; k++) {
			char *err;

			ck_assert_int_eq(TL_RUN(&err, "-o", bad_out[k], copy), 255);
			ck_assert_msg(strstr(err, "FAILED ") && strstr(err, *bad_out[k] ? bad_out[k] : "-o"),
				      "%s", err);
			ck_assert_msg(!strstr(err, "WARN"), "work done before the check: %s", err);
			assert_unchanged(src, copy);
			free(err);
		}
	}
	/* -o onto the input itself: in place, the same inode (hard links stay) */
	{
		struct stat before, after;

		ck_assert_int_eq(chmod(copy, 0644), 0);
		ck_assert_int_eq(link(copy, out), 0);
		ck_assert_int_eq(stat(copy, &before), 0);
		ck_assert_int_eq(TL_RUN(NULL, "-o", copy, copy), 0);
		ck_assert_int_eq(stat(copy, &after), 0);
		ck_assert_uint_eq(before.st_ino, after.st_ino);
		assert_unchanged(done, copy);
		assert_unchanged(done, out);
		unlink(out);
	}
	unlink(copy);
	unlink(done);
	free(out);
	free(copy);
	free(done);
	free(src);
}
END_TEST

/*
 * The raw st_shndx filter against symbols laid out by <elf.h>'s Elf32_Sym
 * and Elf64_Sym (gABI), in both byte orders: which symbols may be in
 * section 7. 0x0700 is 7 in the other byte order; SHN_XINDEX symbols may be.
 */
static const uint16_t shndx_in[] = { 0, 7, 0x0700, SHN_XINDEX, 7, SHN_ABS, 0x0707, 7 };
static const size_t may_be_in_7[] = { 1, 3, 4, 7 };

static uint16_t as_file16(uint16_t v, unsigned char data)
{
	unsigned char b[2] = { data == ELFDATA2MSB ? v >> 8 : v & 0xff,
			       data == ELFDATA2MSB ? v & 0xff : v >> 8 };
	uint16_t r;

	memcpy(&r, b, 2);
	return r;
}

START_TEST(t_next_sym_in)
{
	unsigned char cls = _i & 1 ? ELFCLASS64 : ELFCLASS32;
	unsigned char data = _i & 2 ? ELFDATA2MSB : ELFDATA2LSB;
	size_t n = sizeof(shndx_in) / sizeof(shndx_in[0]), i, k = 0;
	Elf32_Sym s32[sizeof(shndx_in) / sizeof(shndx_in[0])] = {};
	Elf64_Sym s64[sizeof(shndx_in) / sizeof(shndx_in[0])] = {};
	struct btfids_elf e = { .elf_class = cls, .elf_data = data, .nr_syms = n };

	for (i = 0; i < n; i++) {
		/* other fields hold 7s too, to catch a read at the wrong offset */
		s32[i] = (Elf32_Sym){ .st_name = 0x07070707, .st_value = 0x07070707,
				      .st_size = 0x07070707, .st_info = 7, .st_other = 7,
				      .st_shndx = as_file16(shndx_in[i], data) };
		s64[i] = (Elf64_Sym){ .st_name = 0x07070707, .st_info = 7, .st_other = 7,
				      .st_shndx = as_file16(shndx_in[i], data),
				      .st_value = 0x0707070707070707ull };
	}
	e.syms = cls == ELFCLASS64 ? (const unsigned char *)s64 : (const unsigned char *)s32;
	e.sym_size = cls == ELFCLASS64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);
	for (i = btfids_elf_next_sym_in(&e, 0, 7); i < n; i = btfids_elf_next_sym_in(&e, i + 1, 7)) {
		ck_assert_uint_lt(k, sizeof(may_be_in_7) / sizeof(may_be_in_7[0]));
		ck_assert_uint_eq(i, may_be_in_7[k]);
		k++;
	}
	ck_assert_uint_eq(i, n);
	ck_assert_uint_eq(k, sizeof(may_be_in_7) / sizeof(may_be_in_7[0]));
	/* an empty table: no symbol array at all */
	e.syms = NULL;
	e.nr_syms = 0;
	ck_assert_uint_eq(btfids_elf_next_sym_in(&e, 0, 7), 0);
}
END_TEST

/*
 * btfids_patch_unsort(): a set8 as a first run leaves it (the kernel's
 * BTF_SET8_START layout: count word, flags word, then {id, flags} pairs,
 * sorted by ID: tools/bpf/resolve_btfids sets_patch()) goes back to its
 * link order, each pair at the entry of the symbol whose name its ID has;
 * the ID-0 pair of an unresolved name (fx_gone) to the entry left; a set8
 * the linker left (count word 0) as it is; an ID that names no symbol of
 * the set (another BTF) is -ESTALE, with the set named. Little and big
 * endian alike.
 */
START_TEST(t_unsort)
{
	struct btf *btf = btf__new_empty();
	int proto, a, b, c, be;
	struct btfids_target tg[] = {
		{ .kind = BTFIDS_FUNC, .name = "fx_c" },
		{ .kind = BTFIDS_FUNC, .name = "fx_a" },
		{ .kind = BTFIDS_FUNC, .name = "fx_gone" },
		{ .kind = BTFIDS_FUNC, .name = "fx_b" },
	};
	/* entries at 8, 16, 24, 32: fx_c, fx_a, fx_gone, fx_b in link order */
	struct btfids_slot sl[] = {
		{ .off = 8, .target = 0 }, { .off = 16, .target = 1 },
		{ .off = 24, .target = 2 }, { .off = 32, .target = 3 },
	};
	struct btfids_set set = { .kind = BTFIDS_SET8, .name = "fx_kfuncs", .off = 0,
				  .size = 40, .cnt = 4 };
	struct btfids_syms s = { .slots = sl, .nr_slots = 4, .targets = tg, .nr_targets = 4,
				 .sets = &set, .nr_sets = 1 };
	unsigned char buf[40], want[40];
	const char *bad;

	ck_assert_ptr_nonnull(btf);
	ck_assert_int_gt(btf__add_int(btf, "int", 4, BTF_INT_SIGNED), 0);
	proto = btf__add_func_proto(btf, 1);
	a = btf__add_func(btf, "fx_a", BTF_FUNC_GLOBAL, proto);
	b = btf__add_func(btf, "fx_b", BTF_FUNC_GLOBAL, proto);
	c = btf__add_func(btf, "fx_c", BTF_FUNC_GLOBAL, proto);
	ck_assert_int_gt(c, b);
	for (be = 0; be < 2; be++) {
		/* resolved: sorted by ID, 0 first: gone, a, b, c with their flags */
		const uint32_t sorted[] = { 4, 1, 0, 0x30, a, 0x11, b, 0x22, c, 0x33 };
		const uint32_t linked[] = { 4, 1, c, 0x33, a, 0x11, 0, 0x30, b, 0x22 };
		int i;

		for (i = 0; i < 10; i++) {
			btfids_put32(buf + 4 * i, sorted[i], be);
			btfids_put32(want + 4 * i, linked[i], be);
		}
		ck_assert_int_eq(btfids_patch_unsort(&s, btf, buf, be, &bad), 0);
		ck_assert_msg(!memcmp(buf, want, sizeof(buf)), "be %d: not in link order", be);
		/* as the linker left it: count word 0, untouched */
		btfids_put32(buf, 0, be);
		memcpy(want, buf, sizeof(buf));
		ck_assert_int_eq(btfids_patch_unsort(&s, btf, buf, be, &bad), 0);
		ck_assert(!memcmp(buf, want, sizeof(buf)));
		/* an ID naming a type no symbol of the set asks for: the int */
		for (i = 0; i < 10; i++)
			btfids_put32(buf + 4 * i, sorted[i], be);
		btfids_put32(buf + 8 + 8 * 1, 1, be);
		ck_assert_int_eq(btfids_patch_unsort(&s, btf, buf, be, &bad), -ESTALE);
		ck_assert_str_eq(bad, "fx_kfuncs");
	}
	btf__free(btf);
}
END_TEST

static Suite *resolve_suite(void)
{
	Suite *s = suite_create("resolve");
	TCase *tc = tcase_create("fixtures");

	setup();
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, t_elf_class, 0, nr_dirs);
	tcase_add_loop_test(tc, t_lists, 0, nr_dirs);
	tcase_add_loop_test(tc, t_ambiguous, 0, nr_dirs);
	tcase_add_loop_test(tc, t_sets, 0, nr_dirs);
	tcase_add_loop_test(tc, t_set8, 0, nr_dirs);
	tcase_add_loop_test(tc, t_many_slots, 0, nr_dirs);
	tcase_add_loop_test(tc, t_only_section_changes, 0, nr_dirs);
	tcase_add_loop_test(tc, t_fatal_warnings, 0, nr_dirs);
	tcase_add_loop_test(tc, t_module, 0, nr_dirs);
	tcase_add_loop_test(tc, t_batch, 0, nr_dirs);
	tcase_add_loop_test(tc, t_btf_option, 0, nr_dirs);
	tcase_add_loop_test(tc, t_patch_btfids, 0, nr_dirs);
	tcase_add_loop_test(tc, t_no_btf_ids, 0, nr_dirs);
	tcase_add_loop_test(tc, t_output, 0, nr_dirs);
	tcase_add_loop_test(tc, t_output_nothing_to_do, 0, nr_dirs);
	tcase_add_loop_test(tc, t_btf_base_section, 0, 1);
	tcase_add_test(tc, t_base_other_byte_order);
	tcase_add_test(tc, t_usage);
	tcase_add_test(tc, t_unsort);
	tcase_add_loop_test(tc, t_next_sym_in, 0, 4);
	suite_add_tcase(s, tc);
	return s;
}

TL_MAIN(resolve_suite)
