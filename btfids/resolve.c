// SPDX-License-Identifier: GPL-2.0
/*
 * resolve.c - the resolve verb: the kernel's resolve_btfids, in place.
 *
 * Per object, top to bottom: open -> collect symbols -> load BTF ->
 * look up -> patch a copy of .BTF_ids -> write it with one pwrite().
 * Every check happens before the write, so a failed run leaves the file
 * as it was. Several objects may share one base BTF (-b), parsed once.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "btfids.h"
#include "btfids/lookup.h"
#include "btfids/patch.h"
#include "btfids/tramp_fill.h"

struct resolve_opts {
	const char *btf_path;
	const char *base_path;
	const char *output;		/* -o: write a patched copy here */
	const char *patch_blob;		/* --patch_btfids BLOB */
	bool fatal_warnings;
	struct btf *base;		/* parsed once for all objects */
	struct btfids_btf_index *base_index;	/* its names, when several objects share it */
	struct btfids_report rep;
};

static bool same_file(const char *a, const char *b)
{
	struct stat x, y;

	return !stat(a, &x) && !stat(b, &y) && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: btfids [resolve] [OPTIONS] ELF...\n"
		"       btfids [resolve] --patch_btfids BLOB ELF\n\n"
		"Fill the .BTF_ids section of each ELF (vmlinux or a module) in place.\n\n"
		"  -v, --verbose          more output (repeat for more)\n"
		"      --btf FILE         read BTF from FILE (raw or ELF), not the ELF's .BTF\n"
		"  -b, --btf_base FILE    base BTF for split (module) BTF: vmlinux or raw BTF\n"
		"      --fatal_warnings   fail (exit 255, file untouched) on any warning\n"
		"  -o, --output FILE      write the patched copy to FILE, leave ELF as it is\n"
		"      --patch_btfids BLOB  copy BLOB (exactly the section's size) into .BTF_ids\n"
		"  -h, --help             this help\n\n"
		"Exit status: 0 ok, 255 failure, 129 usage error.\n");
}

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
static int write_in_place(struct resolve_opts *o, struct btfids_elf *e,
			  const unsigned char *ids, const struct btfids_tramp *t)
{
	unsigned char *orig = NULL;
	int err;

	if (!memcmp(ids, e->ids.data, e->ids.size)) {
		btfids_dbg(&o->rep, 1, "%s: .BTF_ids already up to date\n", e->path);
		return btfids_tramp_write(e, t, &o->rep);
	}
	orig = malloc(e->ids.size);
	if (!orig)
		return -ENOMEM;
	memcpy(orig, e->ids.data, e->ids.size);
	err = btfids_elf_write_ids(e, ids, &o->rep);
	if (!err) {
		err = btfids_tramp_write(e, t, &o->rep);
		if (err && !btfids_elf_write_ids(e, orig, &o->rep))
			btfids_err(&o->rep, e->path, ".BTF_ids restored; file unchanged");
	}
	free(orig);
	return err;
}

static int write_result(struct resolve_opts *o, struct btfids_elf *e,
			const unsigned char *buf, const struct btfids_tramp *t)
{
	if (o->output)
		return write_copy(e, buf, t, o->output, &o->rep);
	return write_in_place(o, e, buf, t);
}

static const char *plural(size_t n)
{
	return n == 1 ? "" : "s";
}

/* -v: one line per object; -vv: also every slot with the ID it gets. */
static void summary(struct resolve_opts *o, const struct btfids_elf *e,
		    const struct btfids_syms *s)
{
	size_t i, unresolved = 0;

	for (i = 0; i < s->nr_targets; i++)
		unresolved += !s->targets[i].id;
	btfids_dbg(&o->rep, 1, "%s: %zu slot%s for %zu name%s (%zu unresolved), %zu set%s, %llu bytes of .BTF_ids\n",
		   e->path, s->nr_slots, plural(s->nr_slots), s->nr_targets,
		   plural(s->nr_targets), unresolved, s->nr_sets, plural(s->nr_sets),
		   (unsigned long long)e->ids.size);
	for (i = 0; i < s->nr_slots && o->rep.verbose >= 2; i++) {
		const struct btfids_target *t = &s->targets[s->slots[i].target];

		btfids_dbg(&o->rep, 2, "%s: .BTF_ids+0x%04llx  %-7s %-40s ID %u\n", e->path,
			   (unsigned long long)s->slots[i].off, btfids_kind_str(t->kind),
			   t->name, t->id);
	}
}

/* Everything up to the write; on success *out holds the new section. */
static int compute(struct resolve_opts *o, struct btfids_elf *e,
		   struct btfids_syms *s, unsigned char **out, struct btfids_tramp *t)
{
	unsigned int warnings = o->rep.warnings;
	struct btf *btf = NULL;
	int err;

	err = btfids_syms_collect(e, s, &o->rep);
	if (err)
		return err;
	err = btfids_btf_load(e, o->btf_path, o->base, &btf, &o->rep);
	if (!err)
		err = btfids_lookup_indexed(btf, o->base_index, s, e->path, &o->rep);
	if (!err)	/* trampoline tables: built now, written with .BTF_ids */
		err = btfids_tramp_fill(e, s, btf, t, &o->rep);
	btf__free(btf);
	if (err)
		return err;
	if (o->fatal_warnings && o->rep.warnings != warnings) {
		btfids_err(&o->rep, e->path, "%u warning(s) with --fatal_warnings; file left unchanged",
			   o->rep.warnings - warnings);
		return -EINVAL;
	}
	*out = malloc(e->ids.size ? e->ids.size : 1);
	if (*out) {
		memcpy(*out, e->ids.data, e->ids.size);
		err = btfids_patch(s, *out, btfids_elf_big_endian(e));
	}
	if (!*out || err) {
		btfids_err(&o->rep, e->path, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

/*
 * -o: say what is wrong with OUT before any work (and any warning): a
 * directory, or a place where no file can be made.
 */
static int check_output(const char *out, struct btfids_report *r)
{
	char *copy, *dir;
	struct stat st;
	int err = 0;

	if (!*out) {
		btfids_err(r, NULL, "-o: an empty file name");
		return -EINVAL;
	}
	if (out[strlen(out) - 1] == '/' || (!stat(out, &st) && S_ISDIR(st.st_mode))) {
		btfids_err(r, out, "names a directory (-o takes the file to write)");
		return -EISDIR;
	}
	copy = strdup(out);
	if (!copy)
		return -ENOMEM;
	dir = dirname(copy);
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		btfids_err(r, out, "no directory %s to write it in", dir);
		err = -ENOENT;
	} else if (access(dir, W_OK | X_OK)) {
		err = -errno;
		btfids_err(r, out, "cannot write in %s: %s", dir, strerror(-err));
	}
	free(copy);
	return err;
}

static int resolve_one(struct resolve_opts *o, const char *path)
{
	struct btfids_syms s = {};
	struct btfids_tramp t = {};
	unsigned char *buf = NULL;
	struct btfids_elf e;
	int err;

	err = btfids_elf_open(&e, path, !o->output, &o->rep);
	if (err)
		return err;
	if (!e.ids.index || !e.symtab_index) {
		btfids_dbg(&o->rep, 1, "%s: no .BTF_ids or no symbol table, nothing to do\n", path);
		if (o->output)
			err = write_copy(&e, NULL, NULL, o->output, &o->rep);
		goto out;
	}
	err = compute(o, &e, &s, &buf, &t);
	if (!err) {
		summary(o, &e, &s);
		err = write_result(o, &e, buf, &t);
	}
out:
	btfids_tramp_free(&t);
	free(buf);
	btfids_syms_free(&s);
	btfids_elf_close(&e);
	return err;
}

/* 7.0's --patch_btfids: BLOB is the whole section, already in target order. */
static int patch_blob(struct resolve_opts *o, const char *path)
{
	unsigned char *buf = NULL;
	struct btfids_elf e;
	struct stat st;
	int fd = -1, err;

	err = btfids_elf_open(&e, path, true, &o->rep);
	if (err)
		return err;
	err = -EINVAL;
	if (!e.ids.index) {
		btfids_err(&o->rep, path, "section .BTF_ids not found");
		goto out;
	}
	fd = open(o->patch_blob, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		btfids_err(&o->rep, o->patch_blob, "cannot open: %s", strerror(errno));
		goto out;
	}
	if ((uint64_t)st.st_size != e.ids.size) {
		btfids_err(&o->rep, path, "size mismatch - .BTF_ids section is %llu bytes, %s is %llu bytes",
			   (unsigned long long)e.ids.size, o->patch_blob,
			   (unsigned long long)st.st_size);
		goto out;
	}
	buf = malloc(e.ids.size + 1);
	if (!buf || pread(fd, buf, e.ids.size, 0) != (ssize_t)e.ids.size) {
		btfids_err(&o->rep, o->patch_blob, "cannot read");
		goto out;
	}
	err = btfids_elf_write_ids(&e, buf, &o->rep);
out:
	if (fd >= 0)
		close(fd);
	free(buf);
	btfids_elf_close(&e);
	return err;
}

enum { OPT_BTF = 256, OPT_FATAL, OPT_PATCH, OPT_NO_FAIL };

static const struct option long_opts[] = {
	{ "verbose", no_argument, NULL, 'v' },
	{ "btf", required_argument, NULL, OPT_BTF },
	{ "btf_base", required_argument, NULL, 'b' },
	{ "fatal_warnings", no_argument, NULL, OPT_FATAL },
	{ "patch_btfids", required_argument, NULL, OPT_PATCH },
	{ "output", required_argument, NULL, 'o' },
	{ "no-fail", no_argument, NULL, OPT_NO_FAIL },	/* 5.x kbuild; a no-op */
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* Returns the index of the first ELF argument, or -1 after a usage error. */
static int parse_args(int argc, char **argv, struct resolve_opts *o)
{
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":vb:o:h", long_opts, NULL)) != -1) {
		switch (c) {
		case 'v':
			o->rep.verbose++;
			break;
		case OPT_BTF:
			o->btf_path = optarg;
			break;
		case 'b':
			o->base_path = optarg;
			break;
		case OPT_FATAL:
			o->fatal_warnings = true;
			break;
		case OPT_PATCH:
			o->patch_blob = optarg;
			break;
		case 'o':
			o->output = optarg;
			break;
		case OPT_NO_FAIL:
			break;
		case 'h':
			usage(stdout);
			exit(BTFIDS_EXIT_USAGE);
		case ':':
			fprintf(stderr, "btfids: option %s needs a FILE\n", argv[optind - 1]);
			return -1;
		default:
			fprintf(stderr, "btfids: unknown option %s\n", argv[optind - 1]);
			return -1;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "btfids: no ELF file given\n");
		return -1;
	}
	/* the kernel tool takes one file: more is a batch of modules on one base */
	if (argc - optind > 1 && !o->base_path && !o->output && !o->patch_blob) {
		fprintf(stderr, "btfids: several ELF files are a batch of modules: name their base with -b vmlinux\n");
		return -1;
	}
	if ((o->output || o->patch_blob) && argc - optind != 1) {
		fprintf(stderr, "btfids: -o and --patch_btfids take exactly one ELF file\n");
		return -1;
	}
	if (o->output && o->patch_blob) {
		fprintf(stderr, "btfids: --patch_btfids edits in place; it does not take -o\n");
		return -1;
	}
	/* -o naming the input itself (a link to it included) is an in-place run */
	if (o->output && same_file(o->output, argv[optind]))
		o->output = NULL;
	return optind;
}

int do_resolve(int argc, char **argv)
{
	struct resolve_opts o = {};
	int i, first, failed = 0;

	first = parse_args(argc, argv, &o);
	if (first < 0) {
		usage(stderr);
		return BTFIDS_EXIT_USAGE;
	}
	if (o.patch_blob)
		return patch_blob(&o, argv[first]) ? BTFIDS_EXIT_FAIL : BTFIDS_EXIT_OK;
	if (o.output && check_output(o.output, &o.rep))	/* before any work */
		return BTFIDS_EXIT_FAIL;
	if (o.base_path && btfids_btf_load_base(o.base_path, &o.base, &o.rep))
		return BTFIDS_EXIT_FAIL;
	/* a batch looks the base's names up in an index instead of walking it each time */
	if (o.base && argc - first > 1 && btfids_btf_index_new(o.base, &o.base_index)) {
		btfids_err(&o.rep, o.base_path, "cannot index base BTF (malformed, or out of memory)");
		btf__free(o.base);
		return BTFIDS_EXIT_FAIL;
	}
	for (i = first; i < argc; i++)
		failed |= resolve_one(&o, argv[i]) != 0;
	btfids_btf_index_free(o.base_index);
	btf__free(o.base);
	return failed ? BTFIDS_EXIT_FAIL : BTFIDS_EXIT_OK;
}
