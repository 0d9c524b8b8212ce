/* SPDX-License-Identifier: GPL-2.0 */
/*
 * srctree.h - the release of an object that carries none, from the kernel
 * tree it was built in.
 *
 * A vmlinux names its release in linux_banner, a module in vermagic=
 * (release.h). Other objects kbuild or the selftests hand to
 * resolve_btfids carry neither: the BPF selftests' resolve_btfids.test.o
 * (7.x: tools/testing/selftests/bpf/Makefile runs "--btf btf_data.bpf.o
 * resolve_btfids.test.o", then "--patch_btfids resolve_btfids.test.o.BTF_ids")
 * or the linked test_progs (6.x: the same "--btf", in place). The command
 * line is the same, so the flow comes from the tree that built the object:
 *
 *   1. the source file of each compile unit in the object's DWARF
 *      (DW_AT_name, under DW_AT_comp_dir when relative), read with libdw;
 *      an ET_REL object's DWARF relocated by libdwfl; no separate debug file
 *      is looked for;
 *   2. from that file's directory (its real path: the file must still be
 *      there) up to /, the first directory whose Makefile starts the way the
 *      kernel's top Makefile does ("VERSION = 7", "PATCHLEVEL = 3",
 *      "SUBLEVEL = 0", "EXTRAVERSION = -rc7" among its first lines) and that
 *      has the kernel's top Kconfig beside it (mainmenu "Linux/...") is the
 *      kernel tree; its release is "VERSION.PATCHLEVEL.SUBLEVEL" then
 *      EXTRAVERSION, as the top Makefile's KERNELVERSION;
 *   3. units in no kernel tree (a harness file, libc's start files, a tree
 *      that was moved or removed) do not count; units in trees of two
 *      different MAJOR.MINOR releases are an error: --kernel must choose.
 *
 * No debug info, or no unit in a kernel tree: no release (the 6.x flow,
 * release.h). The walk costs a read of the DWARF unit headers and a few
 * stat()s per source directory; it never runs for a vmlinux or a module.
 */
#ifndef _BTFIDS_SRCTREE_H
#define _BTFIDS_SRCTREE_H

#include <limits.h>

#include "btfids/elf.h"
#include "btfids/release.h"

/* btfids_release.from of a release read from the kernel tree */
#define BTFIDS_FROM_SRCTREE	"kernel tree"

struct btfids_srctree {
	char top[PATH_MAX];		/* found: the tree's top directory (real path) */
	char src[PATH_MAX];		/* found: a source in it; else the first one named, or "" */
	bool dwarf;			/* the object has debug info (.debug_info) */
	unsigned int nr_units;		/* compile units that name a source file */
	unsigned int nr_in_tree;	/* of them, in the tree found (any tree, -ENOTUNIQ) */
	unsigned int nr_gone;		/* of them, in a directory that is not there */
	char dwarf_err[128];		/* DWARF there but unreadable: libdwfl's reason; else "" */
	char other_top[PATH_MAX];	/* -ENOTUNIQ: a tree of another release */
	struct btfids_release other;	/* and its release */
};

/*
 * The release @e was built from, by the rule above: 0 with @rel filled
 * (rel->from BTFIDS_FROM_SRCTREE; rel->text as "7.3.0-rc7"), -ENOENT with
 * rel->from NULL when there is none to be had, -ENOTUNIQ when units name
 * trees of two releases (@rel: the first, t->other: the second), -ENOMEM.
 * @t says where the answer came from in each case.
 */
int btfids_srctree_release(const struct btfids_elf *e, struct btfids_release *rel,
			   struct btfids_srctree *t);

/*
 * The release of @e: btfids_release_read() (linux_banner, vermagic=), and
 * only when that finds none (-ENOENT), btfids_srctree_release(). Returns
 * what the one that answered returns; -ENOTUNIQ and -ENOMEM with a
 * "FAILED <file>: ..." line through @r (-ENOTUNIQ naming both trees).
 */
int btfids_release_find(const struct btfids_elf *e, struct btfids_release *rel,
			struct btfids_srctree *t, struct btfids_report *r);

/*
 * Why @t found no release, for a -v line, into @buf of @size bytes: "no
 * debug info", "debug info unreadable: ...", "its debug info names no
 * source file", "its 3 compile units, e.g.
 * /x/y.c, are in no kernel tree" or "... are not on this machine (moved or
 * removed?)". Returns @buf.
 */
const char *btfids_srctree_why(const struct btfids_srctree *t, char *buf, size_t size);

#endif /* _BTFIDS_SRCTREE_H */
