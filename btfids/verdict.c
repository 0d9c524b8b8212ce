// SPDX-License-Identifier: GPL-2.0
/*
 * verdict.c - per-function attach verdicts (verdict.h): what one fentry,
 * fexit or fmod_ret program on a vmlinux function meets in the kernel the
 * ELF is, step by step, from what the ELF holds: its symbol table (the
 * kernel's kallsyms), its ftrace sites, its error-injection list, its init
 * text bounds and the resolved .BTF_ids sets the verifier consults.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "btfids/patch.h"
#include "btfids/syms.h"
#include "btfids/tramp.h"
#include "btfids/verdict.h"

/*
 * arm64: where a function's __mcount_loc entry is, and so its ftrace
 * record (ftrace_call_adjust(): arch/arm64/include/asm/ftrace.h to 6.3,
 * arch/arm64/kernel/ftrace.c from 6.4). arm64_layout() tells which from
 * the image, since the config that chose it is not in the ELF.
 */
enum arm64_layout {
	ARM64_UNKNOWN,
	ARM64_MCOUNT,	/* -pg: the entry is the BL to _mcount, the record itself */
	/*
	 * -fpatchable-function-entry=2 (DYNAMIC_FTRACE_WITH_REGS, 5.5; _ARGS,
	 * 6.2): the entry is the first of two NOPs at the function (after a
	 * BTI C, ARM64_BTI_KERNEL), the record the second: entry + 4
	 */
	ARM64_ENTRY,
	/*
	 * =4,2 (DYNAMIC_FTRACE_WITH_CALL_OPS, 6.4): the entry is the first of
	 * two NOPs 8 bytes before the function, 8-byte aligned; the record is
	 * the function's second NOP: entry + 8, + 4 over a BTI, + 4
	 */
	ARM64_CALL_OPS,
};

#define ARM64_INSN_NOP		0xd503201fu
#define ARM64_PRE_NOPS		8	/* the CALL_OPS literal; sorttable's before_func */
/*
 * arch/arm64/Kconfig's HAVE_DYNAMIC_FTRACE_WITH_DIRECT_CALLS: none before
 * 6.4; from 6.4 "if DYNAMIC_FTRACE_WITH_CALL_OPS" (6.12's tree still); in
 * 7.3's "if DYNAMIC_FTRACE_WITH_ARGS", CALL_OPS or not. A kernel between
 * the two without CALL_OPS gets no verdicts (arm64_sites()).
 */
#define ARM64_DIRECT_OPS_ONLY	BTFIDS_KERNEL(6, 12)	/* the newest seen to need CALL_OPS */
#define ARM64_DIRECT_ANY	BTFIDS_KERNEL(7, 3)	/* the oldest seen not to */

/*
 * A word the kernel relocates at boot (a relocatable image: arm64's -pie,
 * s390x's before 6.10): its address and the R_*_RELATIVE addend, the word's value
 * at the link address. The file holds 0 there on arm64.
 */
struct rel_word {
	uint64_t off, addend;
};

/* A kallsyms symbol: a name at an address in an executable section */
struct ksym {
	uint64_t addr;
	const char *name;
	size_t order;		/* a module's: its symbol table index (the kernel's order) */
};

struct btfids_attach_info {
	const struct btfids_elf *e;
	bool arm64;		/* EM_AARCH64 */
	bool s390;		/* EM_S390 */
	uint64_t bound[16];		/* bound_names[]' values (0: absent) */	/* the entries' bytes (poke_ip()); open while in use */
	unsigned int kernel;
	struct ksym *by_addr;	/* ascending address */
	struct ksym *by_name;	/* ascending name, then address */
	size_t nr_ksyms;
	uint64_t *sites;	/* ftrace records (ftrace_call_adjust()'s), ascending */
	size_t nr_sites;
	struct rel_word *rel;	/* .rela.dyn's RELATIVE relocations, by offset */
	size_t nr_rel;
	bool direct;		/* HAVE_DYNAMIC_FTRACE_WITH_DIRECT_CALLS (arm64: by release) */
	uint64_t *alts;		/* instructions of 5 bytes or more alternatives patch, ascending */
	size_t nr_alts;
	uint64_t *ei;		/* starts of the error-injectable functions, ascending */
	size_t nr_ei;
	bool has_ei;		/* CONFIG_FUNCTION_ERROR_INJECTION: the list's bounds */
	uint64_t init_begin, init_end;	/* __init_begin, __init_end: freed after boot */
	uint64_t stext, etext;		/* _stext, _etext: is_kernel_text() */
	uint64_t sinittext, einittext;	/* _sinittext, _einittext: is_kernel_inittext() */
	/* the patched kernel: a name at two text addresses refused (vmlinux names) */
	bool one_address;
	bool one_site;		/* the patched kernel: a link naming a call site twice refused */
	bool module;		/* a module (ET_REL): addresses are MOD_ADDR()s */
	uint32_t *deny, *noreturn, *fmodret;	/* sorted BTF IDs */
	size_t nr_deny, nr_noreturn, nr_fmodret;
};

#define SECURITY_PREFIX		"security_"	/* kernel/bpf/verifier.c */
#define X64_SYSCALL_PREFIX	"__x64_"	/* has_arch_syscall_prefix(), x86_64 */
#define ARM64_SYSCALL_PREFIX	"__arm64_"	/* the same, arm64 */
#define S390_SYSCALL_PREFIX	"__s390x_"	/* the same, s390x */

/*
 * kfunc sets registered with register_btf_fmodret_id_set(), by name: the
 * registration is code, not data (7.3's callers: net/bpf/test_run.c,
 * net/mptcp/bpf.c; a release that adds one needs its set here)
 */
static const char *const fmodret_sets[] = {
	"bpf_test_modify_return_ids",
	"bpf_mptcp_fmodret_ids",
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int cmp_name(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Whether section @shndx of @e holds code (SHF_EXECINSTR) */
static bool exec_section(const struct btfids_elf *e, size_t shndx)
{
	Elf_Scn *scn = elf_getscn(e->elf, shndx);
	GElf_Shdr sh;

	return scn && gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_EXECINSTR) &&
	       sh.sh_type == SHT_PROGBITS;
}

/*
 * The symbols whose values the rules need (linker-script symbols such as
 * __start_mcount_loc are global, _sinittext too), read in one pass over
 * the table (read_bounds()) into btfids_attach_info.bound[].
 */
static const char *const bound_names[] = {
	"_stext", "_etext", "_sinittext", "_einittext", "__init_begin", "__init_end",
	"kallsyms_num_syms", "__start_mcount_loc", "__stop_mcount_loc",
	"__start_error_injection_whitelist", "__stop_error_injection_whitelist",
};

#define NR_BOUNDS	(sizeof(bound_names) / sizeof(bound_names[0]))
_Static_assert(NR_BOUNDS <= 16, "btfids_attach_info.bound[] holds them");

static void read_bounds(const struct btfids_elf *e, uint64_t *bound)
{
	const char *n;
	GElf_Sym sym;
	size_t i, k, shndx;

	for (i = 1; i < e->nr_syms; i++) {
		if (btfids_elf_sym(e, i, &sym, &shndx, &n) || shndx == SHN_UNDEF)
			continue;
		for (k = 0; k < NR_BOUNDS; k++)
			if (!bound[k] && !strcmp(n, bound_names[k]))
				bound[k] = sym.st_value;
	}
}

/* The value of bound_names[] symbol @name, or 0 */
static uint64_t sym_value(const struct btfids_attach_info *ai, const char *name)
{
	size_t k;

	for (k = 0; k < NR_BOUNDS; k++)
		if (!strcmp(bound_names[k], name))
			return ai->bound[k];
	return 0;
}

/* @len bytes of the section that holds address @addr, into @buf */
static int read_at(const struct btfids_elf *e, uint64_t addr, void *buf, size_t len)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(e->elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS || !(sh.sh_flags & SHF_ALLOC))
			continue;
		if (addr < sh.sh_addr || addr - sh.sh_addr > sh.sh_size ||
		    len > sh.sh_size - (addr - sh.sh_addr))
			continue;
		if (pread(e->fd, buf, len, sh.sh_offset + (addr - sh.sh_addr)) != (ssize_t)len)
			return -EIO;
		return 0;
	}
	return -ENOENT;
}

/*
 * The names kallsyms never sees: scripts/link-vmlinux.sh feeds it `nm -n`
 * through scripts/mksysmap (7.3's), which drops ARM's mapping symbols
 * ($x, $d: nm itself hides them), local labels, the EFI stub's and the
 * position-independent code's aliases, CFI type ids, the modversions and
 * export strings, device tables and veneers.
 */
static bool mksysmap_drops(const char *name)
{
	static const char *const prefix[] = {
		"$", ".L", "__efistub_", "__pi_$", "__pi_.L", "__kvm_nvhe_$", "__kvm_nvhe_.L",
		"__kcfi_typeid_", "__kvm_nvhe___kcfi_typeid_", "__pi___kcfi_typeid_", "__crc_",
		"__kstrtab_", "__kstrtabns_", "__mod_device_table__",
	};
	static const char *const suffix[] = { "_from_arm", "_from_thumb", "_veneer" };
	size_t i, n = strlen(name), k;

	for (i = 0; i < sizeof(prefix) / sizeof(prefix[0]); i++)
		if (!strncmp(name, prefix[i], strlen(prefix[i])))
			return true;
	/* __UNIQUE_ID_modinfo_[0-9]*$ */
	k = sizeof("__UNIQUE_ID_modinfo_") - 1;
	if (!strncmp(name, "__UNIQUE_ID_modinfo_", k) && strspn(name + k, "0123456789") == n - k)
		return true;
	for (i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++) {
		k = strlen(suffix[i]);
		if (n >= k && !strcmp(name + n - k, suffix[i]))
			return true;
	}
	if (!strncmp(name, "__", 2)) {	/* ^__[[:alnum:]]*Thunk_ */
		for (k = 2; isalnum((unsigned char)name[k]); k++)
			;
		if (k >= 7 && !strncmp(name + k - 5, "Thunk_", 6))
			return true;
	}
	return strstr(name, ".long_branch.") || strstr(name, ".plt_branch.") || !strcmp(name, "L0");
}

/*
 * Without CONFIG_KALLSYMS_ALL (scripts/kallsyms.c, no --all-symbols),
 * kallsyms keeps only the symbols in [_stext, _etext] and [_sinittext,
 * _einittext]: exit text, for one, has no address. The config is not in
 * the ELF; kallsyms_num_syms, the count the build wrote, is: it is told
 * from the two counts by which it is nearer.
 */
struct text_ranges {
	uint64_t t0, t1, i0, i1;	/* _stext, _etext, _sinittext, _einittext */
};

/*
 * symbol_valid(): inside a range, ends included, but for the symbols that
 * share an end's address without being it (they may move between the
 * link's passes); no function is at an end.
 */
static bool in_text_ranges(const struct text_ranges *r, uint64_t a)
{
	return (a >= r->t0 && a < r->t1) || (a >= r->i0 && a < r->i1);
}

static size_t text_ranges_only(const struct text_ranges *r, struct btfids_attach_info *ai)
{
	size_t i, n = 0;

	for (i = 0; i < ai->nr_ksyms; i++)
		if (in_text_ranges(r, ai->by_addr[i].addr))
			ai->by_addr[n++] = ai->by_addr[i];
	return n;
}

/*
 * CONFIG_KALLSYMS_ALL from the kernel build's include/config/auto.conf
 * beside @e (kbuild runs the tool in the object tree, on .tmp_vmlinux1):
 * 1 set, 0 not, -1 no such file.
 */
static int config_kallsyms_all(const struct btfids_elf *e)
{
	const char *slash = strrchr(e->path, '/');
	char path[PATH_MAX], line[256];
	int set = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%.*sinclude/config/auto.conf",
		 slash ? (int)(slash - e->path + 1) : 0, e->path);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (!set && fgets(line, sizeof(line), f))
		set = !strcmp(line, "CONFIG_KALLSYMS_ALL=y\n");
	fclose(f);
	return set;
}

static bool all_symbols(const struct btfids_elf *e, const struct btfids_attach_info *ai,
			const struct text_ranges *r)
{
	uint64_t at = sym_value(ai, "kallsyms_num_syms");
	size_t i, all = 0, text = 0, shndx;
	const char *name;
	unsigned char b[4];
	GElf_Sym sym;
	uint32_t n;

	if (!at || read_at(e, at, b, sizeof(b)))
		return true;	/* no kallsyms data: keep every name */
	n = btfids_get32(b, btfids_elf_big_endian(e));
	/*
	 * 0: the first link's empty table (scripts/link-vmlinux.sh links
	 * .tmp_vmlinux1, which gen-btf.sh reads, with the kallsyms of no
	 * symbol); the build's config says, else every name
	 */
	if (!n)
		return config_kallsyms_all(e) != 0;
	for (i = 1; i < e->nr_syms; i++) {
		if (btfids_elf_sym(e, i, &sym, &shndx, &name) || shndx == SHN_UNDEF ||
		    shndx == SHN_ABS || !name[0] || GELF_ST_TYPE(sym.st_info) == STT_SECTION ||
		    GELF_ST_TYPE(sym.st_info) == STT_FILE || mksysmap_drops(name))
			continue;
		all++;
	}
	for (i = 0; i < ai->nr_ksyms; i++)
		text += in_text_ranges(r, ai->by_addr[i].addr);
	return (n > all ? n - all : all - n) < (n > text ? n - text : text - n);
}

/* Every text symbol kallsyms would hold, both ways sorted */
static int read_ksyms(const struct btfids_elf *e, struct btfids_attach_info *ai)
{
	struct text_ranges r;
	bool *exec = NULL;
	size_t i, shndx, nsec = 0, n = 0;
	const char *name;
	GElf_Sym sym;

	if (elf_getshdrnum(e->elf, &nsec))
		return -EINVAL;
	exec = calloc(nsec + 1, sizeof(*exec));
	if (!exec)
		return -ENOMEM;
	for (i = 1; i < nsec; i++)
		exec[i] = exec_section(e, i);
	ai->by_addr = calloc(e->nr_syms, sizeof(*ai->by_addr));
	if (!ai->by_addr) {
		free(exec);
		return -ENOMEM;
	}
	for (i = 1; i < e->nr_syms; i++) {
		if (btfids_elf_sym(e, i, &sym, &shndx, &name) || shndx == SHN_UNDEF ||
		    shndx >= nsec || !exec[shndx] || !name[0] ||
		    GELF_ST_TYPE(sym.st_info) == STT_SECTION ||
		    GELF_ST_TYPE(sym.st_info) == STT_FILE || mksysmap_drops(name))
			continue;
		ai->by_addr[n].addr = sym.st_value;
		ai->by_addr[n++].name = name;
	}
	free(exec);
	ai->nr_ksyms = n;
	r.t0 = sym_value(ai, "_stext");
	r.t1 = sym_value(ai, "_etext");
	r.i0 = sym_value(ai, "_sinittext");
	r.i1 = sym_value(ai, "_einittext");
	if (!all_symbols(e, ai, &r))
		n = ai->nr_ksyms = text_ranges_only(&r, ai);
	ai->by_name = malloc((n ? n : 1) * sizeof(*ai->by_name));
	if (!ai->by_name)
		return -ENOMEM;
	memcpy(ai->by_name, ai->by_addr, n * sizeof(*ai->by_name));
	qsort(ai->by_addr, n, sizeof(*ai->by_addr), cmp_addr);
	qsort(ai->by_name, n, sizeof(*ai->by_name), cmp_name);
	return 0;
}

static uint64_t get_long(const struct btfids_elf *e, const unsigned char *p)
{
	bool be = btfids_elf_big_endian(e);
	uint64_t hi, lo;

	if (e->elf_class == ELFCLASS32)
		return btfids_get32(p, be);
	hi = btfids_get32(p + (be ? 0 : 4), be);
	lo = btfids_get32(p + (be ? 4 : 0), be);
	return hi << 32 | lo;
}

/* A function as scripts/sorttable reads it from `nm -S`: address, size */
struct nm_func {
	uint64_t addr, size;
	const char *name;
};

static int cmp_nm_func(const void *a, const void *b)
{
	const struct nm_func *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return strcmp(x->name, y->name);	/* nm's order, which qsort keeps */
}

/*
 * The functions `nm -S` lists with a size and type t, T or W: symbols in
 * code sections, and defined weak ones (not objects), by address.
 */
static int nm_funcs(const struct btfids_elf *e, struct nm_func **out, size_t *nr)
{
	size_t i, shndx, n = 0, nsec = 0;
	const char *name;
	GElf_Sym sym;

	*out = calloc(e->nr_syms ? e->nr_syms : 1, sizeof(**out));
	if (!*out || elf_getshdrnum(e->elf, &nsec))
		return -ENOMEM;
	for (i = 1; i < e->nr_syms; i++) {
		int bind, type;

		if (btfids_elf_sym(e, i, &sym, &shndx, &name) || shndx == SHN_UNDEF ||
		    shndx == SHN_ABS || shndx >= nsec || !name[0] || !sym.st_size)
			continue;
		bind = GELF_ST_BIND(sym.st_info);
		type = GELF_ST_TYPE(sym.st_info);
		if (type == STT_SECTION || type == STT_FILE ||
		    !(exec_section(e, shndx) || (bind == STB_WEAK && type != STT_OBJECT)))
			continue;
		(*out)[n].addr = sym.st_value;
		(*out)[n].size = sym.st_size;
		(*out)[n++].name = name;
	}
	qsort(*out, n, sizeof(**out), cmp_nm_func);
	*nr = n;
	return 0;
}

/*
 * sorttable's find_func(): glibc's bsearch() over ranges, as it probes
 * them; an entry up to @before bytes before a function is in it (arm64's
 * pre-function NOPs: sorttable's before_func)
 */
static bool nm_find(const struct nm_func *f, size_t n, uint64_t key, uint64_t before)
{
	size_t lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (key + before < f[mid].addr)
			hi = mid;
		else if (key >= f[mid].addr + f[mid].size)
			lo = mid + 1;
		else
			return true;
	}
	return false;
}

/*
 * From 6.15 on, scripts/sorttable (-s, link-vmlinux.sh's sorttable())
 * zeroes the ftrace sites of the final vmlinux that fall in no function of
 * `nm -S` (those of an overridden weak function, and of code after a
 * function's end, a cold part), and ftrace skips them at boot. The first
 * link's ELF, which gen-btf.sh hands the tool, has them all: drop those
 * here. (An ELF already sorted keeps what it has.)
 */
static int drop_unsorted(const struct btfids_attach_info *ai, uint64_t *sites, size_t *nr)
{
	struct nm_func *f = NULL;
	size_t i, n = 0, k = 0;
	int err;

	if (ai->kernel && ai->kernel < BTFIDS_KERNEL(6, 15))
		return 0;
	err = nm_funcs(ai->e, &f, &n);
	for (i = 0; !err && n && i < *nr; i++)
		if (nm_find(f, n, sites[i], ai->arm64 ? ARM64_PRE_NOPS : 0))
			sites[k++] = sites[i];
	if (!err && n)
		*nr = k;
	free(f);
	return err;
}

static int cmp_rel(const void *a, const void *b)
{
	const struct rel_word *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/* R_*_RELATIVE of the machines with verdicts (their psABIs' relocation tables) */
static unsigned int relative_type(unsigned int machine)
{
	return machine == EM_AARCH64 ? R_AARCH64_RELATIVE : machine == EM_S390 ? R_390_RELATIVE :
	       R_X86_64_RELATIVE;
}

/*
 * The RELATIVE relocations of @e's allocated RELA sections (.rela.dyn of
 * a -pie vmlinux, which the kernel applies to itself at boot: arm64's
 * relocate_kernel(), 6.1's s390x; later s390x links -no-pie), sorted by
 * offset into @ai->rel
 */
static int read_rel(const struct btfids_elf *e, struct btfids_attach_info *ai)
{
	unsigned int type = relative_type(e->machine);
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	GElf_Rela r;

	while ((scn = elf_nextscn(e->elf, scn))) {
		Elf_Data *d;
		size_t i, n;
		struct rel_word *w;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA || !(sh.sh_flags & SHF_ALLOC))
			continue;
		if (sh.sh_entsize != gelf_fsize(e->elf, ELF_T_RELA, 1, EV_CURRENT))
			return -EINVAL;	/* not a RELA table libelf can read */
		d = elf_getdata(scn, NULL);
		if (!d)
			return -EINVAL;
		n = sh.sh_size / sh.sh_entsize;
		w = reallocarray(ai->rel, ai->nr_rel + n + 1, sizeof(*w));
		if (!w)
			return -ENOMEM;
		ai->rel = w;
		for (i = 0; i < n; i++)
			if (gelf_getrela(d, i, &r) && GELF_R_TYPE(r.r_info) == type)
				w[ai->nr_rel++] = (struct rel_word){ r.r_offset, (uint64_t)r.r_addend };
	}
	if (ai->nr_rel)
		qsort(ai->rel, ai->nr_rel, sizeof(*ai->rel), cmp_rel);
	return 0;
}

/* The first RELATIVE relocation at or above @addr: an index into @ai->rel */
static size_t rel_from(const struct btfids_attach_info *ai, uint64_t addr)
{
	size_t lo = 0, hi = ai->nr_rel;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ai->rel[mid].off < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The words of the array between symbols @start and @stop, @stride bytes
 * an element, its first word a long (an address), sorted, into @out. A
 * word the image relocates at boot is its RELATIVE addend (the file may
 * hold 0 there), as the kernel sees it once relocated at its link address.
 */
static int read_addrs(const struct btfids_attach_info *ai, const char *start,
		      const char *stop, size_t stride, uint64_t **out, size_t *nr)
{
	const struct btfids_elf *e = ai->e;
	uint64_t a = sym_value(ai, start), b = sym_value(ai, stop);
	unsigned char *buf;
	size_t i, n, k;
	int err;

	*out = NULL;
	*nr = 0;
	if (!a || b < a)
		return -ENOENT;
	n = (b - a) / stride;
	buf = malloc(n * stride + 1);
	*out = malloc((n ? n : 1) * sizeof(**out));
	if (!buf || !*out) {
		free(buf);
		return -ENOMEM;
	}
	err = n ? read_at(e, a, buf, n * stride) : 0;
	k = rel_from(ai, a);
	for (i = 0; !err && i < n; i++) {
		uint64_t v = get_long(e, buf + i * stride), at = a + i * stride;

		while (k < ai->nr_rel && ai->rel[k].off < at)
			k++;
		if (k < ai->nr_rel && ai->rel[k].off == at)
			v = ai->rel[k].addend;

		if (v)	/* sorttable zeroes the sites outside any function */
			(*out)[(*nr)++] = v;
	}
	free(buf);
	if (!err)
		qsort(*out, *nr, sizeof(**out), cmp_u64);
	return err;
}

/* The kallsyms symbol whose range holds @addr: the last one at or below it */
static const struct ksym *ksym_around(const struct btfids_attach_info *ai, uint64_t addr)
{
	size_t lo = 0, hi = ai->nr_ksyms;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ai->by_addr[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &ai->by_addr[lo - 1] : NULL;
}

/* The first address above @addr that a symbol has (the end of @addr's function) */
static uint64_t ksym_end(const struct btfids_attach_info *ai, uint64_t addr)
{
	const struct ksym *k = ksym_around(ai, addr);
	const struct ksym *end = ai->by_addr + ai->nr_ksyms;
	/* a module's: no further than its section (MOD_ADDR()) */
	uint64_t last = ai->module ? ((addr >> 40) + 1) << 40 : UINT64_MAX;

	while (k && k < end && k->addr <= addr)
		k++;
	return k && k < end && k->addr < last ? k->addr : last;
}

/* Whether kallsyms has a symbol at exactly @addr */
static bool ksym_at(const struct btfids_attach_info *ai, uint64_t addr)
{
	const struct ksym *k = ksym_around(ai, addr);

	return k && k->addr == addr;
}

/* The arm64 instruction at @addr (little-endian whatever the data order), or 0 */
static uint32_t arm64_insn(const struct btfids_attach_info *ai, uint64_t addr)
{
	unsigned char b[4];

	if (read_at(ai->e, addr, b, sizeof(b)))
		return 0;
	return b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
}

/* aarch64_insn_is_bti(): HINT #32, #34, #36, #38 (BTI, BTI C, BTI J, BTI JC) */
static bool arm64_is_bti(uint32_t insn)
{
	return (insn & ~(3u << 6)) == 0xd503241fu;
}

/* BL imm26 */
static bool arm64_is_bl(uint32_t insn)
{
	return (insn & 0xfc000000u) == 0x94000000u;
}

/*
 * The layout of @ai's __mcount_loc entries, as the image shows it: an entry
 * 8 bytes before a function, on two NOPs (CALL_OPS), at a function's NOP or
 * one instruction after its BTI (the entry layout), or on a BL (mcount).
 * One shape must hold for 90% of the entries and no other for 5%: the
 * config is one for the whole image. Kernels older than 6.4 have no
 * CALL_OPS, whose entries they would read as another layout's.
 */
static enum arm64_layout arm64_layout(const struct btfids_attach_info *ai)
{
	size_t i, ops = 0, entry = 0, mcount = 0, n = ai->nr_sites;

	for (i = 0; i < n; i++) {
		uint64_t e = ai->sites[i];
		uint32_t insn = arm64_insn(ai, e);

		if (insn == ARM64_INSN_NOP && !(e % 8) && ksym_at(ai, e + ARM64_PRE_NOPS) &&
		    arm64_insn(ai, e + 4) == ARM64_INSN_NOP)
			ops++;
		else if (insn == ARM64_INSN_NOP && (ksym_at(ai, e) ||
			 (e >= 4 && ksym_at(ai, e - 4) && arm64_is_bti(arm64_insn(ai, e - 4)))))
			entry++;
		else if (arm64_is_bl(insn))
			mcount++;
	}
	if (!n)
		return ARM64_ENTRY;	/* no entry to place: any layout says the same */
	if (ops * 10 >= n * 9 && (entry + mcount) * 20 < n)
		return ai->kernel && ai->kernel < BTFIDS_KERNEL(6, 4) ? ARM64_UNKNOWN : ARM64_CALL_OPS;
	if (entry * 10 >= n * 9 && (ops + mcount) * 20 < n)
		return ARM64_ENTRY;
	if (mcount * 10 >= n * 9 && (ops + entry) * 20 < n)
		return ARM64_MCOUNT;
	return ARM64_UNKNOWN;
}

/* arm64's ftrace_call_adjust() of entry @e in @layout; 0: no record */
static uint64_t arm64_call_adjust(const struct btfids_attach_info *ai, enum arm64_layout layout,
				  uint64_t e)
{
	switch (layout) {
	case ARM64_ENTRY:
		return e + 4;
	case ARM64_CALL_OPS:
		if (e % 8)		/* "Misaligned patch-site": WARN, no record */
			return 0;
		e += ARM64_PRE_NOPS;
		if (arm64_is_bti(arm64_insn(ai, e)))
			e += 4;
		return e + 4;
	default:
		return e;
	}
}

/*
 * arm64: the entries to records (ftrace_call_adjust()), and whether the
 * kernel has ftrace direct calls, which a trampoline on a kernel function
 * needs (register_fentry(): tr->fops; ARM64_DIRECT_OPS_ONLY above).
 * -EPROTO: a layout btfids does not know for the release; -ENOKEY: the
 * entry layout where whether the release has direct calls without
 * CALL_OPS is not known (between 6.12 and 7.3, or no release found).
 * Neither is judged. No entry at all: no records, whatever the layout.
 */
static int arm64_sites(struct btfids_attach_info *ai)
{
	enum arm64_layout layout;
	size_t i, k = 0;

	if (!ai->nr_sites) {
		ai->direct = false;
		return 0;
	}
	layout = arm64_layout(ai);
	if (layout == ARM64_UNKNOWN)
		return -EPROTO;
	for (i = 0; i < ai->nr_sites; i++) {
		uint64_t site = arm64_call_adjust(ai, layout, ai->sites[i]);

		if (site)
			ai->sites[k++] = site;
	}
	ai->nr_sites = k;
	qsort(ai->sites, k, sizeof(*ai->sites), cmp_u64);
	if (ai->kernel && ai->kernel < BTFIDS_KERNEL(6, 4))
		ai->direct = false;
	else if (layout == ARM64_CALL_OPS)
		ai->direct = true;
	else if (layout == ARM64_MCOUNT)
		ai->direct = false;	/* DIRECT_CALLS needs DYNAMIC_FTRACE_WITH_ARGS */
	else if (ai->kernel >= ARM64_DIRECT_ANY)
		ai->direct = true;
	else if (ai->kernel && ai->kernel <= ARM64_DIRECT_OPS_ONLY)
		ai->direct = false;
	else
		return -ENOKEY;
	return 0;
}

/* Error-injection entries to the starts of their kallsyms functions */
static int read_ei(const struct btfids_elf *e, struct btfids_attach_info *ai)
{
	size_t stride = e->elf_class == ELFCLASS32 ? 8 : 16, i;
	int err = read_addrs(ai, "__start_error_injection_whitelist",
			     "__stop_error_injection_whitelist", stride, &ai->ei, &ai->nr_ei);

	if (err == -ENOENT)	/* no CONFIG_FUNCTION_ERROR_INJECTION */
		return 0;
	ai->has_ei = !err;
	for (i = 0; !err && i < ai->nr_ei; i++) {
		const struct ksym *k = ksym_around(ai, ai->ei[i]);

		ai->ei[i] = k ? k->addr : 0;
	}
	if (!err)
		qsort(ai->ei, ai->nr_ei, sizeof(*ai->ei), cmp_u64);
	return err;
}

/*
 * .altinstructions: struct alt_instr (arch/x86/include/asm/alternative.h,
 * 6.12 and 7.3 alike: packed, 14 bytes), instr_offset a s32 relative to
 * the entry itself, instrlen at byte 12. The instructions of 5 bytes or
 * more are kept: what boot-time patching may turn into a 5-byte nop.
 */
#define ALT_INSTR_SIZE		14
#define ALT_INSTRLEN_OFF	12

static int read_alts(const struct btfids_elf *e, struct btfids_attach_info *ai)
{
	bool be = btfids_elf_big_endian(e);
	Elf_Scn *scn = NULL;
	size_t shstrndx, i, n;
	unsigned char *buf;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(e->elf, &shstrndx))
		return -EINVAL;
	while ((scn = elf_nextscn(e->elf, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS)
			continue;
		name = elf_strptr(e->elf, shstrndx, sh.sh_name);
		if (name && !strcmp(name, ".altinstructions"))
			break;
	}
	if (!scn)
		return 0;
	n = sh.sh_size / ALT_INSTR_SIZE;
	buf = malloc(n * ALT_INSTR_SIZE + 1);
	ai->alts = malloc((n ? n : 1) * sizeof(*ai->alts));
	if (!buf || !ai->alts) {
		free(buf);
		return -ENOMEM;
	}
	if (pread(e->fd, buf, n * ALT_INSTR_SIZE, sh.sh_offset) != (ssize_t)(n * ALT_INSTR_SIZE)) {
		free(buf);
		return -EIO;
	}
	for (i = 0; i < n; i++) {
		const unsigned char *p = buf + i * ALT_INSTR_SIZE;
		int32_t off = (int32_t)btfids_get32(p, be);

		if (p[ALT_INSTRLEN_OFF] >= 5)
			ai->alts[ai->nr_alts++] = sh.sh_addr + i * ALT_INSTR_SIZE + (int64_t)off;
	}
	free(buf);
	qsort(ai->alts, ai->nr_alts, sizeof(*ai->alts), cmp_u64);
	return 0;
}

/* The non-zero IDs of set (or set8) @name into a sorted array */
static int read_set(const struct btfids_elf *e, const unsigned char *data,
		    const struct btfids_syms *s, const char *name, uint32_t **out, size_t *nr)
{
	bool be = btfids_elf_big_endian(e);
	size_t i, j;

	for (i = 0; i < s->nr_sets; i++) {
		const struct btfids_set *set = &s->sets[i];
		const unsigned char *p = data + set->off;
		bool set8 = set->kind == BTFIDS_SET8;
		uint32_t *ids;

		if (strcmp(set->name, name))
			continue;
		ids = reallocarray(*out, *nr + set->cnt + 1, sizeof(*ids));
		if (!ids)
			return -ENOMEM;
		*out = ids;
		for (j = 0; j < set->cnt; j++) {
			uint32_t id = btfids_get32(p + (set8 ? 8 + 8 * j : 4 + 4 * j), be);

			if (id)
				ids[(*nr)++] = id;
		}
	}
	if (*nr)
		qsort(*out, *nr, sizeof(**out), cmp_u32);
	return 0;
}

static int read_sets(const struct btfids_elf *e, const unsigned char *ids,
		     struct btfids_attach_info *ai, struct btfids_report *r)
{
	const unsigned char *data = ids ? ids : e->ids.data;
	struct btfids_syms s = {};
	size_t i;
	int err = btfids_syms_collect(e, &s, r);

	if (!err)
		err = read_set(e, data, &s, "btf_id_deny", &ai->deny, &ai->nr_deny);
	if (!err)
		err = read_set(e, data, &s, "noreturn_deny", &ai->noreturn, &ai->nr_noreturn);
	for (i = 0; !err && i < sizeof(fmodret_sets) / sizeof(fmodret_sets[0]); i++)
		err = read_set(e, data, &s, fmodret_sets[i], &ai->fmodret, &ai->nr_fmodret);
	btfids_syms_free(&s);
	return err;
}

/* Free what btfids_attach_info_read() made; NULL is fine */
void btfids_attach_info_free(struct btfids_attach_info *ai)
{
	if (!ai)
		return;
	free(ai->by_addr);
	free(ai->by_name);
	free(ai->sites);
	free(ai->rel);
	free(ai->alts);
	free(ai->ei);
	free(ai->deny);
	free(ai->noreturn);
	free(ai->fmodret);
	free(ai);
}

/*
 * A new btfids_attach_info for @e by the rules of @kernel: 0; or 1 with
 * *@out NULL when @why says why @e gets no verdicts (a warning), or -ENOMEM
 */
static int attach_info_new(const struct btfids_elf *e, unsigned int kernel, const char *why,
			   struct btfids_report *r, struct btfids_attach_info **out)
{
	*out = NULL;
	if (why) {
		btfids_warn(r, "%s: no attach verdicts: %s", e->path, why);
		return 1;
	}
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	(*out)->kernel = kernel;
	(*out)->e = e;
	(*out)->direct = true;	/* x86_64 and s390x: whenever they have a trampoline */
	return 0;
}

int btfids_attach_info_read(const struct btfids_elf *e, const unsigned char *ids,
			    unsigned int kernel, struct btfids_attach_info **out,
			    struct btfids_report *r)
{
	struct btfids_attach_info *ai;
	const char *why = NULL;
	int err;

	*out = NULL;
	if ((e->machine != EM_X86_64 && e->machine != EM_AARCH64 && e->machine != EM_S390) ||
	    e->elf_class != ELFCLASS64 || e->type == ET_REL)
		why = "not an x86_64, arm64 or s390x vmlinux";
	else if (!e->nr_syms)
		why = "no symbol table";
	err = attach_info_new(e, kernel, why, r, &ai);
	if (err)
		return err;
	ai->arm64 = e->machine == EM_AARCH64;
	ai->s390 = e->machine == EM_S390;
	read_bounds(e, ai->bound);
	err = read_ksyms(e, ai);
	if (!err)
		err = read_rel(e, ai);
	if (!err) {
		err = read_addrs(ai, "__start_mcount_loc", "__stop_mcount_loc", 8, &ai->sites,
				 &ai->nr_sites);
		if (!err)
			err = drop_unsorted(ai, ai->sites, &ai->nr_sites);
		if (err == -ENOENT) {
			btfids_warn(r, "%s: no attach verdicts: no __start_mcount_loc and __stop_mcount_loc (a kernel without ftrace)",
				    e->path);
			btfids_attach_info_free(ai);
			return 1;
		}
	}
	if (!err && ai->arm64) {
		int why = arm64_sites(ai);

		if (why == -EPROTO)
			btfids_warn(r, "%s: no attach verdicts: its __mcount_loc entries are in no arm64 layout btfids knows for %s (ftrace_call_adjust(): verdict.h)",
				    e->path, kernel ? "its release" : "the newest release");
		else if (why)
			btfids_warn(r, "%s: no attach verdicts: arm64 without DYNAMIC_FTRACE_WITH_CALL_OPS has ftrace direct calls in 7.3, not in 6.12; %s (--kernel RELEASE)",
				    e->path, kernel ? "its release lies between, where btfids does not know" :
				    "no release found to tell which");
		if (why) {
			btfids_attach_info_free(ai);
			return 1;
		}
	}
	if (!err && !ai->arm64 && !ai->s390)	/* x86's alternatives: the others poke no nop */
		err = read_alts(e, ai);
	if (!err)
		err = read_ei(e, ai);
	free(ai->rel);		/* only the words read above needed it */
	ai->rel = NULL;
	ai->nr_rel = 0;
	if (!err)
		err = read_sets(e, ids, ai, r);
	ai->init_begin = sym_value(ai, "__init_begin");
	ai->init_end = sym_value(ai, "__init_end");
	ai->stext = sym_value(ai, "_stext");
	ai->etext = sym_value(ai, "_etext");
	ai->sinittext = sym_value(ai, "_sinittext");
	ai->einittext = sym_value(ai, "_einittext");
	/*
	 * The patched 7.3 (kernel/7.3) refuses a name at two text addresses;
	 * its linker script places .BTF_tramp, which is how btfids knows it
	 * writes for it (resolve.c want_tramp2()); mainline takes the first
	 */
	ai->one_address = btfids_elf_defines(e, "__start_BTF_tramp") &&
			  (!kernel || kernel >= BTFIDS_KERNEL(7, 3));
	ai->one_site = ai->one_address;
	if (!err && (!ai->init_begin || !ai->init_end || !ai->stext || !ai->etext)) {
		btfids_warn(r, "%s: no attach verdicts: no _stext, _etext, __init_begin or __init_end (not a vmlinux)",
			    e->path);
		btfids_attach_info_free(ai);
		return 1;
	}
	if (err) {
		btfids_err(r, e->path, "cannot read what the attach verdicts need: %s",
			   strerror(-err));
		btfids_attach_info_free(ai);
		return err;
	}
	*out = ai;
	return 0;
}

/*
 * A module's verdicts (an ET_REL .ko, as kbuild links it): its code is
 * where the loader puts it, so an address here is MOD_ADDR(section
 * index, offset), never 0, and the facts come from the module's own
 * sections and their relocations (kernel/module/, 7.3):
 *  - kallsyms: after init the module's core symbols (kallsyms.c
 *    is_core_symbol(): defined, named, in an allocated section that is
 *    not init layout, ".init*": module_init_layout_section(), with
 *    MODULE_UNLOAD), in symbol table order, and find_kallsyms_symbol_value()
 *    takes the first of a name: bpf_check_attach_target()'s address of a
 *    module function. Init functions have none once the module is live.
 *  - ftrace sites: __mcount_loc's words, relocated (ftrace_module_init());
 *    those in init text are freed with it (ftrace_free_mem()).
 *  - error injection: _error_injection_whitelist's entries, relocated, to
 *    the functions around them (lib/error-inject.c, at MODULE_STATE_COMING).
 *  - no site: x86's bpf_arch_text_poke() pokes kernel text and BPF text
 *    only, EINVAL; no .BTF_ids set of the rules names a module's id.
 * x86_64 only: the relocations read are R_X86_64_64 (S + A).
 */
#define MOD_ADDR(shndx, off)	((uint64_t)(shndx) << 40 | (off))
#define MOD_OFF_MAX		((1ULL << 40) - 1)


static int cmp_name_order(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : x->order < y->order ? -1 : x->order > y->order;
}

/* A module section the loader keeps after init: allocated, not ".init*" */
static bool mod_core_section(const struct btfids_elf *e, size_t shndx, bool *exec)
{
	Elf_Scn *scn = elf_getscn(e->elf, shndx);
	size_t shstrndx;
	const char *name;
	GElf_Shdr sh;

	*exec = false;
	if (!scn || !gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) ||
	    elf_getshdrstrndx(e->elf, &shstrndx))
		return false;
	name = elf_strptr(e->elf, shstrndx, sh.sh_name);
	if (!name || !strncmp(name, ".init", 5))
		return false;
	*exec = (sh.sh_flags & SHF_EXECINSTR) && sh.sh_type == SHT_PROGBITS;
	return true;
}

/* The module's core text symbols, by address and by (name, table order) */
static int mod_read_ksyms(const struct btfids_elf *e, struct btfids_attach_info *ai)
{
	size_t i, shndx, nsec = 0, n = 0;
	bool *exec = NULL, core;
	const char *name;
	GElf_Sym sym;

	if (elf_getshdrnum(e->elf, &nsec))
		return -EINVAL;
	exec = calloc(nsec + 1, sizeof(*exec));
	ai->by_addr = calloc(e->nr_syms + 1, sizeof(*ai->by_addr));
	ai->by_name = calloc(e->nr_syms + 1, sizeof(*ai->by_name));
	if (!exec || !ai->by_addr || !ai->by_name) {
		free(exec);
		return -ENOMEM;
	}
	for (i = 1; i < nsec; i++) {
		core = mod_core_section(e, i, &exec[i]);
		exec[i] = core && exec[i];
	}
	for (i = 1; i < e->nr_syms; i++) {
		if (btfids_elf_sym(e, i, &sym, &shndx, &name) || shndx == SHN_UNDEF ||
		    shndx >= nsec || !exec[shndx] || !name[0] || sym.st_value > MOD_OFF_MAX ||
		    GELF_ST_TYPE(sym.st_info) == STT_SECTION)
			continue;
		ai->by_addr[n] = (struct ksym){ MOD_ADDR(shndx, sym.st_value), name, i };
		n++;
	}
	free(exec);
	ai->nr_ksyms = n;
	memcpy(ai->by_name, ai->by_addr, n * sizeof(*ai->by_name));
	qsort(ai->by_addr, n, sizeof(*ai->by_addr), cmp_addr);
	qsort(ai->by_name, n, sizeof(*ai->by_name), cmp_name_order);
	return 0;
}

/* The RELA section that relocates section @target, or NULL */
static Elf_Scn *mod_rela_of(const struct btfids_elf *e, size_t target)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(e->elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_RELA && sh.sh_info == target &&
		    sh.sh_link == e->symtab_index)
			return scn;
	return NULL;
}

/* The index of the module section named @name, or 0 */
static size_t mod_section(const struct btfids_elf *e, const char *name)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	const char *n;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(e->elf, &shstrndx))
		return 0;
	while ((scn = elf_nextscn(e->elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		n = elf_strptr(e->elf, shstrndx, sh.sh_name);
		if (n && !strcmp(n, name))
			return elf_ndxscn(scn);
	}
	return 0;
}

/*
 * The targets of the absolute relocations of section @name's words at
 * multiples of @stride (its first word an address), in core sections,
 * sorted, into @out: 0 (absent: none), -EBADMSG for a relocation of
 * another type or to no defined symbol, or -EINVAL (unreadable).
 */
static int mod_read_addrs(const struct btfids_elf *e, const char *name, size_t stride,
			  uint64_t **out, size_t *nr)
{
	size_t sec = mod_section(e, name), i, n, shndx;
	Elf_Scn *rs = sec ? mod_rela_of(e, sec) : NULL;
	const char *sname;
	bool exec;
	GElf_Shdr sh;
	GElf_Sym sym;
	GElf_Rela r;
	Elf_Data *d;

	*out = NULL;
	*nr = 0;
	if (!rs)
		return 0;
	if (!gelf_getshdr(rs, &sh) || !sh.sh_entsize || !(d = elf_getdata(rs, NULL)))
		return -EINVAL;
	n = sh.sh_size / sh.sh_entsize;
	*out = calloc(n + 1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		uint64_t off;

		if (!gelf_getrela(d, i, &r))
			return -EINVAL;
		if (r.r_offset % stride)
			continue;	/* another field of the entry */
		if (GELF_R_TYPE(r.r_info) != R_X86_64_64 ||	/* x86-64 psABI: S + A, 64 bits */
		    btfids_elf_sym(e, GELF_R_SYM(r.r_info), &sym, &shndx, &sname) ||
		    shndx == SHN_UNDEF || shndx >= SHN_LORESERVE)
			return -EBADMSG;
		off = sym.st_value + (uint64_t)r.r_addend;
		if (off <= MOD_OFF_MAX && mod_core_section(e, shndx, &exec) && exec)
			(*out)[(*nr)++] = MOD_ADDR(shndx, off);
	}
	qsort(*out, *nr, sizeof(**out), cmp_u64);
	return 0;
}

int btfids_attach_info_read_module(const struct btfids_elf *e, const struct btfids_elf *base,
				   unsigned int kernel, struct btfids_attach_info **out,
				   struct btfids_report *r)
{
	struct btfids_attach_info *ai;
	const char *why = NULL;
	size_t i;
	int err;

	*out = NULL;
	/* x86_64's, checked against Debian's amd64 modules (tests/check_verdict.c) */
	if (e->machine != EM_X86_64 || e->elf_class != ELFCLASS64)
		why = "module verdicts are x86_64's (arm64's and s390x's are not read yet)";
	else if (e->type != ET_REL || !e->nr_syms)
		why = "not a module with a symbol table";
	else if (!mod_section(e, "__mcount_loc"))
		why = "no __mcount_loc (a kernel without ftrace)";
	else if (base && !base->nr_syms)
		why = "its vmlinux (-b) has no symbol table (stripped?): whether it has error injection, and is the patched kernel, is not known";
	err = attach_info_new(e, kernel, why, r, &ai);
	if (err)
		return err;
	ai->module = true;
	/* the patched kernel (the base places .BTF_tramp) refuses a site twice in a link */
	ai->one_site = base && btfids_elf_defines(base, "__start_BTF_tramp") &&
		       (!kernel || kernel >= BTFIDS_KERNEL(7, 3));
	/* CONFIG_FUNCTION_ERROR_INJECTION: vmlinux has the list's bounds */
	ai->has_ei = !base || btfids_elf_defines(base, "__start_error_injection_whitelist");
	err = mod_read_ksyms(e, ai);
	if (!err)
		err = mod_read_addrs(e, "__mcount_loc", 8, &ai->sites, &ai->nr_sites);
	if (!err && ai->has_ei)
		err = mod_read_addrs(e, "_error_injection_whitelist", 16, &ai->ei, &ai->nr_ei);
	for (i = 0; !err && i < ai->nr_ei; i++) {
		const struct ksym *k = ksym_around(ai, ai->ei[i]);

		ai->ei[i] = k && k->addr >> 40 == ai->ei[i] >> 40 ? k->addr : 0;
	}
	if (!err && ai->nr_ei)
		qsort(ai->ei, ai->nr_ei, sizeof(*ai->ei), cmp_u64);
	if (err) {
		btfids_err(r, e->path, "cannot read what the attach verdicts need: %s",
			   err == -EBADMSG ? "a relocation of __mcount_loc or _error_injection_whitelist that is not R_X86_64_64 to a defined symbol" :
			   strerror(-err));
		btfids_attach_info_free(ai);
		return err;
	}
	*out = ai;
	return 0;
}

static bool has_id(const uint32_t *ids, size_t n, uint32_t id)
{
	return n && bsearch(&id, ids, n, sizeof(*ids), cmp_u32);	/* ids NULL when n is 0 */
}

/* kallsyms_lookup_name(): the lowest address of @name, or 0 */
static uint64_t ksym_lookup(const struct btfids_attach_info *ai, const char *name)
{
	size_t lo = 0, hi = ai->nr_ksyms;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(ai->by_name[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ai->nr_ksyms && !strcmp(ai->by_name[lo].name, name) ? ai->by_name[lo].addr : 0;
}

/*
 * Whether kallsyms holds @name at two or more distinct addresses of kernel
 * text, is_kernel_text() or is_kernel_inittext() (the patched kernel's
 * check): static functions of one name in two files; two symbols of one
 * name at one address are one function.
 */
static bool ksym_ambiguous(const struct btfids_attach_info *ai, const char *name)
{
	size_t lo = 0, hi = ai->nr_ksyms;
	uint64_t first = 0;
	bool seen = false;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(ai->by_name[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < ai->nr_ksyms && !strcmp(ai->by_name[lo].name, name); lo++) {
		uint64_t a = ai->by_name[lo].addr;

		if (!((a >= ai->stext && a < ai->etext) ||
		      (a >= ai->sinittext && a < ai->einittext)))
			continue;
		if (seen && a != first)
			return true;
		first = a;
		seen = true;
	}
	return false;
}

/*
 * An ftrace record in [@addr, @end): ftrace_location() of a function's
 * address looks for one within its kallsyms size (the records are
 * ftrace_call_adjust()'s, so arm64's pre-function NOPs are no site)
 */
static bool has_site(const struct btfids_attach_info *ai, uint64_t addr, uint64_t end)
{
	size_t lo = 0, hi = ai->nr_sites;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ai->sites[mid] < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ai->nr_sites && ai->sites[lo] < end;
}

/* The poke's ip: past an ENDBR64 (IBT), as bpf_arch_text_poke() steps over one */
static uint64_t poke_ip(const struct btfids_attach_info *ai, uint64_t addr)
{
	static const unsigned char endbr64[4] = { 0xf3, 0x0f, 0x1e, 0xfa };
	unsigned char b[4];

	if (ai->arm64 || ai->s390 || read_at(ai->e, addr, b, sizeof(b)) ||
	    memcmp(b, endbr64, sizeof(b)))
		return addr;
	return addr + sizeof(b);
}

static bool has_alt(const struct btfids_attach_info *ai, uint64_t ip)
{
	/* none read on arm64 and s390x: alts NULL */
	return ai->nr_alts && bsearch(&ip, ai->alts, ai->nr_alts, sizeof(*ai->alts), cmp_u64);
}

static void refuse(struct btfids_verdict *v, enum btfids_refusal why, enum btfids_step step,
		   int err)
{
	v->refusal = why;
	v->step = step;
	v->err = err;
}

#define ENOTSUPP_KERNEL	524	/* include/linux/errno.h: what the trampoline code returns */

/*
 * check_attach_modify_return(): on the error-injection list, or named
 * security_*; without CONFIG_FUNCTION_ERROR_INJECTION (no list), 7.x
 * takes x86_64's syscall wrappers instead (has_arch_syscall_prefix():
 * "__x64_"; in 7.3's verifier.c, not in 6.12's).
 */
static bool modifiable(const struct btfids_attach_info *ai, const char *name, uint64_t addr)
{
	if (!strncmp(name, SECURITY_PREFIX, sizeof(SECURITY_PREFIX) - 1))
		return true;
	if (ai->has_ei)
		return ai->nr_ei && bsearch(&addr, ai->ei, ai->nr_ei, sizeof(*ai->ei), cmp_u64);
	if (ai->kernel && ai->kernel < BTFIDS_KERNEL(7, 0))
		return false;
	if (ai->arm64)
		return !strncmp(name, ARM64_SYSCALL_PREFIX, sizeof(ARM64_SYSCALL_PREFIX) - 1);
	if (ai->s390)
		return !strncmp(name, S390_SYSCALL_PREFIX, sizeof(S390_SYSCALL_PREFIX) - 1);
	return !strncmp(name, X64_SYSCALL_PREFIX, sizeof(X64_SYSCALL_PREFIX) - 1);
}

/* Steps 1-6 of verdict.h: BPF_PROG_LOAD. True when it refuses. */
static bool load_refuses(const struct btfids_attach_info *ai, enum btfids_attach a,
			 const char *name, uint32_t id, const struct btfids_fmodel *m,
			 uint64_t addr, bool ambiguous, struct btfids_verdict *v)
{
	bool ret_used = a != BTFIDS_FENTRY;

	if (btfids_fmodel_reason_is_distill(m->reason))
		refuse(v, BTFIDS_REF_MODEL, BTFIDS_STEP_LOAD, EINVAL);
	else if (ret_used && m->ret_size > 8 && (!ai->kernel || ai->kernel >= BTFIDS_KERNEL(6, 12)))
		refuse(v, BTFIDS_REF_RET_OVER_8, BTFIDS_STEP_LOAD, EOPNOTSUPP);
	else if (!addr)
		refuse(v, BTFIDS_REF_NO_ADDRESS, BTFIDS_STEP_LOAD, ENOENT);
	else if (ambiguous)
		refuse(v, BTFIDS_REF_AMBIGUOUS, BTFIDS_STEP_LOAD, EADDRNOTAVAIL);
	else if (a == BTFIDS_FMOD_RET && !has_id(ai->fmodret, ai->nr_fmodret, id) &&
		 !modifiable(ai, name, addr))
		refuse(v, BTFIDS_REF_NOT_MODIFIABLE, BTFIDS_STEP_LOAD, EINVAL);
	else if (has_id(ai->deny, ai->nr_deny, id))
		refuse(v, BTFIDS_REF_DENY, BTFIDS_STEP_LOAD, EINVAL);
	else if (ret_used && has_id(ai->noreturn, ai->nr_noreturn, id))
		refuse(v, BTFIDS_REF_NORETURN, BTFIDS_STEP_LOAD, EINVAL);
	return v->refusal != BTFIDS_TAKEN;
}

/* A tracing_multi link's check of one function (verdict.h), @single its fentry/fexit verdict */
static void multi_verdict(const struct btfids_attach_info *ai, bool fexit, uint32_t id,
			  const struct btfids_fmodel *m, const struct btfids_verdict *single,
			  struct btfids_verdict *v)
{
	enum btfids_refusal r = single->refusal;

	if (fexit && has_id(ai->noreturn, ai->nr_noreturn, id))
		refuse(v, BTFIDS_REF_NORETURN, BTFIDS_STEP_LINK, EINVAL);
	else if (has_id(ai->deny, ai->nr_deny, id))
		refuse(v, BTFIDS_REF_DENY, BTFIDS_STEP_LINK, EINVAL);
	else if (btfids_fmodel_reason_is_distill(m->reason))
		refuse(v, BTFIDS_REF_MODEL, BTFIDS_STEP_LINK, EINVAL);
	else if (r == BTFIDS_REF_RET_OVER_8)
		refuse(v, r, BTFIDS_STEP_LINK, EOPNOTSUPP);
	else if (r == BTFIDS_REF_NO_ADDRESS || r == BTFIDS_REF_INIT_TEXT ||
		 r == BTFIDS_REF_NO_SITE || r == BTFIDS_REF_CPU_ALT)
		refuse(v, r, BTFIDS_STEP_LINK, ENOENT);
	else if (r == BTFIDS_REF_AMBIGUOUS)
		refuse(v, r, BTFIDS_STEP_LINK, EADDRNOTAVAIL);
	else if (m->reason != BTF_TRAMP_OK)
		refuse(v, BTFIDS_REF_MODEL, BTFIDS_STEP_LINK, ENOTSUPP_KERNEL);
}

void btfids_verdicts(const struct btfids_attach_info *ai, const char *name, uint32_t id,
		     const struct btfids_fmodel *m, struct btfids_verdict v[BTFIDS_NR_ATTACH])
{
	uint64_t addr = ksym_lookup(ai, name), end = addr ? ksym_end(ai, addr) : 0;
	/* ftrace_free_init_mem() drops the records of [__init_begin, __init_end) */
	bool freed = addr >= ai->init_begin && addr < ai->init_end;
	bool site = addr && !freed && has_site(ai, addr, end);
	bool text = addr >= ai->stext && addr < ai->etext;
	bool alt = addr && has_alt(ai, poke_ip(ai, addr));
	bool ambiguous = addr && ai->one_address && ksym_ambiguous(ai, name);
	/* tracing_multi needs HAVE_SINGLE_FTRACE_DIRECT_OPS: x86_64's, not arm64's or s390x's */
	bool multi = !ai->arm64 && !ai->s390 && (!ai->kernel || ai->kernel >= BTFIDS_KERNEL(7, 2));
	int a;

	for (a = 0; a < BTFIDS_NR_ATTACH; a++) {
		memset(&v[a], 0, sizeof(v[a]));
		v[a].model_reason = m->reason;
		v[a].given = a < BTFIDS_FENTRY_MULTI || multi;
		if (a >= BTFIDS_FENTRY_MULTI) {
			if (multi)
				multi_verdict(ai, a == BTFIDS_FEXIT_MULTI, id, m,
					      &v[a == BTFIDS_FEXIT_MULTI ? BTFIDS_FEXIT : BTFIDS_FENTRY],
					      &v[a]);
			continue;
		}
		if (load_refuses(ai, a, name, id, m, addr, ambiguous, &v[a]))
			continue;
		if (m->reason != BTF_TRAMP_OK)
			refuse(&v[a], BTFIDS_REF_MODEL, BTFIDS_STEP_ATTACH, ENOTSUPP_KERNEL);
		else if (site && !ai->direct)	/* register_fentry(): no tr->fops */
			refuse(&v[a], BTFIDS_REF_NO_DIRECT, BTFIDS_STEP_ATTACH, ENOTSUPP_KERNEL);
		else if (!site && ai->arm64)	/* arm64's bpf_arch_text_poke(): BPF text only */
			refuse(&v[a], BTFIDS_REF_NO_SITE, BTFIDS_STEP_ATTACH, ENOTSUPP_KERNEL);
		else if (!site && ai->s390)	/* s390's: no "brcl 0,0" (the mcount nop) at the entry */
			refuse(&v[a], BTFIDS_REF_NO_SITE, BTFIDS_STEP_ATTACH, EINVAL);
		else if (!site && ai->module)	/* x86's poke: module text is no kernel text */
			refuse(&v[a], BTFIDS_REF_NO_SITE, BTFIDS_STEP_ATTACH, EINVAL);
		else if (!site && !text)	/* bpf_arch_text_poke(): not is_kernel_text() */
			refuse(&v[a], BTFIDS_REF_INIT_TEXT, BTFIDS_STEP_ATTACH, EINVAL);
		else if (!site && alt)	/* a nop to poke or not: the CPU's features say */
			refuse(&v[a], BTFIDS_REF_CPU_ALT, BTFIDS_STEP_ATTACH, EBUSY);
		else if (!site)		/* the entry is no 5-byte nop to poke */
			refuse(&v[a], BTFIDS_REF_NO_SITE, BTFIDS_STEP_ATTACH, EBUSY);
	}
}

struct site_id {
	uint64_t addr;
	uint32_t id;
	size_t i;		/* into the caller's arrays */
};

static int cmp_site_id(const void *a, const void *b)
{
	const struct site_id *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

long btfids_verdicts_one_site(const struct btfids_attach_info *ai, const uint32_t *ids,
			      const char *const *names, size_t n,
			      struct btfids_verdict (*v)[BTFIDS_NR_ATTACH])
{
	struct site_id *s;
	size_t i, k = 0, j;
	long refused = 0;
	int a;

	if (!ai->one_site || !n)
		return 0;
	s = calloc(n, sizeof(*s));
	if (!s)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		uint64_t addr = ksym_lookup(ai, names[i]);

		if (addr)
			s[k++] = (struct site_id){ addr, ids[i], i };
	}
	qsort(s, k, sizeof(*s), cmp_site_id);
	for (a = BTFIDS_FENTRY_MULTI; a <= BTFIDS_FEXIT_MULTI; a++)
		for (i = 0; i < k; i = j) {
			bool first = true;

			/* one address: the lowest id a link takes keeps its verdict */
			for (j = i; j < k && s[j].addr == s[i].addr; j++) {
				struct btfids_verdict *x = &v[s[j].i][a];

				if (!x->given || x->refusal != BTFIDS_TAKEN)
					continue;
				if (first) {
					first = false;
					continue;
				}
				refuse(x, BTFIDS_REF_SAME_SITE, BTFIDS_STEP_LINK, EINVAL);
				refused++;
			}
		}
	free(s);
	return refused;
}

/* The table's codes are these enums' values (include/btfids/tramp.h) */
_Static_assert((int)BTFIDS_NR_ATTACH == (int)BTF_TRAMP_NR_ATTACH &&
	       (int)BTFIDS_FEXIT_MULTI == (int)BTF_TRAMP_FEXIT_MULTI, "attach types");
_Static_assert((int)BTFIDS_NR_TABLE_REFUSALS == (int)BTF_TRAMP_NR_REFUSALS &&
	       (int)BTFIDS_REF_MODEL == (int)BTF_TRAMP_REF_MODEL &&
	       (int)BTFIDS_REF_NO_SITE == (int)BTF_TRAMP_REF_NO_SITE &&
	       (int)BTFIDS_REF_CPU_ALT == (int)BTF_TRAMP_REF_CPU_ALT &&
	       (int)BTFIDS_REF_AMBIGUOUS == (int)BTF_TRAMP_REF_AMBIGUOUS &&
	       (int)BTFIDS_REF_SAME_SITE == (int)BTF_TRAMP_REF_SAME_SITE, "refusals");
_Static_assert((int)BTFIDS_STEP_LINK == (int)BTF_TRAMP_STEP_LINK, "steps");
_Static_assert(sizeof(struct btf_tramp_verdict) == BTF_TRAMP_VERDICT_SIZE, "verdict size");

void btfids_verdict_put(const struct btfids_verdict v[BTFIDS_NR_ATTACH],
			struct btf_tramp_verdict *out)
{
	int a;

	memset(out, 0, sizeof(*out));
	for (a = 0; a < BTFIDS_NR_ATTACH; a++) {
		if (!v[a].given || v[a].refusal >= BTFIDS_NR_TABLE_REFUSALS) {
			/* BTFIDS_REF_NO_DIRECT: no table code says it (verdict.h) */
			out->at[a].refusal = BTF_TRAMP_NOT_JUDGED;
			continue;
		}
		out->at[a].refusal = v[a].refusal;
		out->at[a].step = v[a].step;
		out->at[a].err = v[a].err;
	}
}

void btfids_verdict_get(const struct btf_tramp_verdict *in, int model_reason,
			struct btfids_verdict v[BTFIDS_NR_ATTACH])
{
	int a;

	for (a = 0; a < BTFIDS_NR_ATTACH; a++) {
		memset(&v[a], 0, sizeof(v[a]));
		v[a].model_reason = model_reason;
		v[a].given = in->at[a].refusal != BTF_TRAMP_NOT_JUDGED;
		if (!v[a].given)
			continue;
		v[a].refusal = in->at[a].refusal;
		v[a].step = in->at[a].step;
		v[a].err = in->at[a].err;
	}
}

const char *btfids_attach_str(enum btfids_attach a)
{
	static const char *const s[] = { "fentry", "fexit", "fmod_ret", "fentry.multi",
					 "fexit.multi" };

	return a < BTFIDS_NR_ATTACH ? s[a] : "?";
}

const char *btfids_verdict_str(const struct btfids_verdict *v)
{
	static const char *const s[BTFIDS_NR_REFUSALS] = {
		[BTFIDS_TAKEN] = "taken",
		[BTFIDS_REF_RET_OVER_8] = "ret-over-8",
		[BTFIDS_REF_NO_ADDRESS] = "no-address",
		[BTFIDS_REF_NOT_MODIFIABLE] = "not-modifiable",
		[BTFIDS_REF_DENY] = "deny",
		[BTFIDS_REF_NORETURN] = "noreturn",
		[BTFIDS_REF_INIT_TEXT] = "init-text",
		[BTFIDS_REF_NO_SITE] = "no-ftrace-site",
		[BTFIDS_REF_CPU_ALT] = "cpu-alternative",
		[BTFIDS_REF_AMBIGUOUS] = "ambiguous-name",
		[BTFIDS_REF_SAME_SITE] = "same-call-site",
		[BTFIDS_REF_NO_DIRECT] = "no-direct-call",
	};

	if (v->refusal == BTFIDS_REF_MODEL)
		return btfids_fmodel_reason_str(v->model_reason);
	return v->refusal < BTFIDS_NR_REFUSALS && s[v->refusal] ? s[v->refusal] : "?";
}

const char *btfids_errno_str(int err)
{
	switch (err) {
	case 0:
		return "";
	case EINVAL:
		return "EINVAL";
	case ENOENT:
		return "ENOENT";
	case EBUSY:
		return "EBUSY";
	case EOPNOTSUPP:
		return "EOPNOTSUPP";
	case ENOTSUPP_KERNEL:
		return "ENOTSUPP";
	case EADDRNOTAVAIL:
		return "EADDRNOTAVAIL";
	default:
		return "?";
	}
}

const char *btfids_step_str(enum btfids_step s)
{
	return s == BTFIDS_STEP_LOAD ? "load" : s == BTFIDS_STEP_ATTACH ? "attach" :
	       s == BTFIDS_STEP_LINK ? "link" : "";
}
