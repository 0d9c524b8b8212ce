// SPDX-License-Identifier: GPL-2.0
/*
 * syms.c - collect the __BTF_ID__ symbols of .BTF_ids into slots, sets and
 * targets, and refuse anything the kernel's macros cannot have produced.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/btf.h>
#include <bpf/btf.h>

#include "btfids/syms.h"

#define BTF_ID_PREFIX	"__BTF_ID__"

static const char *const kind_names[] = {
	[BTFIDS_FUNC] = "func",
	[BTFIDS_STRUCT] = "struct",
	[BTFIDS_UNION] = "union",
	[BTFIDS_TYPEDEF] = "typedef",
	[BTFIDS_SET] = "set",
	[BTFIDS_SET8] = "set8",
};

const char *btfids_kind_str(enum btfids_kind kind)
{
	return kind_names[kind];
}

int btfids_kind_btf(enum btfids_kind kind)
{
	static const int btf_kinds[] = {
		[BTFIDS_FUNC] = BTF_KIND_FUNC,
		[BTFIDS_STRUCT] = BTF_KIND_STRUCT,
		[BTFIDS_UNION] = BTF_KIND_UNION,
		[BTFIDS_TYPEDEF] = BTF_KIND_TYPEDEF,
	};

	return btf_kinds[kind];
}

/* "set8__" must be tested before "set__" only for clarity: both end in "__" */
static int parse_kind(const char *s, enum btfids_kind *kind, const char **rest)
{
	static const enum btfids_kind order[] = {
		BTFIDS_SET8, BTFIDS_SET, BTFIDS_FUNC, BTFIDS_STRUCT,
		BTFIDS_UNION, BTFIDS_TYPEDEF,
	};
	size_t i;

	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		const char *k = kind_names[order[i]];
		size_t n = strlen(k);

		if (!strncmp(s, k, n) && s[n] == '_' && s[n + 1] == '_') {
			*kind = order[i];
			*rest = s + n + 2;
			return 0;
		}
	}
	return -EINVAL;
}

/*
 * "<name>__<uniq>": the name runs up to the last "__"; uniq has no '_'.
 * Both must be non-empty.
 */
static char *parse_type_name(const char *rest)
{
	const char *last = strrchr(rest, '_');

	if (!last || last - rest < 2 || last[-1] != '_' || !last[1])
		return NULL;
	return strndup(rest, last - 1 - rest);
}

/* What a slot asks for, until build_targets() merges equal names. */
struct name_ref {
	enum btfids_kind kind;
	char *name;		/* owned until it becomes a target's name */
	size_t slot;		/* index into slots[] */
};

struct collect {
	const struct btfids_elf *e;
	struct btfids_syms *s;
	struct btfids_report *r;
	struct name_ref *refs;	/* one per slot */
	size_t cap_slots, cap_sets, cap_refs;
};

static int grow(void **arr, size_t *cap, size_t need, size_t elem)
{
	void *p;
	size_t n;

	if (need <= *cap)
		return 0;
	n = *cap ? *cap * 2 : 64;
	p = reallocarray(*arr, n, elem);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = n;
	return 0;
}

static int check_place(struct collect *c, const char *sym, uint64_t value,
		       uint64_t size, uint64_t *off)
{
	const struct btfids_elf *e = c->e;

	if (!btfids_elf_ids_offset(e, value, off) || *off > e->ids.size ||
	    size > e->ids.size - *off) {
		btfids_err(c->r, e->path, "symbol %s (value %#llx, %llu bytes) lies outside .BTF_ids (address %#llx, %llu bytes)",
			   sym, (unsigned long long)value, (unsigned long long)size,
			   (unsigned long long)e->ids.addr,
			   (unsigned long long)e->ids.size);
		return -EINVAL;
	}
	if (*off % 4) {
		btfids_err(c->r, e->path, "symbol %s at .BTF_ids offset %#llx is not 4-byte aligned",
			   sym, (unsigned long long)*off);
		return -EINVAL;
	}
	return 0;
}

static int add_slot(struct collect *c, const char *sym, enum btfids_kind kind,
		    const char *rest, const GElf_Sym *st, size_t symidx)
{
	struct btfids_syms *s = c->s;
	uint64_t off;
	char *name;
	int err;

	name = parse_type_name(rest);
	if (!name) {
		btfids_err(c->r, c->e->path, "malformed symbol name %s: expected __BTF_ID__%s__<name>__<unique suffix>",
			   sym, kind_names[kind]);
		return -EINVAL;
	}
	err = check_place(c, sym, st->st_value, 4, &off);
	if (!err)
		err = grow((void **)&s->slots, &c->cap_slots, s->nr_slots + 1,
			   sizeof(*s->slots));
	if (!err)
		err = grow((void **)&c->refs, &c->cap_refs, s->nr_slots + 1,
			   sizeof(*c->refs));
	if (err) {
		free(name);
		return err;
	}
	c->refs[s->nr_slots] = (struct name_ref){ kind, name, s->nr_slots };
	s->slots[s->nr_slots] = (struct btfids_slot){ .off = off, .sym = sym, .symidx = symidx };
	s->nr_slots++;
	s->nr_kind_slots[kind]++;
	return 0;
}

static int add_set(struct collect *c, const char *sym, enum btfids_kind kind,
		   const char *name, const GElf_Sym *st, size_t symidx)
{
	uint64_t hdr = kind == BTFIDS_SET8 ? 8 : 4;
	uint64_t ent = kind == BTFIDS_SET8 ? 8 : 4;
	struct btfids_syms *s = c->s;
	struct btfids_set *set;
	uint64_t off;
	int err;

	if (!*name) {
		btfids_err(c->r, c->e->path, "malformed symbol name %s: the set has no name", sym);
		return -EINVAL;
	}
	if (st->st_size < hdr || (st->st_size - hdr) % ent) {
		btfids_err(c->r, c->e->path, "%s %s has size %llu, not %llu + %llu * count (missing or misplaced BTF_%s_END?)",
			   kind_names[kind], name, (unsigned long long)st->st_size,
			   (unsigned long long)hdr, (unsigned long long)ent,
			   kind == BTFIDS_SET8 ? "SET8" : "SET");
		return -EINVAL;
	}
	if ((st->st_size - hdr) / ent > UINT32_MAX) {
		btfids_err(c->r, c->e->path, "%s %s has %llu entries, more than a u32 count holds",
			   kind_names[kind], name,
			   (unsigned long long)((st->st_size - hdr) / ent));
		return -EINVAL;
	}
	err = check_place(c, sym, st->st_value, st->st_size, &off);
	if (!err)
		err = grow((void **)&s->sets, &c->cap_sets, s->nr_sets + 1,
			   sizeof(*s->sets));
	if (err)
		return err;
	set = &s->sets[s->nr_sets++];
	set->kind = kind;
	set->name = name;
	set->off = off;
	set->size = st->st_size;
	set->cnt = (st->st_size - hdr) / ent;
	set->symidx = symidx;
	return 0;
}

/* Symbol @symidx, named @sym, defined in .BTF_ids */
static int add_symbol(struct collect *c, const char *sym, const GElf_Sym *st, size_t symidx)
{
	const char *rest;
	enum btfids_kind kind;

	if (parse_kind(sym + strlen(BTF_ID_PREFIX), &kind, &rest)) {
		btfids_err(c->r, c->e->path, "unsupported prefix %s in symbol %s (expected func, struct, union, typedef, set or set8)",
			   sym + strlen(BTF_ID_PREFIX), sym);
		return -EINVAL;
	}
	if (kind == BTFIDS_SET || kind == BTFIDS_SET8)
		return add_set(c, sym, kind, rest, st, symidx);
	return add_slot(c, sym, kind, rest, st, symidx);
}

static int scan_symbols(struct collect *c)
{
	const struct btfids_elf *e = c->e;
	size_t i;
	int err;

	for (i = btfids_elf_next_sym_in(e, 0, e->ids.index); i < e->nr_syms;
	     i = btfids_elf_next_sym_in(e, i + 1, e->ids.index)) {
		const char *name;
		size_t shndx;
		GElf_Sym st;

		err = btfids_elf_sym(e, i, &st, &shndx, &name);
		if (err == -ENOENT) {
			btfids_err(c->r, e->path, "symbol %zu uses SHN_XINDEX but there is no SHT_SYMTAB_SHNDX section", i);
			return -EINVAL;
		}
		if (err && shndx == e->ids.index) {
			btfids_err(c->r, e->path, "symbol %zu in .BTF_ids has no valid name", i);
			return -EINVAL;
		}
		if (err || shndx != e->ids.index ||
		    strncmp(name, BTF_ID_PREFIX, strlen(BTF_ID_PREFIX)))
			continue;
		err = add_symbol(c, name, &st, i);
		if (err)
			return err;
	}
	return 0;
}

static int cmp_name_ref(const void *pa, const void *pb)
{
	const struct name_ref *a = pa, *b = pb;

	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* Merge slots asking for the same (kind, name) into one target each. */
static int build_targets(struct collect *c)
{
	struct btfids_syms *s = c->s;
	struct btfids_target *t = NULL;
	size_t i;

	if (!s->nr_slots)
		return 0;
	s->targets = calloc(s->nr_slots, sizeof(*s->targets));
	if (!s->targets)
		return -ENOMEM;
	qsort(c->refs, s->nr_slots, sizeof(*c->refs), cmp_name_ref);
	for (i = 0; i < s->nr_slots; i++) {
		struct name_ref *ref = &c->refs[i];

		if (!t || t->kind != ref->kind || strcmp(t->name, ref->name)) {
			t = &s->targets[s->nr_targets++];
			t->kind = ref->kind;
			t->name = ref->name;	/* the target owns it now */
			ref->name = NULL;
		}
		t->nr_slots++;
		s->slots[ref->slot].target = t - s->targets;
	}
	return 0;
}

uint32_t btfids_name_hash(enum btfids_kind kind, const char *name)
{
	const uint64_t mul = 0x9e3779b97f4a7c15ull;	/* 2^64 / golden ratio */
	size_t len = strlen(name), i;
	uint64_t h = (len << 8 | kind) * mul, w;

	for (; len >= 8; len -= 8, name += 8) {
		memcpy(&w, name, 8);
		h = (h ^ w) * mul;
		h ^= h >> 29;
	}
	for (w = 0, i = 0; i < len; i++)
		w |= (uint64_t)(unsigned char)name[i] << (8 * i);
	h = (h ^ w) * mul;
	return h >> 32 ^ h;
}

/*
 * btfids_lookup() asks for every FUNC/STRUCT/UNION/TYPEDEF name of BTF
 * (~60,000 in a vmlinux) and nearly all are misses: most are told apart by
 * their first two bytes before any hashing.
 */
static int build_hash(struct btfids_syms *s)
{
	size_t n = 16, i;

	s->prefix = calloc(65536 / 64, sizeof(*s->prefix));
	if (!s->prefix)
		return -ENOMEM;
	for (i = 0; i < s->nr_targets; i++) {
		unsigned int p = btfids_name_prefix(s->targets[i].name);

		s->prefix[p / 64] |= 1ull << (p % 64);
	}

	while (n < 4 * s->nr_targets)
		n *= 2;
	s->hash = calloc(n, sizeof(*s->hash));
	if (!s->hash)
		return -ENOMEM;
	s->hash_mask = n - 1;
	for (i = 0; i < s->nr_targets; i++) {
		uint32_t hash = btfids_name_hash(s->targets[i].kind, s->targets[i].name);
		size_t h = hash & s->hash_mask;

		while (s->hash[h].target)
			h = (h + 1) & s->hash_mask;
		s->hash[h] = (struct btfids_hash_slot){ hash, i + 1 };
	}
	return 0;
}

static int cmp_set_name(const void *pa, const void *pb)
{
	const struct btfids_set *a = *(const void *const *)pa, *b = *(const void *const *)pb;

	return strcmp(a->name, b->name);
}

/*
 * Pointers to the @n elements (@size bytes each) of @base, sorted by @cmp
 * (which gets pointers to two of these const void *); NULL when out of
 * memory.
 */
static const void **sorted_ptrs(const void *base, size_t n, size_t size,
				int (*cmp)(const void *, const void *))
{
	const void **v = calloc(n, sizeof(*v));
	size_t i;

	if (!v)
		return NULL;
	for (i = 0; i < n; i++)
		v[i] = (const char *)base + i * size;
	qsort(v, n, sizeof(*v), cmp);
	return v;
}

/* Set names are taken whole and must be unique in the object. */
static int check_set_names(struct collect *c)
{
	struct btfids_syms *s = c->s;
	const void **v;
	int err = 0;
	size_t i;

	if (s->nr_sets < 2)
		return 0;
	v = sorted_ptrs(s->sets, s->nr_sets, sizeof(*s->sets), cmp_set_name);
	if (!v)
		return -ENOMEM;
	for (i = 1; i < s->nr_sets && !err; i++) {
		const struct btfids_set *a = v[i - 1], *b = v[i];

		if (strcmp(a->name, b->name))
			continue;
		btfids_err(c->r, c->e->path, "set name %s is defined twice (%s at %#llx, %s at %#llx)",
			   b->name, kind_names[a->kind], (unsigned long long)a->off,
			   kind_names[b->kind], (unsigned long long)b->off);
		err = -EINVAL;
	}
	free(v);
	return err;
}

static int cmp_set_off(const void *pa, const void *pb)
{
	const struct btfids_set *a = *(const void *const *)pa, *b = *(const void *const *)pb;

	return a->off < b->off ? -1 : a->off > b->off;
}

/*
 * Sets must not overlap: the kernel tool re-reads a set's count after
 * sorting the others, so nested sets give it undefined results. No kernel
 * macro nests them; refuse rather than guess.
 */
static int check_set_overlap(struct collect *c)
{
	struct btfids_syms *s = c->s;
	const void **v;
	int err = 0;
	size_t i;

	if (s->nr_sets < 2)
		return 0;
	v = sorted_ptrs(s->sets, s->nr_sets, sizeof(*s->sets), cmp_set_off);
	if (!v)
		return -ENOMEM;
	for (i = 1; i < s->nr_sets && !err; i++) {
		const struct btfids_set *a = v[i - 1], *b = v[i];

		if (a->off + a->size <= b->off)
			continue;
		btfids_err(c->r, c->e->path, "%s %s (at %#llx, %llu bytes) overlaps %s %s (at %#llx)",
			   kind_names[a->kind], a->name, (unsigned long long)a->off,
			   (unsigned long long)a->size, kind_names[b->kind], b->name,
			   (unsigned long long)b->off);
		err = -EINVAL;
	}
	free(v);
	return err;
}

static int cmp_slot_off(const void *pa, const void *pb)
{
	const struct btfids_slot *a = *(const void *const *)pa, *b = *(const void *const *)pb;

	if (a->off != b->off)
		return a->off < b->off ? -1 : 1;
	return a < b ? -1 : a > b;	/* symbol table order: a stable message */
}

/*
 * Every BTF_ID() has 4 bytes of its own (include/linux/btf_ids.h: a label,
 * then .zero 4). Two slot symbols on the same bytes would leave the result
 * to the order of the writes (the kernel tool: structs, unions, typedefs,
 * then funcs, the last one wins); refuse rather than pick one.
 */
static int check_slot_overlap(struct collect *c)
{
	struct btfids_syms *s = c->s;
	const void **v;
	int err = 0;
	size_t i;

	if (s->nr_slots < 2)
		return 0;
	v = sorted_ptrs(s->slots, s->nr_slots, sizeof(*s->slots), cmp_slot_off);
	if (!v)
		return -ENOMEM;
	for (i = 1; i < s->nr_slots && !err; i++) {
		const struct btfids_slot *a = v[i - 1], *b = v[i];

		if (a->off != b->off)
			continue;
		btfids_err(c->r, c->e->path, "symbols %s and %s name the same 4 bytes at .BTF_ids+%#llx",
			   a->sym, b->sym, (unsigned long long)b->off);
		err = -EINVAL;
	}
	free(v);
	return err;
}

int btfids_syms_collect(const struct btfids_elf *e, struct btfids_syms *s,
			struct btfids_report *r)
{
	struct collect c = { .e = e, .s = s, .r = r };
	size_t i;
	int err = 0;

	memset(s, 0, sizeof(*s));
	if (!e->ids.index || !e->symtab_index)
		return 0;
	err = scan_symbols(&c);
	if (!err)
		err = check_set_names(&c);
	if (!err)
		err = check_set_overlap(&c);
	if (!err)
		err = check_slot_overlap(&c);
	if (!err)
		err = build_targets(&c);
	if (!err)
		err = build_hash(s);
	for (i = 0; c.refs && i < s->nr_slots; i++)
		free(c.refs[i].name);
	free(c.refs);
	if (err)
		btfids_syms_free(s);
	if (err == -ENOMEM)
		btfids_err(r, e->path, "out of memory");
	return err;
}

void btfids_syms_free(struct btfids_syms *s)
{
	size_t i;

	for (i = 0; i < s->nr_targets; i++) {
		free(s->targets[i].name);
		free(s->targets[i].ids);
	}
	free(s->targets);
	free(s->hash);
	free(s->prefix);
	free(s->slots);
	free(s->sets);
	memset(s, 0, sizeof(*s));
}

struct btfids_target *btfids_syms_find(const struct btfids_syms *s,
				       enum btfids_kind kind, const char *name)
{
	uint32_t hash;
	size_t h;

	if (!s->hash || !btfids_syms_may_have(s, name))
		return NULL;
	hash = btfids_name_hash(kind, name);
	for (h = hash & s->hash_mask; s->hash[h].target; h = (h + 1) & s->hash_mask) {
		struct btfids_target *t = &s->targets[s->hash[h].target - 1];

		if (s->hash[h].hash == hash && t->kind == kind && !strcmp(t->name, name))
			return t;
	}
	return NULL;
}
