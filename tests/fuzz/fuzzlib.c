// SPDX-License-Identifier: GPL-2.0
/*
 * fuzzlib.c - the input split, the private directory and the verb runs of
 * the file-based fuzz targets (fuzzlib.h).
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "fuzzlib.h"

static char dir[64];

static uint32_t get_le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

void fuzz_split(const uint8_t *data, size_t size, unsigned int nr, struct fuzz_input *in)
{
	size_t hdr = 1 + 4 * (size_t)(nr - 1), off, i;

	memset(in, 0, sizeof(*in));
	if (!size)
		return;
	in->opts = data[0];
	off = hdr < size ? hdr : size;
	for (i = 0; i < nr; i++) {
		size_t want = size - off;

		if (i + 1 < nr && 1 + 4 * (i + 1) <= size)
			want = get_le32(data + 1 + 4 * i);
		else if (i + 1 < nr)
			want = 0;
		if (want > size - off)
			want = size - off;
		in->part[i] = data + off;
		in->len[i] = want;
		off += want;
	}
}

static void remove_dir(void)
{
	fuzz_clean();
	rmdir(dir);
}

static void make_dir(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(dir, sizeof(dir), "%s/btfids-fuzz.XXXXXX",
		 tmp && strlen(tmp) < sizeof(dir) - 24 ? tmp : "/tmp");
	if (!mkdtemp(dir))
		abort();
	atexit(remove_dir);
}

const char *fuzz_path(unsigned int k, const char *name)
{
	static char buf[8][128];

	if (!*dir)
		make_dir();
	snprintf(buf[k % 8], sizeof(buf[0]), "%s/%s", dir, name);
	return buf[k % 8];
}

const char *fuzz_write(unsigned int k, const char *name, const uint8_t *p, size_t len)
{
	const char *path = fuzz_path(k, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	size_t done = 0;

	if (fd < 0)
		abort();
	while (done < len) {
		ssize_t n = write(fd, p + done, len - done);

		if (n <= 0)
			abort();
		done += n;
	}
	close(fd);
	return path;
}

void fuzz_clean(void)
{
	char path[sizeof(dir) + 256];
	struct dirent *d;
	DIR *dp;

	if (!*dir || !(dp = opendir(dir)))
		return;
	while ((d = readdir(dp)))
		if (strcmp(d->d_name, ".") && strcmp(d->d_name, "..")) {
			snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
			unlink(path);
		}
	closedir(dp);
}

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level, (void)fmt, (void)ap;
	return 0;
}

void fuzz_init(void)
{
	static int done;
	int fd;

	if (done++)
		return;
	libbpf_set_print(quiet);
	fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0)
		abort();
	close(fd);
}

int fuzz_run(int (*fn)(int, char **), const char *const *argv)
{
	char *copy[16];		/* getopt permutes argv: a copy of the pointers */
	int argc;

	for (argc = 0; argv[argc]; argc++) {
		if (argc + 1 >= 16)
			abort();
		copy[argc] = (char *)argv[argc];
	}
	copy[argc] = NULL;
	return fn(argc, copy);
}
