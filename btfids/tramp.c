// SPDX-License-Identifier: GPL-2.0
/*
 * tramp.c - fill the trampoline tables of .BTF_tramp during resolve, and
 * read them back for `btfids models ELF` (format: include/btfids/tramp.h).
 * The models come from fmodel.h (btfids_tramp_model()), their bytes and
 * JSON lines from tramp_class.h, as the v2 table's (tramp2.c).
 *
 * A table is the symbol __BTF_TRAMP__<set> in .BTF_tramp (st_size =
 * BTF_TRAMP_TABLE_SIZE(n)); its functions are the n 4-byte slots that
 * follow the label __BTF_TRAMP_IDS__<set> in .BTF_ids, each an ordinary
 * __BTF_ID__func__ slot resolved by the usual lookup. The tables keep the
 * target's byte order; the whole section is rebuilt in memory and written
 * with one pwrite() after every check.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "btfids/lookup.h"
#include "btfids/patch.h"
#include "btfids/tramp_class.h"
#include "btfids/tramp_fill.h"

#define SEC_TRAMP	".BTF_tramp"
#define PFX_TABLE	"__BTF_TRAMP__"
#define PFX_LIST	"__BTF_TRAMP_IDS__"
/* where a v1 entry's fields are (an entry may be misaligned in a section) */
#define ENTRY_ID	offsetof(struct btf_tramp_entry, btf_id)
#define ENTRY_MODEL	offsetof(struct btf_tramp_entry, model)

/* Offset in @sec of a symbol value (ET_REL: section-relative). */
static bool sec_off(const struct btfids_elf *e, const struct btfids_section *sec,
		    uint64_t value, uint64_t *off)
{
	uint64_t base = e->type == ET_REL ? 0 : sec->addr;

	if (value < base)
		return false;
	*off = value - base;
	return true;
}

/* The symbol @name defined in section @shndx; its st_value, or -ENOENT. */
static int find_sym(const struct btfids_elf *e, const char *name, size_t shndx,
		    uint64_t *value)
{
	size_t i, ndx;
	const char *n;
	GElf_Sym sym;

	for (i = 1; i < e->nr_syms; i++) {
		if (btfids_elf_sym(e, i, &sym, &ndx, &n) || ndx != shndx || strcmp(n, name))
			continue;
		*value = sym.st_value;
		return 0;
	}
	return -ENOENT;
}

static const struct btfids_slot *slot_at(const struct btfids_syms *s, uint64_t off)
{
	size_t i;

	for (i = 0; i < s->nr_slots; i++)
		if (s->slots[i].off == off)
			return &s->slots[i];
	return NULL;
}

struct entry {
	uint32_t id;
	size_t order;
	struct btfids_fmodel m;
};

static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* One v1 entry at @p: the ID in byte order @be, then the model's class. */
static void put_entry(unsigned char *p, const struct entry *en, bool be)
{
	btfids_put32(p + ENTRY_ID, en->id, be);
	btfids_tramp_put_class((struct btf_tramp_class *)(p + ENTRY_MODEL), &en->m);
}

/*
 * Header and entries of one table at @p: @en (sorted here by ID, set order
 * kept for ties) in the target's byte order @be.
 */
static void put_table(unsigned char *p, struct entry *en, size_t n, uint16_t machine,
		      uint32_t crc, bool be)
{
	unsigned int max_slots = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (en[i].m.reason == BTF_TRAMP_OK && en[i].m.nr_slots > max_slots)
			max_slots = en[i].m.nr_slots;
	qsort(en, n, sizeof(*en), cmp_entry);
	memset(p, 0, BTF_TRAMP_HDR_SIZE);
	btfids_put32(p, BTF_TRAMP_MAGIC, be);
	btfids_put16(p + 4, BTF_TRAMP_VERSION, be);
	btfids_put16(p + 6, machine, be);
	btfids_put32(p + 8, n, be);
	btfids_put16(p + 12, BTF_TRAMP_ENTRY_SIZE, be);
	btfids_put16(p + 14, max_slots, be);
	btfids_put32(p + 16, crc, be);
	for (i = 0; i < n; i++)
		put_entry(p + BTF_TRAMP_HDR_SIZE + i * BTF_TRAMP_ENTRY_SIZE, &en[i], be);
}

int btfids_tramp_build(const struct btf *btf, const struct btfids_target_arch *a,
		       uint32_t btf_crc32, bool big_endian, const uint32_t *ids, size_t n,
		       unsigned char *out)
{
	struct btfids_tramp_rules ru = { .a = *a };
	struct entry *en = calloc(n ? n : 1, sizeof(*en));
	size_t i;

	if (!en)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		en[i].id = ids[i];
		en[i].order = i;
		btfids_tramp_model(&ru, btf, ids[i], &en[i].m);
	}
	put_table(out, en, n, a->machine, btf_crc32, big_endian);
	free(en);
	return 0;
}

/* What every table of one image is built with. */
struct fill_ctx {
	const struct btfids_elf *e;
	const struct btfids_syms *s;
	const struct btf *btf;
	struct btfids_tramp_rules ru;	/* arch, kernel rules, implicit-args kfuncs */
	uint32_t crc;
};

/* Build one table: set @set, at @off in t->buf, @n entries. */
static int fill_one(const struct fill_ctx *c, const char *set, uint64_t off, size_t n,
		    struct btfids_tramp *t, struct btfids_report *r)
{
	const struct btfids_elf *e = c->e;
	char list[256];
	uint64_t value, loff;
	struct entry *en;
	size_t i;

	snprintf(list, sizeof(list), PFX_LIST "%s", set);
	if (find_sym(e, list, e->ids.index, &value) ||
	    !btfids_elf_ids_offset(e, value, &loff) || loff + 4 * n > e->ids.size) {
		btfids_err(r, e->path, "trampoline set %s: no list %s of %zu slots in .BTF_ids",
			   set, list, n);
		return -EINVAL;
	}
	en = calloc(n ? n : 1, sizeof(*en));
	if (!en)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		const struct btfids_slot *sl = slot_at(c->s, loff + 4 * i);
		const struct btfids_target *tg;

		if (!sl || c->s->targets[sl->target].kind != BTFIDS_FUNC) {
			btfids_err(r, e->path, "trampoline set %s: entry %zu is not a BTF_ID(func, ...) slot",
				   set, i);
			free(en);
			return -EINVAL;
		}
		tg = &c->s->targets[sl->target];
		en[i].id = tg->id;
		en[i].order = i;
		btfids_tramp_model(&c->ru, c->btf, tg->id, &en[i].m);
		if (en[i].m.reason != BTF_TRAMP_OK)
			btfids_warn(r, "trampoline set %s: %s (id %u) cannot attach on %s: %s",
				    set, tg->name, tg->id, c->ru.a.name,
				    btfids_fmodel_reason_str(en[i].m.reason));
	}
	put_table(t->buf + off, en, n, e->machine, c->crc, btfids_elf_big_endian(e));
	free(en);
	t->nr_tables++;
	return 0;
}

/*
 * The crc the consumer checks: of the image's own .BTF. In the 6.x flow
 * that is the ELF's section; in the 7.x flow @btf, the final BTF that
 * becomes .BTF (gen-btf.sh links the raw file written from it).
 */
static uint32_t btf_crc(const struct btfids_elf *e, const struct btf *btf, unsigned int kernel)
{
	const void *raw;
	uint32_t size;

	if (e->btf.size && kernel < BTFIDS_KERNEL(7, 0))
		return crc32(0, e->btf.data, e->btf.size);
	raw = btf__raw_data(btf, &size);
	return raw ? crc32(0, raw, size) : 0;
}

int btfids_tramp_fill(const struct btfids_elf *e, const struct btfids_syms *s,
		      const struct btf *btf, const unsigned char *ids, unsigned int kernel,
		      struct btfids_tramp *t, struct btfids_report *r)
{
	struct fill_ctx c = { .e = e, .s = s, .btf = btf };
	size_t i, ndx;
	int err = 0;

	memset(t, 0, sizeof(*t));
	t->sec = e->tramp;
	if (!t->sec.index || !e->symtab_index)
		return 0;
	t->buf = malloc(t->sec.size ? t->sec.size : 1);
	if (!t->buf)
		return -ENOMEM;
	memcpy(t->buf, t->sec.data, t->sec.size);
	c.crc = btf_crc(e, btf, kernel);
	err = btfids_tramp_rules_init(&c.ru, e, s, ids, kernel);
	for (i = 1; !err && i < e->nr_syms; i++) {
		uint64_t off, n;
		const char *name;
		GElf_Sym sym;

		if (btfids_elf_sym(e, i, &sym, &ndx, &name) || ndx != t->sec.index ||
		    strncmp(name, PFX_TABLE, strlen(PFX_TABLE)))
			continue;
		if (!sec_off(e, &t->sec, sym.st_value, &off) || off % 4 ||
		    sym.st_size < BTF_TRAMP_HDR_SIZE ||
		    (sym.st_size - BTF_TRAMP_HDR_SIZE) % BTF_TRAMP_ENTRY_SIZE ||
		    off > t->sec.size || sym.st_size > t->sec.size - off) {
			btfids_err(r, e->path, "%s: misaligned, outside %s or not a whole table (size %llu)",
				   name, SEC_TRAMP, (unsigned long long)sym.st_size);
			err = -EINVAL;
			break;
		}
		n = (sym.st_size - BTF_TRAMP_HDR_SIZE) / BTF_TRAMP_ENTRY_SIZE;
		err = fill_one(&c, name + strlen(PFX_TABLE), off, n, t, r);
	}
	btfids_tramp_rules_free(&c.ru);
	if (!err)
		btfids_dbg(r, 1, "%s: %zu trampoline table(s) for %s\n", e->path, t->nr_tables,
			   c.ru.a.name);
	return err;
}

int btfids_tramp_write(const struct btfids_elf *e, const struct btfids_tramp *t,
		       struct btfids_report *r)
{
	uint64_t done = 0;

	if (!t->buf || !t->nr_tables || !memcmp(t->buf, t->sec.data, t->sec.size))
		return 0;
	while (done < t->sec.size) {
		ssize_t n = pwrite(e->fd, t->buf + done, t->sec.size - done,
				   t->sec.offset + done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			btfids_err(r, e->path, "cannot write %s: %s", SEC_TRAMP,
				   n < 0 ? strerror(errno) : "short write");
			return n < 0 ? -errno : -EIO;
		}
		done += n;
	}
	return 0;
}

void btfids_tramp_free(struct btfids_tramp *t)
{
	free(t->buf);
	t->buf = NULL;
}

/* One stored entry back to a model, from its bytes only; returns its ID. */
static uint32_t get_entry(const unsigned char *p, bool be, struct btfids_fmodel *m)
{
	btfids_tramp_get_class((const struct btf_tramp_class *)(p + ENTRY_MODEL), m);
	return btfids_get32(p + ENTRY_ID, be);
}

/* The name of stored entry @id: from BTF, else (unresolved) the list's slot. */
static const char *entry_name(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t = btf && id ? btf__type_by_id(btf, id) : NULL;

	return t ? btf__name_by_offset(btf, t->name_off) : NULL;
}

/* The func symbol of .BTF_ids slot @off, as its NAME; NULL if none. */
static const char *slot_name(const struct btfids_elf *e, uint64_t off, char *buf,
			     size_t len)
{
	const char *n, *end;
	size_t i, ndx;
	uint64_t o;
	GElf_Sym sym;

	for (i = 1; i < e->nr_syms; i++) {
		if (btfids_elf_sym(e, i, &sym, &ndx, &n) || ndx != e->ids.index ||
		    strncmp(n, "__BTF_ID__func__", 16) ||
		    !btfids_elf_ids_offset(e, sym.st_value, &o) || o != off)
			continue;
		n += 16;
		end = strrchr(n, '_');	/* NAME ends at the last "__" */
		if (!end || end == n || end[-1] != '_')
			return NULL;
		snprintf(buf, len, "%.*s", (int)(end - 1 - n), n);
		return buf;
	}
	return NULL;
}

/*
 * The name of an entry of set @set (@n entries) from .BTF_ids alone: the
 * @k-th slot of the set's list that holds @id, named by its
 * __BTF_ID__func__NAME__UNIQ symbol. The sort is stable, so the k-th
 * unresolved (ID 0) entry is the k-th slot holding 0; for an ID, k is 0.
 * Used when there is no BTF to name it (ID 0, or split BTF without -b).
 */
static const char *list_name(const struct btfids_elf *e, const char *set, uint32_t n,
			     uint32_t id, uint32_t k, char *buf, size_t len)
{
	char list[256];
	uint64_t value, loff;
	uint32_t j, seen = 0;

	snprintf(list, sizeof(list), PFX_LIST "%s", set);
	if (find_sym(e, list, e->ids.index, &value) ||
	    !btfids_elf_ids_offset(e, value, &loff) || loff + 4ull * n > e->ids.size)
		return "";
	for (j = 0; j < n; j++) {
		if (btfids_get32(e->ids.data + loff + 4 * j, btfids_elf_big_endian(e)) != id)
			continue;
		if (seen++ == k)
			return slot_name(e, loff + 4 * j, buf, len) ?: "";
	}
	return "";
}

int btfids_tramp_print(const char *path, const char *base_path, const char *func,
		       FILE *out, struct btfids_report *r)
{
	struct btfids_tramp t = {};
	struct btf *btf = NULL, *base = NULL;
	struct btfids_json j;
	struct btfids_elf e;
	size_t i, ndx;
	bool be;
	int err;

	err = btfids_elf_open(&e, path, false, r);
	if (err)
		return err;
	t.sec = e.tramp;
	if (!t.sec.index || !e.symtab_index) {	/* not an error: say so */
		btfids_dbg(r, 0, "btfids models: %s has no %s: no tables to print (--all models every function)\n",
			   path, t.sec.index ? "symbol table" : ".BTF_tramp section");
		goto out;
	}
	be = btfids_elf_big_endian(&e);
	if (base_path && btfids_btf_load_base(base_path, &base, r)) {
		err = -EINVAL;
		goto out;
	}
	/* only names come from BTF; without it (a module without -b) the slots name them */
	btf = base ? btf__parse_split(path, base) : btf__parse(path, NULL);
	btfids_json_init(&j, out);
	for (i = 1; i < e.nr_syms; i++) {
		const unsigned char *p;
		uint32_t n, k, unres = 0;
		char buf[256];
		uint64_t off;
		const char *name;
		GElf_Sym sym;

		if (btfids_elf_sym(&e, i, &sym, &ndx, &name) || ndx != t.sec.index ||
		    strncmp(name, PFX_TABLE, strlen(PFX_TABLE)) ||
		    !sec_off(&e, &t.sec, sym.st_value, &off) ||
		    off > t.sec.size || t.sec.size - off < BTF_TRAMP_HDR_SIZE)
			continue;
		p = t.sec.data + off;
		if (btfids_get32(p, be) != BTF_TRAMP_MAGIC) {
			btfids_err(r, path, "%s: table not filled (run btfids first)", name);
			err = -EINVAL;
			goto out;
		}
		n = btfids_get32(p + 8, be);
		if (btfids_get16(p + 12, be) != BTF_TRAMP_ENTRY_SIZE ||
		    (t.sec.size - off - BTF_TRAMP_HDR_SIZE) / BTF_TRAMP_ENTRY_SIZE < n) {
			btfids_err(r, path, "%s: bad entry size or count", name);
			err = -EINVAL;
			goto out;
		}
		for (k = 0; k < n; k++) {
			struct btfids_fmodel m;
			uint32_t id = get_entry(p + BTF_TRAMP_HDR_SIZE + k * BTF_TRAMP_ENTRY_SIZE,
						be, &m);
			const char *fn = entry_name(btf, id);

			if (!fn)
				fn = list_name(&e, name + strlen(PFX_TABLE), n, id,
					       id ? 0 : unres++, buf, sizeof(buf));
			if (btfids_models_wanted(func, fn))
				btfids_tramp_class_print(&j, fn, id, -1, &m);
		}
	}
	err = fflush(out) ? -EIO : 0;
out:
	btf__free(btf);
	btf__free(base);
	btfids_elf_close(&e);
	return err;
}
