// SPDX-License-Identifier: GPL-2.0
/* release.c - the kernel release an object was built from; see release.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "btfids/release.h"

#define BANNER_SYM	"linux_banner"
#define BANNER_PREFIX	"Linux version "
#define VERMAGIC	"vermagic="

int btfids_release_parse(const char *s, struct btfids_release *rel)
{
	unsigned long major, minor;
	char *end;
	size_t n;

	major = strtoul(s, &end, 10);
	if (end == s || *end != '.' || end[1] < '0' || end[1] > '9')
		return -EINVAL;
	minor = strtoul(end + 1, &end, 10);
	if (major > 999 || minor > 999)
		return -EINVAL;
	rel->major = major;
	rel->minor = minor;
	n = strcspn(s, " \t\n");
	if (n >= sizeof(rel->text))
		n = sizeof(rel->text) - 1;
	memcpy(rel->text, s, n);
	rel->text[n] = 0;
	return 0;
}

/* Bytes of section @shndx, or NULL (absent, NOBITS, outside the file). */
static const char *section_bytes(const struct btfids_elf *e, size_t shndx, GElf_Shdr *sh)
{
	Elf_Scn *scn = elf_getscn(e->elf, shndx);
	Elf_Data *d;

	if (!scn || !gelf_getshdr(scn, sh) || sh->sh_type == SHT_NOBITS ||
	    (sh->sh_flags & SHF_COMPRESSED) || sh->sh_offset > e->file_size ||
	    sh->sh_size > e->file_size - sh->sh_offset)
		return NULL;
	d = elf_rawdata(scn, NULL);
	return d && d->d_size == sh->sh_size ? d->d_buf : NULL;
}

/* The string at [p, end) if it is NUL-terminated there, else NULL. */
static const char *str_in(const char *p, const char *end)
{
	return p < end && memchr(p, 0, end - p) ? p : NULL;
}

/*
 * linux_banner's bytes: its symbol is found by a raw scan of st_name (at
 * offset 0 in Elf32_Sym and Elf64_Sym alike), since a vmlinux has ~190,000
 * symbols and only this one is wanted.
 */
static const char *banner(const struct btfids_elf *e)
{
	GElf_Shdr strs_sh, sh;
	const char *strs, *data, *name;
	size_t i, shndx;
	GElf_Sym sym;
	uint64_t base;
	uint32_t off;

	strs = e->nr_syms ? section_bytes(e, e->strtab_index, &strs_sh) : NULL;
	for (i = 0; strs && i < e->nr_syms; i++) {
		const unsigned char *p = e->syms + i * e->sym_size;

		off = e->elf_data == ELFDATA2MSB ?
		      (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3] :
		      (uint32_t)p[3] << 24 | p[2] << 16 | p[1] << 8 | p[0];
		if (off >= strs_sh.sh_size || strs[off] != 'l' ||
		    strncmp(strs + off, BANNER_SYM, strs_sh.sh_size - off))
			continue;
		if (btfids_elf_sym(e, i, &sym, &shndx, &name) || shndx == SHN_UNDEF)
			return NULL;
		data = section_bytes(e, shndx, &sh);
		if (!data)
			return NULL;
		base = e->type == ET_REL ? 0 : sh.sh_addr;	/* st_value is an address */
		if (sym.st_value < base || sym.st_value - base >= sh.sh_size)
			return NULL;
		data = str_in(data + (sym.st_value - base), data + sh.sh_size);
		if (data && !strncmp(data, BANNER_PREFIX, strlen(BANNER_PREFIX)))
			return data + strlen(BANNER_PREFIX);
		return NULL;
	}
	return NULL;
}

/* "vermagic=" in .modinfo: NUL-separated "key=value" strings. */
static const char *vermagic(const struct btfids_elf *e)
{
	size_t shstrndx, len = strlen(VERMAGIC);
	const char *data, *p, *end, *name;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(e->elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(e->elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			return NULL;
		name = elf_strptr(e->elf, shstrndx, sh.sh_name);
		if (name && !strcmp(name, ".modinfo"))
			break;
	}
	data = scn ? section_bytes(e, elf_ndxscn(scn), &sh) : NULL;
	end = data ? data + sh.sh_size : NULL;
	for (p = data; p && p < end; p += strnlen(p, end - p) + 1)
		if ((size_t)(end - p) > len && !strncmp(p, VERMAGIC, len) && str_in(p, end))
			return p + len;
	return NULL;
}

/* @s, from @where, does not parse: its text (to the line's end) kept for the caller */
static void unparsable(struct btfids_release *rel, const char *where, const char *s)
{
	size_t n = strcspn(s, "\n");

	if (rel->bad)
		return;
	rel->bad = where;
	snprintf(rel->text, sizeof(rel->text), "%.*s", (int)n, s);
}

int btfids_release_read(const struct btfids_elf *e, struct btfids_release *rel)
{
	const char *s;

	rel->from = NULL;
	rel->bad = NULL;
	s = e->type == ET_REL ? vermagic(e) : NULL;
	if (s && !btfids_release_parse(s, rel)) {
		rel->from = "vermagic";
		return 0;
	}
	if (s)
		unparsable(rel, "vermagic", s - strlen(VERMAGIC));
	s = banner(e);
	if (s && !btfids_release_parse(s, rel)) {
		rel->from = BANNER_SYM;
		rel->bad = NULL;	/* a vermagic= that does not parse: the banner says */
		return 0;
	}
	if (s)
		unparsable(rel, BANNER_SYM, s - strlen(BANNER_PREFIX));
	return rel->bad ? -EBADMSG : -ENOENT;
}

enum btfids_flow btfids_release_flow(const struct btfids_release *rel)
{
	if (!rel->from || rel->major < 7)
		return BTFIDS_FLOW_6X;
	if (rel->major == 7 && rel->minor < 3)
		return BTFIDS_FLOW_72;
	return BTFIDS_FLOW_73;
}

const char *btfids_flow_str(enum btfids_flow flow)
{
	switch (flow) {
	case BTFIDS_FLOW_72:
		return "7.x flow, 7.0-7.2 rules (kfuncs by decl tag)";
	case BTFIDS_FLOW_73:
		return "7.x flow, 7.3 rules (kfuncs by set8, dedup)";
	default:
		return "6.x flow (in place)";
	}
}
