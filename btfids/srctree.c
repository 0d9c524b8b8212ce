// SPDX-License-Identifier: GPL-2.0
/* srctree.c - an object's release from the kernel tree it was built in; see srctree.h. */
#include <ctype.h>
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "btfids/srctree.h"

/* the kernel's top Makefile sets these in its first lines */
#define MAKEFILE_LINES	16
#define KCONFIG_BYTES	1024
#define KCONFIG_MENU	"mainmenu \"Linux/"

struct tree {
	char *top;
	struct btfids_release rel;
};

/* a directory that units name, as named, and the tree it is in (-1: none) */
struct seen {
	char *dir;
	int tree;
};

struct walk {
	struct btfids_srctree *t;
	struct tree *trees;
	size_t nr_trees;
	struct seen *seen;
	size_t nr_seen;
	int first_tree;		/* the tree of the first unit in one, or -1 */
	int other_tree;		/* one of another MAJOR.MINOR, or -1 */
};

/* "KEY = VALUE" in @line: VALUE without trailing blanks, else NULL. */
static char *assignment(char *line, const char *key)
{
	size_t n = strlen(key);
	char *v, *end;

	if (strncmp(line, key, n))
		return NULL;
	v = line + n + strspn(line + n, " \t");
	if (*v != '=')
		return NULL;
	v++;
	v += strspn(v, " \t");
	end = v + strlen(v);
	while (end > v && isspace((unsigned char)end[-1]))
		*--end = 0;
	return v;
}

static bool decimal(const char *s, bool may_be_empty)
{
	return s && (*s || may_be_empty) && s[strspn(s, "0123456789")] == 0;
}

/*
 * The release of the top Makefile @path ("VERSION = 7" ... "EXTRAVERSION =
 * -rc7" among its first lines): its KERNELVERSION, parsed into @rel.
 */
static int makefile_release(const char *path, struct btfids_release *rel)
{
	char lines[4][64] = {}, line[256], text[sizeof(lines) + 4], *v;
	static const char *const keys[] = { "VERSION", "PATCHLEVEL", "SUBLEVEL", "EXTRAVERSION" };
	bool set[4] = {};
	FILE *f = fopen(path, "re");
	int i, n;

	if (!f)
		return -ENOENT;
	for (n = 0; n < MAKEFILE_LINES && fgets(line, sizeof(line), f); n++)
		for (i = 0; i < 4; i++)
			if (!set[i] && (v = assignment(line, keys[i])) && strlen(v) < sizeof(lines[i])) {
				strcpy(lines[i], v);
				set[i] = true;
			}
	fclose(f);
	if (!set[0] || !set[1] || !set[2] || !set[3] || !decimal(lines[0], false) ||
	    !decimal(lines[1], false) || !decimal(lines[2], true) || strpbrk(lines[3], " \t"))
		return -ENOENT;
	snprintf(text, sizeof(text), "%s.%s%s%s%s", lines[0], lines[1], *lines[2] ? "." : "",
		 lines[2], lines[3]);
	return btfids_release_parse(text, rel) ? -ENOENT : 0;
}

/* The kernel's top Kconfig: 'mainmenu "Linux/$(ARCH) ..."' at its start. */
static bool kernel_kconfig(const char *path)
{
	char buf[KCONFIG_BYTES + 1];
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return false;
	n = fread(buf, 1, KCONFIG_BYTES, f);
	fclose(f);
	buf[n] = 0;
	return !strncmp(buf, KCONFIG_MENU, strlen(KCONFIG_MENU)) ||
	       strstr(buf, "\n" KCONFIG_MENU);
}

/* Is @dir the top of a kernel tree? Its release into @rel. */
static bool kernel_top(const char *dir, struct btfids_release *rel)
{
	char path[PATH_MAX + 16];

	snprintf(path, sizeof(path), "%s/Kconfig", strcmp(dir, "/") ? dir : "");
	if (!kernel_kconfig(path))
		return false;
	snprintf(path, sizeof(path), "%s/Makefile", strcmp(dir, "/") ? dir : "");
	return !makefile_release(path, rel);
}

/* The tree @top, added to @w once: its index, or -ENOMEM. */
static int add_tree(struct walk *w, const char *top, const struct btfids_release *rel)
{
	struct tree *v;
	size_t i;

	for (i = 0; i < w->nr_trees; i++)
		if (!strcmp(w->trees[i].top, top))
			return i;
	v = realloc(w->trees, (w->nr_trees + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	w->trees = v;
	v[w->nr_trees].top = strdup(top);
	if (!v[w->nr_trees].top)
		return -ENOMEM;
	v[w->nr_trees].rel = *rel;
	return w->nr_trees++;
}

/* The tree holding directory @dir (as a unit names it): its index, -1, or -ENOMEM. */
static int tree_of(struct walk *w, const char *dir)
{
	struct btfids_release rel;
	char real[PATH_MAX], *slash;
	struct seen *v;
	int tree = -1;
	size_t i;

	for (i = 0; i < w->nr_seen; i++)
		if (!strcmp(w->seen[i].dir, dir))
			return w->seen[i].tree;
	/* the real path: ".." and symlinks walk up where the file really is */
	if (realpath(dir, real)) {
		for (;;) {
			if (kernel_top(real, &rel)) {
				rel.from = BTFIDS_FROM_SRCTREE;
				tree = add_tree(w, real, &rel);
				break;
			}
			slash = strrchr(real, '/');
			if (!slash || !strcmp(real, "/"))
				break;
			slash[slash == real] = 0;	/* "/a" -> "/" */
		}
		if (tree == -ENOMEM)
			return tree;
	}
	v = realloc(w->seen, (w->nr_seen + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	w->seen = v;
	v[w->nr_seen].dir = strdup(dir);
	if (!v[w->nr_seen].dir)
		return -ENOMEM;
	v[w->nr_seen++].tree = tree;
	return tree;
}

/* One compile unit's source file, made absolute, into @path. */
static bool unit_source(Dwarf_Die *cu, char *path, size_t size)
{
	const char *name = dwarf_diename(cu), *dir;
	Dwarf_Attribute a;
	int n;

	if (!name || !*name)
		return false;
	dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &a));
	if (name[0] == '/' || !dir)
		n = snprintf(path, size, "%s", name);
	else
		n = snprintf(path, size, "%s/%s", dir, name);
	return n > 0 && (size_t)n < size;
}

static int add_unit(struct walk *w, Dwarf_Die *cu)
{
	struct btfids_srctree *t = w->t;
	char src[PATH_MAX], *slash;
	int tree;

	if (!unit_source(cu, src, sizeof(src)))
		return 0;
	if (!t->nr_units++)
		strcpy(t->src, src);
	slash = strrchr(src, '/');
	if (!slash)
		return 0;	/* relative, without a comp_dir: nowhere to start */
	*slash = 0;
	tree = tree_of(w, slash == src ? "/" : src);
	if (tree == -ENOMEM)
		return tree;
	if (tree < 0) {
		t->nr_gone += access(slash == src ? "/" : src, F_OK) != 0;
		return 0;
	}
	*slash = '/';
	t->nr_in_tree++;
	if (w->first_tree < 0) {
		w->first_tree = tree;
		strcpy(t->src, src);
	} else if (w->other_tree < 0 &&
		   (w->trees[tree].rel.major != w->trees[w->first_tree].rel.major ||
		    w->trees[tree].rel.minor != w->trees[w->first_tree].rel.minor)) {
		w->other_tree = tree;
	}
	return 0;
}

/* Separate debug files (.gnu_debuglink, build ID) are not looked for. */
static int no_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			Dwarf_Addr base, const char *file_name, const char *debuglink,
			GElf_Word crc, char **debuginfo_file_name)
{
	(void)mod, (void)userdata, (void)modname, (void)base, (void)file_name;
	(void)debuglink, (void)crc, (void)debuginfo_file_name;
	return -1;
}

static const Dwfl_Callbacks offline = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = no_debuginfo,
	.section_address = dwfl_offline_section_address,	/* ET_REL: relocate */
};

/*
 * Does any SHT_RELA section apply to debug info? Then an ET_REL object's
 * DWARF holds zeros where the offsets go and must be relocated; SHT_REL
 * keeps them in place (the addend), right as they are for a single object.
 */
static bool debug_rela(const struct btfids_elf *e)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	const char *name;
	GElf_Shdr sh, to;

	if (elf_getshdrstrndx(e->elf, &shstrndx))
		return true;
	while ((scn = elf_nextscn(e->elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA)
			continue;
		if (!gelf_getshdr(elf_getscn(e->elf, sh.sh_info), &to))
			return true;
		name = elf_strptr(e->elf, shstrndx, to.sh_name);
		if (!name || !strncmp(name, ".debug_", 7))
			return true;
	}
	return false;
}

/*
 * @e's DWARF: libdw on @e's own ELF for a linked object; libdwfl, which
 * applies the relocations, for an ET_REL one. libdwfl knows no machine it
 * has no backend for (elfutils 0.188: MIPS), so an ET_REL object with only
 * SHT_REL relocations of its debug info is read as it is then.
 */
static Dwarf *open_dwarf(const struct btfids_elf *e, Dwfl **dwfl, struct btfids_srctree *t)
{
	Dwfl_Module *mod;
	Dwarf_Addr bias;
	Dwarf *dw;

	*dwfl = NULL;
	if (e->type != ET_REL)
		goto plain;
	*dwfl = dwfl_begin(&offline);
	if (!*dwfl) {
		snprintf(t->dwarf_err, sizeof(t->dwarf_err), "out of memory");
		return NULL;
	}
	dwfl_report_begin(*dwfl);
	mod = dwfl_report_offline(*dwfl, e->path, e->path, -1);
	dwfl_report_end(*dwfl, NULL, NULL);
	dw = mod ? dwfl_module_getdwarf(mod, &bias) : NULL;
	if (dw)
		return dw;
	snprintf(t->dwarf_err, sizeof(t->dwarf_err), "%s", dwfl_errmsg(-1));
	dwfl_end(*dwfl);
	*dwfl = NULL;
	if (debug_rela(e))
		return NULL;
	*t->dwarf_err = 0;
plain:
	dw = dwarf_begin_elf(e->elf, DWARF_C_READ, NULL);
	if (dw)
		return dw;
	snprintf(t->dwarf_err, sizeof(t->dwarf_err), "%s", dwarf_errmsg(-1));
	return NULL;
}

/* Every compile unit of @e's DWARF through add_unit(). */
static int read_units(const struct btfids_elf *e, struct walk *w)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die die;
	uint8_t type;
	Dwfl *dwfl;
	Dwarf *dw;
	int err = 0;

	w->t->dwarf = e->has_dwarf;
	if (!e->has_dwarf)
		return 0;
	dw = open_dwarf(e, &dwfl, w->t);
	if (!dw)
		return 0;
	while (!err && !dwarf_get_units(dw, cu, &cu, NULL, &type, &die, NULL))
		if (dwarf_tag(&die) == DW_TAG_compile_unit)
			err = add_unit(w, &die);
	if (dwfl)
		dwfl_end(dwfl);		/* and the Dwarf it made */
	else
		dwarf_end(dw);
	return err;
}

static void walk_free(struct walk *w)
{
	size_t i;

	for (i = 0; i < w->nr_trees; i++)
		free(w->trees[i].top);
	for (i = 0; i < w->nr_seen; i++)
		free(w->seen[i].dir);
	free(w->trees);
	free(w->seen);
}

int btfids_srctree_release(const struct btfids_elf *e, struct btfids_release *rel,
			   struct btfids_srctree *t)
{
	struct walk w = { .t = t, .first_tree = -1, .other_tree = -1 };
	int err;

	memset(t, 0, sizeof(*t));
	rel->from = NULL;
	err = read_units(e, &w);
	if (!err && w.first_tree < 0)
		err = -ENOENT;
	if (!err) {
		*rel = w.trees[w.first_tree].rel;
		strcpy(t->top, w.trees[w.first_tree].top);
	}
	if (!err && w.other_tree >= 0) {
		t->other = w.trees[w.other_tree].rel;
		strcpy(t->other_top, w.trees[w.other_tree].top);
		err = -ENOTUNIQ;
	}
	walk_free(&w);
	return err;
}

int btfids_release_find(const struct btfids_elf *e, struct btfids_release *rel,
			struct btfids_srctree *t, struct btfids_report *r)
{
	int err = btfids_release_read(e, rel);

	memset(t, 0, sizeof(*t));
	if (err != -ENOENT)
		return err;
	err = btfids_srctree_release(e, rel, t);
	if (err == -ENOTUNIQ)
		btfids_err(r, e->path, "built from two kernel releases, says its debug info: %s in %s, %s in %s; --kernel RELEASE to choose",
			   rel->text, t->top, t->other.text, t->other_top);
	else if (err == -ENOMEM)
		btfids_err(r, e->path, "out of memory reading its debug info");
	return err;
}

const char *btfids_srctree_why(const struct btfids_srctree *t, char *buf, size_t size)
{
	if (!t->nr_units && *t->dwarf_err)
		snprintf(buf, size, "debug info unreadable: %s", t->dwarf_err);
	else if (!t->nr_units)
		snprintf(buf, size, t->dwarf ? "its debug info names no source file" : "no debug info");
	else
		snprintf(buf, size, "its %u compile unit%s, e.g. %s, %s %s",
			 t->nr_units, t->nr_units == 1 ? "" : "s", t->src,
			 t->nr_units == 1 ? "is" : "are", t->nr_gone == t->nr_units ?
			 "not on this machine (moved or removed?)" : "in no kernel tree");
	return buf;
}
