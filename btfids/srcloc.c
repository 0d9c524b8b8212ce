// SPDX-License-Identifier: GPL-2.0
/*
 * srcloc.c - the kernel tree, its C files, and where each slot of an ELF
 * was declared in them; see include/btfids/srcloc.h for the rule.
 */
#include <errno.h>
#include <fcntl.h>
#include <fts.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "btfids/srcloc.h"

/* A C file of the tree, read and scanned on first use. */
struct btfids_src_file {
	bool read;
	int err;			/* reading it failed: errno */
	char *text;
	struct btfids_src_macro *m;	/* into text */
	size_t nr;
};

/* ---- the tree ---- */

/* @line sets make variable @var: "VAR = ..." */
static bool sets(const char *line, const char *var)
{
	size_t n = strlen(var);

	return !strncmp(line, var, n) && line[n + strspn(line + n, " \t")] == '=';
}

/* "VERSION = 7" and "PATCHLEVEL = 3" lines in @dir/Makefile (the top one) */
static bool kernel_makefile(const char *dir)
{
	char path[PATH_MAX], buf[4096];
	bool version = false, patchlevel = false;
	int lines = 0;
	FILE *f;

	if (snprintf(path, sizeof(path), "%s/Makefile", dir) >= (int)sizeof(path))
		return false;
	f = fopen(path, "r");
	if (!f)
		return false;
	/* they are the first assignments of the kernel's Makefile */
	while (lines++ < 20 && fgets(buf, sizeof(buf), f) && !(version && patchlevel)) {
		version |= sets(buf, "VERSION");
		patchlevel |= sets(buf, "PATCHLEVEL");
	}
	fclose(f);
	return version && patchlevel;
}

static bool kernel_tree(const char *dir)
{
	char path[PATH_MAX];
	struct stat st;

	if (!kernel_makefile(dir) ||
	    snprintf(path, sizeof(path), "%s/include/linux/btf_ids.h", dir) >= (int)sizeof(path))
		return false;
	return !stat(path, &st) && S_ISREG(st.st_mode);
}

int btfids_src_find_tree(const char *elf_path, char **root)
{
	char *copy = strdup(elf_path), *slash, *dir;

	if (!copy)
		return -ENOMEM;
	slash = strrchr(copy, '/');
	if (slash)
		slash[slash == copy] = 0;	/* "/vmlinux": the root directory */
	dir = realpath(slash ? copy : ".", NULL);
	free(copy);
	if (!dir)
		return errno == ENOMEM ? -ENOMEM : -ENOENT;
	for (;;) {
		if (kernel_tree(dir)) {
			*root = dir;
			return 0;
		}
		slash = strrchr(dir, '/');
		if (!slash || slash == dir)
			break;
		*slash = 0;
	}
	free(dir);
	return -ENOENT;
}

int btfids_src_tree_init(struct btfids_src_tree *t, const char *root)
{
	size_t n = strlen(root);

	memset(t, 0, sizeof(*t));
	while (n > 1 && root[n - 1] == '/')
		n--;
	t->root = strndup(root, n);
	return t->root ? 0 : -ENOMEM;
}

void btfids_src_tree_free(struct btfids_src_tree *t)
{
	size_t i;

	for (i = 0; t->files && i < t->nr_paths; i++) {
		free(t->files[i].text);
		free(t->files[i].m);
	}
	for (i = 0; i < t->nr_paths; i++)
		free(t->paths[i]);
	free(t->paths);
	free(t->files);
	free(t->root);
	memset(t, 0, sizeof(*t));
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static int cmp_path(const void *pa, const void *pb)
{
	const char *a = *(const char *const *)pa, *b = *(const char *const *)pb;
	int d = strcmp(base_name(a), base_name(b));

	return d ? d : strcmp(a, b);
}

/* Room in *@arr (@elem bytes each, *@cap of them) for element @n. */
static int grow(void **arr, size_t *cap, size_t n, size_t elem)
{
	size_t want = *cap ? 2 * *cap : 64;
	void *p;

	if (n < *cap)
		return 0;
	p = reallocarray(*arr, want, elem);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = want;
	return 0;
}

static int add_path(struct btfids_src_tree *t, size_t *cap, const char *rel)
{
	if (grow((void **)&t->paths, cap, t->nr_paths, sizeof(*t->paths)))
		return -ENOMEM;
	t->paths[t->nr_paths] = strdup(rel);
	if (!t->paths[t->nr_paths])
		return -ENOMEM;
	t->nr_paths++;
	return 0;
}

/* Every *.c file under the root; hidden directories (.git) are skipped. */
static int walk(struct btfids_src_tree *t)
{
	char *const argv[] = { t->root, NULL };
	size_t cap = 0, skip = strlen(t->root) + 1;
	FTSENT *ent;
	int err = 0;
	FTS *fts;

	fts = fts_open(argv, FTS_PHYSICAL | FTS_NOSTAT | FTS_NOCHDIR, NULL);
	if (!fts)
		return -errno;
	while (!err) {
		size_t n;

		errno = 0;
		ent = fts_read(fts);
		if (!ent) {
			err = -errno;	/* 0 at the end */
			break;
		}
		n = ent->fts_namelen;
		if (ent->fts_level > 0 && ent->fts_name[0] == '.') {
			if (ent->fts_info == FTS_D)
				fts_set(fts, ent, FTS_SKIP);
			continue;
		}
		/* unreadable folders (FTS_DNR) are left out: their files are not found */
		if ((ent->fts_info == FTS_F || ent->fts_info == FTS_NSOK) && n > 2 &&
		    !strcmp(ent->fts_name + n - 2, ".c"))
			err = add_path(t, &cap, ent->fts_path + skip);
	}
	fts_close(fts);
	return err;
}

static int tree_index(struct btfids_src_tree *t)
{
	int err;

	if (t->indexed)
		return 0;
	t->indexed = true;
	err = walk(t);
	if (err == -ENOMEM)
		return err;
	if (err)
		t->index_err = -err;
	if (t->nr_paths)
		qsort(t->paths, t->nr_paths, sizeof(*t->paths), cmp_path);
	t->files = calloc(t->nr_paths + 1, sizeof(*t->files));
	return t->files ? 0 : -ENOMEM;
}

/* The index range [*lo, *hi) of the files named @base. */
static void by_basename(const struct btfids_src_tree *t, const char *base,
			size_t *lo, size_t *hi)
{
	size_t l = 0, h = t->nr_paths;

	while (l < h) {
		size_t mid = l + (h - l) / 2;

		if (strcmp(base_name(t->paths[mid]), base) < 0)
			l = mid + 1;
		else
			h = mid;
	}
	*lo = l;
	for (h = l; h < t->nr_paths && !strcmp(base_name(t->paths[h]), base); h++)
		;
	*hi = h;
}

static int read_text(const char *path, char **text, size_t *len)
{
	size_t cap = 0, n = 0;
	char *buf = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t r;

		if (cap - n < 4096) {
			char *p = realloc(buf, cap = cap ? 2 * cap : 65536);

			if (!p) {
				close(fd);
				free(buf);
				return -ENOMEM;
			}
			buf = p;
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			int err = r < 0 ? -errno : 0;

			close(fd);
			if (err) {
				free(buf);
				return err;
			}
			break;
		}
		n += r;
	}
	buf[n] = 0;
	*text = buf;
	*len = n;
	return 0;
}

/* File @i of the index, read and scanned; -ENOMEM only is fatal. */
static int tree_file(struct btfids_src_tree *t, size_t i, struct btfids_src_file **out)
{
	struct btfids_src_file *f = &t->files[i];
	char path[PATH_MAX];
	size_t len = 0;
	int err;

	*out = f;
	if (f->read)
		return 0;
	f->read = true;
	if (snprintf(path, sizeof(path), "%s/%s", t->root, t->paths[i]) >= (int)sizeof(path)) {
		f->err = ENAMETOOLONG;
		return 0;
	}
	err = read_text(path, &f->text, &len);
	if (!err)
		err = btfids_src_scan(f->text, len, &f->m, &f->nr);
	if (err == -ENOMEM)
		return err;
	f->err = -err;
	return 0;
}

/* An object compiled from @rel (in-tree build: "dir/x.c" -> "dir/x.o") */
static bool compiled(const struct btfids_src_tree *t, const char *rel)
{
	char path[PATH_MAX];
	struct stat st;
	int n = snprintf(path, sizeof(path), "%s/%s", t->root, rel);

	if (n >= (int)sizeof(path))
		return false;
	path[n - 1] = 'o';
	return !stat(path, &st);
}

/* ---- placing the slots ---- */

/* One slot or set symbol to place. */
struct item {
	size_t cu;		/* its STT_FILE symbol, or NO_CU */
	enum btfids_kind kind;
	const char *name;
	size_t symidx;
	struct btfids_srcloc *loc;
	const char *sym;	/* for the __LINE__ part */
};

#define NO_CU	((size_t)-1)

struct place {
	struct btfids_srcmap *m;
	struct btfids_src_tree *t;
	const struct btfids_elf *e;
	size_t *files;		/* STT_FILE symbol indexes, ascending */
	size_t nr_files;
};

static int own(struct btfids_srcmap *m, char *s)
{
	if (!s)
		return -ENOMEM;
	if (grow((void **)&m->owned, &m->cap_owned, m->nr_owned, sizeof(*m->owned))) {
		free(s);
		return -ENOMEM;
	}
	m->owned[m->nr_owned++] = s;
	return 0;
}

/* Every item of @v (@n) gets @file, no line, and why: printf(@fmt, ...). */
static int unplaced(struct btfids_srcmap *m, struct item *v, size_t n, const char *file,
		    const char *fmt, ...) BTFIDS_PRINTF(5, 6);

static int unplaced(struct btfids_srcmap *m, struct item *v, size_t n, const char *file,
		    const char *fmt, ...)
{
	char *why = NULL;
	va_list ap;
	size_t i;

	va_start(ap, fmt);
	if (vasprintf(&why, fmt, ap) < 0)
		why = NULL;
	va_end(ap);
	if (own(m, why))
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (!v[i].loc->why && !v[i].loc->line)
			*v[i].loc = (struct btfids_srcloc){ .file = file, .why = why };
	return 0;
}

/* The STT_FILE symbols before the last symbol asked for. */
static int file_symbols(struct place *pl, size_t upto)
{
	const struct btfids_elf *e = pl->e;
	size_t i, cap = 0;

	for (i = btfids_elf_next_sym_of_type(e, 0, STT_FILE); i < upto;
	     i = btfids_elf_next_sym_of_type(e, i + 1, STT_FILE)) {
		if (grow((void **)&pl->files, &cap, pl->nr_files, sizeof(*pl->files)))
			return -ENOMEM;
		pl->files[pl->nr_files++] = i;
	}
	return 0;
}

/* The STT_FILE symbol that last precedes local symbol @symidx. */
static size_t cu_of(const struct place *pl, size_t symidx)
{
	size_t lo = 0, hi = pl->nr_files, shndx;
	const char *name;
	GElf_Sym sym;

	if (btfids_elf_sym(pl->e, symidx, &sym, &shndx, &name) ||
	    GELF_ST_BIND(sym.st_info) != STB_LOCAL)
		return NO_CU;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (pl->files[mid] < symidx)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? pl->files[lo - 1] : NO_CU;
}

static int cmp_item(const void *pa, const void *pb)
{
	const struct item *a = pa, *b = pb;
	int d;

	if (a->cu != b->cu)
		return a->cu < b->cu ? -1 : 1;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	d = strcmp(a->name, b->name);
	if (d)
		return d;
	return a->symidx < b->symidx ? -1 : a->symidx > b->symidx;
}

static bool names(const struct btfids_src_macro *x, const struct item *it)
{
	return x->kind == it->kind && x->name_len == strlen(it->name) &&
	       !memcmp(x->name, it->name, x->name_len);
}

/* How many digits of a line of @x the symbol of @it ends with (0: none). */
static unsigned int line_match(const struct btfids_src_macro *x, const struct item *it)
{
	unsigned int l, best = 0;

	if (!it->sym)
		return 0;
	for (l = x->first; l <= x->last && l - x->first < 64; l++) {
		unsigned int d = btfids_src_sym_line(it->sym, l);

		best = d > best ? d : best;
	}
	return best;
}

/* How well file @f fits the run @v: 0 no macro names it; else 1 + slots whose line it has */
static size_t fit(const struct btfids_src_file *f, const struct item *v, size_t n)
{
	size_t i, k, hits = 0, any = 0;

	for (k = 0; k < f->nr; k++)
		any += names(&f->m[k], &v[0]);
	if (!any)
		return 0;
	for (i = 0; i < n; i++) {
		for (k = 0; k < f->nr; k++)
			if (names(&f->m[k], &v[i]) && line_match(&f->m[k], &v[i]))
				break;
		hits += k < f->nr;
	}
	return 1 + hits;
}

/* "BTF_ID(func, x)", "BTF_SET8_START(x)": what a reader greps for */
static const char *macro_word(enum btfids_kind kind)
{
	return kind == BTFIDS_SET ? "BTF_SET_START" :
	       kind == BTFIDS_SET8 ? "BTF_SET8_START or BTF_KFUNCS_START" : "BTF_ID";
}

/* The slots of one name in one unit take the macros of file @f naming it. */
static int assign(struct place *pl, const char *file, const struct btfids_src_file *f,
		  struct item *v, size_t n)
{
	bool *used = calloc(f->nr + 1, sizeof(*used));
	size_t i, k, left = 0;

	if (!used)
		return -ENOMEM;
	for (i = 0; i < n; i++) {	/* each to the macro its __LINE__ names */
		size_t best = f->nr;
		unsigned int d, bd = 0;

		for (k = 0; k < f->nr; k++) {
			if (used[k] || !names(&f->m[k], &v[i]))
				continue;
			d = line_match(&f->m[k], &v[i]);
			if (d > bd)
				bd = d, best = k;
		}
		if (best < f->nr) {
			used[best] = true;
			*v[i].loc = (struct btfids_srcloc){ file, f->m[best].line, NULL };
		}
	}
	for (i = 0, k = 0; i < n; i++) {	/* the rest in text order */
		if (v[i].loc->line)
			continue;
		while (k < f->nr && (used[k] || !names(&f->m[k], &v[i])))
			k++;
		if (k == f->nr) {
			left++;
			continue;
		}
		used[k] = true;
		*v[i].loc = (struct btfids_srcloc){ file, f->m[k].line, NULL };
	}
	free(used);
	if (!left)
		return 0;
	return unplaced(pl->m, v, n, file, "%s has fewer %s() naming %s %s than the object has slots for it in this unit (made by another macro?)",
			file, macro_word(v[0].kind), btfids_kind_str(v[0].kind), v[0].name);
}

/* The candidates' best fit; *tie when another fits as well. */
static int best_file(struct place *pl, size_t lo, size_t hi, struct item *v, size_t n,
		     size_t *best, bool *tie)
{
	size_t i, score, top = 0;
	bool top_built = false;
	int err;

	*best = hi;
	*tie = false;
	for (i = lo; i < hi; i++) {
		struct btfids_src_file *f;
		bool built;

		err = tree_file(pl->t, i, &f);
		if (err)
			return err;
		score = f->err ? 0 : fit(f, v, n);
		if (!score)
			continue;
		built = compiled(pl->t, pl->t->paths[i]);
		if (score > top || (score == top && built && !top_built)) {
			*best = i;
			top = score;
			top_built = built;
			*tie = false;
		} else if (score == top && built == top_built) {
			*tie = true;
		}
	}
	return 0;
}

/* "a.c, b.c" of the files named like the unit that name it, for the message */
static char *matching_list(struct place *pl, size_t lo, size_t hi, struct item *v, size_t n)
{
	const char *sep = "";
	char *buf = NULL;
	size_t len = 0, i;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return NULL;
	for (i = lo; i < hi; i++) {
		const struct btfids_src_file *f = &pl->t->files[i];

		if (f->read && !f->err && fit(f, v, n)) {
			fprintf(m, "%s%s", sep, pl->t->paths[i]);
			sep = ", ";
		}
	}
	fclose(m);
	return buf;
}

/* The unit's file name as a path under the root, if it is one. */
static bool direct_path(const struct btfids_src_tree *t, const char *cu, size_t *idx)
{
	size_t n = strlen(t->root), lo, hi;
	const char *rel = cu;

	if (!strncmp(cu, t->root, n) && cu[n] == '/')
		rel = cu + n + 1;
	if (!strchr(rel, '/') || rel[0] == '/')
		return false;
	by_basename(t, base_name(rel), &lo, &hi);
	for (; lo < hi; lo++) {
		if (!strcmp(t->paths[lo], rel)) {
			*idx = lo;
			return true;
		}
	}
	return false;
}

/* Place one run: the slots of one (kind, name) in one unit named @cu. */
static int place_run(struct place *pl, const char *cu, struct item *v, size_t n)
{
	const char *base = base_name(cu);
	struct btfids_src_file *f;
	size_t lo, hi, best;
	char *list;
	bool tie;
	int err;

	if (direct_path(pl->t, cu, &best)) {
		err = tree_file(pl->t, best, &f);
		if (!err && !f->err && fit(f, v, n))
			return assign(pl, pl->t->paths[best], f, v, n);
		if (err)
			return err;
	}
	by_basename(pl->t, base, &lo, &hi);
	if (lo == hi)
		return unplaced(pl->m, v, n, NULL, "no file named %s in %s (the compilation unit the symbol table gives)",
				base, pl->t->root);
	err = best_file(pl, lo, hi, v, n, &best, &tie);
	if (err)
		return err;
	if (best == hi && hi - lo == 1)
		return unplaced(pl->m, v, n, pl->t->paths[lo],
				"%s has no %s() naming %s %s (made by another macro?)",
				pl->t->paths[lo], macro_word(v[0].kind),
				btfids_kind_str(v[0].kind), v[0].name);
	if (best == hi)
		return unplaced(pl->m, v, n, NULL,
				"none of the %zu files named %s has %s() naming %s %s (made by another macro?)",
				hi - lo, base, macro_word(v[0].kind),
				btfids_kind_str(v[0].kind), v[0].name);
	if (tie) {
		list = matching_list(pl, lo, hi, v, n);
		err = unplaced(pl->m, v, n, NULL, "several files named %s name %s %s: %s",
			       base, btfids_kind_str(v[0].kind), v[0].name, list ? list : "?");
		free(list);
		return err;
	}
	f = &pl->t->files[best];
	return assign(pl, pl->t->paths[best], f, v, n);
}

static bool same_run(const struct item *a, const struct item *b)
{
	return a->cu == b->cu && a->kind == b->kind && !strcmp(a->name, b->name);
}

/* The runs of (unit, kind, name) in the sorted @v. */
static int place_items(struct place *pl, struct item *v, size_t n)
{
	size_t i, k;
	int err = 0;

	for (i = 0; i < n && !err; i = k) {
		const char *cu = NULL;
		size_t shndx;
		GElf_Sym sym;

		for (k = i + 1; k < n && same_run(&v[i], &v[k]); k++)
			;
		if (v[i].cu == NO_CU)
			err = unplaced(pl->m, &v[i], k - i, NULL, "%s", pl->nr_files ?
				       "a global symbol, or no STT_FILE symbol before it: the symbol table does not say which compilation unit it comes from" :
				       "the symbol table has no STT_FILE symbols (stripped with --strip-debug?), so no compilation unit is known");
		else if (btfids_elf_sym(pl->e, v[i].cu, &sym, &shndx, &cu) || !*cu)
			err = unplaced(pl->m, &v[i], k - i, NULL, "%s", "its compilation unit's STT_FILE symbol has no name");
		else if (pl->t->index_err)
			err = unplaced(pl->m, &v[i], k - i, NULL, "cannot read the tree %s: %s",
				       pl->t->root, strerror(pl->t->index_err));
		else
			err = place_run(pl, cu, &v[i], k - i);
	}
	return err;
}

/* The items to place: every slot of a wanted slot's name, the wanted sets. */
static int collect_items(struct place *pl, const struct btfids_syms *s, const bool *want_slot,
			 const bool *want_set, struct item **out, size_t *nr)
{
	bool *target = calloc(s->nr_targets + 1, sizeof(*target));
	struct item *v = calloc(s->nr_slots + s->nr_sets + 1, sizeof(*v));
	size_t i, n = 0;

	if (!target || !v) {
		free(target);
		free(v);
		return -ENOMEM;
	}
	for (i = 0; i < s->nr_slots; i++)
		if (want_slot && want_slot[i])
			target[s->slots[i].target] = true;
	for (i = 0; i < s->nr_slots; i++) {
		const struct btfids_target *tg = &s->targets[s->slots[i].target];

		if (target[s->slots[i].target])
			v[n++] = (struct item){ .kind = tg->kind, .name = tg->name,
						.symidx = s->slots[i].symidx,
						.loc = &pl->m->slot[i], .sym = s->slots[i].sym };
	}
	for (i = 0; i < s->nr_sets; i++)
		if (want_set && want_set[i])
			v[n++] = (struct item){ .kind = s->sets[i].kind, .name = s->sets[i].name,
						.symidx = s->sets[i].symidx,
						.loc = &pl->m->set[i] };
	free(target);
	*out = v;
	*nr = n;
	return 0;
}

int btfids_srcmap_build(struct btfids_srcmap *m, struct btfids_src_tree *t,
			const struct btfids_elf *e, const struct btfids_syms *s,
			const bool *want_slot, const bool *want_set)
{
	struct place pl = { .m = m, .t = t, .e = e };
	size_t i, n = 0, upto = 0, with_cu;
	struct item *v = NULL;
	int err;

	memset(m, 0, sizeof(*m));
	m->slot = calloc(s->nr_slots + 1, sizeof(*m->slot));
	m->set = calloc(s->nr_sets + 1, sizeof(*m->set));
	err = m->slot && m->set ? 0 : -ENOMEM;
	if (!err)
		err = collect_items(&pl, s, want_slot, want_set, &v, &n);
	for (i = 0; i < n; i++)
		upto = v[i].symidx > upto ? v[i].symidx : upto;
	if (!err && n)
		err = file_symbols(&pl, upto);
	for (i = 0, with_cu = 0; i < n; i++) {
		v[i].cu = cu_of(&pl, v[i].symidx);
		with_cu += v[i].cu != NO_CU;
	}
	if (!err && with_cu)	/* no unit known: no need to read the tree */
		err = tree_index(t);
	if (!err && n) {
		qsort(v, n, sizeof(*v), cmp_item);
		err = place_items(&pl, v, n);
	}
	free(v);
	free(pl.files);
	if (err)
		btfids_srcmap_free(m);
	return err;
}

void btfids_srcmap_free(struct btfids_srcmap *m)
{
	size_t i;

	for (i = 0; i < m->nr_owned; i++)
		free(m->owned[i]);
	free(m->owned);
	free(m->slot);
	free(m->set);
	memset(m, 0, sizeof(*m));
}
