// SPDX-License-Identifier: GPL-2.0
/* write.c - in place, a copy, or the raw 7.x files; see include/btfids/write.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "btfids/write.h"

/* All of @e's bytes into @fd: copy_file_range(), else read()/write() */
static int copy_file(const struct btfids_elf *e, int fd, const char *out,
		     struct btfids_report *r)
{
	static unsigned char chunk[1 << 16];
	off_t off = 0;
	ssize_t n = 1;

	while ((uint64_t)off < e->file_size && n > 0)
		n = copy_file_range(e->fd, &off, fd, NULL, e->file_size - off, 0);
	/* another filesystem, or none that can: copy by hand from where it stopped */
	while ((uint64_t)off < e->file_size && n != 0) {
		n = pread(e->fd, chunk, sizeof(chunk), off);
		if (n > 0 && write(fd, chunk, n) != n)
			n = -1;
		if (n > 0)
			off += n;
		if (n < 0 && errno == EINTR)
			n = 1;
	}
	if ((uint64_t)off == e->file_size)
		return 0;
	btfids_err(r, out, "cannot copy %s: %s", e->path, n < 0 ? strerror(errno) : "short read");
	return -EIO;
}

/* The temporary copy gets the input's mode, then replaces @out. */
static int commit_copy(const struct btfids_elf *e, int fd, const char *tmp,
		       const char *out, struct btfids_report *r)
{
	struct stat st;
	int err = 0;

	if (fstat(e->fd, &st) || fchmod(fd, st.st_mode & 07777))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, out))
		err = -errno;
	if (err)
		btfids_err(r, out, "cannot finish the copy %s: %s", tmp, strerror(-err));
	return err;
}

/*
 * Write a patched copy of @e to @out: a temporary file beside it, renamed
 * over it at the end. @ids NULL: an unchanged copy (nothing to resolve).
 */
static int write_copy(struct btfids_elf *e, const unsigned char *ids,
		      const struct btfids_tramp *t, const char *out,
		      struct btfids_report *r)
{
	struct btfids_elf o = *e;
	char *tmp;
	int fd, err;

	if (asprintf(&tmp, "%s.XXXXXX", out) < 0)
		return -ENOMEM;
	fd = mkstemp(tmp);
	if (fd < 0) {
		err = -errno;
		btfids_err(r, out, "cannot create the temporary file %s beside it: %s", tmp,
			   strerror(-err));
		free(tmp);
		return err;
	}
	o.fd = fd;
	o.path = out;
	err = copy_file(e, fd, out, r);
	if (!err && ids)
		err = btfids_elf_write_ids(&o, ids, r);
	if (!err && ids)
		err = btfids_tramp_write(&o, t, r);
	if (!err)
		err = commit_copy(e, fd, tmp, out, r);
	else
		close(fd);
	if (err)
		unlink(tmp);
	free(tmp);
	return err;
}

/*
 * In place: .BTF_ids (if it changed), then the trampoline tables. Should
 * the second write fail, the first is undone from a copy of the original
 * bytes (not from the map: its clean pages follow the file).
 */
static int write_in_place(struct btfids_elf *e, const unsigned char *ids,
			  const struct btfids_tramp *t, struct btfids_report *r)
{
	unsigned char *orig = NULL;
	int err;

	/* @ids NULL: nothing to write there (an empty .BTF_ids, no symbols) */
	if (!ids || !memcmp(ids, e->ids.data, e->ids.size)) {
		btfids_dbg(r, 1, "%s: .BTF_ids already up to date\n", e->path);
		return btfids_tramp_write(e, t, r);
	}
	orig = malloc(e->ids.size);
	if (!orig)
		return -ENOMEM;
	memcpy(orig, e->ids.data, e->ids.size);
	err = btfids_elf_write_ids(e, ids, r);
	if (!err) {
		err = btfids_tramp_write(e, t, r);
		if (err && !btfids_elf_write_ids(e, orig, r))
			btfids_err(r, e->path, ".BTF_ids restored; file unchanged");
	}
	free(orig);
	return err;
}


/* The raw files of the 7.x flow, in kbuild's names (scripts/gen-btf.sh). */
enum { RAW_IDS, RAW_BTF, RAW_BASE, RAW_TRAMP, NR_RAW };

static const char *const raw_suffix[NR_RAW] = {
	[RAW_IDS] = ".BTF_ids", [RAW_BTF] = ".BTF",
	[RAW_BASE] = ".BTF.base", [RAW_TRAMP] = ".BTF_tramp",
};

struct raw_file {
	const void *data;	/* NULL: not produced by this run */
	size_t size;
	char *path, *tmp;
};

static int write_all(int fd, const void *buf, size_t size)
{
	const unsigned char *p = buf;

	while (size) {
		ssize_t n = write(fd, p, size);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p += n;
		size -= n;
	}
	return 0;
}

/* @f's bytes into a temporary file beside its path, mode 0666 less umask */
static int write_tmp(struct raw_file *f, mode_t mode, struct btfids_report *r)
{
	int fd, err;

	if (asprintf(&f->tmp, "%s.XXXXXX", f->path) < 0) {
		f->tmp = NULL;
		return -ENOMEM;
	}
	fd = mkstemp(f->tmp);
	if (fd < 0) {
		err = -errno;
		btfids_err(r, f->path, "cannot create a temporary file beside it: %s", strerror(-err));
		free(f->tmp);
		f->tmp = NULL;
		return err;
	}
	err = write_all(fd, f->data, f->size);
	if (!err && fchmod(fd, mode))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	if (err)
		btfids_err(r, f->path, "cannot write %s: %s", f->tmp, strerror(-err));
	return err;
}

static mode_t file_mode(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return 0666 & ~mask;
}

static int raw_paths(struct raw_file *f, const char *prefix)
{
	int i;

	for (i = 0; i < NR_RAW; i++)
		if (asprintf(&f[i].path, "%s%s", prefix, raw_suffix[i]) < 0)
			return -ENOMEM;
	return 0;
}

static void raw_free(struct raw_file *f)
{
	int i;

	for (i = 0; i < NR_RAW; i++) {
		if (f[i].tmp)
			unlink(f[i].tmp);
		free(f[i].tmp);
		free(f[i].path);
	}
}

void btfids_write_remove_raw(const char *prefix, struct btfids_report *r)
{
	struct raw_file f[NR_RAW] = {};
	int i;

	if (!raw_paths(f, prefix))
		for (i = 0; i < NR_RAW; i++)
			if (!unlink(f[i].path))
				btfids_dbg(r, 1, "%s: removed (stale: this run failed)\n", f[i].path);
	raw_free(f);
}

static int raw_btf(struct raw_file *f, const struct btf *btf, const char *prefix,
		   struct btfids_report *r)
{
	__u32 size;

	if (!btf)
		return 0;
	f->data = btf__raw_data(btf, &size);
	f->size = size;
	if (!f->data) {
		btfids_err(r, prefix, "cannot lay out the BTF to write: %s", strerror(errno));
		return -errno ?: -ENOMEM;
	}
	return 0;
}

static int write_raw(const struct btfids_elf *e, const char *prefix,
		     const struct btfids_result *res, struct btfids_report *r)
{
	struct raw_file f[NR_RAW] = {};
	mode_t mode = file_mode();
	int i, err;

	err = raw_paths(f, prefix);
	if (!err) {
		f[RAW_IDS].data = res->ids;
		f[RAW_IDS].size = e->ids.size;
		if (res->tramp2 && res->tramp2->buf) {
			f[RAW_TRAMP].data = res->tramp2->buf;
			f[RAW_TRAMP].size = res->tramp2->size;
		} else if (res->tramp && res->tramp->sec.index) {
			f[RAW_TRAMP].data = res->tramp->buf;
			f[RAW_TRAMP].size = res->tramp->sec.size;
		}
		err = raw_btf(&f[RAW_BTF], res->btf, prefix, r);
	}
	if (!err)
		err = raw_btf(&f[RAW_BASE], res->base, prefix, r);
	for (i = 0; !err && i < NR_RAW; i++)
		if (f[i].data)
			err = write_tmp(&f[i], mode, r);
	/* all written: now each takes its name, and what this run did not make goes */
	for (i = 0; !err && i < NR_RAW; i++) {
		if (!f[i].data) {
			if (!unlink(f[i].path))
				btfids_dbg(r, 1, "%s: removed (stale: this run makes none)\n", f[i].path);
			continue;
		}
		if (rename(f[i].tmp, f[i].path)) {
			err = -errno;
			btfids_err(r, f[i].path, "cannot rename %s to it: %s", f[i].tmp, strerror(-err));
			break;
		}
		free(f[i].tmp);
		f[i].tmp = NULL;
		btfids_dbg(r, 1, "%s: %zu bytes\n", f[i].path, f[i].size);
	}
	if (err == -ENOMEM)
		btfids_err(r, prefix, "out of memory");
	raw_free(f);
	if (err)
		btfids_write_remove_raw(prefix, r);
	return err;
}

int btfids_write_result(struct btfids_elf *e, enum btfids_dest dest, const char *out,
			const struct btfids_result *res, struct btfids_report *r)
{
	switch (dest) {
	case BTFIDS_DEST_RAW:
		return write_raw(e, out ? out : e->path, res, r);
	case BTFIDS_DEST_COPY:
		return write_copy(e, res->ids, res->tramp, out, r);
	default:
		return write_in_place(e, res->ids, res->tramp, r);
	}
}
