// SPDX-License-Identifier: GPL-2.0
/*
 * lookup.c - load BTF through libbpf and resolve targets by kind and name
 * in one pass over all types.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <bpf/libbpf.h>

#include "btf_uapi.h"

#include "btfids/lookup.h"
#include "btfids/patch.h"
#include "btfids/verify.h"

static int btf_error(struct btf *btf)
{
	return btf ? 0 : (errno ? -errno : -EINVAL);
}

int btfids_btf_file_kind(const char *path)
{
	unsigned char m[SELFMAG] = {};
	/* O_NONBLOCK: a FIFO is refused below instead of waiting for a writer */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), err = 0;
	struct stat st;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st))
		err = -errno;
	else if (S_ISDIR(st.st_mode))
		err = -EISDIR;
	else if (!S_ISREG(st.st_mode))
		err = -EINVAL;
	else if (read(fd, m, sizeof(m)) < 2)
		m[0] = 0;
	close(fd);
	if (err)
		return err;
	if (!memcmp(m, ELFMAG, SELFMAG))
		return BTFIDS_FILE_ELF;
	/* struct btf_header's magic 0xeb9f, in either byte order */
	if ((m[0] == 0x9f && m[1] == 0xeb) || (m[0] == 0xeb && m[1] == 0x9f))
		return BTFIDS_FILE_RAW_BTF;
	return BTFIDS_FILE_OTHER;
}

const char *btfids_btf_strerror(int err, char *buf, size_t len)
{
	if (libbpf_strerror(err, buf, len))
		snprintf(buf, len, "%s", strerror(err < 0 ? -err : err));
	return buf;
}

/*
 * libbpf's last message while it parses, the reason it refused ("btf: type
 * [9]: invalid referenced type ID 99999"), kept for the FAILED line
 * instead of printed apart; only one parse runs at a time.
 */
static char libbpf_why[160];

static int keep_why(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	vsnprintf(libbpf_why, sizeof(libbpf_why), fmt, ap);
	libbpf_why[strcspn(libbpf_why, "\n")] = 0;
	return 0;
}

/*
 * libbpf's parse of @data (@size bytes) or, @data NULL, of the ELF @file
 * (its reader also takes an ELF's .BTF.base), split on @base when not NULL.
 * NULL with errno set when it refuses; *why then holds its reason, or "".
 */
static struct btf *libbpf_parse(const void *data, size_t size, const char *file,
				struct btf *base, const char **why)
{
	libbpf_print_fn_t old;
	struct btf *btf;
	int err;

	libbpf_why[0] = 0;
	old = libbpf_set_print(keep_why);
	errno = 0;
	btf = data ? btf__new_split(data, size, base) : btf__parse_split(file, base);
	err = btf_error(btf);
	libbpf_set_print(old);
	*why = libbpf_why;
	if (!strncmp(*why, "libbpf: ", 8))
		*why += 8;
	if (!strncmp(*why, "btf: ", 5))
		*why += 5;
	errno = -err;
	return btf;
}

/* "FAILED @path: cannot load @what: <errno text>[ (libbpf says: <its reason>)]@hint" */
static void parse_failed(const char *path, const char *what, int err, const char *why,
			 const char *hint, struct btfids_report *r)
{
	char msg[128];

	btfids_err(r, path, "cannot load %s: %s%s%s%s%s", what,
		   btfids_btf_strerror(err, msg, sizeof(msg)), *why ? " (libbpf says: " : "", why,
		   *why ? ")" : "", hint);
}

/* The kernel's header checks (verify.h) on BTF bytes from @path. */
static int verify_bytes(const struct btfids_btf_bytes *b, const char *path,
			struct btfids_report *r)
{
	char why[256];
	int err = btfids_btf_verify_header(b, why, sizeof(why));

	if (err)
		btfids_err(r, path, "%s", why);
	return err;
}

int btfids_btf_check_types(const struct btf *btf, const char *path, struct btfids_report *r)
{
	char why[256];
	int err = btfids_btf_verify_types(btf, why, sizeof(why));

	if (err == -ENOMEM)
		btfids_err(r, path, "out of memory");
	else if (err)
		btfids_err(r, path, "%s", why);
	return err;
}

/* An ELF's .BTF (and .BTF.base), before libbpf reads them. */
static int verify_elf_sections(const struct btfids_elf *e, bool split, struct btfids_report *r)
{
	int err = verify_bytes(&(struct btfids_btf_bytes){
		.data = e->btf.data, .size = e->btf.size, .name = ".BTF",
		.section = true, .split = split || e->btf_base.index }, e->path, r);

	if (!err && e->btf_base.index)
		err = verify_bytes(&(struct btfids_btf_bytes){
			.data = e->btf_base.data, .size = e->btf_base.size,
			.name = ".BTF.base", .section = true }, e->path, r);
	return err;
}

/* A raw BTF file, mapped read-only: libbpf copies what it parses. */
struct raw_map {
	void *data;
	size_t size;
};

static int map_raw(const char *path, struct raw_map *m, struct btfids_report *r)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;
	struct stat st;

	*m = (struct raw_map){};
	if (fd < 0 || fstat(fd, &st)) {
		err = -errno;
	} else if (st.st_size > 0) {
		m->data = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m->data == MAP_FAILED) {
			err = -errno;
			m->data = NULL;
		} else {
			m->size = st.st_size;
		}
	}
	if (fd >= 0)
		close(fd);
	if (err)
		btfids_err(r, path, "cannot read: %s", strerror(-err));
	return err;
}

static void unmap_raw(struct raw_map *m)
{
	if (m->data)
		munmap(m->data, m->size);
}

/*
 * A raw BTF file: the header checks on its bytes, libbpf's parse, split on
 * @base when not NULL (@split: checked as split BTF). Errors name @path.
 */
static int load_raw(const char *path, const char *what, struct btf *base, bool split,
		    const char *hint, struct btf **out, struct btfids_report *r)
{
	struct raw_map m;
	const char *why;
	int err = map_raw(path, &m, r);

	if (!err)
		err = verify_bytes(&(struct btfids_btf_bytes){
			.data = m.data ? m.data : "", .size = m.size, .name = "BTF",
			.split = split }, path, r);
	if (!err) {
		*out = libbpf_parse(m.data, m.size, NULL, base, &why);
		err = btf_error(*out);
		if (err)
			parse_failed(path, what, err, why, hint, r);
	}
	unmap_raw(&m);
	return err;
}

/*
 * An ELF's .BTF (-b vmlinux, or --btf ELF): 0 with @e open, checked, or an
 * error line ("an ELF without .BTF") and @e closed.
 */
static int open_btf_elf(struct btfids_elf *e, const char *path, const char *what,
			bool split, struct btfids_report *r)
{
	int err = btfids_elf_open(e, path, false, r);

	if (err)
		return -EINVAL;
	if (!e->btf.index || !e->btf.size) {
		btfids_err(r, path, "cannot load %s: an ELF without .BTF", what);
		err = -ENODATA;
	}
	if (!err)
		err = verify_elf_sections(e, split, r);
	if (err)
		btfids_elf_close(e);
	return err;
}

/* A vmlinux base: its .BTF straight from the mapped file, no second read. */
static int load_base_elf(const char *path, struct btf **out, struct btfids_report *r)
{
	struct btfids_elf e;
	const char *why;
	int err = open_btf_elf(&e, path, "base BTF", false, r);

	if (err)
		return err;
	*out = libbpf_parse(e.btf.data, e.btf.size, NULL, NULL, &why);
	err = btf_error(*out);
	if (err)
		parse_failed(path, "base BTF", err, why, "", r);
	btfids_elf_close(&e);
	return err;
}

/*
 * The kind of a BTF file named on the command line (-b, --btf), after an
 * error line "cannot load @what: ..." when it is none.
 */
static int btf_file_kind(const char *path, const char *what, struct btfids_report *r)
{
	int kind = btfids_btf_file_kind(path);

	if (kind < 0)
		btfids_err(r, path, "cannot load %s: %s", what,
			   kind == -EINVAL ? "not a regular file" : strerror(-kind));
	else if (kind == BTFIDS_FILE_OTHER)
		btfids_err(r, path, "cannot load %s: neither an ELF file nor raw BTF (no 0xeb9f magic)",
			   what);
	return kind == BTFIDS_FILE_OTHER ? -EINVAL : kind;
}

int btfids_btf_load_base(const char *path, struct btf **out, struct btfids_report *r)
{
	int kind = btf_file_kind(path, "base BTF", r), err;
	struct btf *btf = NULL;

	if (kind < 0)
		return kind;
	if (kind == BTFIDS_FILE_ELF)
		err = load_base_elf(path, &btf, r);
	else
		err = load_raw(path, "base BTF", NULL, false, "", &btf, r);
	if (!err)
		*out = btf;
	return err;
}

/* Type IDs a type refers to; returns how many were stored in ids[] (at most 2). */
static int type_refs(const struct btf_type *t, __u32 ids[2])
{
	switch (btf_kind(t)) {
	case BTF_KIND_PTR:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FUNC_PROTO:	/* return type; params checked apart */
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
	case BTF_KIND_TYPE_TAG:
		ids[0] = t->type;
		return 1;
	case BTF_KIND_ARRAY:
		ids[0] = btf_array(t)->type;
		ids[1] = btf_array(t)->index_type;
		return 2;
	default:
		return 0;
	}
}

/* Members, params and section entries all refer to types too. */
static bool members_ok(const struct btf_type *t, __u32 nr_types)
{
	int i, n = btf_vlen(t);

	if (btf_is_composite(t)) {
		for (i = 0; i < n; i++)
			if (btf_members(t)[i].type >= nr_types)
				return false;
	} else if (btf_is_func_proto(t)) {
		for (i = 0; i < n; i++)
			if (btf_params(t)[i].type >= nr_types)
				return false;
	} else if (btf_is_datasec(t)) {
		for (i = 0; i < n; i++)
			if (btf_var_secinfos(t)[i].type >= nr_types)
				return false;
	}
	return true;
}

/*
 * Every name offset points at the start of a string: in a BTF read on the
 * wrong base, offsets into the base's strings land mid-string.
 */
static bool name_ok(const struct btf *btf, __u32 off)
{
	const char *prev;

	if (!btf__name_by_offset(btf, off))
		return false;
	prev = off ? btf__str_by_offset(btf, off - 1) : NULL;
	return !prev || !*prev;
}

static bool type_ok(const struct btf *btf, const struct btf_type *t, __u32 nr_types)
{
	__u32 ids[2];
	int i, n;

	if (!t || !name_ok(btf, t->name_off))
		return false;
	n = type_refs(t, ids);
	for (i = 0; i < n; i++)
		if (ids[i] >= nr_types)
			return false;
	if (btf_is_func(t) && !btf_is_func_proto(btf__type_by_id(btf, t->type)))
		return false;
	return members_ok(t, nr_types);
}

/*
 * A split BTF read on the wrong base shows itself as names that start
 * mid-string and type IDs that point nowhere or at the wrong kind. libbpf
 * 1.1 checks none of this when it parses.
 */
static int check_split(const struct btf *btf, const struct btf *base,
		       const char *path, struct btfids_report *r)
{
	__u32 nr_types = btf__type_cnt(btf), id;

	/* libbpf reads either order; a module and its base are one target */
	if (btf__endianness(btf) != btf__endianness(base)) {
		btfids_err(r, path, "split BTF is %s-endian but its base BTF is %s-endian (wrong -b/--btf_base?)",
			   btf__endianness(btf) == BTF_BIG_ENDIAN ? "big" : "little",
			   btf__endianness(base) == BTF_BIG_ENDIAN ? "big" : "little");
		return -EINVAL;
	}
	for (id = btf__type_cnt(base); id < nr_types; id++) {
		if (type_ok(btf, btf__type_by_id(btf, id), nr_types))
			continue;
		btfids_err(r, path, "split BTF does not fit its base BTF: type ID %u refers to a name or type the base does not have (wrong -b/--btf_base?)",
			   id);
		return -EINVAL;
	}
	return 0;
}

int btfids_btf_check_header(const struct btfids_elf *e, struct btfids_report *r)
{
	if (e->btf.nobits) {
		btfids_err(r, e->path, ".BTF section has no bytes in the file (NOBITS: a debug-only copy, objcopy --only-keep-debug?); pass --btf FILE");
		return -EINVAL;
	}
	if (!e->btf.size) {
		btfids_err(r, e->path, ".BTF section is empty");
		return -EINVAL;
	}
	/* a module's .BTF is split BTF, unless it stands alone: the looser rules */
	return verify_elf_sections(e, e->type == ET_REL, r);
}

/* The base an object's own .BTF sits on: .BTF.base if it has one. */
static int own_base(struct btfids_elf *e, struct btf **base, struct btfids_report *r)
{
	const char *why;
	int err;

	if (!e->btf_base.index)
		return 0;
	if (!e->distilled_base) {
		e->distilled_base = libbpf_parse(e->btf_base.data, e->btf_base.size, NULL, NULL,
						 &why);
		err = btf_error(e->distilled_base);
		if (err) {
			parse_failed(e->path, "BTF from .BTF.base", err, why, "", r);
			return err;
		}
	}
	btfids_dbg(r, 1, "%s: split BTF on its own .BTF.base (distilled base)%s\n",
		   e->path, *base ? "; -b ignored" : "");
	*base = e->distilled_base;
	return 0;
}

/*
 * BTF of another target than the ELF's (a --btf of the wrong build): its
 * byte order, or its pointer size where libbpf can tell, differs.
 */
static int check_target(const struct btfids_elf *e, const struct btf *btf,
			const char *from, struct btfids_report *r)
{
	bool be = btf__endianness(btf) == BTF_BIG_ENDIAN;
	size_t ptr = btf__pointer_size(btf);
	size_t elf_ptr = e->elf_class == ELFCLASS32 ? 4 : 8;

	if (be != btfids_elf_big_endian(e)) {
		btfids_err(r, from, "BTF is %s-endian but %s is %s-endian: not the BTF of this ELF",
			   be ? "big" : "little", e->path, be ? "little" : "big");
		return -EINVAL;
	}
	if (ptr && ptr != elf_ptr) {
		btfids_err(r, from, "BTF has %zu-byte pointers but %s is ELF%zu: not the BTF of this ELF",
			   ptr, e->path, elf_ptr * 8);
		return -EINVAL;
	}
	return 0;
}

/* What the FAILED line adds when libbpf refuses an object's BTF. */
static const char *load_hint(const struct btfids_elf *e, const struct btf *base, int err)
{
	if (!base && e->type == ET_REL && err != -ENODATA)
		return " (a module's split BTF needs its base: -b vmlinux)";
	if (base && err == -EINVAL)
		return " (split BTF does not fit its base BTF: wrong -b/--btf_base?)";
	return "";
}

/*
 * The BTF @e's IDs come from, its header checked (verify.h), then parsed
 * by libbpf: @e's own .BTF (from its bytes when it stands alone; else
 * libbpf reads the file, .BTF.base and all), or --btf FILE, an ELF's .BTF
 * or raw BTF.
 */
static int parse_btf(struct btfids_elf *e, const char *btf_path, struct btf *base,
		     struct btf **out, struct btfids_report *r)
{
	/* checked as split BTF also where libbpf will say it needs a base */
	bool split = base || e->type == ET_REL;
	struct btfids_elf other;
	const char *why;
	int err;

	if (!btf_path) {
		err = btfids_btf_check_header(e, r);
		if (!err)
			err = own_base(e, &base, r);
		if (err)
			return err;
		*out = libbpf_parse(base ? NULL : e->btf.data, e->btf.size, e->path, base, &why);
		err = btf_error(*out);
		if (err)
			parse_failed(e->path, "BTF from .BTF", err, why, load_hint(e, base, err), r);
		return err;
	}
	err = btf_file_kind(btf_path, "BTF", r);
	if (err == BTFIDS_FILE_RAW_BTF)
		return load_raw(btf_path, "BTF", base, split, load_hint(e, base, -EINVAL), out, r);
	if (err < 0)
		return err;
	err = open_btf_elf(&other, btf_path, "BTF", split, r);
	if (err)
		return err;
	btfids_elf_close(&other);
	*out = libbpf_parse(NULL, 0, btf_path, base, &why);
	err = btf_error(*out);
	if (err)
		parse_failed(btf_path, "BTF", err, why, load_hint(e, base, err), r);
	return err;
}

int btfids_btf_load(struct btfids_elf *e, const char *btf_path,
		    struct btf *base, struct btf **out, struct btfids_report *r)
{
	const char *from = btf_path ? btf_path : e->path;
	struct btf *btf;
	int err;

	if (!btf_path && !e->btf.index) {
		btfids_err(r, e->path, "no .BTF section (pass --btf FILE, or encode BTF with pahole first)");
		return -ENODATA;
	}
	err = parse_btf(e, btf_path, base, &btf, r);
	if (err)
		return err;
	base = (struct btf *)btf__base_btf(btf);
	err = base ? check_split(btf, base, from, r) : 0;
	if (!err)
		err = check_target(e, btf, from, r);
	if (err) {
		btf__free(btf);
		return err;
	}
	*out = btf;
	return 0;
}

static int add_id(struct btfids_target *t, __u32 id)
{
	__u32 *ids = reallocarray(t->ids, t->nr_ids + 1, sizeof(*ids));

	if (!ids)
		return -ENOMEM;
	ids[t->nr_ids++] = id;
	t->ids = ids;
	return 0;
}

/*
 * The kernel tool stops checking a kind once it has found as many names as
 * that kind has slots (its nr_funcs etc.), so a later duplicate goes
 * unreported there. We keep every ID for `check`, but warn the same way.
 */
static int match(struct btfids_target *t, __u32 id, size_t *left,
		 struct btfids_report *r)
{
	int err = add_id(t, id);

	if (err)
		return err;
	if (t->nr_ids == 1) {
		t->id = id;
		(*left)--;
	} else if (*left) {
		btfids_warn(r, "multiple IDs found for '%s': %u, %u - using %u",
			    t->name, t->id, id, t->id);
	}
	return 0;
}

/* Kernel order: structs, unions, typedefs, funcs; names descending. */
static void warn_unresolved(const struct btfids_syms *s, struct btfids_report *r)
{
	static const enum btfids_kind order[] = {
		BTFIDS_STRUCT, BTFIDS_UNION, BTFIDS_TYPEDEF, BTFIDS_FUNC,
	};
	size_t k, i;

	for (k = 0; k < 4; k++) {
		for (i = s->nr_targets; i-- > 0;) {
			const struct btfids_target *t = &s->targets[i];

			if (t->kind == order[k] && !t->id)
				btfids_warn(r, "resolve_btfids: unresolved symbol %s", t->name);
		}
	}
}

/* One type of the base index; same (kind, name) entries are chained by ID. */
struct index_entry {
	__u32 id;
	__u32 next;		/* entry index + 1 of the next same name; 0: last */
};

struct btfids_btf_index {
	const struct btf *base;
	struct index_entry *entries;
	size_t nr_entries;
	__u32 *table;		/* entry index + 1 of each name's first entry */
	size_t mask;
};

static bool same_name(const struct btf *btf, __u32 id, int kind, const char *name)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	return btfids_kind_of(t) == kind && !strcmp(btf__name_by_offset(btf, t->name_off), name);
}

/* The slot of (kind, name) in the table: its first entry, or an empty one. */
static size_t index_slot(const struct btfids_btf_index *idx, int kind, const char *name)
{
	size_t h = btfids_name_hash(kind, name) & idx->mask;

	while (idx->table[h] &&
	       !same_name(idx->base, idx->entries[idx->table[h] - 1].id, kind, name))
		h = (h + 1) & idx->mask;
	return h;
}

static int index_add(struct btfids_btf_index *idx, __u32 *tail, __u32 id, int kind,
		     const char *name)
{
	size_t h = index_slot(idx, kind, name), n = idx->nr_entries++;

	idx->entries[n] = (struct index_entry){ .id = id };
	if (!idx->table[h])
		idx->table[h] = n + 1;
	else	/* IDs come in ascending order: append to the chain */
		idx->entries[tail[idx->table[h] - 1]].next = n + 1;
	tail[idx->table[h] - 1] = n;
	return 0;
}

int btfids_btf_index_new(const struct btf *base, struct btfids_btf_index **out)
{
	__u32 id, nr_types = btf__type_cnt(base), *tail;
	struct btfids_btf_index *idx = calloc(1, sizeof(*idx));
	size_t size = 16;
	int err = -ENOMEM;

	while (size < 2 * (size_t)nr_types)
		size *= 2;
	tail = calloc(nr_types, sizeof(*tail));
	if (idx) {
		idx->base = base;
		idx->mask = size - 1;
		idx->table = calloc(size, sizeof(*idx->table));
		idx->entries = calloc(nr_types, sizeof(*idx->entries));
	}
	if (!idx || !tail || !idx->table || !idx->entries)
		goto out;
	for (id = 1; id < nr_types; id++) {
		const struct btf_type *t = btf__type_by_id(base, id);
		int kind = t ? btfids_kind_of(t) : -1;
		const char *name;

		if (kind < 0)
			continue;
		name = btf__name_by_offset(base, t->name_off);
		err = name ? index_add(idx, tail, id, kind, name) : -EINVAL;
		if (err)
			goto out;
	}
	*out = idx;
	idx = NULL;
	err = 0;
out:
	free(tail);
	btfids_btf_index_free(idx);
	return err;
}

void btfids_btf_index_free(struct btfids_btf_index *idx)
{
	if (!idx)
		return;
	free(idx->entries);
	free(idx->table);
	free(idx);
}

struct hit {
	__u32 id;
	struct btfids_target *t;
};

static int cmp_hit(const void *pa, const void *pb)
{
	const struct hit *a = pa, *b = pb;

	return a->id < b->id ? -1 : a->id > b->id;
}

/* The base's matches, from the index, taken in ID order like a walk would. */
static int match_base(const struct btfids_btf_index *idx, struct btfids_syms *s,
		      size_t *left, struct btfids_report *r)
{
	struct hit *hits = NULL;
	size_t i, n = 0, cap = 0;
	int err = 0;

	for (i = 0; i < s->nr_targets && !err; i++) {
		struct btfids_target *t = &s->targets[i];
		__u32 e = idx->table[index_slot(idx, t->kind, t->name)];

		for (; e && !err; e = idx->entries[e - 1].next) {
			if (n == cap) {
				struct hit *h = reallocarray(hits, cap = cap * 2 + 16, sizeof(*h));

				if (!h)
					err = -ENOMEM;
				else
					hits = h;
			}
			if (!err)
				hits[n++] = (struct hit){ idx->entries[e - 1].id, t };
		}
	}
	if (!err && n)
		qsort(hits, n, sizeof(*hits), cmp_hit);
	for (i = 0; i < n && !err; i++)
		err = match(hits[i].t, hits[i].id, &left[hits[i].t->kind], r);
	free(hits);
	return err;
}

static int walk(const struct btf *btf, __u32 first, struct btfids_syms *s,
		size_t *left, const char *path, struct btfids_report *r)
{
	__u32 id, nr_types = btf__type_cnt(btf);

	for (id = first; id < nr_types && s->nr_targets; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		struct btfids_target *tg;
		const char *name;
		int kind;

		if (!t) {
			btfids_err(r, path, "malformed BTF: no type for ID %u", id);
			return -EINVAL;
		}
		kind = btfids_kind_of(t);
		if (kind < 0 || !s->nr_kind_slots[kind])
			continue;
		name = btf__name_by_offset(btf, t->name_off);
		if (!name) {
			btfids_err(r, path, "malformed BTF: no name for type ID %u", id);
			return -EINVAL;
		}
		if (!btfids_syms_may_have(s, name))
			continue;
		tg = btfids_syms_find(s, kind, name);
		if (tg && match(tg, id, &left[kind], r))
			return -ENOMEM;
	}
	return 0;
}

int btfids_lookup_indexed(const struct btf *btf, const struct btfids_btf_index *base_idx,
			  struct btfids_syms *s, const char *path,
			  struct btfids_report *r)
{
	size_t left[BTFIDS_NR_TYPE_KINDS];
	__u32 first = 1;
	int err = 0;

	memcpy(left, s->nr_kind_slots, sizeof(left));
	if (base_idx && btf__base_btf(btf) == base_idx->base) {
		err = match_base(base_idx, s, left, r);
		first = btf__type_cnt(base_idx->base);
	}
	if (!err)
		err = walk(btf, first, s, left, path, r);
	if (err == -ENOMEM)
		btfids_err(r, path, "out of memory");
	if (err)
		return err;
	warn_unresolved(s, r);
	return 0;
}

int btfids_lookup(const struct btf *btf, struct btfids_syms *s, const char *path,
		  struct btfids_report *r)
{
	return btfids_lookup_indexed(btf, NULL, s, path, r);
}

static const char *endian(bool be)
{
	return be ? "big" : "little";
}

void btfids_say_other_build(const char *who, const char *mod_path,
			    const struct btfids_release *mod, bool mod_be,
			    const char *base_path, struct btfids_report *r)
{
	struct btfids_release base = {};
	struct btfids_elf b;

	if (btfids_btf_file_kind(base_path) != BTFIDS_FILE_ELF)
		return;
	if (btfids_elf_open(&b, base_path, false, r))
		return;
	if (btfids_elf_big_endian(&b) != mod_be)
		btfids_dbg(r, 0, "%s: %s: a %s-endian module, but -b %s is %s-endian: another machine's base\n",
			   who, mod_path, endian(mod_be), base_path, endian(!mod_be));
	else if (mod->from && !strcmp(mod->from, "vermagic") &&
		 !btfids_release_read(&b, &base) && strcmp(base.text, mod->text))
		btfids_dbg(r, 0, "%s: %s: built for Linux %s (vermagic), but -b %s is Linux %s (linux_banner): the base of another build\n",
			   who, mod_path, mod->text, base_path, base.text);
	btfids_elf_close(&b);
}

void btfids_say_other_build_elf(const char *who, const struct btfids_elf *mod, int err,
				const char *base_path, struct btfids_report *r)
{
	struct btfids_release rel = {};

	if (err != -EINVAL || !base_path)
		return;
	if (btfids_release_read(mod, &rel))
		rel.from = NULL;
	btfids_say_other_build(who, mod->path, &rel, btfids_elf_big_endian(mod), base_path, r);
}
