/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kfunc.h - the 7.x flow's kfunc rewrite of BTF, before it is sorted and
 * the IDs are looked up (kernel tools/bpf/resolve_btfids/main.c, btf2btf()).
 *
 * Which FUNCs are kfuncs, and their flags (the u32 after each slot of a
 * set8, include/linux/btf.h KF_*):
 *   7.0-7.2  FUNCs with a "bpf_kfunc" decl tag (pahole's decl_tag_kfuncs)
 *            whose name a func slot asks for; flags from the first set8, by
 *            descending set name, that holds one of its slots (0 if none).
 *   7.3      every pair of a set8 whose header flags have BTF_SET8_KFUNCS,
 *            sets by descending name:
 *            the slot's name looked up as a FUNC of the object's own BTF
 *            ("WARN: resolve_btfids: no BTF ID symbol for SET entry N",
 *            "... no BTF func for kfunc NAME in SET" when that fails); one
 *            kfunc in two sets with different flags is an error. 7.3 adds
 *            the "bpf_kfunc" decl tag, "bpf_fastcall" for KF_FASTCALL, and
 *            "address_space(1)" type attributes on arena pointers
 *            (KF_ARENA_RET/ARG1/ARG2, params named *__arena or
 *            *__arena__nullable) on a new FUNC_PROTO.
 * KF_IMPLICIT_ARGS kfuncs (both): FUNC "<name>_impl" with the original
 * proto, linkage and every decl tag but "bpf_kfunc" (same component index;
 * a decl attr when the tag's kflag is set), unless it exists; then a new
 * FUNC_PROTO with the params before the first implicit one (a pointer,
 * modifiers skipped, to struct bpf_prog_aux or btf_struct_meta), names
 * kept, for the kfunc itself.
 *
 * Where the kernel tool is not idempotent, this is: a decl tag that is
 * already there is not added again, a kfunc whose proto has no implicit
 * arg and is the start of its "_impl"'s keeps that proto, and an arena pointer
 * that already points at "address_space(1)" is not tagged twice. On the
 * BTF of a first run (pahole's) none of these arise, so the bytes are the
 * kernel tool's; on a final BTF nothing is added.
 */
#ifndef _BTFIDS_KFUNC_H
#define _BTFIDS_KFUNC_H

#include <bpf/btf.h>

#include "btfids/elf.h"
#include "btfids/release.h"
#include "btfids/syms.h"

/* include/linux/btf.h, include/linux/btf_ids.h */
#define BTFIDS_KF_FASTCALL	(1u << 12)
#define BTFIDS_KF_ARENA_RET	(1u << 13)
#define BTFIDS_KF_ARENA_ARG1	(1u << 14)
#define BTFIDS_KF_ARENA_ARG2	(1u << 15)
#define BTFIDS_KF_IMPLICIT_ARGS	(1u << 16)
#define BTFIDS_SET8_KFUNCS	(1u << 0)

/*
 * The KF_* names of a set8 entry's @flags into @buf (@len bytes, 128 is
 * plenty), "|"-joined, as kernel @kernel (BTFIDS_KERNEL(); 0: unknown,
 * every name) defines them in include/linux/btf.h: KF_ACQUIRE, KF_RELEASE,
 * KF_RET_NULL (6.0 on), KF_KPTR_GET (6.0-6.3), KF_TRUSTED_ARGS (6.0-6.19,
 * the default since), KF_SLEEPABLE (6.1), KF_DESTRUCTIVE (6.0), KF_RCU
 * (6.2), KF_ITER_NEW/NEXT/DESTROY (6.4), KF_RCU_PROTECTED (6.7),
 * KF_FASTCALL (6.13), KF_ARENA_RET/ARG1/ARG2 and KF_IMPLICIT_ARGS (7.0),
 * KF_SPINLOCK_SAFE and KF_PERFMON (7.3). No bit was ever given a second
 * meaning. Bits that release does not define are left as a hex rest
 * ("KF_RCU|0x8"); 0 is "0". Returns @buf.
 */
char *btfids_kf_names(uint32_t flags, unsigned int kernel, char *buf, size_t len);

/*
 * Rewrite @btf (the object's BTF, split on its base for a module) for the
 * kfuncs of @e's sets (@s), their flags read from @ids (a copy of @e's
 * .BTF_ids in link order: btfids_patch_unsort(); NULL when @e has none),
 * by the rules of @flow (7.2 or 7.3). Prints the
 * kernel tool's WARN lines. Returns the number of types added (>= 0), or a
 * negative errno after an error line naming @e (inconsistent kfunc flags,
 * a kfunc that is no FUNC, libbpf out of memory).
 */
int btfids_kfuncs_rewrite(struct btf *btf, const struct btfids_elf *e,
			  const struct btfids_syms *s, const unsigned char *ids,
			  enum btfids_flow flow, struct btfids_report *r);

#endif /* _BTFIDS_KFUNC_H */
