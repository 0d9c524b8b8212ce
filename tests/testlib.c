// SPDX-License-Identifier: GPL-2.0
/* testlib.c - see testlib.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testlib.h"

extern char **environ;

const char *tl_build_dir(void)
{
	const char *d = getenv("BTFIDS_TEST_BUILD");

	return d ? d : "tests/build";
}

/*
 * The cache the scripts fill (${XDG_CACHE_HOME:-$HOME/.cache}), where the
 * real kernels and trees are: tests/paths.sh's, so that a run with
 * XDG_CACHE_HOME reads the same ones
 */
const char *tl_cache_dir(void)
{
	static char path[4096];
	const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	if (x && *x)
		return x;
	snprintf(path, sizeof(path), "%s/.cache", home ? home : "/root");
	return path;
}

const char *tl_btfids(void)
{
	const char *b = getenv("BTFIDS");

	return b ? b : "btfids/btfids";
}

const char *tl_realdata(void)
{
	const char *d = getenv("BTFIDS_REALDATA");

	return d ? d : "../shared/realdata";
}

char *tl_path(const char *dir, const char *name)
{
	char *p;

	if (asprintf(&p, "%s/%s", dir, name) < 0)
		abort();
	return p;
}

static int cmp_dir(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	bool nx = strstr(x, "/native"), ny = strstr(y, "/native");

	if (nx != ny)
		return nx ? -1 : 1;
	return strcmp(x, y);
}

size_t tl_fixture_dirs(char ***dirs)
{
	char *root = tl_path(tl_build_dir(), "fixtures");
	DIR *d = opendir(root);
	struct dirent *de;
	size_t n = 0;

	*dirs = NULL;
	if (!d) {	/* called while building the suite: no ck_assert here */
		fprintf(stderr, "no fixtures in %s: run make check\n", root);
		exit(2);
	}
	while ((de = readdir(d))) {
		char *dir, *img;

		if (de->d_name[0] == '.')
			continue;
		dir = tl_path(root, de->d_name);
		img = tl_path(dir, "image");
		if (access(img, R_OK)) {
			free(dir);
			free(img);
			continue;
		}
		free(img);
		*dirs = realloc(*dirs, (n + 1) * sizeof(**dirs));
		(*dirs)[n++] = dir;
	}
	closedir(d);
	free(root);
	qsort(*dirs, n, sizeof(**dirs), cmp_dir);
	return n;
}

unsigned char *tl_slurp(const char *path, size_t *size)
{
	int fd = open(path, O_RDONLY);
	unsigned char *buf;
	struct stat st;
	size_t done = 0;

	ck_assert_msg(fd >= 0, "open %s: %s", path, strerror(errno));
	ck_assert_int_eq(fstat(fd, &st), 0);
	buf = malloc(st.st_size + 1);
	ck_assert_ptr_nonnull(buf);
	while (done < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + done, st.st_size - done);

		ck_assert_int_gt(n, 0);
		done += n;
	}
	close(fd);
	*size = st.st_size;
	return buf;
}

char *tl_tmpfile(const void *data, size_t size)
{
	char *path = strdup("/tmp/btfids-test.XXXXXX");
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, data, size), (ssize_t)size);
	close(fd);
	return path;
}

char *tl_tmpcopy(const char *src)
{
	size_t size;
	unsigned char *buf = tl_slurp(src, &size);
	char *path = tl_tmpfile(buf, size);
	struct stat st;

	ck_assert_int_eq(stat(src, &st), 0);
	ck_assert_int_eq(chmod(path, st.st_mode & 0777), 0);
	free(buf);
	return path;
}

/* A temporary file's contents as a NUL-terminated string; removes it. */
static char *take_output(char *path)
{
	size_t size;
	char *s = (char *)tl_slurp(path, &size);

	s[size] = 0;
	unlink(path);
	return s;
}

int tl_spawn(char **out, char **err, const char *const argv[])
{
	char opath[] = "/tmp/btfids-test-out.XXXXXX", epath[] = "/tmp/btfids-test-err.XXXXXX";
	int ofd = out ? mkstemp(opath) : -2, efd = mkstemp(epath), status;
	posix_spawn_file_actions_t fa;
	pid_t pid;

	ck_assert(ofd != -1 && efd >= 0);
	posix_spawn_file_actions_init(&fa);
	if (out)
		posix_spawn_file_actions_adddup2(&fa, ofd, 1);
	else
		posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, efd, 2);
	ck_assert_int_eq(posix_spawnp(&pid, argv[0], &fa, NULL, (char **)argv, environ), 0);
	posix_spawn_file_actions_destroy(&fa);
	if (out)
		close(ofd);
	close(efd);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	if (out)
		*out = take_output(opath);
	if (err)
		*err = take_output(epath);
	else
		unlink(epath);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int tl_run_out(char **out, char **err, const char *const argv[])
{
	const char *args[64] = { tl_btfids() };
	int i;

	for (i = 0; argv[i] && i < 62; i++)
		args[i + 1] = argv[i];
	args[i + 1] = NULL;
	return tl_spawn(out, err, args);
}

int tl_run(char **err, const char *const argv[])
{
	return tl_run_out(NULL, err, argv);
}

void tl_elf_open(struct tl_elf *e, const char *path)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	Elf *elf;

	memset(e, 0, sizeof(*e));
	e->file = tl_slurp(path, &e->size);
	elf_version(EV_CURRENT);
	e->fd = open(path, O_RDONLY);
	elf = elf_begin(e->fd, ELF_C_READ, NULL);
	ck_assert_ptr_nonnull(elf);
	e->elf = elf;
	ck_assert_ptr_nonnull(gelf_getehdr(elf, &eh));
	e->big_endian = eh.e_ident[EI_DATA] == ELFDATA2MSB;
	e->rel = eh.e_type == ET_REL;
	ck_assert_int_eq(elf_getshdrstrndx(elf, &shstrndx), 0);
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		gelf_getshdr(scn, &sh);
		if (strcmp(elf_strptr(elf, shstrndx, sh.sh_name), ".BTF_ids"))
			continue;
		e->ids_off = sh.sh_offset;
		e->ids_addr = sh.sh_addr;
		e->ids_size = sh.sh_size;
	}
	ck_assert_msg(e->ids_size, "%s has no .BTF_ids", path);
}

void tl_elf_close(struct tl_elf *e)
{
	elf_end(e->elf);
	close(e->fd);
	free(e->file);
}

uint64_t tl_sym_off(struct tl_elf *e, const char *name)
{
	Elf_Scn *scn = NULL;
	Elf *elf = e->elf;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *d = elf_getdata(scn, NULL);
		GElf_Shdr sh;
		size_t i;

		gelf_getshdr(scn, &sh);
		if (sh.sh_type != SHT_SYMTAB)
			continue;
		for (i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;

			gelf_getsym(d, i, &sym);
			if (!strcmp(elf_strptr(elf, sh.sh_link, sym.st_name), name))
				return sym.st_value - (e->rel ? 0 : e->ids_addr);
		}
	}
	ck_abort_msg("no symbol %s", name);
	return 0;
}

uint32_t tl_ids_word(struct tl_elf *e, uint64_t off)
{
	const unsigned char *p = e->file + e->ids_off + off;

	ck_assert_uint_le(off + 4, e->ids_size);
	if (e->big_endian)
		return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
	return (uint32_t)p[3] << 24 | p[2] << 16 | p[1] << 8 | p[0];
}

uint32_t tl_label_word(struct tl_elf *e, const char *name, unsigned int i)
{
	return tl_ids_word(e, tl_sym_off(e, name) + 4 * i);
}

struct btf *tl_btf(const char *path, const char *base_path)
{
	struct btf *base = base_path ? btf__parse(base_path, NULL) : NULL;
	struct btf *btf = btf__parse_split(path, base);

	ck_assert_msg(btf, "libbpf cannot parse BTF of %s", path);
	return btf;
}

uint32_t tl_id(const struct btf *btf, const char *name, int kind)
{
	int id = btf__find_by_name_kind(btf, name, kind);

	return id > 0 ? (uint32_t)id : 0;
}
