/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lookup.h - load BTF with libbpf and find each target's type ID.
 *
 * Rules (kernel tools/bpf/resolve_btfids/main.c, symbols_resolve()):
 * a target matches BTF types of exactly its kind (FUNC, STRUCT, UNION,
 * TYPEDEF) and name, base BTF included for split BTF; the lowest ID wins
 * ("WARN: multiple IDs found for 'NAME': FIRST, OTHER - using FIRST");
 * none leaves 0 ("WARN: resolve_btfids: unresolved symbol NAME").
 */
#ifndef _BTFIDS_LOOKUP_H
#define _BTFIDS_LOOKUP_H

#include <bpf/btf.h>

#include "btfids/elf.h"
#include "btfids/release.h"
#include "btfids/syms.h"

/* What a BTF file given on the command line is, by its first bytes. */
enum {
	BTFIDS_FILE_ELF,	/* \177ELF: BTF in its .BTF section */
	BTFIDS_FILE_RAW_BTF,	/* struct btf_header magic 0xeb9f, either byte order */
	BTFIDS_FILE_OTHER,	/* neither */
};

/*
 * BTFIDS_FILE_* for @path, or a negative errno when it cannot be opened
 * (-EINVAL: not a regular file; -EISDIR: a directory).
 */
int btfids_btf_file_kind(const char *path);

/*
 * After a module's split BTF failed to load on -b @base_path (-EINVAL: it
 * does not fit), say why in one line through @r when the two say it:
 * their byte order (@mod_be, the module's), "@who: MODULE: a little-endian
 * module, but -b BASE is big-endian: another machine's base"; else their
 * releases (@mod, from the module's vermagic; the base's linux_banner),
 * "@who: MODULE: built for Linux X (vermagic), but -b BASE is Linux Y
 * (linux_banner): the base of another build" (a module fits only the
 * vmlinux it was built against). Silent when @base_path is not an ELF,
 * or neither differs or says.
 */
void btfids_say_other_build(const char *who, const char *mod_path,
			    const struct btfids_release *mod, bool mod_be,
			    const char *base_path, struct btfids_report *r);

/*
 * The same for an open module @mod, its release read here; nothing unless
 * @err is -EINVAL and a base was named.
 */
void btfids_say_other_build_elf(const char *who, const struct btfids_elf *mod, int err,
				const char *base_path, struct btfids_report *r);

/* Text for a negative errno that may be libbpf's own (LIBBPF_ERRNO__*). */
const char *btfids_btf_strerror(int err, char *buf, size_t len);

/*
 * Load base BTF from @path: raw BTF (e.g. /sys/kernel/btf/vmlinux) or an
 * ELF with .BTF, its header checked by the kernel's rules (verify.h).
 * Returns 0 and *out, or a negative errno after an error line naming the
 * file.
 */
int btfids_btf_load_base(const char *path, struct btf **out, struct btfids_report *r);

/*
 * The kernel's type checks (verify.h) on the own types of @btf, read from
 * @path: 0, or -EINVAL (-ENOMEM) after an error line naming @path and the
 * kernel's reason. For BTF that is to be written (the 7.x flow): a linear
 * pass per rule, about 2 ms on a vmlinux, which a run that only reads BTF
 * (6.x, check, dump) need not pay; the header checks of every load are
 * enough there.
 */
int btfids_btf_check_types(const struct btf *btf, const char *path, struct btfids_report *r);

/*
 * @e's own .BTF (and .BTF.base) passes the kernel's header checks
 * (verify.h: magic in either order, version, flags, the sections' offsets
 * and lengths, the strings); a module's as split BTF. Else an error line
 * naming what is wrong. Returns 0 or -EINVAL.
 */
int btfids_btf_check_header(const struct btfids_elf *e, struct btfids_report *r);

/*
 * Load the BTF that @e's IDs refer to: @btf_path (raw or ELF) when given,
 * else @e's own .BTF; split on @base when @base is not NULL. An object with
 * .BTF.base (an out-of-tree module's distilled base, kernel
 * scripts/Makefile.btf) is split on that instead and @base is ignored, as
 * the kernel tool's libbpf does; @e owns it (e->distilled_base). Every BTF
 * read passes the kernel's header checks first (verify.h; the FAILED line
 * names the file the BTF is in and the kernel's reason); libbpf's own
 * reason, when it refuses, is in the line too. A split BTF is checked
 * against its base: every name and type reference must resolve. The caller
 * frees *out with btf__free().
 */
int btfids_btf_load(struct btfids_elf *e, const char *btf_path,
		    struct btf *base, struct btf **out, struct btfids_report *r);

/*
 * Fill every target's id, nr_ids and ids[] from @btf and print the kernel
 * tool's warnings, in its order. Returns 0 or a negative errno (malformed
 * BTF, out of memory).
 */
int btfids_lookup(const struct btf *btf, struct btfids_syms *s, const char *path,
		  struct btfids_report *r);

/*
 * The FUNC/STRUCT/UNION/TYPEDEF names of a base BTF, indexed once, so that
 * each module split on it is looked up without walking the base's ~150,000
 * types again (batch mode: btfids -b vmlinux a.ko b.ko ...).
 */
struct btfids_btf_index;

/* Returns 0, -ENOMEM, or -EINVAL for a type without a name. */
int btfids_btf_index_new(const struct btf *base, struct btfids_btf_index **out);
void btfids_btf_index_free(struct btfids_btf_index *idx);

/*
 * btfids_lookup(), with the types of @btf's base taken from @base_idx when
 * it indexes exactly that base (else, or when NULL, all types are walked).
 * Same IDs, same warnings in the same order.
 */
int btfids_lookup_indexed(const struct btf *btf, const struct btfids_btf_index *base_idx,
			  struct btfids_syms *s, const char *path,
			  struct btfids_report *r);

#endif /* _BTFIDS_LOOKUP_H */
