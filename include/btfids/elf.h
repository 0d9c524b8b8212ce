/* SPDX-License-Identifier: GPL-2.0 */
/*
 * elf.h - read-only access to the parts of an ELF object btfids needs, and
 * the one write it ever makes.
 *
 * Any class (ELF32/ELF64), any byte order, any machine: libelf translates
 * headers and symbols to host order; section bytes are handed out raw, in
 * the target's byte order. The file is mapped read-only and never
 * rewritten by libelf: btfids_elf_write_ids() is a single pwrite() of the
 * new .BTF_ids bytes at the section's file offset, so every other byte of
 * the file stays as it was.
 *
 * Errors: functions return 0 or a negative errno and print one
 * "FAILED <file>: ..." line through the report.
 */
#ifndef _BTFIDS_ELF_H
#define _BTFIDS_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <gelf.h>

struct btf;

#include "btfids/report.h"

/*
 * A section read as raw bytes. Present (index != 0): data is never NULL,
 * also when the section is empty, so copies from it and offsets into it
 * need no special case. Absent: all zero, data NULL.
 */
struct btfids_section {
	size_t index;		/* section header index; 0: absent */
	uint64_t addr;		/* sh_addr */
	uint64_t offset;	/* sh_offset, bytes from the start of the file */
	uint64_t size;		/* sh_size, bytes; 0 when nobits */
	bool nobits;		/* SHT_NOBITS: named, but no bytes in the file (.BTF only) */
	const unsigned char *data;	/* raw bytes (target order), size long */
};

struct btfids_elf {
	const char *path;
	int fd;
	Elf *elf;
	uint64_t file_size;
	unsigned char elf_class;	/* ELFCLASS32 or ELFCLASS64 */
	unsigned char elf_data;		/* ELFDATA2LSB or ELFDATA2MSB */
	uint16_t type;			/* e_type: ET_EXEC, ET_DYN, ET_REL */
	uint16_t machine;		/* e_machine */

	struct btfids_section ids;	/* .BTF_ids */
	struct btfids_section btf;	/* .BTF; nobits in a debug-only file */
	struct btfids_section btf_base;	/* .BTF.base: distilled base of an out-of-tree module */
	struct btfids_section tramp;	/* .BTF_tramp: trampoline tables (tramp.h) */
	struct btf *distilled_base;	/* parsed .BTF.base, owned; see btfids_btf_load() */
	bool has_dwarf;			/* a .debug_info (or .zdebug_info) section */

	/*
	 * SHT_SYMTAB as raw bytes (target order): a vmlinux has ~190k symbols
	 * and only a few hundred in .BTF_ids, so symbols are filtered on their
	 * raw st_shndx and only those left are translated, one by one, by libelf.
	 */
	size_t symtab_index;		/* 0: no symbol table */
	size_t strtab_index;		/* its sh_link */
	const unsigned char *syms;	/* nr_syms * sym_size bytes */
	void *syms_map;			/* our mapping of the pages holding syms, or NULL */
	size_t syms_map_len;
	size_t sym_size;		/* sizeof(Elf32_Sym) or sizeof(Elf64_Sym) */
	const unsigned char *xndx;	/* SHT_SYMTAB_SHNDX: u32 per symbol, or NULL */
	size_t nr_syms;
	size_t first_global;		/* the symtab's sh_info: locals come before it */
};

/*
 * Open @path and index its sections. @writable opens it O_RDWR (refusing a
 * file with no write permission bit, even for root) so that the later
 * write cannot fail on permissions after the work is done.
 */
int btfids_elf_open(struct btfids_elf *e, const char *path, bool writable,
		    struct btfids_report *r);
void btfids_elf_close(struct btfids_elf *e);

/*
 * @a and @b name the same file (device and inode: a link or another path
 * to it counts). False when either cannot be stat()ed.
 */
bool btfids_same_file(const char *a, const char *b);

/*
 * Done with the symbol table for now: its pages leave the process's
 * memory (a private read-only file mapping: they come back from the page
 * cache, unchanged, if touched again). Lowers the peak RSS of a vmlinux
 * run by the size of .symtab (5 MB on amd64), as BTF work follows.
 */
void btfids_elf_drop_syms(struct btfids_elf *e);

/*
 * Host-order copy of symbol @i, its real section index (SHN_XINDEX
 * resolved; other reserved indexes read as SHN_UNDEF) and its name.
 * Returns 0, -ENOENT for SHN_XINDEX without SHT_SYMTAB_SHNDX, or -EINVAL
 * (unreadable symbol, name outside the string table); *shndx is set first.
 */
int btfids_elf_sym(const struct btfids_elf *e, size_t i, GElf_Sym *sym,
		   size_t *shndx, const char **name);

static inline uint16_t btfids_elf_get16(const struct btfids_elf *e, const unsigned char *p)
{
	return e->elf_data == ELFDATA2MSB ? (uint16_t)(p[0] << 8 | p[1]) :
					    (uint16_t)(p[1] << 8 | p[0]);
}

/*
 * The first symbol index from @i on that may be defined in section @shndx,
 * or nr_syms: a test of the raw st_shndx bytes only, so a vmlinux's
 * ~190,000 symbols cost a 2-byte compare each. SHN_XINDEX symbols may be
 * in it too (btfids_elf_sym() decides), as may reserved indexes when
 * @shndx is >= SHN_LORESERVE: callers still check what btfids_elf_sym()
 * returns.
 */
size_t btfids_elf_next_sym_in(const struct btfids_elf *e, size_t i, size_t shndx);

/*
 * The first symbol index from @i on whose st_info type is @type (STT_FILE,
 * ...), or nr_syms: a test of the raw st_info byte, one per symbol, as in
 * btfids_elf_next_sym_in().
 */
size_t btfids_elf_next_sym_of_type(const struct btfids_elf *e, size_t i, unsigned int type);

/*
 * The symbol table has a global (or weak) symbol @name that is defined
 * (st_shndx not SHN_UNDEF: a section, SHN_ABS...), e.g. a linker script's
 * __start_BTF_tramp (GNU ld makes a script's symbols global unless HIDDEN).
 * Only the symbols from sh_info on are read: of a vmlinux's ~214,000, the
 * ~68,000 global ones, one compare of their first bytes each.
 */
bool btfids_elf_defines(const struct btfids_elf *e, const char *name);

/* Byte offset in .BTF_ids of an address (st_value) that points into it. */
static inline bool btfids_elf_ids_offset(const struct btfids_elf *e,
					 uint64_t value, uint64_t *off)
{
	/* ET_REL: st_value is section-relative; else an address (sh_addr based) */
	uint64_t base = e->type == ET_REL ? 0 : e->ids.addr;

	if (value < base)
		return false;
	*off = value - base;
	return true;
}

/*
 * A .BTF_ids with bytes that no symbol points into (no symbol table, or
 * only section symbols: strip --strip-all) can never be resolved: its slots
 * are known only by their __BTF_ID__ symbols. Returns 0, or -EINVAL after a
 * "FAILED <file>: ..." line. An empty or absent .BTF_ids is fine.
 */
int btfids_elf_check_ids_named(const struct btfids_elf *e, struct btfids_report *r);

static inline bool btfids_elf_big_endian(const struct btfids_elf *e)
{
	return e->elf_data == ELFDATA2MSB;
}

/* Replace the whole .BTF_ids section with @buf (ids.size bytes): one pwrite. */
int btfids_elf_write_ids(struct btfids_elf *e, const void *buf, struct btfids_report *r);

#endif /* _BTFIDS_ELF_H */
