/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verify.h - the kernel's own checks of the BTF it loads, so that BTF the
 * kernel would refuse is refused here, with the kernel's reason, before
 * anything is built on it or written: the header checks on every BTF
 * btfids reads (an ELF's .BTF and .BTF.base, a --btf or -b file, raw or
 * ELF: lookup.c), the type checks on the BTF the 7.x flow rewrites and
 * writes, and on a distilled base it writes (resolve.c).
 *
 * Source: kernel/bpf/btf.c of Linux 7.3. At boot, btf_parse_base()
 * (vmlinux, a distilled .BTF.base) and btf_parse_module() run
 * btf_parse_hdr() (with btf_check_sec_info()), btf_parse_str_sec(),
 * btf_check_all_metas() and btf_check_modifier_chain_length();
 * BPF_BTF_LOAD's btf_parse() also runs btf_parse_layout_sec() and
 * btf_parse_type_sec() with btf_check_all_types(). Each rule in verify.c
 * names the function it comes from. Type ID references and name offsets
 * are libbpf's btf_sanity_check() at parse (lookup.c prints its reason).
 *
 * Each check returns 0, or -EINVAL with a sentence in @why (at most @len
 * bytes, starting with what was checked: ".BTF", ".BTF.base" or "BTF")
 * that ends with the kernel's own words, e.g. "(kernel: Unsupported
 * version)". The caller prints it after the file's name.
 */
#ifndef _BTFIDS_VERIFY_H
#define _BTFIDS_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <bpf/btf.h>

/* BTF bytes as they are in a file or section: struct btf_header first, target order. */
struct btfids_btf_bytes {
	const void *data;
	uint64_t size;
	const char *name;	/* ".BTF", ".BTF.base" (an ELF's sections) or "BTF" (a raw file) */
	bool section;		/* an ELF section: may end in up to 3 zero bytes of padding */
	bool split;		/* read on a base BTF (a module's): strings and types may be empty */
};

/*
 * The header and the layout of the sections it describes (magic, version,
 * flags, hdr_len and the bytes past the header the kernel knows, section
 * offsets, overlaps, gaps and alignment) and the string section.
 * One exception to the kernel's rules: an ELF section may end in fewer
 * than 4 zero bytes after its BTF, the padding an assembler adds to the
 * section's alignment (MIPS gas after .incbin of a standalone image's BTF,
 * linker-scripts/btf_ids.lds). libbpf ignores them, and the 7.x flow
 * writes BTF without them; kbuild's objcopy never adds them.
 */
int btfids_btf_verify_header(const struct btfids_btf_bytes *b, char *why, size_t len);

/*
 * The types of @btf's own part (all of it, or its split part): kinds the
 * kernel knows, FUNC_PROTO return types that exist, modifier chains, and
 * no type that contains itself by value (a STRUCT/UNION member, an ARRAY
 * element, through modifiers) or a chain of pointers and modifiers that
 * leads back to itself. One pass per rule over the types: linear in their
 * number and their members.
 * Returns 0, -EINVAL with @why, or -ENOMEM.
 */
int btfids_btf_verify_types(const struct btf *btf, char *why, size_t len);

#endif /* _BTFIDS_VERIFY_H */
