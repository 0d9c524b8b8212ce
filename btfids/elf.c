// SPDX-License-Identifier: GPL-2.0
/*
 * elf.c - open an ELF object with libelf, find .BTF_ids, .BTF and the
 * symbol table, check that what we will read lies inside the file, and
 * write the new .BTF_ids bytes back with one pwrite().
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bpf/btf.h>

#include "btfids/elf.h"

#define SEC_IDS	".BTF_ids"
#define SEC_BTF	".BTF"
#define SEC_BTF_BASE	".BTF.base"
#define SEC_TRAMP	".BTF_tramp"

/* [off, off + size) lies inside a file of file_size bytes (no overflow). */
static bool in_file(uint64_t file_size, uint64_t off, uint64_t size)
{
	return off <= file_size && size <= file_size - off;
}

static int elf_fail(struct btfids_elf *e, struct btfids_report *r, const char *what)
{
	btfids_err(r, e->path, "%s: %s", what, elf_errmsg(-1));
	return -EINVAL;
}

#define WRITE_HINT	"make it writable or use -o FILE"

/*
 * A file btfids may not open for writing: its owner and root get the same
 * line for a file without write bits (root's open succeeds: open_file()
 * refuses it), and every reader the way out.
 */
static int refuse_write(struct btfids_elf *e, int err, struct btfids_report *r)
{
	struct stat st;

	if (err != -EROFS && !stat(e->path, &st) && S_ISREG(st.st_mode) &&
	    !(st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)))
		btfids_err(r, e->path, "file is read-only (no write permission bit); " WRITE_HINT);
	else
		btfids_err(r, e->path, "cannot open for writing: %s; %s", strerror(-err),
			   err == -EROFS ? "use -o FILE" : WRITE_HINT);
	return err;
}

static int open_file(struct btfids_elf *e, bool writable, struct btfids_report *r)
{
	struct stat st;

	e->fd = open(e->path, (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC);
	if (e->fd < 0 && errno == EISDIR) {
		btfids_err(r, e->path, "is a directory, not an ELF file");
		return -EISDIR;
	}
	if (e->fd < 0 && writable && (errno == EACCES || errno == EROFS || errno == EPERM))
		return refuse_write(e, -errno, r);
	if (e->fd < 0) {
		int err = -errno;

		btfids_err(r, e->path, "cannot open: %s", strerror(-err));
		return err;
	}
	if (fstat(e->fd, &st)) {
		int err = -errno;

		btfids_err(r, e->path, "cannot stat: %s", strerror(-err));
		return err;
	}
	if (!S_ISREG(st.st_mode)) {
		btfids_err(r, e->path, S_ISDIR(st.st_mode) ? "is a directory, not an ELF file" :
			   "not a regular file");
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	}
	/* root may open anything O_RDWR; a file without write bits is still read-only */
	if (writable && !(st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH))) {
		btfids_err(r, e->path, "file is read-only (no write permission bit); " WRITE_HINT);
		return -EACCES;
	}
	e->file_size = st.st_size;
	return 0;
}

/*
 * libelf refuses a file shorter than its ELF header with a generic
 * message: name the two cases ourselves before handing the file over.
 */
static int check_ident(struct btfids_elf *e, struct btfids_report *r)
{
	unsigned char ident[EI_NIDENT];
	uint64_t need;
	ssize_t n;

	n = pread(e->fd, ident, sizeof(ident), 0);
	if (n < SELFMAG || memcmp(ident, ELFMAG, SELFMAG)) {
		btfids_err(r, e->path, "not an ELF file");
		return -EINVAL;
	}
	need = n == EI_NIDENT && ident[EI_CLASS] == ELFCLASS32 ?
	       sizeof(Elf32_Ehdr) : sizeof(Elf64_Ehdr);
	if (n < EI_NIDENT || e->file_size < need) {
		btfids_err(r, e->path, "truncated ELF header (%llu bytes, need %llu)",
			   (unsigned long long)e->file_size, (unsigned long long)need);
		return -EINVAL;
	}
	return 0;
}

static int read_ehdr(struct btfids_elf *e, struct btfids_report *r)
{
	GElf_Ehdr eh;
	char *ident;

	if (elf_kind(e->elf) != ELF_K_ELF) {
		btfids_err(r, e->path, "not an ELF file");
		return -EINVAL;
	}
	ident = elf_getident(e->elf, NULL);
	if (!ident || !gelf_getehdr(e->elf, &eh))
		return elf_fail(e, r, "bad ELF header");
	e->elf_class = ident[EI_CLASS];
	e->elf_data = ident[EI_DATA];
	if (e->elf_data != ELFDATA2LSB && e->elf_data != ELFDATA2MSB) {
		btfids_err(r, e->path, "unknown ELF byte order %u", e->elf_data);
		return -EINVAL;
	}
	e->type = eh.e_type;
	e->machine = eh.e_machine;
	return 0;
}

/*
 * What a present section with no bytes points at: never NULL, so that a
 * copy from (memcpy of 0 bytes) or an offset into an empty section is
 * defined behaviour wherever it happens.
 */
static const unsigned char no_bytes[1];

/*
 * A NOBITS section that may stay in the object (@may_be_nobits: .BTF of a
 * debug-only file): present, flagged, no bytes. The verbs decide.
 */
static void take_nobits(Elf_Scn *scn, const GElf_Shdr *sh, struct btfids_section *s)
{
	s->index = elf_ndxscn(scn);
	s->addr = sh->sh_addr;
	s->offset = sh->sh_offset;
	s->size = 0;
	s->nobits = true;
	s->data = no_bytes;
}

/* Raw bytes of a section we read as bytes (.BTF_ids, .BTF, .BTF_tramp). */
static int take_bytes(struct btfids_elf *e, Elf_Scn *scn, const GElf_Shdr *sh,
		      const char *name, bool may_be_nobits,
		      struct btfids_section *s, struct btfids_report *r)
{
	Elf_Data *d;

	if (s->index) {
		btfids_err(r, e->path, "more than one %s section", name);
		return -EINVAL;
	}
	if (sh->sh_type == SHT_NOBITS && may_be_nobits) {
		take_nobits(scn, sh, s);
		return 0;
	}
	if (sh->sh_type == SHT_NOBITS || (sh->sh_flags & SHF_COMPRESSED)) {
		bool nobits = sh->sh_type == SHT_NOBITS;

		btfids_err(r, e->path, "%s section has no plain bytes in the file (%s)%s",
			   name, nobits ? "NOBITS" : "compressed",
			   nobits ? ": a debug-only copy (objcopy --only-keep-debug)?" : "");
		return -EINVAL;
	}
	if (!in_file(e->file_size, sh->sh_offset, sh->sh_size)) {
		btfids_err(r, e->path, "%s section (offset %#llx, size %#llx) lies outside the file (%llu bytes): truncated?",
			   name, (unsigned long long)sh->sh_offset,
			   (unsigned long long)sh->sh_size,
			   (unsigned long long)e->file_size);
		return -EINVAL;
	}
	s->index = elf_ndxscn(scn);
	s->addr = sh->sh_addr;
	s->offset = sh->sh_offset;
	s->size = sh->sh_size;
	s->data = no_bytes;
	if (!sh->sh_size)
		return 0;
	d = elf_rawdata(scn, NULL);
	if (!d || d->d_size != sh->sh_size)
		return elf_fail(e, r, name);
	s->data = d->d_buf;
	return 0;
}

/* @size bytes at @off of the file, mapped private and read-only for e->syms */
static bool map_syms(struct btfids_elf *e, uint64_t off, uint64_t size)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t start = off & ~(uint64_t)(page > 0 ? page - 1 : 4095);
	void *p;

	if (size > SIZE_MAX - (off - start))
		return false;
	p = mmap(NULL, size + (off - start), PROT_READ, MAP_PRIVATE, e->fd, start);
	if (p == MAP_FAILED)
		return false;
	e->syms_map = p;
	e->syms_map_len = size + (off - start);
	e->syms = (const unsigned char *)p + (off - start);
	return true;
}

void btfids_elf_drop_syms(struct btfids_elf *e)
{
	if (e->syms_map)
		madvise(e->syms_map, e->syms_map_len, MADV_DONTNEED);
}

static int take_symtab(struct btfids_elf *e, Elf_Scn *scn, const GElf_Shdr *sh,
		       struct btfids_report *r)
{
	size_t entsize = gelf_fsize(e->elf, ELF_T_SYM, 1, EV_CURRENT);
	Elf_Data *d;

	if (e->symtab_index) {
		btfids_err(r, e->path, "more than one symbol table");
		return -EINVAL;
	}
	if (sh->sh_entsize != entsize) {
		btfids_err(r, e->path, "symbol table entry size is %llu, expected %zu",
			   (unsigned long long)sh->sh_entsize, entsize);
		return -EINVAL;
	}
	if (!in_file(e->file_size, sh->sh_offset, sh->sh_size)) {
		btfids_err(r, e->path, "symbol table (offset %#llx, size %#llx) lies outside the file (%llu bytes): truncated?",
			   (unsigned long long)sh->sh_offset,
			   (unsigned long long)sh->sh_size,
			   (unsigned long long)e->file_size);
		return -EINVAL;
	}
	e->symtab_index = elf_ndxscn(scn);
	e->strtab_index = sh->sh_link;
	e->nr_syms = sh->sh_size / entsize;
	e->sym_size = entsize;
	/* sh_info: one past the last local symbol (gABI); a bad one: scan all */
	e->first_global = sh->sh_info <= e->nr_syms ? sh->sh_info : 0;
	if (!e->nr_syms)
		return 0;
	/*
	 * Our own read-only mapping of it, which btfids_elf_drop_syms() can
	 * take out of the process once the symbols are collected; else
	 * libelf's bytes (its own map, or a copy when it could not map).
	 */
	if (map_syms(e, sh->sh_offset, sh->sh_size))
		return 0;
	d = elf_rawdata(scn, NULL);
	if (!d || d->d_size != sh->sh_size)
		return elf_fail(e, r, "cannot read the symbol table");
	e->syms = d->d_buf;
	return 0;
}

static int check_strtab(struct btfids_elf *e, struct btfids_report *r)
{
	Elf_Scn *scn = elf_getscn(e->elf, e->strtab_index);
	GElf_Shdr sh;

	if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type != SHT_STRTAB ||
	    !in_file(e->file_size, sh.sh_offset, sh.sh_size)) {
		btfids_err(r, e->path, "symbol table's string table (section %zu) is missing or lies outside the file",
			   e->strtab_index);
		return -EINVAL;
	}
	return 0;
}

/* SHT_SYMTAB_SHNDX holds the section indexes of symbols marked SHN_XINDEX. */
static int take_xndx(struct btfids_elf *e, struct btfids_report *r)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	Elf_Data *d;

	while ((scn = elf_nextscn(e->elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB_SHNDX ||
		    sh.sh_link != e->symtab_index)
			continue;
		if (!in_file(e->file_size, sh.sh_offset, sh.sh_size) ||
		    sh.sh_size / 4 < e->nr_syms) {
			btfids_err(r, e->path, "SHT_SYMTAB_SHNDX section %zu is too small or outside the file",
				   elf_ndxscn(scn));
			return -EINVAL;
		}
		d = elf_rawdata(scn, NULL);
		if (!d || d->d_size != sh.sh_size)
			return elf_fail(e, r, "cannot read SHT_SYMTAB_SHNDX");
		e->xndx = d->d_buf;
		return 0;
	}
	return 0;
}

/*
 * A table of @num entries of @entsize bytes at @off lies inside the file,
 * after the ELF header, with entries of the size the class requires.
 */
static int check_table(struct btfids_elf *e, const char *what, uint64_t off,
		       uint64_t num, uint64_t entsize, Elf_Type type,
		       struct btfids_report *r)
{
	uint64_t want = gelf_fsize(e->elf, type, 1, EV_CURRENT);

	if (!num)
		return 0;
	if (entsize != want) {
		btfids_err(r, e->path, "%s entry size is %llu, expected %llu", what,
			   (unsigned long long)entsize, (unsigned long long)want);
		return -EINVAL;
	}
	if (num > e->file_size / entsize || !in_file(e->file_size, off, num * entsize)) {
		btfids_err(r, e->path, "%s (offset %#llx, %llu entries) lies outside the file (%llu bytes): truncated?",
			   what, (unsigned long long)off, (unsigned long long)num,
			   (unsigned long long)e->file_size);
		return -EINVAL;
	}
	if (off < gelf_fsize(e->elf, ELF_T_EHDR, 1, EV_CURRENT)) {
		btfids_err(r, e->path, "%s (offset %#llx) overlaps the ELF header", what,
			   (unsigned long long)off);
		return -EINVAL;
	}
	return 0;
}

/*
 * libelf reports no sections at all when the table does not fit in the
 * file: check e_shnum entries, or libelf's count when e_shnum is 0 (the
 * real count is in section 0), or at least one entry where e_shoff points,
 * so that a truncated file is an error, not an empty object.
 */
static int check_shdrs(struct btfids_elf *e, size_t shnum, struct btfids_report *r)
{
	size_t phnum;
	GElf_Ehdr eh;
	int err;

	if (!gelf_getehdr(e->elf, &eh))
		return elf_fail(e, r, "bad ELF header");
	if (eh.e_shnum)
		shnum = eh.e_shnum;
	else if (!shnum && eh.e_shoff)
		shnum = 1;
	err = check_table(e, "section header table", eh.e_shoff, shnum,
			  eh.e_shentsize, ELF_T_SHDR, r);
	if (err)
		return err;
	/* libelf's count, too, drops a table that does not fit */
	if (eh.e_phnum != PN_XNUM || elf_getphdrnum(e->elf, &phnum))
		phnum = eh.e_phnum;
	return check_table(e, "program header table", eh.e_phoff, phnum,
			   eh.e_phentsize, ELF_T_PHDR, r);
}

static int scan_sections(struct btfids_elf *e, struct btfids_report *r)
{
	size_t shstrndx, shnum;
	Elf_Scn *scn = NULL;
	int err;

	if (elf_getshdrnum(e->elf, &shnum) || elf_getshdrstrndx(e->elf, &shstrndx))
		return elf_fail(e, r, "cannot read section headers");
	err = check_shdrs(e, shnum, r);
	if (err)
		return err;
	while ((scn = elf_nextscn(e->elf, scn))) {
		const char *name;
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh))
			return elf_fail(e, r, "bad section header");
		name = elf_strptr(e->elf, shstrndx, sh.sh_name);
		if (!name) {
			btfids_err(r, e->path, "section %zu has no valid name (sh_name %u)",
				   elf_ndxscn(scn), sh.sh_name);
			return -EINVAL;
		}
		err = 0;
		if (sh.sh_type == SHT_SYMTAB)
			err = take_symtab(e, scn, &sh, r);
		else if (!strcmp(name, SEC_IDS))
			err = take_bytes(e, scn, &sh, SEC_IDS, false, &e->ids, r);
		else if (!strcmp(name, SEC_BTF))
			err = take_bytes(e, scn, &sh, SEC_BTF, true, &e->btf, r);
		else if (!strcmp(name, SEC_BTF_BASE))
			err = take_bytes(e, scn, &sh, SEC_BTF_BASE, false, &e->btf_base, r);
		else if (!strcmp(name, SEC_TRAMP))
			err = take_bytes(e, scn, &sh, SEC_TRAMP, false, &e->tramp, r);
		if (err)
			return err;
		e->has_dwarf |= !strcmp(name, ".debug_info") || !strcmp(name, ".zdebug_info");
	}
	if (!e->symtab_index)
		return 0;
	err = check_strtab(e, r);
	return err ? err : take_xndx(e, r);
}

int btfids_elf_open(struct btfids_elf *e, const char *path, bool writable,
		    struct btfids_report *r)
{
	int err;

	memset(e, 0, sizeof(*e));
	e->path = path;
	e->fd = -1;
	err = open_file(e, writable, r);
	if (!err)
		err = check_ident(e, r);
	if (err)
		goto fail;
	elf_version(EV_CURRENT);
	e->elf = elf_begin(e->fd, ELF_C_READ_MMAP, NULL);
	if (!e->elf) {
		err = elf_fail(e, r, "cannot read ELF");
		goto fail;
	}
	err = read_ehdr(e, r);
	if (!err)
		err = scan_sections(e, r);
	if (!err)
		return 0;
fail:
	btfids_elf_close(e);
	return err;
}

void btfids_elf_close(struct btfids_elf *e)
{
	btf__free(e->distilled_base);
	e->distilled_base = NULL;
	if (e->syms_map)
		munmap(e->syms_map, e->syms_map_len);
	e->syms_map = NULL;
	e->syms = NULL;
	if (e->elf)
		elf_end(e->elf);
	if (e->fd >= 0)
		close(e->fd);
	e->elf = NULL;
	e->fd = -1;
}

/* Translate one raw symbol to host order with libelf. */
static int xlate_sym(const struct btfids_elf *e, size_t i, GElf_Sym *sym)
{
	Elf64_Sym s64;
	Elf32_Sym s32;
	Elf_Data src = {
		.d_buf = (void *)(e->syms + i * e->sym_size),
		.d_type = ELF_T_SYM,
		.d_size = e->sym_size,
		.d_version = EV_CURRENT,
	};
	Elf_Data dst = {
		.d_buf = e->elf_class == ELFCLASS32 ? (void *)&s32 : (void *)&s64,
		.d_size = e->elf_class == ELFCLASS32 ? sizeof(s32) : sizeof(s64),
	};

	if (!gelf_xlatetom(e->elf, &dst, &src, e->elf_data))
		return -EINVAL;
	if (e->elf_class != ELFCLASS32) {
		*sym = s64;
		return 0;
	}
	*sym = (GElf_Sym){
		.st_name = s32.st_name, .st_info = s32.st_info,
		.st_other = s32.st_other, .st_shndx = s32.st_shndx,
		.st_value = s32.st_value, .st_size = s32.st_size,
	};
	return 0;
}

int btfids_elf_sym(const struct btfids_elf *e, size_t i, GElf_Sym *sym,
		   size_t *shndx, const char **name)
{
	const unsigned char *x;

	*shndx = SHN_UNDEF;
	*name = NULL;
	if (i >= e->nr_syms || xlate_sym(e, i, sym))
		return -EINVAL;
	/* SHN_ABS, SHN_COMMON...: in no section, whatever .BTF_ids's index is */
	if (sym->st_shndx < SHN_LORESERVE)
		*shndx = sym->st_shndx;
	if (sym->st_shndx == SHN_XINDEX) {
		if (!e->xndx)
			return -ENOENT;
		x = e->xndx + 4 * i;
		*shndx = e->elf_data == ELFDATA2MSB ?
			 (uint32_t)x[0] << 24 | x[1] << 16 | x[2] << 8 | x[3] :
			 (uint32_t)x[3] << 24 | x[2] << 16 | x[1] << 8 | x[0];
	}
	*name = elf_strptr(e->elf, e->strtab_index, sym->st_name);
	return *name ? 0 : -EINVAL;
}

int btfids_elf_write_ids(struct btfids_elf *e, const void *buf, struct btfids_report *r)
{
	const unsigned char *p = buf;
	uint64_t done = 0;

	while (done < e->ids.size) {
		ssize_t n = pwrite(e->fd, p + done, e->ids.size - done,
				   e->ids.offset + done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			btfids_err(r, e->path, "cannot write .BTF_ids: %s",
				   n < 0 ? strerror(errno) : "short write");
			return n < 0 ? -errno : -EIO;
		}
		done += n;
	}
	return 0;
}

/* @v as the file stores a 16-bit field, read back in host order */
static uint16_t raw16(const struct btfids_elf *e, uint16_t v)
{
	unsigned char b[2];
	uint16_t raw;

	if (e->elf_data == ELFDATA2MSB) {
		b[0] = v >> 8;
		b[1] = v;
	} else {
		b[0] = v;
		b[1] = v >> 8;
	}
	memcpy(&raw, b, sizeof(raw));
	return raw;
}

size_t btfids_elf_next_sym_in(const struct btfids_elf *e, size_t i, size_t shndx)
{
	/* st_shndx: offset 14 in Elf32_Sym, 6 in Elf64_Sym */
	size_t at = e->elf_class == ELFCLASS32 ? 14 : 6;
	uint16_t want = raw16(e, shndx), xindex = raw16(e, SHN_XINDEX), v;
	const unsigned char *p;

	if (i >= e->nr_syms)	/* an empty table has no e->syms to offset */
		return e->nr_syms;
	p = e->syms + at;
	for (; i < e->nr_syms; i++) {
		memcpy(&v, p + i * e->sym_size, sizeof(v));
		if (v == want || v == xindex)
			break;
	}
	return i;
}

size_t btfids_elf_next_sym_of_type(const struct btfids_elf *e, size_t i, unsigned int type)
{
	/* st_info: one byte, offset 12 in Elf32_Sym, 4 in Elf64_Sym */
	size_t at = e->elf_class == ELFCLASS32 ? 12 : 4;

	for (; i < e->nr_syms; i++)
		if (GELF_ST_TYPE(e->syms[i * e->sym_size + at]) == type)
			break;
	return i < e->nr_syms ? i : e->nr_syms;
}

bool btfids_elf_defines(const struct btfids_elf *e, const char *name)
{
	/* st_name: offset 0 in both classes; st_shndx: 14 (Elf32_Sym), 6 (Elf64_Sym) */
	size_t at = e->elf_class == ELFCLASS32 ? 14 : 6, len = strlen(name) + 1, i;
	Elf_Scn *scn = e->symtab_index ? elf_getscn(e->elf, e->strtab_index) : NULL;
	Elf_Data *d = scn ? elf_rawdata(scn, NULL) : NULL;
	const unsigned char *p;
	const char *strs;
	uint32_t off;

	if (!d || !d->d_buf)
		return false;
	strs = d->d_buf;
	for (i = e->first_global; i < e->nr_syms; i++) {
		p = e->syms + i * e->sym_size;
		off = e->elf_data == ELFDATA2MSB ?
		      (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3] :
		      (uint32_t)p[3] << 24 | p[2] << 16 | p[1] << 8 | p[0];
		if (off >= d->d_size || d->d_size - off < len || strs[off] != name[0] ||
		    strs[off + 1] != name[1] || memcmp(strs + off, name, len))
			continue;
		if (btfids_elf_get16(e, p + at) != SHN_UNDEF)
			return true;
	}
	return false;
}

/* Some symbol other than a section symbol is defined in .BTF_ids. */
static bool ids_has_symbols(const struct btfids_elf *e)
{
	const char *name;
	size_t i, shndx;
	GElf_Sym sym;

	for (i = btfids_elf_next_sym_in(e, 0, e->ids.index); i < e->nr_syms;
	     i = btfids_elf_next_sym_in(e, i + 1, e->ids.index)) {
		/* an unreadable symbol: the collection names that error */
		if (btfids_elf_sym(e, i, &sym, &shndx, &name))
			return true;
		if (shndx == e->ids.index && GELF_ST_TYPE(sym.st_info) != STT_SECTION)
			return true;
	}
	return false;
}

int btfids_elf_check_ids_named(const struct btfids_elf *e, struct btfids_report *r)
{
	if (!e->ids.index || !e->ids.size || ids_has_symbols(e))
		return 0;
	btfids_err(r, e->path, ".BTF_ids has %llu bytes but %s names a slot in it (stripped, e.g. strip --strip-all?): its IDs can never be filled or checked; use the unstripped object",
		   (unsigned long long)e->ids.size,
		   e->symtab_index ? "no symbol" : "there is no symbol table, so nothing");
	return -EINVAL;
}

bool btfids_same_file(const char *a, const char *b)
{
	struct stat x, y;

	return !stat(a, &x) && !stat(b, &y) && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}
