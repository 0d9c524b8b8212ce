/* SPDX-License-Identifier: GPL-2.0 */
/*
 * srcloc.h - where in the kernel sources a __BTF_ID__ symbol was declared:
 * the file and line of the BTF_ID() (or the other btf_ids.h macro) that
 * names its type, so `btfids check` points at the line to fix.
 *
 * The rule, from what the toolchain leaves in the object:
 *   - the compilation unit: every __BTF_ID__ slot symbol is .local
 *     (include/linux/btf_ids.h, ____BTF_ID()), and an ELF symbol table
 *     lists each input's local symbols after that input's STT_FILE symbol
 *     (System V gABI, "Symbol Table": STT_FILE precedes the file's other
 *     STB_LOCAL symbols). Its name is the source file as the compiler saw
 *     it, a basename for GCC ("btf.c");
 *   - the file: the tree's *.c file of that name (or path) whose text has
 *     a macro naming that (kind, name). When several do, the one with a
 *     macro on the line the symbol was made on wins (__ID() pastes
 *     __COUNTER__ then __LINE__ into the symbol: "__BTF_ID__func__x__9633100"
 *     is line 3100 or 100; GCC gives the macro name's line, clang its
 *     closing parenthesis's), then the one compiled in this tree (an .o
 *     next to it); otherwise it is not placed, and why is said;
 *   - the line: of the name inside the macro. The slots of one name in one
 *     unit take the macros naming it in that file: first each the one its
 *     __LINE__ points to, then the rest in text order (symbols follow the
 *     source: top-level asm() keeps its order).
 * A set's finding (stale count or order) points at its BTF_SET_START(),
 * BTF_SET8_START() or BTF_KFUNCS_START().
 *
 * The kernel tree: --source DIR, or the first directory from the ELF's own
 * up whose Makefile has the kernel's "VERSION =" and "PATCHLEVEL =" lines
 * and that holds include/linux/btf_ids.h. Paths are relative to it (what
 * kbuild prints, and what GitHub annotations want: relative to the
 * repository root).
 */
#ifndef _BTFIDS_SRCLOC_H
#define _BTFIDS_SRCLOC_H

#include <stdbool.h>
#include <stddef.h>

#include "btfids/elf.h"
#include "btfids/syms.h"

/*
 * One macro of include/linux/btf_ids.h as written in a C file: BTF_ID(),
 * BTF_ID_FLAGS(), BTF_ID_LIST_SINGLE(), BTF_ID_LIST_GLOBAL_SINGLE() name a
 * type; BTF_SET_START(), BTF_SET_START_GLOBAL(), BTF_SET8_START() and
 * BTF_KFUNCS_START() a set (BTF_ID_UNUSED names nothing). Macros inside
 * comments, string literals and preprocessor directives (#define bodies)
 * are not counted; an argument that is not one identifier is not a name.
 */
struct btfids_src_macro {
	enum btfids_kind kind;		/* func..typedef; BTFIDS_SET, BTFIDS_SET8 */
	const char *name;		/* into the scanned text, not terminated */
	size_t name_len;
	unsigned int line;		/* of the name, 1-based */
	unsigned int first, last;	/* of the macro's name and of its ')' */
};

/*
 * Every such macro of the C text @text (@len bytes), in text order, into
 * a malloc'd *@v (*@n of them; NULL when none). Returns 0 or -ENOMEM.
 */
int btfids_src_scan(const char *text, size_t len, struct btfids_src_macro **v, size_t *n);

/*
 * How many decimal digits of @line end the unique part of the slot symbol
 * @sym ("__BTF_ID__func__x__<counter><line>"), with at least one digit of
 * counter before them; 0 when @sym cannot have been made on @line.
 */
unsigned int btfids_src_sym_line(const char *sym, unsigned int line);

/*
 * The kernel tree @elf_path sits in (see above), as a malloc'd absolute
 * path in *@root. Returns 0, -ENOENT when there is none, -ENOMEM.
 */
int btfids_src_find_tree(const char *elf_path, char **root);

struct btfids_src_file;

/* A kernel tree: its *.c files, indexed on first use, and the ones read. */
struct btfids_src_tree {
	char *root;			/* absolute, no trailing '/' */
	bool indexed;
	int index_err;			/* walking it failed: errno */
	char **paths;			/* *.c, relative to root, by basename */
	size_t nr_paths;
	struct btfids_src_file *files;	/* per path, read on demand */
};

/* @root (copied): a directory. Returns 0 or -ENOMEM; nothing is read yet. */
int btfids_src_tree_init(struct btfids_src_tree *t, const char *root);
void btfids_src_tree_free(struct btfids_src_tree *t);

/*
 * A place in the tree: @file and @line; @line 0 when only the file is
 * known; @file NULL when not even that. @why says why it is not a line
 * (NULL when it is). Strings belong to the tree and the map.
 */
struct btfids_srcloc {
	const char *file;
	unsigned int line;
	const char *why;
};

/* Where the slots and sets of one ELF were declared. */
struct btfids_srcmap {
	struct btfids_srcloc *slot;	/* per slot of the syms */
	struct btfids_srcloc *set;	/* per set */
	char **owned;			/* the why strings made for this map */
	size_t nr_owned, cap_owned;
};

/*
 * Place the slots @want_slot[i] (and every other slot of their names,
 * which share the file's macros) and the sets @want_set[i] of @s in @t.
 * What is not asked for stays all NULL. Returns 0 or -ENOMEM; a tree or
 * file that cannot be read only leaves its slots unplaced, with why.
 */
int btfids_srcmap_build(struct btfids_srcmap *m, struct btfids_src_tree *t,
			const struct btfids_elf *e, const struct btfids_syms *s,
			const bool *want_slot, const bool *want_set);
void btfids_srcmap_free(struct btfids_srcmap *m);

#endif /* _BTFIDS_SRCLOC_H */
