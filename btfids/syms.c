// SPDX-License-Identifier: GPL-2.0
/*
 * syms.c - collect the __BTF_ID__ symbols of .BTF_ids into slots, sets and
 * targets, and refuse anything the kernel's macros cannot have produced.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/btf.h>

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

struct collect {
	const struct btfids_elf *e;
	struct btfids_syms *s;
	struct btfids_report *r;
	char **slot_names;	/* parallel to s->slots until targets are built */
	size_t cap_slots, cap_sets;
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
		    const char *rest, const GElf_Sym *st)
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
	if (!err) {
		size_t cap = c->cap_slots;
		char **p = reallocarray(c->slot_names, cap, sizeof(*p));

		err = p ? 0 : -ENOMEM;
		if (p)
			c->slot_names = p;
	}
	if (err) {
		free(name);
		return err;
	}
	c->slot_names[s->nr_slots] = name;
	s->slots[s->nr_slots].off = off;
	s->slots[s->nr_slots].target = kind;	/* kind until targets are built */
	s->slots[s->nr_slots].sym = sym;
	s->nr_slots++;
	s->nr_kind_slots[kind]++;
	return 0;
}

static int add_set(struct collect *c, const char *sym, enum btfids_kind kind,
		   const char *name, const GElf_Sym *st)
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
	return 0;
}

static int add_symbol(struct collect *c, const char *sym, const GElf_Sym *st)
{
	const char *rest;
	enum btfids_kind kind;

	if (parse_kind(sym + strlen(BTF_ID_PREFIX), &kind, &rest)) {
		btfids_err(c->r, c->e->path, "unsupported prefix %s in symbol %s (expected func, struct, union, typedef, set or set8)",
			   sym + strlen(BTF_ID_PREFIX), sym);
		return -EINVAL;
	}
	if (kind == BTFIDS_SET || kind == BTFIDS_SET8)
		return add_set(c, sym, kind, rest, st);
	return add_slot(c, sym, kind, rest, st);
}

static int scan_symbols(struct collect *c)
{
	const struct btfids_elf *e = c->e;
	size_t i;
	int err;

	for (i = 0; i < e->nr_syms; i++) {
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
		err = add_symbol(c, name, &st);
		if (err)
			return err;
	}
	return 0;
}

struct name_ref {
	enum btfids_kind kind;
	const char *name;
	size_t slot;
};

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
	struct name_ref *refs;
	size_t i;

	if (!s->nr_slots)
		return 0;
	refs = calloc(s->nr_slots, sizeof(*refs));
	s->targets = calloc(s->nr_slots, sizeof(*s->targets));
	if (!refs || !s->targets) {
		free(refs);
		return -ENOMEM;
	}
	for (i = 0; i < s->nr_slots; i++)
		refs[i] = (struct name_ref){ s->slots[i].target, c->slot_names[i], i };
	qsort(refs, s->nr_slots, sizeof(*refs), cmp_name_ref);
	for (i = 0; i < s->nr_slots; i++) {
		struct btfids_target *t = &s->targets[s->nr_targets];

		if (i && !cmp_name_ref(&refs[i - 1], &refs[i])) {
			t--;
		} else {
			t->kind = refs[i].kind;
			t->name = c->slot_names[refs[i].slot];
			c->slot_names[refs[i].slot] = NULL;
			s->nr_targets++;
		}
		t->nr_slots++;
		s->slots[refs[i].slot].target = t - s->targets;
	}
	free(refs);
	return 0;
}

static int cmp_set_name(const void *pa, const void *pb)
{
	const struct btfids_set *a = *(const struct btfids_set *const *)pa;
	const struct btfids_set *b = *(const struct btfids_set *const *)pb;

	return strcmp(a->name, b->name);
}

/* Set names are taken whole and must be unique in the object. */
static int check_set_names(struct collect *c)
{
	struct btfids_syms *s = c->s;
	const struct btfids_set **v;
	int err = 0;
	size_t i;

	if (s->nr_sets < 2)
		return 0;
	v = calloc(s->nr_sets, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < s->nr_sets; i++)
		v[i] = &s->sets[i];
	qsort(v, s->nr_sets, sizeof(*v), cmp_set_name);
	for (i = 1; i < s->nr_sets && !err; i++) {
		if (strcmp(v[i - 1]->name, v[i]->name))
			continue;
		btfids_err(c->r, c->e->path, "set name %s is defined twice (%s at %#llx, %s at %#llx)",
			   v[i]->name, kind_names[v[i - 1]->kind],
			   (unsigned long long)v[i - 1]->off,
			   kind_names[v[i]->kind], (unsigned long long)v[i]->off);
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
		err = build_targets(&c);
	for (i = 0; c.slot_names && i < s->nr_slots; i++)
		free(c.slot_names[i]);
	free(c.slot_names);
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
	free(s->slots);
	free(s->sets);
	memset(s, 0, sizeof(*s));
}

struct btfids_target *btfids_syms_find(const struct btfids_syms *s,
				       enum btfids_kind kind, const char *name)
{
	size_t lo = 0, hi = s->nr_targets;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct btfids_target *t = &s->targets[mid];
		int cmp = t->kind != kind ? (t->kind < kind ? -1 : 1) :
			  strcmp(t->name, name);

		if (!cmp)
			return (struct btfids_target *)t;
		if (cmp < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}
