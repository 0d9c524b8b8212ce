// SPDX-License-Identifier: GPL-2.0
/*
 * tramp2.c - the v2 and v3 trampoline table: every BTF FUNC of vmlinux with the
 * index of its func model class (format: include/btfids/tramp.h, "btf_tramp
 * format"). Built in the 7.x flow from the final BTF (resolve.c writes it
 * as <elf>.BTF_tramp), read back by `models` and `dump`.
 *
 * The models are the ones v1 tables and `models --all` store
 * (fmodel.h btfids_tramp_model()); a class is the struct btf_tramp_class
 * btfids_tramp_put_class() makes of one (tramp_class.h, which also prints
 * it), deduplicated through an open-addressing hash table, so a
 * vmlinux of ~60,000 FUNCs costs one model and one probe per FUNC.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "btfids/lookup.h"
#include "btfids/patch.h"
#include "btfids/tramp2.h"
#include "btfids/tramp_class.h"

/* Distinct classes, in order of first use, and a hash index over them. */
struct class_set {
	unsigned char *rec;	/* nr * BTF_TRAMP_CLASS_SIZE bytes */
	uint32_t nr, cap;
	uint32_t *slot;		/* class index + 1; 0: empty */
	uint32_t mask;		/* slots - 1, a power of two minus one */
};

/* The 56 bytes as seven 64-bit words, multiplied in (a speed that matters: one per FUNC) */
static uint32_t class_hash(const unsigned char *p)
{
	uint64_t h = 0, w;
	int i;

	for (i = 0; i < BTF_TRAMP_CLASS_SIZE; i += 8) {
		memcpy(&w, p + i, sizeof(w));
		h = (h ^ w) * 0x9e3779b97f4a7c15ull;
		h ^= h >> 29;
	}
	return h ^ h >> 32;
}

/* Twice the slots, every class hashed again: the load stays under 1/2. */
static int class_set_grow(struct class_set *cs)
{
	uint32_t n = cs->mask ? (cs->mask + 1) * 2 : 1024, i, h;
	uint32_t *slot = calloc(n, sizeof(*slot));

	if (!slot)
		return -ENOMEM;
	for (i = 0; i < cs->nr; i++) {
		for (h = class_hash(cs->rec + (size_t)i * BTF_TRAMP_CLASS_SIZE) & (n - 1);
		     slot[h]; h = (h + 1) & (n - 1))
			;
		slot[h] = i + 1;
	}
	free(cs->slot);
	cs->slot = slot;
	cs->mask = n - 1;
	return 0;
}

/* The index of class @p, added when new; a negative errno on failure. */
static long class_set_add(struct class_set *cs, const unsigned char *p)
{
	uint32_t h;
	unsigned char *rec;

	if ((cs->nr + 1) * 2 > cs->mask + 1 && class_set_grow(cs))
		return -ENOMEM;
	for (h = class_hash(p) & cs->mask; cs->slot[h]; h = (h + 1) & cs->mask)
		if (!memcmp(cs->rec + (size_t)(cs->slot[h] - 1) * BTF_TRAMP_CLASS_SIZE, p,
			    BTF_TRAMP_CLASS_SIZE))
			return cs->slot[h] - 1;
	if (cs->nr == cs->cap) {
		uint32_t cap = cs->cap ? cs->cap * 2 : 256;

		rec = reallocarray(cs->rec, cap, BTF_TRAMP_CLASS_SIZE);
		if (!rec)
			return -ENOMEM;
		cs->rec = rec;
		cs->cap = cap;
	}
	memcpy(cs->rec + (size_t)cs->nr * BTF_TRAMP_CLASS_SIZE, p, BTF_TRAMP_CLASS_SIZE);
	cs->slot[h] = ++cs->nr;
	return cs->nr - 1;
}

static void class_set_free(struct class_set *cs)
{
	free(cs->rec);
	free(cs->slot);
}

/* Distinct verdicts, in order of first use: about a dozen in a vmlinux, so a list */
struct verdict_set {
	struct btf_tramp_verdict *rec;
	uint32_t nr, cap, last;
};

static long verdict_set_add(struct verdict_set *vs, const struct btf_tramp_verdict *v)
{
	struct btf_tramp_verdict *rec;
	uint32_t i;

	if (vs->nr && !memcmp(&vs->rec[vs->last], v, sizeof(*v)))
		return vs->last;
	for (i = 0; i < vs->nr; i++)
		if (!memcmp(&vs->rec[i], v, sizeof(*v)))
			return vs->last = i;
	if (vs->nr == BTF_TRAMP2_MAX_VERDICTS)
		return -E2BIG;
	if (vs->nr == vs->cap) {
		uint32_t cap = vs->cap ? vs->cap * 2 : 64;

		rec = reallocarray(vs->rec, cap, sizeof(*rec));
		if (!rec)
			return -ENOMEM;
		vs->rec = rec;
		vs->cap = cap;
	}
	vs->rec[vs->nr] = *v;
	return vs->last = vs->nr++;
}

/*
 * Header, classes, verdicts (version 3), func_id[], func_class[],
 * func_verdict[] (version 3) into t->buf (zeroed: padding).
 */
static void put_table(struct btfids_tramp2 *t, const struct class_set *cs,
		      const struct verdict_set *vs, const uint32_t *ids, const uint16_t *cls,
		      const uint16_t *ver, uint16_t machine, uint32_t crc, bool be)
{
	unsigned char *p = t->buf;
	uint32_t i, a;

	btfids_put32(p, BTF_TRAMP_MAGIC, be);
	btfids_put16(p + 4, t->version, be);
	btfids_put16(p + 6, machine, be);
	btfids_put32(p + 8, crc, be);
	btfids_put32(p + 12, t->nr_funcs, be);
	btfids_put32(p + 16, t->nr_classes, be);
	btfids_put16(p + 20, BTF_TRAMP_CLASS_SIZE, be);
	btfids_put16(p + 22, t->max_slots, be);
	btfids_put32(p + 24, t->size, be);
	btfids_put16(p + 28, t->nr_verdicts, be);
	btfids_put16(p + 30, ver ? BTF_TRAMP_VERDICT_SIZE : 0, be);
	p += BTF_TRAMP2_HDR_SIZE;
	memcpy(p, cs->rec, (size_t)cs->nr * BTF_TRAMP_CLASS_SIZE);
	p += (size_t)cs->nr * BTF_TRAMP_CLASS_SIZE;
	for (i = 0; ver && i < vs->nr; i++)
		for (a = 0; a < BTF_TRAMP_NR_ATTACH; a++, p += 4) {
			p[0] = vs->rec[i].at[a].refusal;
			p[1] = vs->rec[i].at[a].step;
			btfids_put16(p + 2, vs->rec[i].at[a].err, be);
		}
	for (i = 0; i < t->nr_funcs; i++, p += 4)
		btfids_put32(p, ids[i], be);
	for (i = 0; i < t->nr_funcs; i++, p += 2)
		btfids_put16(p, cls[i], be);
	for (i = 0; ver && i < t->nr_funcs; i++, p += 2)
		btfids_put16(p, ver[i], be);
}

/*
 * The verdicts of every function of @ids (classes @cls of @cs) into @vs and
 * @ver: each one's, then one id a call site for tracing_multi
 * (btfids_verdicts_one_site(): @ids is every FUNC).
 */
static int judge_funcs(const struct btf *btf, const struct btfids_attach_info *ai,
		       const struct class_set *cs, const uint32_t *ids, const uint16_t *cls,
		       struct btfids_tramp2 *t, struct verdict_set *vs, uint16_t *ver)
{
	struct btfids_verdict (*v)[BTFIDS_NR_ATTACH] = calloc(t->nr_funcs + 1, sizeof(*v));
	const char **names = calloc(t->nr_funcs + 1, sizeof(*names));
	struct btf_tramp_verdict rec;
	struct btfids_fmodel m;
	long k = -ENOMEM;
	uint32_t i;

	if (!v || !names)
		goto out;
	for (i = 0; i < t->nr_funcs; i++) {
		names[i] = btf__name_by_offset(btf, btf__type_by_id(btf, ids[i])->name_off);
		btfids_tramp_get_class((const struct btf_tramp_class *)cs->rec + cls[i], &m);
		btfids_verdicts(ai, names[i], ids[i], &m, v[i]);
	}
	k = btfids_verdicts_one_site(ai, ids, names, t->nr_funcs, v);
	for (i = 0; k >= 0 && i < t->nr_funcs; i++) {
		btfids_verdict_put(v[i], &rec);
		k = verdict_set_add(vs, &rec);
		if (k < 0)
			break;
		ver[i] = k;
	}
	t->nr_verdicts = vs->nr;
out:
	free(v);
	free(names);
	return k < 0 ? k : 0;
}

/*
 * The class of FUNC @id: a model depends on its FUNC_PROTO alone (types and
 * param names; a 7.3 implicit-args kfunc on <name>_impl's), so a proto seen
 * before gives its class at once (@by_proto: class + 1 per type ID; the
 * ~52,000 FUNCs of a Debian vmlinux have about half as many protos).
 */
static long func_class(const struct btf *btf, const struct btfids_tramp_rules *ru,
		       uint32_t id, uint32_t *by_proto, struct class_set *cs,
		       struct btfids_tramp2 *t)
{
	uint32_t aid = btfids_attach_func(btf, id, ru->implicit, ru->nr_implicit);
	uint32_t proto = btf__type_by_id(btf, aid)->type;
	struct btf_tramp_class rec;
	struct btfids_fmodel m;
	long k;

	if (proto < btf__type_cnt(btf) && by_proto[proto])
		return by_proto[proto] - 1;
	btfids_tramp_model(ru, btf, id, &m);
	btfids_tramp_put_class(&rec, &m);
	k = class_set_add(cs, (const unsigned char *)&rec);
	if (k < 0)
		return k;
	if (k >= BTF_TRAMP2_MAX_CLASSES)
		return -E2BIG;
	if (m.reason == BTF_TRAMP_OK && m.nr_slots > t->max_slots)
		t->max_slots = m.nr_slots;
	if (proto < btf__type_cnt(btf))
		by_proto[proto] = k + 1;
	return k;
}

/* Every FUNC's model into @cs: ids[i] and its class cls[i]. */
static int classify_funcs(const struct btf *btf, const struct btfids_tramp_rules *ru,
			  struct class_set *cs, uint32_t *ids, uint16_t *cls,
			  struct btfids_tramp2 *t)
{
	uint32_t id, n = btf__type_cnt(btf), *by_proto = calloc(n, sizeof(*by_proto));
	/* a module's split BTF: its own FUNCs (vmlinux's table has the base's) */
	const struct btf *base = btf__base_btf(btf);
	long k = 0;

	if (!by_proto)
		return -ENOMEM;
	for (id = base ? btf__type_cnt(base) : 1; id < n; id++) {
		if (!btf_is_func(btf__type_by_id(btf, id)))
			continue;
		k = func_class(btf, ru, id, by_proto, cs, t);
		if (k < 0)
			break;
		ids[t->nr_funcs] = id;
		cls[t->nr_funcs++] = k;
	}
	free(by_proto);
	t->nr_classes = cs->nr;
	return k < 0 ? k : 0;
}

int btfids_tramp2_build(const struct btf *btf, const struct btfids_tramp_rules *ru,
			const struct btfids_attach_info *ai, bool be, const char *path,
			struct btfids_tramp2 *t, struct btfids_report *r)
{
	uint32_t n = btf__type_cnt(btf), *ids = malloc((size_t)n * sizeof(*ids));
	uint16_t *cls = malloc((size_t)n * sizeof(*cls));
	uint16_t *ver = ai ? malloc((size_t)n * sizeof(*ver)) : NULL;
	struct class_set cs = {};
	struct verdict_set vs = {};
	const void *raw;
	uint32_t raw_size;
	int err = -ENOMEM;

	memset(t, 0, sizeof(*t));
	t->version = ai ? BTF_TRAMP3_VERSION : BTF_TRAMP2_VERSION;
	raw = btf__raw_data(btf, &raw_size);
	if (!ids || !cls || !raw || (ai && !ver))
		goto out;
	err = classify_funcs(btf, ru, &cs, ids, cls, t);
	if (!err && ai)
		err = judge_funcs(btf, ai, &cs, ids, cls, t, &vs, ver);
	if (err)
		goto out;
	t->size = BTF_TRAMP2_SIZE(t->version, (uint64_t)t->nr_classes, (uint64_t)t->nr_verdicts,
				  (uint64_t)t->nr_funcs);
	t->buf = calloc(1, t->size);
	if (!t->buf) {
		err = -ENOMEM;
		goto out;
	}
	put_table(t, &cs, &vs, ids, cls, ver, ru->a.machine, crc32(0, raw, raw_size), be);
out:
	if (err == -E2BIG)
		btfids_err(r, path, "trampoline table: more than %u distinct func models or verdicts",
			   BTF_TRAMP2_MAX_CLASSES);
	else if (err)
		btfids_err(r, path, "trampoline table: out of memory");
	class_set_free(&cs);
	free(vs.rec);
	free(ids);
	free(cls);
	free(ver);
	return err;
}

void btfids_tramp2_free(struct btfids_tramp2 *t)
{
	free(t->buf);
	t->buf = NULL;
}

bool btfids_tramp2_is(const unsigned char *p, size_t len, bool be)
{
	return len >= 8 && btfids_get32(p, be) == BTF_TRAMP_MAGIC &&
	       (btfids_get16(p + 4, be) == BTF_TRAMP2_VERSION ||
		btfids_get16(p + 4, be) == BTF_TRAMP3_VERSION);
}

bool btfids_tramp2_file_is(const char *path, int be)
{
	unsigned char h[8];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : pread(fd, h, sizeof(h), 0);

	if (fd >= 0)
		close(fd);
	if (n != (ssize_t)sizeof(h))
		return false;
	if (be >= 0)
		return btfids_tramp2_is(h, sizeof(h), be);
	return btfids_tramp2_is(h, sizeof(h), false) || btfids_tramp2_is(h, sizeof(h), true);
}

/*
 * The header's fields, and (when they add up) the verdicts' errnos,
 * func_id[], func_class[] and func_verdict[] to host order.
 */
static void to_host(unsigned char *h, const unsigned char *p, size_t len, bool be)
{
	struct btf_tramp2_hdr *hd = (struct btf_tramp2_hdr *)h;
	struct btf_tramp_verdict *v;
	uint32_t *id, i, a;
	uint16_t *cl, *fv;

	memcpy(h, p, len);
	if (len < BTF_TRAMP2_HDR_SIZE)
		return;
	hd->magic = btfids_get32(p, be);
	hd->version = btfids_get16(p + 4, be);
	hd->machine = btfids_get16(p + 6, be);
	hd->btf_crc32 = btfids_get32(p + 8, be);
	hd->nr_funcs = btfids_get32(p + 12, be);
	hd->nr_classes = btfids_get32(p + 16, be);
	hd->class_size = btfids_get16(p + 20, be);
	hd->max_slots = btfids_get16(p + 22, be);
	hd->size = btfids_get32(p + 24, be);
	hd->nr_verdicts = btfids_get16(p + 28, be);
	hd->verdict_size = btfids_get16(p + 30, be);
	if ((hd->version != BTF_TRAMP2_VERSION && hd->version != BTF_TRAMP3_VERSION) ||
	    hd->nr_classes > BTF_TRAMP2_MAX_CLASSES ||
	    BTF_TRAMP2_SIZE(hd->version, (uint64_t)hd->nr_classes, (uint64_t)hd->nr_verdicts,
			    (uint64_t)hd->nr_funcs) != len)
		return;
	v = (struct btf_tramp_verdict *)btf_tramp2_verdicts(hd);
	for (i = 0; i < hd->nr_verdicts; i++)
		for (a = 0; a < BTF_TRAMP_NR_ATTACH; a++)
			v[i].at[a].err = btfids_get16((unsigned char *)&v[i].at[a].err, be);
	id = (uint32_t *)btf_tramp2_func_ids(hd);
	cl = (uint16_t *)btf_tramp2_func_classes(hd);
	fv = (uint16_t *)btf_tramp2_func_verdicts(hd);
	for (i = 0; i < hd->nr_funcs; i++) {
		id[i] = btfids_get32((unsigned char *)&id[i], be);
		cl[i] = btfids_get16((unsigned char *)&cl[i], be);
		if (hd->version == BTF_TRAMP3_VERSION)
			fv[i] = btfids_get16((unsigned char *)&fv[i], be);
	}
}

/* What failed, with the numbers that say why. */
static void say_bad(const struct btf_tramp2_hdr *h, size_t size, int st, uint32_t where,
		    int machine, uint32_t crc, char *buf, size_t len)
{
	*buf = 0;
	if (st == BTF_TRAMP2_BAD_FUNC_ID || st == BTF_TRAMP2_BAD_FUNC_CLASS)
		snprintf(buf, len, " (function %u of %u)", where, h->nr_funcs);
	else if (st == BTF_TRAMP2_BAD_CLASS)
		snprintf(buf, len, " (class %u of %u)", where, h->nr_classes);
	else if (st == BTF_TRAMP2_BAD_FUNC_VERDICT)
		snprintf(buf, len, " (function %u of %u, %u verdicts)", where, h->nr_funcs,
			 h->nr_verdicts);
	else if (st == BTF_TRAMP2_BAD_VERDICT)
		snprintf(buf, len, " (verdict %u of %u)", where, h->nr_verdicts);
	else if (st == BTF_TRAMP2_BAD_VERDICT_SIZE)
		snprintf(buf, len, " (version %u, verdict size %u, %u verdicts)", h->version,
			 h->verdict_size, h->nr_verdicts);
	else if (st == BTF_TRAMP2_BAD_MACHINE)
		snprintf(buf, len, " (table %u, image %d)", h->machine, machine);
	else if (st == BTF_TRAMP2_BAD_CRC)
		snprintf(buf, len, " (table %#010x, .BTF %#010x)", h->btf_crc32, crc);
	else if (st == BTF_TRAMP2_BAD_SIZE || st == BTF_TRAMP2_BAD_LAYOUT)
		snprintf(buf, len, " (size field %u, %u classes, %u functions; %zu bytes)",
			 h->size, h->nr_classes, h->nr_funcs, size);
}

int btfids_tramp2_read(const unsigned char *p, size_t len, bool be, int machine,
		       uint32_t crc, const char *path, const char *what,
		       struct btfids_tramp2 *t, struct btfids_report *r)
{
	const struct btf_tramp2_hdr *h;
	char why[96];
	uint32_t where;
	int st;

	memset(t, 0, sizeof(*t));
	t->buf = malloc(len ? len : 1);
	if (!t->buf) {
		btfids_err(r, path, "out of memory");
		return -ENOMEM;
	}
	to_host(t->buf, p, len, be);
	h = (const struct btf_tramp2_hdr *)t->buf;
	if (machine < 0 && len >= BTF_TRAMP2_HDR_SIZE)
		machine = h->machine;
	st = btf_tramp2_check(t->buf, len, machine, crc, &where);
	if (st != BTF_TRAMP2_VALID) {
		say_bad(h, len, st, where, machine, crc, why, sizeof(why));
		btfids_err(r, path, "%s: trampoline table: %s%s", what,
			   btf_tramp2_status_str(st), why);
		btfids_tramp2_free(t);
		return -EINVAL;
	}
	t->size = len;
	t->version = h->version;
	t->nr_funcs = h->nr_funcs;
	t->nr_classes = h->nr_classes;
	t->nr_verdicts = h->nr_verdicts;
	t->max_slots = h->max_slots;
	return 0;
}

/* All of @path's bytes: *buf (malloc'd; the caller frees it), *size. */
static int read_file(const char *path, unsigned char **buf, size_t *size,
		     struct btfids_report *r)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 0, n;
	unsigned char *p;

	*buf = NULL;
	*size = 0;
	if (!f) {
		btfids_err(r, path, "cannot open: %s", strerror(errno));
		return -errno;
	}
	do {
		if (*size == cap) {
			cap = cap ? cap * 2 : 1 << 16;
			p = realloc(*buf, cap);
			if (!p) {
				btfids_err(r, path, "out of memory");
				free(*buf);
				*buf = NULL;
				fclose(f);
				return -ENOMEM;
			}
			*buf = p;
		}
		n = fread(*buf + *size, 1, cap - *size, f);
		*size += n;
	} while (n);
	if (ferror(f)) {
		btfids_err(r, path, "cannot read");
		free(*buf);
		*buf = NULL;
		fclose(f);
		return -EIO;
	}
	fclose(f);
	return 0;
}

/*
 * The crc32 of the .BTF bytes of @path (an ELF's .BTF section, or a raw
 * BTF file) and, for an ELF, its e_machine (else -1).
 */
static int btf_file_crc(const char *path, uint32_t *crc, int *machine,
			struct btfids_report *r)
{
	struct btfids_elf e;
	unsigned char *raw;
	size_t size;
	int err;

	*machine = -1;
	if (btfids_btf_file_kind(path) != BTFIDS_FILE_ELF) {
		err = read_file(path, &raw, &size, r);
		if (err)
			return err;
		*crc = crc32(0, raw, size);
		free(raw);
		return 0;
	}
	err = btfids_elf_open(&e, path, false, r);
	if (err)
		return err;
	if (!e.btf.index || e.btf.nobits) {
		btfids_err(r, path, "no .BTF bytes (%s) to check a trampoline table against",
			   e.btf.index ? "NOBITS" : "no section");
		err = -EINVAL;
	} else {
		*crc = crc32(0, e.btf.data, e.btf.size);
		*machine = e.machine;
	}
	btfids_elf_close(&e);
	return err;
}

int btfids_tramp2_of_elf(const struct btfids_elf *e, const char *btf_path,
			 struct btfids_tramp2 *t, struct btfids_report *r)
{
	bool be = btfids_elf_big_endian(e);
	uint32_t crc;
	int machine, err;

	memset(t, 0, sizeof(*t));
	if (!e->tramp.index || !btfids_tramp2_is(e->tramp.data, e->tramp.size, be))
		return 0;
	if (btf_path) {
		err = btf_file_crc(btf_path, &crc, &machine, r);
		if (err)
			return err;
	} else if (e->btf.index && !e->btf.nobits) {
		crc = crc32(0, e->btf.data, e->btf.size);
	} else {
		btfids_err(r, e->path, ".BTF_tramp holds a v2 table, but there are no .BTF bytes to check its crc32 against (--btf FILE)");
		return -EINVAL;
	}
	return btfids_tramp2_read(e->tramp.data, e->tramp.size, be, e->machine, crc, e->path,
				  ".BTF_tramp", t, r);
}

/* Every function of table @t, named from @btf (@btf_path), as JSON Lines. */
static int print_funcs(const struct btfids_tramp2 *t, const struct btf *btf,
		       const char *btf_path, const char *func, int taken, FILE *out,
		       struct btfids_report *r)
{
	const struct btf_tramp2_hdr *h = (const struct btf_tramp2_hdr *)t->buf;
	const struct btf_tramp_class *c = btf_tramp2_classes(h);
	const uint32_t *ids = btf_tramp2_func_ids(h);
	const uint16_t *cls = btf_tramp2_func_classes(h);
	const uint16_t *ver = btf_tramp2_func_verdicts(h);
	struct btfids_verdict v[BTFIDS_NR_ATTACH];
	struct btfids_fmodel m;
	struct btfids_json j;
	uint32_t i;

	btfids_json_init(&j, out);
	for (i = 0; i < h->nr_funcs; i++) {
		const struct btf_type *ty = btf__type_by_id(btf, ids[i]);

		if (!ty || !btf_is_func(ty)) {
			btfids_err(r, btf_path, "trampoline table: function %u, ID %u, is no FUNC of this BTF",
				   i, ids[i]);
			return -EINVAL;
		}
		if (!btfids_models_wanted(func, btf__name_by_offset(btf, ty->name_off)))
			continue;
		btfids_tramp_get_class(&c[cls[i]], &m);
		if (h->version == BTF_TRAMP3_VERSION)
			btfids_verdict_get(&btf_tramp2_verdicts(h)[ver[i]], m.reason, v);
		if (taken >= 0 && (h->version != BTF_TRAMP3_VERSION || !v[taken].given ||
				   v[taken].refusal))
			continue;
		btfids_tramp_class_print_verdicts(&j, btf__name_by_offset(btf, ty->name_off),
						  ids[i], cls[i], &m,
						  h->version == BTF_TRAMP3_VERSION ? v : NULL);
	}
	return fflush(out) ? -EIO : 0;
}

/* A raw <elf>.BTF_tramp: its byte order is the one its magic reads in. */
static int read_raw_table(const char *path, const char *btf_path, struct btfids_tramp2 *t,
			  struct btfids_report *r)
{
	unsigned char *raw;
	uint32_t crc;
	int machine, err;
	size_t size;
	bool be;

	if (!btf_path) {
		btfids_err(r, path, "a raw trampoline table: --btf FILE is needed (the .BTF it was built from, or its vmlinux: the names and the crc32)");
		return -EINVAL;
	}
	err = btf_file_crc(btf_path, &crc, &machine, r);
	if (!err)
		err = read_file(path, &raw, &size, r);
	if (err)
		return err;
	be = size >= 4 && btfids_get32(raw, true) == BTF_TRAMP_MAGIC;
	err = btfids_tramp2_read(raw, size, be, machine, crc, path, "raw file", t, r);
	free(raw);
	return err;
}

int btfids_tramp2_print(const char *path, const char *btf_path, const char *base_path,
			const char *func, int taken, FILE *out, struct btfids_report *r)
{
	struct btfids_tramp2 t = {};
	const char *names = btf_path ? btf_path : path;
	struct btf *btf = NULL, *base = NULL;
	struct btfids_elf e;
	char msg[128];
	int err;

	if (btfids_btf_file_kind(path) == BTFIDS_FILE_ELF) {
		err = btfids_elf_open(&e, path, false, r);
		if (err)
			return err;
		err = btfids_tramp2_of_elf(&e, btf_path, &t, r);
		btfids_elf_close(&e);
	} else {
		err = read_raw_table(path, btf_path, &t, r);
	}
	if (!err && taken >= 0 && t.version != BTF_TRAMP3_VERSION) {
		btfids_err(r, path, "--taken: a version %u table holds no verdicts (version 3 does: an x86_64, arm64 or s390x vmlinux with ftrace, an x86_64 module)",
			   t.version);
		err = -EINVAL;
	}
	if (err) {
		btfids_tramp2_free(&t);
		return err;
	}
	errno = 0;
	if (base_path && !(base = btf__parse(base_path, NULL))) {
		err = errno ? -errno : -EINVAL;
		btfids_err(r, base_path, "cannot read base BTF: %s",
			   btfids_btf_strerror(err, msg, sizeof(msg)));
		btfids_tramp2_free(&t);
		return err;
	}
	btf = base ? btf__parse_split(names, base) : btf__parse(names, NULL);
	if (!btf) {
		err = errno ? -errno : -EINVAL;
		btfids_err(r, names, "cannot read BTF: %s%s", btfids_btf_strerror(err, msg, sizeof(msg)),
			   base ? "" : " (a module's split BTF needs its base: -b vmlinux)");
	} else {
		err = print_funcs(&t, btf, names, func, taken, out, r);
	}
	btf__free(btf);
	btf__free(base);
	btfids_tramp2_free(&t);
	return err;
}
