// SPDX-License-Identifier: GPL-2.0
/*
 * verify.c - the kernel's checks of the BTF it loads (kernel/bpf/btf.c of
 * Linux 7.3), rule by rule, each with the function it comes from and the
 * kernel's words for it; see verify.h.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/btf.h>

#include "btf_uapi.h"

#include "btfids/patch.h"
#include "btfids/verify.h"

/* The first header, 24 bytes, up to str_len: less and libbpf reads none */
#define HDR_MIN		(offsetof(struct btf_header, str_len) + sizeof(__u32))
/* The header the 7.3 kernel knows, 32 bytes (layout_off, layout_len) */
#define HDR_KNOWN	sizeof(struct btf_header)

enum { SEC_TYPES, SEC_STRS, SEC_LAYOUT, NR_SECS };

struct sec {
	const char *name;
	uint64_t off, len;	/* from the end of the header, bytes */
};

/* A header read in the target's byte order. */
struct hdr {
	const struct btfids_btf_bytes *b;
	const unsigned char *p;
	uint64_t hdr_len;
	uint64_t data;		/* bytes after the header */
	struct sec sec[NR_SECS];
	int nr_secs;		/* SEC_LAYOUT counts only in a header that has one */
};

static int refuse(char *why, size_t len, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* "<name> <what is wrong>" into @why; always -EINVAL */
static int refuse(char *why, size_t len, const char *name, const char *fmt, ...)
{
	size_t n = (size_t)snprintf(why, len, "%s ", name);
	va_list ap;

	va_start(ap, fmt);
	if (n < len)
		vsnprintf(why + n, len - n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static uint32_t field(const struct hdr *h, size_t off, bool be)
{
	return btfids_get32(h->p + off, be);
}

/*
 * btf_parse_hdr(): "hdr_len not found", "btf_header not found". The magic
 * comes first here: it says the byte order. libbpf needs 24 bytes, and each
 * section inside the data (its btf_parse_hdr()).
 */
static int read_hdr(const struct btfids_btf_bytes *b, struct hdr *h, char *why, size_t len)
{
	const unsigned char *p = b->data;
	bool be = b->size >= 2 && p[0] == 0xeb && p[1] == 0x9f;
	uint64_t types, strs;

	*h = (struct hdr){ .b = b, .p = p };
	if (b->size < HDR_MIN || (!be && !(p[0] == 0x9f && p[1] == 0xeb)))
		return refuse(why, len, b->name, "is not BTF: no 0xeb9f magic and %u-byte header in its %llu bytes",
			      (unsigned int)HDR_MIN, (unsigned long long)b->size);
	h->hdr_len = field(h, offsetof(struct btf_header, hdr_len), be);
	h->sec[SEC_TYPES] = (struct sec){ "type", field(h, offsetof(struct btf_header, type_off), be),
					  field(h, offsetof(struct btf_header, type_len), be) };
	h->sec[SEC_STRS] = (struct sec){ "string", field(h, offsetof(struct btf_header, str_off), be),
					 field(h, offsetof(struct btf_header, str_len), be) };
	types = h->sec[SEC_TYPES].off + h->sec[SEC_TYPES].len;
	strs = h->sec[SEC_STRS].off + h->sec[SEC_STRS].len;
	if (h->hdr_len < HDR_MIN || h->hdr_len > b->size ||
	    types > b->size - h->hdr_len || strs > b->size - h->hdr_len)
		return refuse(why, len, b->name, "header's lengths run past the %s (header %llu, types end at %llu, strings end at %llu, %s %llu bytes)",
			      b->section ? "section" : "file",
			      (unsigned long long)h->hdr_len, (unsigned long long)types,
			      (unsigned long long)strs, b->section ? "section" : "file",
			      (unsigned long long)b->size);
	h->data = b->size - h->hdr_len;
	h->nr_secs = SEC_LAYOUT;
	if (h->hdr_len >= HDR_KNOWN) {
		h->sec[SEC_LAYOUT] = (struct sec){ "layout",
			field(h, offsetof(struct btf_header, layout_off), be),
			field(h, offsetof(struct btf_header, layout_len), be) };
		/* btf_check_sec_info(): no layout_len, no layout section */
		h->nr_secs += !!h->sec[SEC_LAYOUT].len;
	}
	return 0;
}

/* btf_parse_hdr(): the header's own fields */
static int check_fields(const struct hdr *h, char *why, size_t len)
{
	const char *name = h->b->name;
	uint64_t i;

	/* "Unsupported btf_header": what is past the known header must be 0 */
	for (i = HDR_KNOWN; i < h->hdr_len; i++)
		if (h->p[i])
			return refuse(why, len, name, "header is %llu bytes, and byte %llu, past the %zu of the header the kernel knows, is not 0 (kernel: Unsupported btf_header)",
				      (unsigned long long)h->hdr_len, (unsigned long long)i,
				      HDR_KNOWN);
	if (h->p[offsetof(struct btf_header, version)] != BTF_VERSION)
		return refuse(why, len, name, "header version is %u, not %u (kernel: Unsupported version)",
			      h->p[offsetof(struct btf_header, version)], BTF_VERSION);
	if (h->p[offsetof(struct btf_header, flags)])
		return refuse(why, len, name, "header flags are 0x%02x, not 0 (kernel: Unsupported flags)",
			      h->p[offsetof(struct btf_header, flags)]);
	if (!h->b->split && !h->data)
		return refuse(why, len, name, "has a header and nothing after it (kernel: No data)");
	return 0;
}

static int cmp_sec(const void *a, const void *b)
{
	const struct sec *x = a, *y = b;

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return x->len < y->len ? -1 : x->len > y->len;
}

/* Bytes from @total to the end: an ELF section's zero padding to 4 (verify.h)? */
static bool padding(const struct hdr *h, uint64_t total)
{
	const unsigned char *p = h->p + h->hdr_len;

	if (!h->b->section || h->data - total >= sizeof(__u32))
		return false;
	for (; total < h->data; total++)
		if (p[total])
			return false;
	return true;
}

/*
 * btf_check_sec_info(): the sections, in the order of their offsets, lie
 * back to back from the end of the header to the end of the data.
 */
static int check_sec_info(const struct hdr *h, char *why, size_t len)
{
	struct sec s[NR_SECS];
	const char *name = h->b->name;
	uint64_t total = 0;
	int i;

	memcpy(s, h->sec, sizeof(s));
	qsort(s, h->nr_secs, sizeof(*s), cmp_sec);
	for (i = 0; i < h->nr_secs; i++) {
		if (s[i].off > h->data)
			return refuse(why, len, name, "%s section starts at %llu, past the %llu bytes after the header (kernel: Invalid section offset)",
				      s[i].name, (unsigned long long)s[i].off,
				      (unsigned long long)h->data);
		if (total < s[i].off)
			return refuse(why, len, name, "has %llu bytes that are in no section before its %s section at %llu (kernel: Unsupported section found)",
				      (unsigned long long)(s[i].off - total), s[i].name,
				      (unsigned long long)s[i].off);
		if (total > s[i].off)
			return refuse(why, len, name, "%s section at %llu overlaps the %s section, which ends at %llu (kernel: Section overlap found)",
				      s[i].name, (unsigned long long)s[i].off, s[i - 1].name,
				      (unsigned long long)total);
		if (h->data - total < s[i].len)
			return refuse(why, len, name, "%s section (%llu bytes at %llu) runs past the %llu bytes after the header (kernel: Total section length too long)",
				      s[i].name, (unsigned long long)s[i].len,
				      (unsigned long long)s[i].off, (unsigned long long)h->data);
		total += s[i].len;
	}
	if (total != h->data && !padding(h, total))
		return refuse(why, len, name, "has %llu bytes after its last section (kernel: Unsupported section found)",
			      (unsigned long long)(h->data - total));
	return 0;
}

/* btf_parse_str_sec() */
static int check_str_sec(const struct hdr *h, char *why, size_t len)
{
	const struct sec *s = &h->sec[SEC_STRS];
	const unsigned char *strs = h->p + h->hdr_len + s->off;
	const char *name = h->b->name;

	if (h->hdr_len < HDR_KNOWN && s->off + s->len != h->data &&
	    !padding(h, s->off + s->len))
		return refuse(why, len, name, "string section does not end the data, as it must after a %llu-byte header (kernel: String section is not at the end)",
			      (unsigned long long)h->hdr_len);
	if (h->b->split && !s->len)	/* a split BTF may add no string */
		return 0;
	if (!s->len)
		return refuse(why, len, name, "string section is empty (kernel: Invalid string section)");
	if (s->len - 1 > BTF_MAX_NAME_OFFSET)
		return refuse(why, len, name, "string section is %llu bytes, more than names can point into (%u) (kernel: Invalid string section)",
			      (unsigned long long)s->len, BTF_MAX_NAME_OFFSET + 1);
	if (strs[s->len - 1])
		return refuse(why, len, name, "string section does not end with a NUL (kernel: Invalid string section)");
	if (!h->b->split && strs[0])
		return refuse(why, len, name, "string section does not start with the empty string (kernel: Invalid string section)");
	return 0;
}

/* btf_parse_layout_sec() (BPF_BTF_LOAD; libbpf 1.8 needs the same) */
static int check_layout_sec(const struct hdr *h, char *why, size_t len)
{
	const struct sec *s = &h->sec[SEC_LAYOUT];

	if (h->nr_secs <= SEC_LAYOUT)
		return 0;
	if (s->off % sizeof(__u32))
		return refuse(why, len, h->b->name, "layout section offset %llu is not a multiple of 4 (kernel: Unaligned layout_off)",
			      (unsigned long long)s->off);
	if (s->len % sizeof(struct btf_layout))
		return refuse(why, len, h->b->name, "layout section is %llu bytes, not a multiple of %zu (kernel: layout_len is not multiple of %zu)",
			      (unsigned long long)s->len, sizeof(struct btf_layout),
			      sizeof(struct btf_layout));
	return 0;
}

/* btf_parse_type_sec() (BPF_BTF_LOAD; libbpf needs the alignment too) */
static int check_type_sec(const struct hdr *h, char *why, size_t len)
{
	const struct sec *s = &h->sec[SEC_TYPES];

	if (s->off % sizeof(__u32))
		return refuse(why, len, h->b->name, "type section offset %llu is not a multiple of 4 (kernel: Unaligned type_off)",
			      (unsigned long long)s->off);
	if (!h->b->split && !s->len)
		return refuse(why, len, h->b->name, "has no types (kernel: No type found)");
	return 0;
}

int btfids_btf_verify_header(const struct btfids_btf_bytes *b, char *why, size_t len)
{
	struct hdr h;
	int err;

	err = read_hdr(b, &h, why, len);
	if (!err)
		err = check_fields(&h, why, len);
	if (!err)
		err = check_sec_info(&h, why, len);
	if (!err)
		err = check_str_sec(&h, why, len);
	if (!err)
		err = check_layout_sec(&h, why, len);
	if (!err)
		err = check_type_sec(&h, why, len);
	return err;
}

/* kernel btf_type_is_modifier(): TYPEDEF counts, as do type tags */
static bool is_modifier(const struct btf_type *t)
{
	return btf_is_mod(t) || btf_is_typedef(t);
}

/* "BTF type [ID] NAME" for the messages; IDs as in the file read */
static int refuse_type(char *why, size_t len, const struct btf *btf, __u32 id,
		       const char *what)
{
	const char *name = btf__name_by_offset(btf, btf__type_by_id(btf, id)->name_off);

	snprintf(why, len, "BTF type [%u] %s %s", id, name && *name ? name : "(anonymous)", what);
	return -EINVAL;
}

/*
 * btf_func_proto_check(): a FUNC_PROTO's return type is a type of the BTF
 * ("Invalid return type"). libbpf's btf_sanity_check() checks every other
 * type ID a type refers to, but not this one, and btf__dedup() and
 * btf__permute() index their maps with it (a fuzzer finding:
 * tests/fuzz/regress/flow7/ret-type-out-of-range).
 */
static int check_ret_type(const struct btf *btf, __u32 id, const struct btf_type *t,
			  char *why, size_t len)
{
	char what[96];

	if (!btf_is_func_proto(t) || t->type < btf__type_cnt(btf))
		return 0;
	snprintf(what, sizeof(what), "returns type [%u], which is not in the BTF (kernel: Invalid return type)",
		 t->type);
	return refuse_type(why, len, btf, id, what);
}

/*
 * btf_check_meta(): kinds 1 to BTF_KIND_MAX (libbpf 1.8 reads others a
 * layout section describes; the 7.3 kernel refuses them); the return type
 * of a FUNC_PROTO (check_ret_type()). And
 * btf_check_modifier_chain_length(): from each modifier, at most 32 more
 * until a type checked before it (a lower ID) or a non-modifier.
 */
static int check_metas(const struct btf *btf, __u32 start, char *why, size_t len)
{
	__u32 n = btf__type_cnt(btf), id, cur, good = start - 1;
	int limit;

	for (id = start; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		if (btf_kind(t) == BTF_KIND_UNKN || btf_kind(t) > BTF_KIND_MAX) {
			char what[96];

			snprintf(what, sizeof(what), "is of kind %u, which the kernel does not know (kernel: Invalid kind:%u)",
				 btf_kind(t), btf_kind(t));
			return refuse_type(why, len, btf, id, what);
		}
		if (check_ret_type(btf, id, t, why, len))
			return -EINVAL;
		for (cur = id, limit = 32; t && is_modifier(t);) {
			if (!limit--)
				return refuse_type(why, len, btf, id, "starts a chain of more than 32 modifiers, or a loop of them (kernel: Max chain length or cycle detected)");
			if (cur <= good)
				break;
			cur = t->type;
			t = btf__type_by_id(btf, cur);
		}
		good = id;
	}
	return 0;
}

/*
 * What the kernel resolves a type through by value (btf_resolve() in
 * RESOLVE_STRUCT_OR_ARRAY): the members of a STRUCT/UNION, the element and
 * index of an ARRAY, the type of a modifier, VAR or DECL_TAG, the VARs of
 * a DATASEC; a pointer ends such a walk. The type @t refers to in its
 * @i-th edge: false past the last one.
 */
static bool edge(const struct btf_type *t, __u32 i, __u32 *to)
{
	switch (btf_kind(t)) {
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		if (i >= btf_vlen(t))
			return false;
		*to = btf_members(t)[i].type;
		return true;
	case BTF_KIND_ARRAY:
		*to = i ? btf_array(t)->index_type : btf_array(t)->type;
		return i < 2;
	case BTF_KIND_DATASEC:
		if (i >= btf_vlen(t))
			return false;
		*to = btf_var_secinfos(t)[i].type;
		return true;
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		*to = t->type;
		return i == 0;
	default:
		*to = t->type;
		return i == 0 && is_modifier(t);
	}
}

struct frame {
	const struct btf_type *t;
	__u32 id, next;		/* its ID, the index of its next edge */
};

enum { WHITE, GREY, BLACK };

/*
 * btf_resolve()'s "Loop detected" by value: a walk (see edge()) that comes
 * back to a type it has not finished. Depth first, each type once; the
 * types without edges are done before the walks start, in one sequential
 * read of the types. *loop is the first type found on a loop.
 */
static bool find_value_loop(const struct btf *btf, __u32 start, unsigned char *state,
			    struct frame *stack, __u32 *loop)
{
	__u32 n = btf__type_cnt(btf), id, sp, to;

	for (id = start; id < n; id++)
		state[id - start] = edge(btf__type_by_id(btf, id), 0, &to) ? WHITE : BLACK;
	for (id = start; id < n; id++) {
		if (state[id - start] != WHITE)
			continue;
		state[id - start] = GREY;
		stack[0] = (struct frame){ btf__type_by_id(btf, id), id, 0 };
		for (sp = 1; sp;) {
			struct frame *f = &stack[sp - 1];

			if (!edge(f->t, f->next++, &to)) {
				state[f->id - start] = BLACK;
				sp--;
			} else if (to < start || to >= n || state[to - start] == BLACK) {
				continue;
			} else if (state[to - start] == GREY) {
				*loop = to;
				return true;
			} else {
				state[to - start] = GREY;
				stack[sp++] = (struct frame){ btf__type_by_id(btf, to), to, 0 };
			}
		}
	}
	return false;
}

/*
 * btf_resolve()'s "Loop detected" from a pointer (RESOLVE_PTR): the walk
 * goes on through pointers and modifiers, which refer to one type each, so
 * it is a chain; it loops when it comes back to a type of its own.
 * walk[]: the walk (its first ID + 1) that reached each type, 0: none.
 */
static bool find_ptr_loop(const struct btf *btf, __u32 start, __u32 *walk, __u32 *loop)
{
	__u32 n = btf__type_cnt(btf), id, cur;
	const struct btf_type *t;

	memset(walk, 0, (n - start) * sizeof(*walk));
	for (id = start; id < n; id++) {
		for (cur = id; cur >= start && cur < n && !walk[cur - start]; cur = t->type) {
			t = btf__type_by_id(btf, cur);
			if (!btf_is_ptr(t) && !is_modifier(t))
				break;
			walk[cur - start] = id + 1;
		}
		if (cur >= start && cur < n && walk[cur - start] == id + 1) {
			*loop = cur;
			return true;
		}
	}
	return false;
}

/* btf_check_all_types() -> btf_resolve(), both walks */
static int check_loops(const struct btf *btf, __u32 start, char *why, size_t len)
{
	__u32 n = btf__type_cnt(btf) - start, loop;
	unsigned char *state = malloc(n ? n : 1);
	struct frame *stack = calloc(n ? n : 1, sizeof(*stack));
	__u32 *walk = calloc(n ? n : 1, sizeof(*walk));
	int err = state && stack && walk ? 0 : -ENOMEM;

	if (!err && find_value_loop(btf, start, state, stack, &loop))
		err = refuse_type(why, len, btf, loop, "contains itself by value (kernel: Loop detected)");
	else if (!err && find_ptr_loop(btf, start, walk, &loop))
		err = refuse_type(why, len, btf, loop, "is a chain of pointers and modifiers that leads back to itself (kernel: Loop detected)");
	free(state);
	free(stack);
	free(walk);
	return err;
}

int btfids_btf_verify_types(const struct btf *btf, char *why, size_t len)
{
	const struct btf *base = btf__base_btf(btf);
	__u32 start = base ? btf__type_cnt(base) : 1;
	int err;

	err = check_metas(btf, start, why, len);
	if (!err)
		err = check_loops(btf, start, why, len);
	return err;
}
