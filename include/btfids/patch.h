/* SPDX-License-Identifier: GPL-2.0 */
/*
 * patch.h - compute the resolved bytes of .BTF_ids.
 *
 * Rules (kernel tools/bpf/resolve_btfids/main.c, symbols_patch() and
 * sets_patch()): each slot gets its target's ID; each set's count word
 * gets its entry count; then each set is sorted by ID, ascending, as
 * signed 32-bit values like the kernel's own btf_id_cmp_func(); a set8 is
 * sorted as {id, flags} pairs so every flags word moves with its ID and
 * keeps its bytes. Sets are sorted in the kernel tool's order (descending
 * name), which only matters if sets overlap. Ties keep their order.
 * Everything else (set8 header flags, BTF_ID_UNUSED holes) is untouched.
 * A set that already holds its final IDs (a second run) is left as it is,
 * so running on resolved output changes nothing.
 * All words are written in the target's byte order.
 */
#ifndef _BTFIDS_PATCH_H
#define _BTFIDS_PATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "btfids/syms.h"

struct btf;

/* Read/write a u16 or u32 in the target's byte order. */
static inline uint16_t btfids_get16(const unsigned char *p, bool big_endian)
{
	return big_endian ? (uint16_t)(p[0] << 8 | p[1]) : (uint16_t)(p[1] << 8 | p[0]);
}

static inline void btfids_put16(unsigned char *p, uint16_t v, bool big_endian)
{
	p[big_endian ? 0 : 1] = v >> 8;
	p[big_endian ? 1 : 0] = v;
}

static inline uint32_t btfids_get32(const unsigned char *p, bool big_endian)
{
	if (big_endian)
		return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
		       (uint32_t)p[2] << 8 | p[3];
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[1] << 8 | p[0];
}

static inline void btfids_put32(unsigned char *p, uint32_t v, bool big_endian)
{
	int i;

	for (i = 0; i < 4; i++)
		p[big_endian ? 3 - i : i] = v >> (8 * i);
}

/*
 * Patch @buf, a copy of .BTF_ids (btfids_syms_collect() checked that it
 * holds every slot and set), in place. Returns 0 or -ENOMEM.
 */
int btfids_patch(const struct btfids_syms *s, unsigned char *buf, bool big_endian);

/*
 * The resolved .BTF_ids of @e: a malloc'd copy of the section (ids.size
 * bytes, at least 1 allocated: the section may be empty) patched by
 * btfids_patch(). Returns 0 and *out (the caller frees it), or -ENOMEM
 * with *out NULL.
 */
int btfids_patch_section(const struct btfids_elf *e, const struct btfids_syms *s,
			 unsigned char **out);

/*
 * @buf, a copy of .BTF_ids, with each set8 that an earlier run resolved
 * put back in link order, for what pairs flags with names by the offset of
 * each entry's symbol (the 7.x kfunc rewrite, kfunc.h). A resolved set8
 * has its entry count in its count word (the linker leaves 0) and its
 * {id, flags} pairs sorted by ID, away from their symbols: each pair goes
 * back to the entry whose slot names the type its ID is in @btf (the BTF
 * it was resolved against: a final image's own), pairs with ID 0 to the
 * entries left, in order. Other sets and unresolved set8s are left as they
 * are. Returns 0; -ESTALE and *bad_set when a stored ID names no type that
 * a slot of its set asks for (by kind and name) (resolved against another BTF: flags cannot
 * be paired); -ENOMEM.
 */
int btfids_patch_unsort(const struct btfids_syms *s, const struct btf *btf,
			unsigned char *buf, bool big_endian, const char **bad_set);

#endif /* _BTFIDS_PATCH_H */
