// SPDX-License-Identifier: GPL-2.0
/*
 * check_badinput.c - every kind of bad input fails with exit 255, one
 * "FAILED <file>: <what is wrong>" line naming the problem, and leaves the
 * file's bytes and mtime as they were. Bad objects come from the small
 * sources in tests/fixtures/bad (built by its build.sh in the suite's
 * setup) or from copies of the host's fixture module and image with one
 * header field rewritten (ELF64 little endian, edited raw here). Also: a
 * read-only file (-o still works), SHN_XINDEX symbols, and a file whose
 * .BTF_ids lies past 4 GiB in a sparse copy, and the same output under
 * any locale, time zone, directory or path.
 */
#include <elf.h>
#include <fcntl.h>
#include <linux/btf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testlib.h"

#define HOST_FIX	"fixtures/x86_64-linux-gnu"
#define MTIME		1000000000	/* any fixed past time */

static char *fix, *bad, *image, *module;

static void setup(void)
{
	char *cmd;

	fix = tl_path(tl_build_dir(), HOST_FIX);
	bad = tl_path(tl_build_dir(), "bad");
	image = tl_path(fix, "image");
	module = tl_path(fix, "module.o");
	if (asprintf(&cmd, "tests/fixtures/bad/build.sh '%s' '%s'", bad, fix) < 0 ||
	    system(cmd)) {
		fprintf(stderr, "check_badinput: %s failed\n", cmd);
		exit(2);
	}
	free(cmd);
}

/* A temporary copy of @dir/@name. */
static char *copy_of(const char *dir, const char *name)
{
	char *src = tl_path(dir, name), *copy = tl_tmpcopy(src);

	free(src);
	return copy;
}

/* @path has its @n bytes @before and the mtime MTIME, as before the run */
static void expect_unchanged(const char *path, const unsigned char *before, size_t n)
{
	unsigned char *after;
	size_t n_after;
	struct stat st;

	after = tl_slurp(path, &n_after);
	ck_assert_uint_eq(n, n_after);
	ck_assert_msg(!memcmp(before, after, n), "%s changed", path);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mtim.tv_sec, MTIME);
	ck_assert_int_eq(st.st_mtim.tv_nsec, 0);
	free(after);
}

/*
 * btfids @args... @path fails: exit 255, "FAILED", @path and @phrase on
 * stderr, and @path keeps its bytes and mtime. Frees and removes @path.
 */
static void expect_fail_args(char *path, const char *phrase, const char *a1,
			     const char *a2)
{
	struct timespec ts[2] = { { MTIME, 0 }, { MTIME, 0 } };
	unsigned char *before;
	size_t n_before;
	char *err;
	int rc;

	ck_assert_int_eq(utimensat(AT_FDCWD, path, ts, 0), 0);
	before = tl_slurp(path, &n_before);
	if (a2)
		rc = TL_RUN(&err, a1, a2, path);
	else if (a1)
		rc = TL_RUN(&err, a1, path);
	else
		rc = TL_RUN(&err, path);
	ck_assert_msg(rc == 255, "%s: exit %d, want 255: %s", path, rc, err);
	ck_assert_msg(strstr(err, "FAILED "), "no FAILED in: %s", err);
	ck_assert_msg(strstr(err, path), "%s not named in: %s", path, err);
	ck_assert_msg(strstr(err, phrase), "expected '%s' in: %s", phrase, err);
	expect_unchanged(path, before, n_before);
	free(before);
	free(err);
	unlink(path);
	free(path);
}

static void expect_fail(char *path, const char *phrase)
{
	expect_fail_args(path, phrase, "-b", image);
}

/* Raw ELF64 LE edits on a copy (the host fixtures are x86-64). */
static void raw_read(const char *path, uint64_t off, void *buf, size_t n)
{
	int fd = open(path, O_RDONLY);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pread(fd, buf, n, off), (ssize_t)n);
	close(fd);
}

static void raw_write(const char *path, uint64_t off, const void *buf, size_t n)
{
	int fd = open(path, O_WRONLY);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pwrite(fd, buf, n, off), (ssize_t)n);
	close(fd);
}

static Elf64_Ehdr raw_ehdr(const char *path)
{
	Elf64_Ehdr eh;

	raw_read(path, 0, &eh, sizeof(eh));
	ck_assert_int_eq(eh.e_ident[EI_CLASS], ELFCLASS64);
	ck_assert_int_eq(eh.e_ident[EI_DATA], ELFDATA2LSB);
	return eh;
}

/* File offset of the section header of @name. */
static uint64_t raw_shdr(const char *path, const char *name, Elf64_Shdr *out)
{
	Elf64_Ehdr eh = raw_ehdr(path);
	Elf64_Shdr strs, sh;
	char buf[64];
	unsigned int i;

	uint64_t shnum = eh.e_shnum, shstrndx = eh.e_shstrndx;

	raw_read(path, eh.e_shoff, &sh, sizeof(sh));
	if (!shnum)		/* extended numbering: the counts are in section 0 */
		shnum = sh.sh_size;
	if (shstrndx == SHN_XINDEX)
		shstrndx = sh.sh_link;
	raw_read(path, eh.e_shoff + shstrndx * sizeof(sh), &strs, sizeof(strs));
	for (i = 0; i < shnum; i++) {
		uint64_t at = eh.e_shoff + (uint64_t)i * sizeof(sh);

		raw_read(path, at, &sh, sizeof(sh));
		raw_read(path, strs.sh_offset + sh.sh_name, buf, sizeof(buf));
		buf[sizeof(buf) - 1] = 0;
		if (!strcmp(buf, name)) {
			*out = sh;
			return at;
		}
	}
	ck_abort_msg("%s: no section %s", path, name);
	return 0;
}

/* File offset of the symbol @name in .symtab. */
static uint64_t raw_sym(const char *path, const char *name, Elf64_Sym *out)
{
	Elf64_Shdr symtab, strtab;
	char buf[128];
	uint64_t i;

	raw_shdr(path, ".symtab", &symtab);
	raw_shdr(path, ".strtab", &strtab);
	for (i = 0; i < symtab.sh_size / sizeof(*out); i++) {
		uint64_t at = symtab.sh_offset + i * sizeof(*out);

		raw_read(path, at, out, sizeof(*out));
		raw_read(path, strtab.sh_offset + out->st_name, buf, sizeof(buf));
		buf[sizeof(buf) - 1] = 0;
		if (!strcmp(buf, name))
			return at;
	}
	ck_abort_msg("%s: no symbol %s", path, name);
	return 0;
}

#define SET_FIELD(path, at, type, field, val) do {			\
	__typeof__(((type *)0)->field) v_ = (val);			\
	raw_write(path, (at) + offsetof(type, field), &v_, sizeof(v_));	\
} while (0)

START_TEST(t_not_elf)
{
	expect_fail(copy_of(bad, "notelf"), "not an ELF file");
}
END_TEST

/* Cut points: inside e_ident, inside the header, after it, mid-file, last byte. */
START_TEST(t_truncated)
{
	static const struct { const char *name; long cut; const char *phrase; } cases[] = {
		{ "module.o", 2, "not an ELF file" },
		{ "module.o", 10, "truncated ELF header (10 bytes, need 64)" },
		{ "module.o", 63, "truncated ELF header (63 bytes, need 64)" },
		{ "module.o", 64, "section header table" },
		{ "module.o", 1000, "lies outside the file (1000 bytes): truncated?" },
		{ "module.o", -1, "section header table" },
		{ "image", 4096, "lies outside the file (4096 bytes): truncated?" },
		{ "image", -1, "section header table" },
	};
	char *path = copy_of(fix, cases[_i].name);
	struct stat st;

	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(truncate(path, cases[_i].cut < 0 ? st.st_size - 1 : cases[_i].cut), 0);
	expect_fail(path, cases[_i].phrase);
}
END_TEST

START_TEST(t_shdrs_outside)
{
	char *path = copy_of(fix, "module.o");
	struct stat st;

	ck_assert_int_eq(stat(path, &st), 0);
	SET_FIELD(path, 0, Elf64_Ehdr, e_shoff, st.st_size + 4096);
	expect_fail(path, "section header table (offset");
}
END_TEST

START_TEST(t_shdrs_overlap)
{
	char *path = copy_of(fix, "module.o");

	SET_FIELD(path, 0, Elf64_Ehdr, e_shoff, 16);
	expect_fail(path, "section header table (offset 0x10) overlaps the ELF header");
}
END_TEST

START_TEST(t_shentsize)
{
	char *path = copy_of(fix, "module.o");

	SET_FIELD(path, 0, Elf64_Ehdr, e_shentsize, 40);
	expect_fail(path, "section header table entry size is 40, expected 64");
}
END_TEST

START_TEST(t_phdrs)
{
	char *path = copy_of(fix, "image");
	struct stat st;

	ck_assert_int_eq(stat(path, &st), 0);
	SET_FIELD(path, 0, Elf64_Ehdr, e_phoff, st.st_size - 8);
	expect_fail_args(path, "program header table (offset", NULL, NULL);
	path = copy_of(fix, "image");
	SET_FIELD(path, 0, Elf64_Ehdr, e_phoff, 8);
	expect_fail_args(path, "program header table (offset 0x8) overlaps the ELF header", NULL, NULL);
}
END_TEST

/* .BTF_ids itself: outside the file, NOBITS, twice; a section name without NUL. */
START_TEST(t_ids_section)
{
	char *path = copy_of(fix, "module.o");
	Elf64_Shdr ids, btf, strs;
	uint64_t at = raw_shdr(path, ".BTF_ids", &ids);
	uint64_t at_btf = raw_shdr(path, ".BTF", &btf);
	char x = 'x';

	switch (_i) {
	case 0:
		SET_FIELD(path, at, Elf64_Shdr, sh_offset, 1ULL << 40);
		expect_fail(path, ".BTF_ids section (offset 0x10000000000, size 0x44) lies outside the file");
		break;
	case 1:
		SET_FIELD(path, at, Elf64_Shdr, sh_type, SHT_NOBITS);
		expect_fail(path, ".BTF_ids section has no plain bytes in the file (NOBITS)");
		break;
	case 2:
		SET_FIELD(path, at_btf, Elf64_Shdr, sh_name, ids.sh_name);
		expect_fail(path, "more than one .BTF_ids section");
		break;
	case 3:
		raw_shdr(path, ".shstrtab", &strs);
		raw_write(path, strs.sh_offset + strs.sh_size - 1, &x, 1);
		SET_FIELD(path, at_btf, Elf64_Shdr, sh_name, strs.sh_size - 1);
		expect_fail(path, "has no valid name (sh_name");
		break;
	}
}
END_TEST

START_TEST(t_symtab_outside)
{
	char *path = copy_of(fix, "module.o");
	Elf64_Shdr sh;
	uint64_t at = raw_shdr(path, ".symtab", &sh);

	SET_FIELD(path, at, Elf64_Shdr, sh_offset, 1ULL << 40);
	expect_fail(path, "symbol table (offset 0x10000000000");
}
END_TEST

START_TEST(t_symtab_entsize)
{
	static const uint64_t sizes[] = { 0, 16 };
	char *path = copy_of(fix, "module.o");
	char want[64];
	Elf64_Shdr sh;
	uint64_t at = raw_shdr(path, ".symtab", &sh);

	SET_FIELD(path, at, Elf64_Shdr, sh_entsize, sizes[_i]);
	snprintf(want, sizeof(want), "symbol table entry size is %llu, expected 24",
		 (unsigned long long)sizes[_i]);
	expect_fail(path, want);
}
END_TEST

START_TEST(t_strtab_outside)
{
	char *path = copy_of(fix, "module.o");
	Elf64_Shdr sh;
	uint64_t at = raw_shdr(path, ".strtab", &sh);

	SET_FIELD(path, at, Elf64_Shdr, sh_size, sh.sh_size + (1ULL << 32));
	expect_fail(path, "string table (section");
}
END_TEST

/* A .BTF_ids symbol whose name runs off the end of a string table without NUL. */
START_TEST(t_name_unterminated)
{
	char *path = copy_of(fix, "module.o");
	Elf64_Shdr strtab;
	Elf64_Sym sym;
	uint64_t at = raw_sym(path, "__BTF_ID__func__fx_read__328", &sym);
	char x = 'x';

	raw_shdr(path, ".strtab", &strtab);
	raw_write(path, strtab.sh_offset + strtab.sh_size - 1, &x, 1);
	SET_FIELD(path, at, Elf64_Sym, st_name, strtab.sh_size - 1);
	expect_fail(path, "in .BTF_ids has no valid name");
}
END_TEST

START_TEST(t_sym_outside)
{
	expect_fail(copy_of(bad, "outside.o"),
		    "symbol __BTF_ID__func__fx_read__1 (value 0x48, 4 bytes) lies outside .BTF_ids");
}
END_TEST

START_TEST(t_sym_unaligned)
{
	expect_fail(copy_of(bad, "unaligned.o"),
		    "symbol __BTF_ID__func__fx_read__1 at .BTF_ids offset 0x5 is not 4-byte aligned");
}
END_TEST

START_TEST(t_set_size)
{
	expect_fail(copy_of(bad, "setsize.o"), "set fx_bad has size 10, not 4 + 4 * count");
	expect_fail(copy_of(bad, "set8size.o"), "set8 fx_bad has size 20, not 8 + 8 * count");
}
END_TEST

/* st_size of 2^31 entries (past the section) and of 2^32 (past a u32 count). */
START_TEST(t_set_huge)
{
	expect_fail(copy_of(bad, "hugeset.o"),
		    "symbol __BTF_ID__set__fx_2g (value 0, 8589934596 bytes) lies outside .BTF_ids");
	expect_fail(copy_of(bad, "hugeset8.o"),
		    "set8 fx_4g has 4294967296 entries, more than a u32 count holds");
}
END_TEST

START_TEST(t_dup_set)
{
	expect_fail(copy_of(bad, "dupset-linked.o"), "set name fx_twice is defined twice");
}
END_TEST

START_TEST(t_same_slot)
{
	expect_fail(copy_of(bad, "sameslot.o"),
		    "symbols __BTF_ID__func__fx_read__1 and __BTF_ID__struct__fx_task__2 name the same 4 bytes at .BTF_ids+0");
}
END_TEST

START_TEST(t_overlapping_sets)
{
	expect_fail(copy_of(bad, "overlap.o"),
		    "set fx_outer (at 0, 16 bytes) overlaps set fx_inner (at 0x8)");
}
END_TEST

START_TEST(t_unknown_kind)
{
	expect_fail(copy_of(bad, "kind.o"),
		    "unsupported prefix enum__fx_state__1 in symbol __BTF_ID__enum__fx_state__1");
}
END_TEST

START_TEST(t_malformed_names)
{
	expect_fail(copy_of(bad, "nouniq.o"),
		    "malformed symbol name __BTF_ID__func__fx_read: expected __BTF_ID__func__<name>__<unique suffix>");
	expect_fail(copy_of(bad, "emptyname.o"), "malformed symbol name __BTF_ID__func____1");
	expect_fail(copy_of(bad, "emptyset.o"),
		    "malformed symbol name __BTF_ID__set__: the set has no name");
}
END_TEST

START_TEST(t_btf_bad)
{
	expect_fail(copy_of(bad, "btf-missing.o"), "no .BTF section");
	expect_fail(copy_of(fix, "image.nobtf"), "no .BTF section");
	expect_fail(copy_of(bad, "btf-empty.o"), ".BTF section is empty");
	expect_fail(copy_of(bad, "btf-garbage.o"), ".BTF is not BTF: no 0xeb9f magic");
	expect_fail(copy_of(bad, "btf-overlong.o"),
		    ".BTF header's lengths run past the section (header 24, types end at");
	/* dump goes on without a module's split BTF, but not past a broken .BTF */
	{
		char *g = tl_path(bad, "btf-garbage.o"), *err;

		ck_assert_int_eq(TL_RUN(&err, "dump", g), 2);
		ck_assert_msg(strstr(err, ".BTF is not BTF: no 0xeb9f magic"), "%s", err);
		free(err);
		free(g);
	}
}
END_TEST

/*
 * BTF the 7.3 kernel refuses when it loads it (kernel/bpf/btf.c), read in
 * the 7.x flow: btfids @args... @img (the host's image7 or module7, a 7.3
 * release) fails naming @named (the file the BTF is in) and @phrase, the
 * kernel's words; writes no output and removes an earlier run's; leaves
 * @img as it was. Frees @img.
 */
static void expect_bad_btf(char *img, const char *const *args, const char *named,
			   const char *phrase)
{
	const char *argv[8];
	static const char *const outs[] = { ".BTF_ids", ".BTF", ".BTF.base", ".BTF_tramp" };
	struct timespec ts[2] = { { MTIME, 0 }, { MTIME, 0 } };
	char *err, *out[4], *want;
	unsigned char *before;
	size_t n, i;
	int rc;

	for (i = 0; i < 4; i++) {	/* an earlier run's outputs */
		FILE *f;

		ck_assert_int_ge(asprintf(&out[i], "%s%s", img, outs[i]), 0);
		f = fopen(out[i], "w");
		ck_assert_ptr_nonnull(f);
		fputs("stale", f);
		fclose(f);
	}
	ck_assert_int_eq(utimensat(AT_FDCWD, img, ts, 0), 0);
	before = tl_slurp(img, &n);
	for (i = 0; args[i]; i++)
		argv[i] = args[i];
	argv[i++] = img;
	argv[i] = NULL;
	rc = tl_run(&err, argv);
	ck_assert_int_ge(asprintf(&want, "FAILED %s: ", named), 0);
	ck_assert_msg(rc == 255, "%s: exit %d, want 255: %s", named, rc, err);
	ck_assert_msg(strstr(err, want), "%s not named in: %s", named, err);
	ck_assert_msg(strstr(err, phrase), "expected '%s' in: %s", phrase, err);
	for (i = 0; i < 4; i++) {
		ck_assert_msg(access(out[i], F_OK), "%s left after a failed run", out[i]);
		free(out[i]);
	}
	expect_unchanged(img, before, n);
	unlink(img);
	free(img);
	free(before);
	free(want);
	free(err);
}

/* One header defect in BTF bytes @p (@size; little endian: the host's fixtures) */
static void break_header(unsigned char *p, size_t size, int which)
{
	struct btf_header h;

	memcpy(&h, p, sizeof(h));
	switch (which) {
	case 0:
		h.version = 0xff;
		break;
	case 1:
		h.flags = 1;
		break;
	case 2:
		h.hdr_len = 0x1000;
		break;
	case 3:		/* 4 bytes before the types that are no section's */
		h.type_off += 4;
		break;
	case 4:		/* the strings start inside the types */
		h.str_off -= 4;
		h.str_len += 4;
		break;
	default:
		p[size - 1] = 'x';
		break;
	}
	memcpy(p, &h, offsetof(struct btf_header, layout_off));
}

/* The kernel's words for each defect above (btf_parse_hdr(), btf_check_sec_info(), btf_parse_str_sec()) */
static const char *const header_phrase[] = {
	"header version is 255, not 1 (kernel: Unsupported version)",
	"header flags are 0x01, not 0 (kernel: Unsupported flags)",
	"header's lengths run past the",
	"has 4 bytes that are in no section before its type section at 4 (kernel: Unsupported section found)",
	"string section at %u overlaps the type section, which ends at %u (kernel: Section overlap found)",
	"string section does not end with a NUL (kernel: Invalid string section)",
};

/* "@name <header_phrase>", with the offsets of the broken header @p */
static void want_phrase(char *buf, size_t len, const char *name, const unsigned char *p,
			int which)
{
	struct btf_header h;
	int n = snprintf(buf, len, "%s ", name);

	memcpy(&h, p, sizeof(h));
	snprintf(buf + n, len - n, header_phrase[which], h.str_off, h.type_off + h.type_len);
}

/*
 * Each header defect, in a raw --btf file (_i even) and in the image's own
 * .BTF (_i odd): one check, the same words after the name ("BTF ..." and
 * ".BTF ..."), where libbpf used to say only "Invalid argument" of the
 * raw file and the kernel-only defects (version, flags) went through.
 */
START_TEST(t_btf_kernel_header)
{
	int which = _i / 2;
	char phrase[160], *img, *raw = NULL;
	unsigned char *btf;
	size_t n;

	if (_i % 2 == 0) {
		char *src = tl_path(fix, "image7.tags.btf");

		btf = tl_slurp(src, &n);
		break_header(btf, n, which);
		raw = tl_tmpfile(btf, n);
		img = copy_of(fix, "image7.nobtf");
		want_phrase(phrase, sizeof(phrase), "BTF", btf, which);
		expect_bad_btf(img, (const char *[]){ "--btf", raw, NULL }, raw, phrase);
		free(src);
	} else {
		Elf64_Shdr sh;
		char *named;

		img = copy_of(fix, "image7");
		named = strdup(img);
		raw_shdr(img, ".BTF", &sh);
		n = sh.sh_size;
		btf = malloc(n);
		raw_read(img, sh.sh_offset, btf, n);
		break_header(btf, n, which);
		raw_write(img, sh.sh_offset, btf, n);
		want_phrase(phrase, sizeof(phrase), ".BTF", btf, which);
		expect_bad_btf(img, (const char *[]){ NULL }, named, phrase);
		free(named);
	}
	if (raw)
		unlink(raw);
	free(raw);
	free(btf);
}
END_TEST

/*
 * A 40-byte header whose byte 36, past the 32 the 7.3 kernel knows, is not
 * 0 (btf_parse_hdr(): "Unsupported btf_header"); libbpf reads it but will
 * not modify it ("cannot add its _impl FUNC: Operation not supported").
 */
START_TEST(t_btf_kernel_hdr40)
{
	char *src = tl_path(fix, "image7.tags.btf"), *raw;
	uint32_t hdr_len = 40;
	unsigned char *btf, *big;
	size_t n;

	btf = tl_slurp(src, &n);
	big = calloc(1, n + 16);
	memcpy(big, btf, 24);
	memcpy(big + 40, btf + 24, n - 24);
	memcpy(big + offsetof(struct btf_header, hdr_len), &hdr_len, 4);
	big[36] = 1;
	raw = tl_tmpfile(big, n + 16);
	expect_bad_btf(copy_of(fix, "image7.nobtf"), (const char *[]){ "--btf", raw, NULL }, raw,
		       "BTF header is 40 bytes, and byte 36, past the 32 of the header the kernel knows, is not 0 (kernel: Unsupported btf_header)");
	unlink(raw);
	free(raw);
	free(big);
	free(btf);
	free(src);
}
END_TEST

/*
 * @raw, libbpf's bytes of a BTF with a layout section after its types
 * (btf_get_raw_data()), with its last type, a FLOAT, made kind 20 and one
 * more layout entry (no bytes after the btf_type) by which libbpf 1.8
 * reads that kind. Returns the raw file's path.
 */
static char *with_kind20(const void *raw, __u32 size)
{
	uint32_t info = 20u << 24, at;
	unsigned char *p = calloc(1, size + 4);
	struct btf_header h;
	char *path;

	memcpy(&h, raw, sizeof(h));
	ck_assert_uint_eq(h.hdr_len, sizeof(h));
	ck_assert_uint_eq(h.layout_len, 20 * sizeof(struct btf_layout));	/* kinds 0..19 */
	ck_assert_uint_lt(h.type_off, h.layout_off);
	at = h.hdr_len + h.layout_off + h.layout_len;
	memcpy(p, raw, at);
	memcpy(p + at + 4, (const unsigned char *)raw + at, size - at);
	memcpy(p + h.hdr_len + h.type_off + h.type_len - sizeof(struct btf_type) +
	       offsetof(struct btf_type, info), &info, sizeof(info));
	h.layout_len += 4;
	if (h.str_off > h.layout_off)
		h.str_off += 4;
	memcpy(p, &h, sizeof(h));
	path = tl_tmpfile(p, size + 4);
	free(p);
	return path;
}

/*
 * image7.tags.btf with types added by libbpf, the last of them made into
 * what the kernel refuses (@which, below); *bad is its ID. Returns the
 * raw file's path.
 */
static char *btf_with_bad_type(int which, __u32 *bad)
{
	LIBBPF_OPTS(btf_new_opts, opts, .add_layout = which == 5);
	char *src = tl_path(fix, "image7.tags.btf"), *path;
	struct btf *orig = btf__parse(src, NULL), *b = btf__new_empty_opts(&opts);
	int i32, id;
	struct btf_type *t;
	const void *raw;
	__u32 size;

	ck_assert_ptr_nonnull(orig);
	ck_assert_ptr_nonnull(b);
	ck_assert_int_gt(btf__add_btf(b, orig), 0);
	i32 = btf__add_int(b, "fx_bad_int", 4, BTF_INT_SIGNED);
	switch (which) {
	case 0:		/* struct fx_bad { struct fx_bad self; } */
		id = btf__add_struct(b, "fx_bad", 4);
		ck_assert_int_eq(btf__add_field(b, "self", id, 0, 0), 0);
		break;
	case 1:		/* an array whose element is itself */
		id = btf__add_array(b, i32, i32, 2);
		btf_array(btf__type_by_id(b, id))->type = id;
		break;
	case 2:		/* typedef fx_bad -> typedef fx_bad_b -> fx_bad */
		id = btf__add_typedef(b, "fx_bad", i32);
		t = (struct btf_type *)btf__type_by_id(b, id);
		t->type = btf__add_typedef(b, "fx_bad_b", id);
		break;
	case 3:		/* a pointer to itself */
		id = btf__add_ptr(b, i32);
		((struct btf_type *)btf__type_by_id(b, id))->type = id;
		break;
	case 4:		/* a pointer to no type */
		id = btf__add_ptr(b, i32);
		((struct btf_type *)btf__type_by_id(b, id))->type = 99999;
		break;
	case 5:		/* kind 20, which a layout section describes to libbpf */
		id = btf__add_float(b, "fx_bad", 4);
		break;
	case 6:		/* a FUNC_PROTO returning no type: libbpf does not check it */
		id = btf__add_func_proto(b, i32);
		((struct btf_type *)btf__type_by_id(b, id))->type = 99999;
		break;
	default:	/* the control: a sound struct fx_ok { int x; } */
		id = btf__add_struct(b, "fx_ok", 4);
		ck_assert_int_eq(btf__add_field(b, "x", i32, 0, 0), 0);
		break;
	}
	ck_assert_int_gt(id, 0);
	*bad = id;
	raw = btf__raw_data(b, &size);
	ck_assert_ptr_nonnull(raw);
	path = which == 5 ? with_kind20(raw, size) : tl_tmpfile(raw, size);
	btf__free(b);
	btf__free(orig);
	free(src);
	return path;
}

/*
 * The type checks: a type that contains itself by value, a loop of
 * modifiers, of pointers, a reference to no type (libbpf's reason, now in
 * the FAILED line), a kind the 7.3 kernel does not know, a FUNC_PROTO
 * returning no type. The struct and the array used to reach btf__dedup()
 * ("cannot dedup: Too many levels of symbolic links"), the FUNC_PROTO
 * crashed in it (a fuzzer finding, tests/fuzz/regress/flow7); the others
 * were written. The control passes.
 */
START_TEST(t_btf_kernel_types)
{
	static const char *const phrase[] = {
		"BTF type [%u] fx_bad contains itself by value (kernel: Loop detected)",
		"BTF type [%u] (anonymous) contains itself by value (kernel: Loop detected)",
		"BTF type [%u] fx_bad starts a chain of more than 32 modifiers, or a loop of them (kernel: Max chain length or cycle detected)",
		"BTF type [%u] (anonymous) is a chain of pointers and modifiers that leads back to itself (kernel: Loop detected)",
		"cannot load BTF: Invalid argument (libbpf says: type [%u]: invalid referenced type ID 99999)",
		"BTF type [%u] fx_bad is of kind 20, which the kernel does not know (kernel: Invalid kind:20)",
		"BTF type [%u] (anonymous) returns type [99999], which is not in the BTF (kernel: Invalid return type)",
	};
	char want[200], *img = copy_of(fix, "image7.nobtf"), *err;
	__u32 id;
	char *raw = btf_with_bad_type(_i, &id);

	if (_i < 7) {
		snprintf(want, sizeof(want), phrase[_i], id);
		expect_bad_btf(img, (const char *[]){ "--btf", raw, NULL }, raw, want);
	} else {
		char *out;

		ck_assert_msg(TL_RUN(&err, "--btf", raw, img) == 0, "control: %s", err);
		ck_assert_int_ge(asprintf(&out, "%s.BTF", img), 0);
		ck_assert_msg(!access(out, F_OK), "control: no %s", out);
		unlink(out);
		strcat(strcpy(want, img), ".BTF_ids");
		unlink(want);
		free(out);
		free(err);
		unlink(img);
		free(img);
	}
	unlink(raw);
	free(raw);
}
END_TEST

/*
 * A -b base with a struct that contains itself (its first member made its
 * own type, in place): refused naming the base when the run writes types
 * of it (--distill_base: the distilled base). A module's plain run reads
 * the base but writes none of it: not checked there (2 ms of a vmlinux's
 * types in each of kbuild's per-module runs).
 */
START_TEST(t_btf_kernel_base)
{
	char *src = tl_path(fix, "image7.btf"), *mod = tl_path(fix, "module7.tags.btf");
	struct btf *btf = btf__parse(src, NULL);
	char want[160], *raw, *img, *err;
	const struct btf_type *t;
	struct btf_header h;
	unsigned char *buf;
	size_t n, off;
	__s32 id;

	ck_assert_ptr_nonnull(btf);
	id = btf__find_by_name_kind(btf, "bpf_prog_aux", BTF_KIND_STRUCT);
	ck_assert_int_gt(id, 0);
	t = btf__type_by_id(btf, id);
	ck_assert_uint_gt(btf_vlen(t), 0);
	buf = tl_slurp(src, &n);
	memcpy(&h, buf, offsetof(struct btf_header, layout_off));
	/* libbpf keeps the types as they are in the file, type 1 first */
	off = h.hdr_len + h.type_off + ((const char *)t - (const char *)btf__type_by_id(btf, 1)) +
	      sizeof(*t) + offsetof(struct btf_member, type);
	memcpy(buf + off, &id, sizeof(id));
	raw = tl_tmpfile(buf, n);
	snprintf(want, sizeof(want), "BTF type [%d] bpf_prog_aux contains itself by value (kernel: Loop detected)", id);
	expect_bad_btf(copy_of(fix, "module7.nobtf.o"),
		       (const char *[]){ "-b", raw, "--btf", mod, "--distill_base", NULL }, raw, want);
	img = copy_of(fix, "module7.nobtf.o");
	ck_assert_int_eq(TL_RUN(&err, "-b", raw, "--btf", mod, img), 0);
	free(err);
	strcpy(want, img);
	unlink(strcat(want, ".BTF"));
	strcpy(want, img);
	unlink(strcat(want, ".BTF_ids"));
	unlink(img);
	unlink(raw);
	free(img);
	free(raw);
	free(buf);
	free(mod);
	free(src);
	btf__free(btf);
}
END_TEST

/* The module's split type 1 (a PTR, module.btf at byte 60) points far past the last ID. */
START_TEST(t_btf_type_range)
{
	char *path = copy_of(fix, "module.o");
	struct btf *btf = tl_btf(module, image), *base = tl_btf(image, NULL);
	uint32_t bad_ref = 0x7fffffff;
	const struct btf_type *t;
	char want[96];
	Elf64_Shdr sh;

	t = btf__type_by_id(btf, btf__type_cnt(base) + 1);
	ck_assert(btf_is_ptr(t));
	raw_shdr(path, ".BTF", &sh);
	raw_write(path, sh.sh_offset + 60 + offsetof(struct btf_type, type), &bad_ref, 4);
	/* libbpf 1.8 refuses the reference itself; btfids names the cause */
	snprintf(want, sizeof(want), "split BTF does not fit its base BTF");
	expect_fail(path, want);
	btf__free(btf);
	btf__free(base);
}
END_TEST

START_TEST(t_base_mismatch)
{
	const char *sys = "/sys/kernel/btf/vmlinux";
	char *other = tl_path(tl_build_dir(), "fixtures/i686-linux-gnu/image");

	if (!access(other, R_OK))
		expect_fail_args(copy_of(fix, "module.o"), "split BTF does not fit its base BTF",
				 "-b", other);
	else
		fprintf(stderr, "check_badinput: no i686 fixture, base mismatch on it skipped\n");
	if (!access(sys, R_OK))
		expect_fail_args(copy_of(fix, "module.o"), "split BTF does not fit its base BTF",
				 "-b", sys);
	else
		fprintf(stderr, "check_badinput: no %s, skipped\n", sys);
	free(other);
}
END_TEST

/*
 * A -b or --btf that is no BTF: a text file, a directory, a missing file,
 * an ELF without .BTF. Each names the file and says what it is, in btfids'
 * words (no libbpf line, no "Unknown error" for libbpf's own codes); the
 * object is left as it was.
 */
START_TEST(t_bad_base)
{
	static const struct { const char *name, *phrase; } cases[] = {
		{ "notelf", "neither an ELF file nor raw BTF" },
		{ ".", "Is a directory" },
		{ "no-such-base", "No such file or directory" },
		{ "/bin/true", "an ELF without .BTF" },
	};
	/* _i 0..3: -b FILE on the module; 4..7: --btf FILE on the image */
	bool btf = _i >= 4;
	const char *name = cases[_i % 4].name, *phrase = cases[_i % 4].phrase;
	char *base = name[0] == '/' ? strdup(name) : tl_path(bad, name);
	char *mod = copy_of(fix, btf ? "image" : "module.o"), *err;
	unsigned char *before = NULL, *after;
	size_t n_before, n_after;

	before = tl_slurp(mod, &n_before);
	ck_assert_int_eq(TL_RUN(&err, btf ? "--btf" : "-b", base, mod), 255);
	ck_assert_msg(strstr(err, "FAILED ") && strstr(err, base), "base not named: %s", err);
	ck_assert_msg(strstr(err, phrase), "expected '%s' in: %s", phrase, err);
	ck_assert_msg(!strstr(err, "libbpf:") && !strstr(err, "Unknown error"), "%s", err);
	after = tl_slurp(mod, &n_after);
	ck_assert_uint_eq(n_before, n_after);
	ck_assert(!memcmp(before, after, n_before));
	unlink(mod);
	free(before);
	free(after);
	free(err);
	free(mod);
	free(base);
}
END_TEST

START_TEST(t_split_without_base)
{
	expect_fail_args(copy_of(fix, "module.o"),
			 "a module's split BTF needs its base: -b vmlinux", NULL, NULL);
}
END_TEST

/* Refused even for root; -o writes a resolved copy and leaves the input. */
START_TEST(t_read_only)
{
	char *path = copy_of(fix, "module.o"), *out = tl_path(bad, "ro-out.o");
	unsigned char *before, *after;
	size_t n1, n2;
	struct btf *btf = tl_btf(module, image);
	struct tl_elf e;
	char *err;

	ck_assert_int_eq(chmod(path, 0444), 0);
	before = tl_slurp(path, &n1);
	unlink(out);
	ck_assert_int_eq(TL_RUN(&err, "-b", image, "-o", out, path), 0);
	after = tl_slurp(path, &n2);
	ck_assert(n1 == n2 && !memcmp(before, after, n1));
	tl_elf_open(&e, out);
	ck_assert_uint_eq(tl_label_word(&e, "mod_list", 1), tl_id(btf, "fx_mod_init", BTF_KIND_FUNC));
	ck_assert_uint_ne(tl_label_word(&e, "mod_list", 1), 0);
	tl_elf_close(&e);
	expect_fail(path, "file is read-only (no write permission bit)");
	unlink(out);
	free(out);
	free(before);
	free(after);
	free(err);
	btf__free(btf);
}
END_TEST

/* xindex.o: .BTF_ids is section 65304; its symbols say SHN_XINDEX. */
START_TEST(t_xindex_ok)
{
	char *path = copy_of(bad, "xindex.o"), *err;
	struct btf *btf = tl_btf(image, NULL);
	uint32_t read = tl_id(btf, "fx_read", BTF_KIND_FUNC);
	uint32_t open = tl_id(btf, "fx_open", BTF_KIND_FUNC);
	struct tl_elf e;

	ck_assert_int_eq(TL_RUN(&err, "--btf", image, path), 0);
	tl_elf_open(&e, path);
	ck_assert_uint_ne(read, 0);
	ck_assert_uint_eq(tl_ids_word(&e, 0), read);
	ck_assert_uint_eq(tl_ids_word(&e, 4), 1);
	ck_assert_uint_eq(tl_ids_word(&e, 8), open);
	tl_elf_close(&e);
	btf__free(btf);
	unlink(path);
	free(path);
	free(err);
}
END_TEST

START_TEST(t_xindex_bad)
{
	char *path = copy_of(bad, "xindex.o");
	Elf64_Shdr sh;
	uint64_t at = raw_shdr(path, ".symtab_shndx", &sh);

	SET_FIELD(path, at, Elf64_Shdr, sh_type, SHT_PROGBITS);
	expect_fail_args(path, "uses SHN_XINDEX but there is no SHT_SYMTAB_SHNDX section",
			 "--btf", image);
	path = copy_of(bad, "xindex.o");
	SET_FIELD(path, at, Elf64_Shdr, sh_size, 4);
	expect_fail_args(path, "SHT_SYMTAB_SHNDX section 65306 is too small or outside the file",
			 "--btf", image);
}
END_TEST

/*
 * A sparse copy of the module whose .BTF_ids bytes sit past 4 GiB: the
 * words land there (checked against libbpf on the original), the size is
 * unchanged and the file stays sparse.
 */
START_TEST(t_above_4g)
{
	const uint64_t high = (1ULL << 32) + 0x1000;
	char *path = copy_of(fix, "module.o"), *err;
	struct btf *btf = tl_btf(module, image);
	uint32_t w[0x44 / 4], want[3];
	unsigned char *ids;
	struct stat st;
	Elf64_Shdr sh;
	uint64_t at = raw_shdr(path, ".BTF_ids", &sh);
	int i;

	ck_assert_uint_eq(sh.sh_size, sizeof(w));
	ids = malloc(sh.sh_size);
	raw_read(path, sh.sh_offset, ids, sh.sh_size);
	ck_assert_int_eq(truncate(path, high + sh.sh_size), 0);
	raw_write(path, high, ids, sh.sh_size);
	SET_FIELD(path, at, Elf64_Shdr, sh_offset, high);
	ck_assert_int_eq(TL_RUN(&err, "-b", image, path), 0);
	raw_read(path, high, w, sizeof(w));
	/* mod_list: struct fx_task, func fx_mod_init, struct fx_mod_priv, func fx_read */
	ck_assert_uint_eq(w[0], tl_id(btf, "fx_task", BTF_KIND_STRUCT));
	ck_assert_uint_eq(w[1], tl_id(btf, "fx_mod_init", BTF_KIND_FUNC));
	ck_assert_uint_eq(w[2], tl_id(btf, "fx_mod_priv", BTF_KIND_STRUCT));
	ck_assert_uint_eq(w[3], tl_id(btf, "fx_read", BTF_KIND_FUNC));
	ck_assert_uint_eq(w[4], 0);
	ck_assert_uint_ne(w[1], 0);
	/* mod_set at 0x34: 3 entries, sorted */
	want[0] = tl_id(btf, "fx_mod_exit", BTF_KIND_FUNC);
	want[1] = tl_id(btf, "fx_poll", BTF_KIND_FUNC);
	want[2] = tl_id(btf, "fx_mod_init", BTF_KIND_FUNC);
	ck_assert_uint_eq(w[0x34 / 4], 3);
	for (i = 0; i < 3; i++) {
		uint32_t x = w[0x34 / 4 + 1 + i];

		ck_assert(x == want[0] || x == want[1] || x == want[2]);
		ck_assert(i == 0 || x > w[0x34 / 4 + i]);
	}
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_uint_eq(st.st_size, high + sh.sh_size);
	ck_assert_uint_lt((uint64_t)st.st_blocks * 512, 16 << 20);
	btf__free(btf);
	free(ids);
	free(err);
	unlink(path);
	free(path);
}
END_TEST

/*
 * Same input, same output bytes and messages whatever the locale, time
 * zone, working directory or path (one with spaces): nothing in btfids
 * may depend on them.
 */
/*
 * btfids @a... (NULL-terminated) exits @want, with no sanitizer report
 * and @path's bytes as they were.
 */
static void expect_exit(const char *path, int want, const char *const a[])
{
	unsigned char *before, *after;
	size_t n_before, n_after;
	char *err;
	int rc;

	before = tl_slurp(path, &n_before);
	rc = tl_run(&err, a);
	ck_assert_msg(rc == want, "btfids %s ... %s: exit %d, want %d: %s", a[0], path,
		      rc, want, err);
	ck_assert_msg(!strstr(err, "runtime error") && !strstr(err, "Sanitizer"),
		      "%s: %s", path, err);
	after = tl_slurp(path, &n_after);
	ck_assert_msg(n_before == n_after && !memcmp(before, after, n_before),
		      "%s changed", path);
	free(before);
	free(after);
	free(err);
}
#define EXPECT_EXIT(path, want, ...) \
	expect_exit(path, want, (const char *const[]){ __VA_ARGS__, NULL })

/*
 * Empty sections, in every verb: nothing may be copied from, or offset
 * into, a section's bytes that are not there (a fuzzer finding: an ET_REL
 * whose .BTF_ids is empty but has symbols made resolve memcpy() from NULL).
 */
START_TEST(t_empty_section)
{
	char *path = copy_of(bad, "empty-btf-ids.o"), *out, *blob;
	unsigned char *a, *b;
	size_t na, nb;

	chmod(path, 0644);
	EXPECT_EXIT(path, 0, "-b", image, path);
	EXPECT_EXIT(path, 0, "check", "-b", image, path);
	EXPECT_EXIT(path, 0, "dump", "-b", image, path);
	EXPECT_EXIT(path, 0, "models", "-b", image, path);
	EXPECT_EXIT(path, 0, "models", "--all", "-b", image, path);
	blob = tl_tmpcopy("/dev/null");
	EXPECT_EXIT(path, 0, "--patch_btfids", blob, path);
	/* -o: an exact copy, nothing to patch */
	out = tl_tmpcopy("/dev/null");
	EXPECT_EXIT(path, 0, "-b", image, "-o", out, path);
	a = tl_slurp(path, &na);
	b = tl_slurp(out, &nb);
	ck_assert(na == nb && !memcmp(a, b, na));
	free(a);
	free(b);
	unlink(blob);
	unlink(out);
	unlink(path);
	free(blob);
	free(out);
	free(path);
}
END_TEST

/* An empty .BTF_tramp (no tables) and an image whose .BTF_ids was emptied. */
START_TEST(t_empty_tramp_ids)
{
	char *path = copy_of(bad, "empty-tramp-image"), *out = tl_tmpcopy("/dev/null");
	struct btf *btf;
	struct tl_elf e;
	Elf64_Shdr sh;
	uint64_t at;

	EXPECT_EXIT(path, 0, "models", path);
	EXPECT_EXIT(path, 0, "-o", out, path);
	EXPECT_EXIT(out, 0, "models", out);
	btf = tl_btf(image, NULL);
	tl_elf_open(&e, out);	/* resolved all the same */
	ck_assert_uint_ne(tl_label_word(&e, "fx_list", 0), 0);
	ck_assert_uint_eq(tl_label_word(&e, "fx_list", 0), tl_id(btf, "fx_read", BTF_KIND_FUNC));
	tl_elf_close(&e);
	btf__free(btf);
	unlink(out);
	unlink(path);
	free(out);
	free(path);
	path = copy_of(fix, "image");
	at = raw_shdr(path, ".BTF_ids", &sh);
	SET_FIELD(path, at, Elf64_Shdr, sh_size, 0);
	EXPECT_EXIT(path, 255, path);
	EXPECT_EXIT(path, 2, "check", path);
	EXPECT_EXIT(path, 2, "dump", path);
	EXPECT_EXIT(path, 0, "models", path);
	unlink(path);
	free(path);
}
END_TEST

/* After the first line (which names the file): the rest of @s. */
static const char *past_first_line(const char *s)
{
	const char *nl = strchr(s, '\n');

	return nl ? nl + 1 : s;
}

/*
 * A stripped copy keeps .BTF_ids's bytes but no symbol names its slots:
 * they can never be filled. Every verb says so; check does not call it clean.
 */
START_TEST(t_stripped)
{
	const char *names[] = { "stripped-image", "stripped-module.o" };
	char *path = copy_of(bad, names[_i]), *out, *err;

	chmod(path, 0644);
	ck_assert_int_eq(TL_RUN_OUT(&out, &err, "check", "-b", image, path), 2);
	ck_assert_msg(strstr(err, "FAILED ") && strstr(err, path) &&
		      strstr(err, "no symbol table, so nothing names a slot"), "%s", err);
	ck_assert_msg(strstr(out, "0 clean, 0 with findings, 1 unreadable"), "%s", out);
	free(out);
	free(err);
	EXPECT_EXIT(path, 2, "dump", "-b", image, path);
	expect_fail(path, "(stripped, e.g. strip --strip-all?)");
}
END_TEST

/* Rewrite the sh_type of section @name of @path (a copy: ELF64 LE). */
static void set_type(const char *path, const char *name, uint32_t type)
{
	Elf64_Shdr sh;
	uint64_t at = raw_shdr(path, name, &sh);

	SET_FIELD(path, at, Elf64_Shdr, sh_type, type);
}

/*
 * .BTF is NOBITS (a debug-only copy): dump prints the lists and sets
 * unnamed, as without BTF, with a note; the verbs that need BTF fail.
 */
START_TEST(t_btf_nobits)
{
	char *path = copy_of(fix, "image"), *nobtf = tl_path(fix, "image.nobtf");
	char *out, *err, *plain, *resolved = tl_tmpcopy("/dev/null");

	set_type(path, ".BTF", SHT_NOBITS);
	chmod(path, 0644);
	ck_assert_int_eq(TL_RUN_OUT(&out, &err, "dump", path), 0);
	ck_assert_msg(strstr(err, ".BTF is NOBITS") && !strstr(err, "FAILED"), "%s", err);
	ck_assert_msg(strstr(out, "no BTF, so sorted sets' entries are not named"), "%s", out);
	ck_assert_int_eq(TL_RUN_OUT(&plain, NULL, "dump", nobtf), 0);
	ck_assert_str_eq(past_first_line(out), past_first_line(plain));
	ck_assert_msg(strstr(out, "list fx_list at 0x0"), "%s", out);
	free(out);
	free(err);
	free(plain);
	EXPECT_EXIT(path, 2, "check", path);
	EXPECT_EXIT(path, 0, "--btf", image, "-o", resolved, path);
	expect_fail_args(path, ".BTF section has no bytes in the file (NOBITS", NULL, NULL);
	/* objcopy --only-keep-debug: .BTF_ids is NOBITS as well, nothing to dump */
	path = copy_of(bad, "debug-image");
	ck_assert_int_eq(TL_RUN(&err, "dump", path), 2);
	ck_assert_msg(strstr(err, ".BTF_ids section has no plain bytes in the file (NOBITS): a debug-only copy"),
		      "%s", err);
	free(err);
	unlink(path);
	unlink(resolved);
	free(path);
	free(resolved);
	free(nobtf);
}
END_TEST

START_TEST(t_determinism)
{
	static const char *const envs[][2] = {
		{ "C", "UTC" }, { "C.UTF-8", "Asia/Kathmandu" },
		{ "tr_TR.UTF-8", "America/St_Johns" }, { "", "" },
	};
	char *bin = realpath(tl_btfids(), NULL), *src = realpath(image, NULL);
	char *base = realpath(image, NULL), *mod = realpath(module, NULL);
	unsigned char *ref = NULL, *refm = NULL;
	size_t nref = 0, nrefm = 0;
	char *ref_err = NULL;
	unsigned int i;

	ck_assert_ptr_nonnull(bin);
	setenv("BTFIDS", bin, 1);
	for (i = 0; i < sizeof(envs) / sizeof(envs[0]); i++) {
		char dir[] = "/tmp/btfids det.XXXXXX", *img, *m, *err, *err2, *p;
		unsigned char *out;
		size_t n;

		ck_assert_ptr_nonnull(mkdtemp(dir));
		img = tl_path(dir, "vm linux");
		m = tl_path(dir, "mod ule.ko");
		p = tl_tmpcopy(src);
		ck_assert_int_eq(rename(p, img), 0);
		free(p);
		p = tl_tmpcopy(mod);
		ck_assert_int_eq(rename(p, m), 0);
		free(p);
		if (*envs[i][0]) {
			setenv("LC_ALL", envs[i][0], 1);
			setenv("TZ", envs[i][1], 1);
		} else {
			unsetenv("LC_ALL");
			unsetenv("TZ");
		}
		ck_assert_int_eq(chdir(i % 2 ? dir : "/"), 0);
		ck_assert_int_eq(TL_RUN(&err2, "-b", base, i % 2 ? "mod ule.ko" : m), 0);
		ck_assert_int_eq(TL_RUN(&err, i % 2 ? "vm linux" : img), 0);
		ck_assert_ptr_nonnull(err = realloc(err, strlen(err) + strlen(err2) + 1));
		strcat(err, err2);
		free(err2);
		/* messages name no path for these warnings: they must be equal */
		if (!ref_err)
			ref_err = err;
		else
			ck_assert_str_eq(err, ref_err);
		out = tl_slurp(img, &n);
		if (!ref) {
			ref = out;
			nref = n;
		} else {
			ck_assert(n == nref && !memcmp(out, ref, n));
			free(out);
		}
		out = tl_slurp(m, &n);
		if (!refm) {
			refm = out;
			nrefm = n;
		} else {
			ck_assert(n == nrefm && !memcmp(out, refm, n));
			free(out);
		}
		unlink(img);
		unlink(m);
		rmdir(dir);
		if (err != ref_err)
			free(err);
		free(img);
		free(m);
	}
	ck_assert_ptr_nonnull(strstr(ref_err, "unresolved symbol fx_mod_gone"));
	free(ref);
	free(refm);
	free(ref_err);
	free(bin);
	free(src);
	free(base);
	free(mod);
}
END_TEST

static Suite *badinput_suite(void)
{
	Suite *s = suite_create("badinput");
	TCase *tc = tcase_create("bad");

	tcase_add_unchecked_fixture(tc, setup, NULL);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, t_not_elf);
	tcase_add_loop_test(tc, t_truncated, 0, 8);
	tcase_add_test(tc, t_shdrs_outside);
	tcase_add_test(tc, t_shdrs_overlap);
	tcase_add_test(tc, t_shentsize);
	tcase_add_test(tc, t_phdrs);
	tcase_add_loop_test(tc, t_ids_section, 0, 4);
	tcase_add_test(tc, t_symtab_outside);
	tcase_add_loop_test(tc, t_symtab_entsize, 0, 2);
	tcase_add_test(tc, t_strtab_outside);
	tcase_add_test(tc, t_name_unterminated);
	tcase_add_test(tc, t_sym_outside);
	tcase_add_test(tc, t_sym_unaligned);
	tcase_add_test(tc, t_set_size);
	tcase_add_test(tc, t_set_huge);
	tcase_add_test(tc, t_dup_set);
	tcase_add_test(tc, t_unknown_kind);
	tcase_add_test(tc, t_overlapping_sets);
	tcase_add_test(tc, t_same_slot);
	tcase_add_test(tc, t_malformed_names);
	tcase_add_test(tc, t_btf_bad);
	tcase_add_loop_test(tc, t_btf_kernel_header, 0, 12);
	tcase_add_test(tc, t_btf_kernel_hdr40);
	tcase_add_loop_test(tc, t_btf_kernel_types, 0, 8);
	tcase_add_test(tc, t_btf_kernel_base);
	tcase_add_test(tc, t_btf_type_range);
	tcase_add_test(tc, t_base_mismatch);
	tcase_add_test(tc, t_split_without_base);
	tcase_add_loop_test(tc, t_bad_base, 0, 8);
	tcase_add_test(tc, t_read_only);
	tcase_add_test(tc, t_xindex_ok);
	tcase_add_test(tc, t_xindex_bad);
	tcase_add_test(tc, t_above_4g);
	tcase_add_test(tc, t_determinism);
	tcase_add_test(tc, t_empty_section);
	tcase_add_test(tc, t_empty_tramp_ids);
	tcase_add_loop_test(tc, t_stripped, 0, 2);
	tcase_add_test(tc, t_btf_nobits);
	suite_add_tcase(s, tc);
	return s;
}

TL_MAIN(badinput_suite)
