/* SPDX-License-Identifier: GPL-2.0 */
/*
 * btf_uapi.h - stop the build on a BTF uapi header older than btfids needs.
 *
 * btfids reads BTF through libbpf's inline helpers (btf_kind(), btf_vlen())
 * and struct btf_header of <linux/btf.h>. Those come from the uapi headers
 * of the kernel tree LIBBPF_SRC names (-I$(LIBBPF_SRC)/tools/include/uapi);
 * when that path is wrong the compiler quietly takes the distribution's
 * /usr/include/linux/btf.h instead (Debian 12: Linux 6.1's), whose kind
 * mask is 0x1f and vlen mask 0xffff and whose header has no layout section:
 * a binary that misreads 7.x BTF. The Makefile compiles this header alone
 * first and turns its error into one line naming the header found.
 *
 * Needed: the 7.x BTF layout (struct btf_header's layout_off and
 * layout_len, struct btf_layout: verify.c), 7-bit kinds and
 * 24-bit vlen (BTF_INFO_KIND, BTF_INFO_VLEN), and every kind up to
 * BTF_KIND_ENUM64 (decl and type tags included: kfunc.c, lookup.c).
 */
#ifndef _BTFIDS_BTF_UAPI_H
#define _BTFIDS_BTF_UAPI_H

#include <stddef.h>
#include <linux/btf.h>

#if BTF_INFO_KIND(0x7f000000) != 0x7f || BTF_INFO_VLEN(0xffffff) != 0xffffff
#error "btfids: <linux/btf.h> is older than Linux 7.x's (5-bit kinds or 16-bit vlen): set LIBBPF_SRC to a 7.x kernel tree, or run .ci/libbpf-src"
#else
_Static_assert(offsetof(struct btf_header, layout_len) == 28 &&
	       sizeof(struct btf_layout) == 4,
	       "btfids: <linux/btf.h> has no 7.x BTF layout section: set LIBBPF_SRC to a 7.x kernel tree");
_Static_assert(BTF_KIND_MAX >= BTF_KIND_ENUM64 && BTF_KIND_DECL_TAG == 17 &&
	       BTF_KIND_TYPE_TAG == 18,
	       "btfids: <linux/btf.h> lacks the BTF kinds up to ENUM64: set LIBBPF_SRC to a 7.x kernel tree");
#endif

#endif /* _BTFIDS_BTF_UAPI_H */
