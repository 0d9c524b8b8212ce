// SPDX-License-Identifier: GPL-2.0
/*
 * kfunc.c - the 7.x flow's kfunc rewrite of BTF (decl tags, arena
 * attributes, implicit args); the rules are in include/btfids/kfunc.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "btfids/fmodel.h"
#include "btfids/kfunc.h"
#include "btfids/patch.h"

#define TAG_KFUNC	"bpf_kfunc"
#define TAG_FASTCALL	"bpf_fastcall"
#define ATTR_ARENA	"address_space(1)"
#define IMPL_SUFFIX	"_impl"
#define KSYM_NAME_LEN	512	/* include/linux/kallsyms.h */

struct kfunc {
	const char *name;
	__u32 id;		/* its FUNC */
	__u32 flags;		/* KF_* */
};

struct kfunc_ctx {
	struct btf *btf;
	const struct btfids_elf *e;
	const struct btfids_syms *s;
	enum btfids_flow flow;
	struct btfids_report *r;
	const unsigned char *ids;	/* .BTF_ids as in the file (target order) */
	bool big_endian;
	const struct btfids_set **sets;	/* by name, as the kernel tool walks them */
	const struct btfids_slot **slots;	/* by offset */
	__u32 *tags;			/* DECL_TAG IDs: those of the input, then added ones */
	size_t nr_tags;
	struct kfunc *kfuncs;
	size_t nr_kfuncs;
	__u32 *impls;			/* own FUNCs named *_impl: the input's, then added ones */
	size_t nr_impls;
	bool impls_ready;
};

static __u32 word(const struct kfunc_ctx *c, uint64_t off)
{
	return btfids_get32(c->ids + off, c->big_endian);
}

static const char *name_of(const struct btf *btf, const struct btf_type *t)
{
	const char *n = btf__name_by_offset(btf, t->name_off);

	return n ? n : "";
}

/* The kernel tool keeps sets in an rbtree it walks in descending name order. */
static int cmp_set_name(const void *a, const void *b)
{
	return strcmp((*(const struct btfids_set *const *)b)->name,
		      (*(const struct btfids_set *const *)a)->name);
}

static int cmp_slot_off(const void *a, const void *b)
{
	const struct btfids_slot *x = *(const struct btfids_slot *const *)a;
	const struct btfids_slot *y = *(const struct btfids_slot *const *)b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/* Sets by name (descending) and slots by offset, as the kernel tool looks. */
static int index_syms(struct kfunc_ctx *c)
{
	size_t i;

	c->sets = calloc(c->s->nr_sets + 1, sizeof(*c->sets));
	c->slots = calloc(c->s->nr_slots + 1, sizeof(*c->slots));
	if (!c->sets || !c->slots)
		return -ENOMEM;
	for (i = 0; i < c->s->nr_sets; i++)
		c->sets[i] = &c->s->sets[i];
	for (i = 0; i < c->s->nr_slots; i++)
		c->slots[i] = &c->s->slots[i];
	qsort(c->sets, c->s->nr_sets, sizeof(*c->sets), cmp_set_name);
	qsort(c->slots, c->s->nr_slots, sizeof(*c->slots), cmp_slot_off);
	return 0;
}

/* The name a slot at @off asks for, or NULL when no slot is there. */
static const char *name_at(const struct kfunc_ctx *c, uint64_t off)
{
	size_t lo = 0, hi = c->s->nr_slots;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->slots[mid]->off == off)
			return c->s->targets[c->slots[mid]->target].name;
		if (c->slots[mid]->off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/*
 * Room in *@arr (@nr entries of @size bytes) for one more: the array
 * doubles when @nr is 0, 1, 3, 7, ... Returns 0 or -ENOMEM.
 */
static int grow(void *arr, size_t nr, size_t size)
{
	void *p;

	if (nr & (nr + 1))
		return 0;
	p = reallocarray(*(void **)arr, 2 * nr + 2, size);
	if (!p)
		return -ENOMEM;
	*(void **)arr = p;
	return 0;
}

static int push_u32(__u32 **arr, size_t *nr, __u32 v)
{
	int err = grow(arr, *nr, sizeof(**arr));

	if (!err)
		(*arr)[(*nr)++] = v;
	return err;
}

static int push_tag(struct kfunc_ctx *c, __u32 id)
{
	return push_u32(&c->tags, &c->nr_tags, id);
}

/* Every DECL_TAG of the BTF, base included, in ID order. */
static int collect_tags(struct kfunc_ctx *c)
{
	__u32 id, n = btf__type_cnt(c->btf);
	int err;

	for (id = 1; id < n; id++) {
		if (!btf_is_decl_tag(btf__type_by_id(c->btf, id)))
			continue;
		err = push_tag(c, id);
		if (err)
			return err;
	}
	return 0;
}

static int push_kfunc(struct kfunc_ctx *c, const struct kfunc *k)
{
	int err = grow(&c->kfuncs, c->nr_kfuncs, sizeof(*c->kfuncs));

	if (!err)
		c->kfuncs[c->nr_kfuncs++] = *k;
	return err;
}

/*
 * 7.2: the flags of a kfunc are the word after its slot in the first set8
 * (by set name) that holds one of its slots: past the 8-byte header, up to
 * and including the last pair.
 */
static __u32 flags_72_all(const struct kfunc_ctx *c, size_t target)
{
	size_t i, j;

	for (i = 0; i < c->s->nr_sets; i++) {
		const struct btfids_set *set = c->sets[i];

		if (set->kind != BTFIDS_SET8)
			continue;
		for (j = 0; j < c->s->nr_slots; j++) {
			uint64_t off = c->s->slots[j].off;

			if (c->s->slots[j].target == target && off > set->off &&
			    off <= set->off + 8ull * set->cnt)
				return word(c, off + 4);
		}
	}
	return 0;
}

/*
 * The same, with the target's own slots picked out once (in slot order)
 * instead of walking every slot for every set8: a name has a few slots.
 */
static __u32 flags_72(const struct kfunc_ctx *c, size_t target)
{
	uint64_t offs[16];
	size_t i, j, n = 0;

	for (j = 0; j < c->s->nr_slots; j++) {
		if (c->s->slots[j].target != target)
			continue;
		if (n == sizeof(offs) / sizeof(offs[0]))
			return flags_72_all(c, target);
		offs[n++] = c->s->slots[j].off;
	}
	for (i = 0; i < c->s->nr_sets && n; i++) {
		const struct btfids_set *set = c->sets[i];

		if (set->kind != BTFIDS_SET8)
			continue;
		for (j = 0; j < n; j++)
			if (offs[j] > set->off && offs[j] <= set->off + 8ull * set->cnt)
				return word(c, offs[j] + 4);
	}
	return 0;
}

/* 7.0-7.2: FUNCs with a "bpf_kfunc" decl tag that a func slot names. */
static int collect_72(struct kfunc_ctx *c)
{
	const struct btf_type *t, *f;
	const struct btfids_target *tg;
	size_t i, n = c->nr_tags;
	struct kfunc k;
	int err;

	for (i = 0; i < n; i++) {
		t = btf__type_by_id(c->btf, c->tags[i]);
		if (btf_kflag(t) || btf_decl_tag(t)->component_idx != -1 ||
		    strcmp(name_of(c->btf, t), TAG_KFUNC))
			continue;
		f = btf__type_by_id(c->btf, t->type);
		if (!f || !btf_is_func(f))
			continue;
		tg = btfids_syms_find(c->s, BTFIDS_FUNC, name_of(c->btf, f));
		if (!tg)
			continue;
		k = (struct kfunc){ tg->name, t->type, flags_72(c, tg - c->s->targets) };
		err = push_kfunc(c, &k);
		if (err)
			return err;
	}
	return 0;
}

/* 7.3: one kfunc per BTF ID; the same kfunc twice must have the same flags */
static int add_kfunc_73(struct kfunc_ctx *c, const struct kfunc *k)
{
	size_t i;

	for (i = 0; i < c->nr_kfuncs; i++) {
		if (c->kfuncs[i].id != k->id)
			continue;
		if (c->kfuncs[i].flags == k->flags)
			return 0;
		btfids_err(c->r, c->e->path, "kfunc %s has inconsistent flags across BTF ID sets: 0x%x != 0x%x",
			   k->name, c->kfuncs[i].flags, k->flags);
		return -EINVAL;
	}
	return push_kfunc(c, k);
}

static int cmp_kfunc_id(const void *a, const void *b)
{
	const struct kfunc *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* 7.3: the pairs of BTF_SET8_KFUNCS sets, in set-name order */
static int collect_73(struct kfunc_ctx *c)
{
	size_t i;
	__u32 j;
	int err;

	for (i = 0; i < c->s->nr_sets; i++) {
		const struct btfids_set *set = c->sets[i];

		if (set->kind != BTFIDS_SET8 || !(word(c, set->off + 4) & BTFIDS_SET8_KFUNCS))
			continue;
		for (j = 0; j < set->cnt; j++) {
			uint64_t off = set->off + 8 + 8ull * j;
			const char *name = name_at(c, off);
			struct kfunc k;
			__s32 id;

			if (!name) {
				btfids_warn(c->r, "resolve_btfids: no BTF ID symbol for %s entry %u",
					    set->name, j);
				continue;
			}
			id = btf__find_by_name_kind_own(c->btf, name, BTF_KIND_FUNC);
			if (id < 0) {
				btfids_warn(c->r, "resolve_btfids: no BTF func for kfunc %s in %s",
					    name, set->name);
				continue;
			}
			k = (struct kfunc){ name, id, word(c, off + 4) };
			err = add_kfunc_73(c, &k);
			if (err)
				return err;
		}
	}
	if (c->nr_kfuncs)	/* qsort() takes no NULL array, even empty */
		qsort(c->kfuncs, c->nr_kfuncs, sizeof(*c->kfuncs), cmp_kfunc_id);
	return 0;
}

static int btf_fail(struct kfunc_ctx *c, int err, const char *what, const char *name)
{
	btfids_err(c->r, c->e->path, "kfunc %s: cannot add %s to BTF: %s", name, what,
		   strerror(err < 0 ? -err : EINVAL));
	return err < 0 ? err : -EINVAL;
}

/* A decl tag on @target: (name, component) already there, or added now. */
static int add_tag(struct kfunc_ctx *c, const struct kfunc *k, const char *name, int idx)
{
	const struct btf_type *t;
	size_t i;
	int id;

	for (i = 0; i < c->nr_tags; i++) {
		t = btf__type_by_id(c->btf, c->tags[i]);
		if (t->type == k->id && !btf_kflag(t) &&
		    btf_decl_tag(t)->component_idx == idx && !strcmp(name_of(c->btf, t), name))
			return 0;
	}
	id = btf__add_decl_tag(c->btf, name, k->id, idx);
	if (id < 0)
		return btf_fail(c, id, "a decl tag", k->name);
	return push_tag(c, id);
}

static const struct btf_type *skip_mods(const struct btf *btf, __u32 id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	while (t && btf_is_mod(t))
		t = btf__type_by_id(btf, t->type);
	return t;
}

/* An implicit arg: a pointer to struct bpf_prog_aux or btf_struct_meta. */
static bool is_implicit_arg(const struct btf *btf, const struct btf_param *p)
{
	const struct btf_type *t = skip_mods(btf, p->type);
	const char *name;

	if (!t || !btf_is_ptr(t))
		return false;
	t = skip_mods(btf, t->type);
	if (!t || !btf_is_struct(t))
		return false;
	name = name_of(btf, t);
	return !strcmp(name, "bpf_prog_aux") || !strcmp(name, "btf_struct_meta");
}

/*
 * What a previous run left (a final BTF): the kfunc's @proto has no
 * implicit arg and is the start of <name>_impl's (@impl_id), ret, param
 * types and names alike, the _impl having more params (its implicit ones;
 * a legacy _impl declared in the source may say "void *meta__ign"). Only
 * then is the proto not shortened again.
 */
static bool rewritten(const struct btf *btf, const struct btf_type *proto, __u32 impl_id)
{
	const struct btf_type *impl = btf__type_by_id(btf, impl_id), *orig;
	const struct btf_param *a = btf_params(proto), *b;
	int i, n = btf_vlen(proto);

	orig = impl && btf_is_func(impl) ? btf__type_by_id(btf, impl->type) : NULL;
	if (!orig || !btf_is_func_proto(orig) || (int)btf_vlen(orig) <= n ||
	    orig->type != proto->type)
		return false;
	b = btf_params(orig);
	for (i = 0; i < n; i++)
		if (is_implicit_arg(btf, &a[i]) || a[i].type != b[i].type ||
		    strcmp(btf__name_by_offset(btf, a[i].name_off) ?: "",
			   btf__name_by_offset(btf, b[i].name_off) ?: ""))
			return false;
	return true;
}

static int push_impl(struct kfunc_ctx *c, __u32 id)
{
	return push_u32(&c->impls, &c->nr_impls, id);
}

/*
 * The object's own FUNC named @impl (*found, 0: none): what
 * btf__find_by_name_kind_own() says, without its walk over every type per
 * kfunc (on pahole's BTF, not sorted yet, libbpf cannot search by name).
 * The own FUNCs named *_impl are picked out once; add_impl() adds its own.
 */
static int own_impl(struct kfunc_ctx *c, const char *impl, __u32 *found)
{
	const size_t suffix = strlen(IMPL_SUFFIX);
	const struct btf *base = btf__base_btf(c->btf);
	__u32 id, n = btf__type_cnt(c->btf);
	const struct btf_type *t;
	const char *name;
	size_t i, len;
	int err;

	for (id = base ? btf__type_cnt(base) : 1; !c->impls_ready && id < n; id++) {
		t = btf__type_by_id(c->btf, id);
		if (!btf_is_func(t))
			continue;
		name = name_of(c->btf, t);
		len = strlen(name);
		if (len >= suffix && !strcmp(name + len - suffix, IMPL_SUFFIX)) {
			err = push_impl(c, id);
			if (err)
				return err;
		}
	}
	c->impls_ready = true;
	*found = 0;
	for (i = 0; i < c->nr_impls && !*found; i++)
		if (!strcmp(name_of(c->btf, btf__type_by_id(c->btf, c->impls[i])), impl))
			*found = c->impls[i];
	return 0;
}

/* FUNC <name>_impl: the original proto, linkage and decl tags (not bpf_kfunc) */
static int add_impl(struct kfunc_ctx *c, const struct kfunc *k, const char *impl,
		    int linkage, __u32 proto_id)
{
	const struct btf_type *t;
	const char *name;
	int func, err;
	size_t i;

	func = btf__add_func(c->btf, impl, linkage, proto_id);
	if (func < 0)
		return btf_fail(c, func, "its _impl FUNC", k->name);
	if (c->impls_ready && push_impl(c, func))
		return btf_fail(c, -ENOMEM, "its _impl FUNC", k->name);
	for (i = 0; i < c->nr_tags; i++) {
		t = btf__type_by_id(c->btf, c->tags[i]);
		name = name_of(c->btf, t);
		if (t->type != k->id || !strcmp(name, TAG_KFUNC))
			continue;
		if (btf_kflag(t))
			err = btf__add_decl_attr(c->btf, name, func, btf_decl_tag(t)->component_idx);
		else
			err = btf__add_decl_tag(c->btf, name, func, btf_decl_tag(t)->component_idx);
		if (err < 0)
			return btf_fail(c, err, "a decl tag of its _impl FUNC", k->name);
	}
	return 0;
}

/* A FUNC_PROTO like @proto_id's, up to its first implicit arg. */
static int shortened_proto(struct kfunc_ctx *c, const struct kfunc *k, __u32 proto_id)
{
	const struct btf_type *proto = btf__type_by_id(c->btf, proto_id);
	int id, i, n = btf_vlen(proto), err;

	id = btf__add_func_proto(c->btf, proto->type);
	if (id < 0)
		return btf_fail(c, id, "a FUNC_PROTO", k->name);
	for (i = 0; i < n; i++) {
		/* each add may move the types: look the proto up again */
		const struct btf_param *p = &btf_params(btf__type_by_id(c->btf, proto_id))[i];

		if (is_implicit_arg(c->btf, p))
			break;
		err = btf__add_func_param(c->btf, btf__name_by_offset(c->btf, p->name_off) ?: "",
					  p->type);
		if (err < 0)
			return btf_fail(c, err, "a FUNC_PROTO param", k->name);
	}
	return id;
}

static int rewrite_implicit(struct kfunc_ctx *c, const struct kfunc *k)
{
	const struct btf_type *t = btf__type_by_id(c->btf, k->id);
	char impl[KSYM_NAME_LEN];
	const struct btf *base;
	__u32 proto_id;
	int linkage, id;
	__s32 impl_id;

	if (!t || !btf_is_func(t)) {
		btfids_err(c->r, c->e->path, "kfunc %s: BTF ID %u is not a FUNC", k->name, k->id);
		return -EINVAL;
	}
	linkage = btf_vlen(t);
	proto_id = t->type;
	t = btf__type_by_id(c->btf, proto_id);
	if (!t || !btf_is_func_proto(t)) {
		btfids_err(c->r, c->e->path, "kfunc %s: BTF ID %u is not a FUNC_PROTO", k->name, proto_id);
		return -EINVAL;
	}
	if ((size_t)snprintf(impl, sizeof(impl), "%s%s", k->name, IMPL_SUFFIX) >= sizeof(impl)) {
		btfids_err(c->r, c->e->path, "kfunc %s: name too long for %s", k->name, IMPL_SUFFIX);
		return -E2BIG;
	}
	/*
	 * 7.2 looks in the base too (btf__find_by_name_kind()); 7.3 in the
	 * object's own BTF only (btf__find_by_name_kind_own())
	 */
	base = btf__base_btf(c->btf);
	impl_id = c->flow == BTFIDS_FLOW_72 && base ?
		  btf__find_by_name_kind(base, impl, BTF_KIND_FUNC) : -1;
	if (impl_id <= 0) {
		__u32 own;
		int err = own_impl(c, impl, &own);

		if (err)
			return btf_fail(c, err, "its _impl FUNC", k->name);
		impl_id = own;
	}
	if (impl_id > 0 && rewritten(c->btf, t, impl_id))
		return 0;	/* a final BTF: this run's result is there already */
	if (impl_id <= 0) {
		id = add_impl(c, k, impl, linkage, proto_id);
		if (id < 0)
			return id;
	}
	id = shortened_proto(c, k, proto_id);
	if (id < 0)
		return id;
	((struct btf_type *)btf__type_by_id(c->btf, k->id))->type = id;
	return 0;
}

/* A pointer that points at the arena attribute already (a final BTF). */
static bool arena_tagged(const struct btf *btf, __u32 id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	if (!t || !btf_is_ptr(t))
		return false;
	t = btf__type_by_id(btf, t->type);
	return t && btf_is_type_tag(t) && btf_kflag(t) && !strcmp(name_of(btf, t), ATTR_ARENA);
}

static bool is_arena_param(const struct btf *btf, const struct btf_param *p)
{
	const char *name = btf__name_by_offset(btf, p->name_off);
	size_t n = name ? strlen(name) : 0;

	return (n >= 7 && !strcmp(name + n - 7, "__arena")) ||
	       (n >= 17 && !strcmp(name + n - 17, "__arena__nullable"));
}

static bool needs_arena(const struct btf *btf, const struct kfunc *k,
			const struct btf_param *p, int i)
{
	bool arena = is_arena_param(btf, p) ||
		     (i == 0 && (k->flags & BTFIDS_KF_ARENA_ARG1)) ||
		     (i == 1 && (k->flags & BTFIDS_KF_ARENA_ARG2));

	return arena && !arena_tagged(btf, p->type);
}

/* PTR -> type attr "address_space(1)" -> what @ptr_id points at */
static int arena_ptr(struct kfunc_ctx *c, const struct kfunc *k, __u32 ptr_id)
{
	const struct btf_type *ptr = btf__type_by_id(c->btf, ptr_id);
	int attr, id;

	if (!ptr || !btf_is_ptr(ptr)) {
		btfids_err(c->r, c->e->path, "kfunc %s: arena type is not a pointer", k->name);
		return -EINVAL;
	}
	attr = btf__add_type_attr(c->btf, ATTR_ARENA, ptr->type);
	if (attr < 0)
		return btf_fail(c, attr, "a type attr", k->name);
	id = btf__add_ptr(c->btf, attr);
	return id < 0 ? btf_fail(c, id, "a pointer", k->name) : id;
}

/* A copy of the proto with its arena pointers tagged; the original may be shared. */
static int rewrite_arena(struct kfunc_ctx *c, const struct kfunc *k)
{
	__u32 proto_id = btf__type_by_id(c->btf, k->id)->type;
	const struct btf_type *proto = btf__type_by_id(c->btf, proto_id);
	int i, n = btf_vlen(proto), ret = proto->type, id, err;
	bool ret_arena = (k->flags & BTFIDS_KF_ARENA_RET) && !arena_tagged(c->btf, ret);
	bool arg_arena = false;

	for (i = 0; i < n && !arg_arena; i++)
		arg_arena = needs_arena(c->btf, k, &btf_params(proto)[i], i);
	if (!ret_arena && !arg_arena)
		return 0;
	if (ret_arena) {
		ret = arena_ptr(c, k, ret);
		if (ret < 0)
			return ret;
	}
	id = btf__add_func_proto(c->btf, ret);
	if (id < 0)
		return btf_fail(c, id, "a FUNC_PROTO", k->name);
	for (i = 0; i < n; i++) {
		const struct btf_param *p = &btf_params(btf__type_by_id(c->btf, proto_id))[i];
		const char *name = btf__name_by_offset(c->btf, p->name_off);

		err = btf__add_func_param(c->btf, name ? name : "", p->type);
		if (err < 0)
			return btf_fail(c, err, "a FUNC_PROTO param", k->name);
	}
	for (i = 0; i < n; i++) {
		struct btf_param *p = &btf_params(btf__type_by_id(c->btf, id))[i];
		int ptr;

		if (!needs_arena(c->btf, k, p, i))
			continue;
		ptr = arena_ptr(c, k, p->type);
		if (ptr < 0)
			return ptr;
		btf_params(btf__type_by_id(c->btf, id))[i].type = ptr;
	}
	((struct btf_type *)btf__type_by_id(c->btf, k->id))->type = id;
	return 0;
}

static int rewrite_one(struct kfunc_ctx *c, const struct kfunc *k)
{
	int err = 0;

	if (c->flow == BTFIDS_FLOW_73) {
		err = add_tag(c, k, TAG_KFUNC, -1);
		if (!err && (k->flags & BTFIDS_KF_FASTCALL))
			err = add_tag(c, k, TAG_FASTCALL, -1);
	}
	if (!err && (k->flags & BTFIDS_KF_IMPLICIT_ARGS))
		err = rewrite_implicit(c, k);
	if (!err && c->flow == BTFIDS_FLOW_73)
		err = rewrite_arena(c, k);
	return err;
}

int btfids_kfuncs_rewrite(struct btf *btf, const struct btfids_elf *e,
			  const struct btfids_syms *s, const unsigned char *ids,
			  enum btfids_flow flow, struct btfids_report *r)
{
	struct kfunc_ctx c = {
		.btf = btf, .e = e, .s = s, .flow = flow, .r = r,
		.ids = ids, .big_endian = btfids_elf_big_endian(e),
	};
	__u32 before = btf__type_cnt(btf);
	size_t i;
	int err;

	err = index_syms(&c);
	if (!err)
		err = collect_tags(&c);
	if (!err && c.ids)	/* no .BTF_ids: no sets, no kfuncs */
		err = flow == BTFIDS_FLOW_72 ? collect_72(&c) : collect_73(&c);
	if (err == -ENOMEM)
		btfids_err(r, e->path, "out of memory");
	for (i = 0; !err && i < c.nr_kfuncs; i++) {
		btfids_dbg(r, 2, "%s: kfunc %s, BTF ID %u, flags 0x%x\n", e->path,
			   c.kfuncs[i].name, c.kfuncs[i].id, c.kfuncs[i].flags);
		err = rewrite_one(&c, &c.kfuncs[i]);
	}
	free(c.kfuncs);
	free(c.impls);
	free(c.tags);
	free(c.slots);
	free(c.sets);
	return err ? err : (int)(btf__type_cnt(btf) - before);
}

struct kf_name {
	const char *name;
	unsigned int since, until;	/* BTFIDS_KERNEL(); until 0: still defined */
};

/* include/linux/btf.h, bit by bit (kfunc.h) */
static const struct kf_name kf_names[] = {
	{ "KF_ACQUIRE", BTFIDS_KERNEL(6, 0), 0 },
	{ "KF_RELEASE", BTFIDS_KERNEL(6, 0), 0 },
	{ "KF_RET_NULL", BTFIDS_KERNEL(6, 0), 0 },
	{ "KF_KPTR_GET", BTFIDS_KERNEL(6, 0), BTFIDS_KERNEL(6, 3) },
	{ "KF_TRUSTED_ARGS", BTFIDS_KERNEL(6, 0), BTFIDS_KERNEL(6, 19) },
	{ "KF_SLEEPABLE", BTFIDS_KERNEL(6, 1), 0 },
	{ "KF_DESTRUCTIVE", BTFIDS_KERNEL(6, 0), 0 },
	{ "KF_RCU", BTFIDS_KERNEL(6, 2), 0 },
	{ "KF_ITER_NEW", BTFIDS_KERNEL(6, 4), 0 },
	{ "KF_ITER_NEXT", BTFIDS_KERNEL(6, 4), 0 },
	{ "KF_ITER_DESTROY", BTFIDS_KERNEL(6, 4), 0 },
	{ "KF_RCU_PROTECTED", BTFIDS_KERNEL(6, 7), 0 },
	{ "KF_FASTCALL", BTFIDS_KERNEL(6, 13), 0 },
	{ "KF_ARENA_RET", BTFIDS_KERNEL(7, 0), 0 },
	{ "KF_ARENA_ARG1", BTFIDS_KERNEL(7, 0), 0 },
	{ "KF_ARENA_ARG2", BTFIDS_KERNEL(7, 0), 0 },
	{ "KF_IMPLICIT_ARGS", BTFIDS_KERNEL(7, 0), 0 },
	{ "KF_SPINLOCK_SAFE", BTFIDS_KERNEL(7, 3), 0 },
	{ "KF_PERFMON", BTFIDS_KERNEL(7, 3), 0 },
};

char *btfids_kf_names(uint32_t flags, unsigned int kernel, char *buf, size_t len)
{
	uint32_t rest = flags;
	size_t i, n = 0;

	buf[0] = 0;
	for (i = 0; i < sizeof(kf_names) / sizeof(kf_names[0]) && len; i++) {
		const struct kf_name *k = &kf_names[i];

		if (!(flags & 1u << i) || (kernel && (kernel < k->since ||
						      (k->until && kernel > k->until))))
			continue;
		n += snprintf(buf + n, n < len ? len - n : 0, "%s%s", n ? "|" : "", k->name);
		rest &= ~(1u << i);
	}
	if (rest || !flags)
		snprintf(buf + n, n < len ? len - n : 0, "%s%#x", n ? "|" : "", rest);
	return buf;
}
