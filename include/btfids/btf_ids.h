/* SPDX-License-Identifier: GPL-2.0 */
/*
 * btf_ids.h - declare tables of BTF type IDs in .BTF_ids, to be filled at
 * build time by btfids (or the kernel's resolve_btfids).
 *
 * Source compatible with the kernel's include/linux/btf_ids.h: the same
 * macro names, the same symbol names and the same section layout, so one
 * tool serves both. Every macro emits assembler into the allocated section
 * ".BTF_ids"; nothing here depends on the host.
 *
 * Symbols the tool reads (all local, in .BTF_ids):
 *   __BTF_ID__<kind>__<name>__<uniq>   a 4-byte slot; kind is func, struct,
 *                                      union or typedef; uniq is
 *                                      __COUNTER__ pasted with __LINE__
 *   __BTF_ID__set__<name>              struct btf_id_set, st_size 4 + 4*cnt
 *   __BTF_ID__set8__<name>             struct btf_id_set8, st_size 8 + 8*cnt
 *
 * All words are u32 in the target's byte order. Before the tool runs every
 * slot and count is 0; afterwards each slot holds the BTF type ID of the
 * named type (0 if it is not in BTF), each count holds the number of
 * entries and each set is sorted by ID.
 */
#ifndef _BTFIDS_BTF_IDS_H
#define _BTFIDS_BTF_IDS_H

#ifdef __KERNEL__
#include <linux/types.h>
typedef u32 btf_ids_u32;
#else
#include <stdint.h>
typedef uint32_t btf_ids_u32;
#endif

/* A sorted set of type IDs: BTF_SET_START() .. BTF_SET_END(). */
struct btf_id_set {
	btf_ids_u32 cnt;	/* number of ids[] */
	btf_ids_u32 ids[];	/* ascending; unresolved (0) entries first */
};

/* One entry of a set8: the ID and the flags given to BTF_ID_FLAGS(). */
struct btf_id_set8_pair {
	btf_ids_u32 id;
	btf_ids_u32 flags;
};

/* A sorted set of {ID, flags}: BTF_SET8_START() / BTF_KFUNCS_START(). */
struct btf_id_set8 {
	btf_ids_u32 cnt;	/* number of pairs[] */
	btf_ids_u32 flags;	/* BTF_SET8_KFUNCS or 0; never touched by the tool */
	struct btf_id_set8_pair pairs[];	/* ascending by id */
};

/* set8 header flag: the set lists kfuncs (kernel include/linux/btf_ids.h). */
#define BTF_SET8_KFUNCS		(1 << 0)

#define BTF_IDS_SECTION		".BTF_ids"

/*
 * The labels are local symbols of the object: tell the compiler so, or a
 * position-independent build (gcc's default on most distributions) reads
 * them through a GOT entry that arm64 and mips resolve to the wrong word.
 */
#ifdef __KERNEL__
#define __btf_ids_local
#else
#define __btf_ids_local	__attribute__((visibility("hidden")))
#endif

#define ___btfids_stringify(x...)	#x
#define __btfids_stringify(x...)	___btfids_stringify(x)
#define ___btfids_paste(a, b)		a##b
#define __btfids_paste(a, b)		___btfids_paste(a, b)

/* __BTF_ID__<kind>__<name>__<counter><line>: unique within the object. */
#define __BTF_ID_SYM(prefix) \
	__btfids_paste(__btfids_paste(prefix, __COUNTER__), __LINE__)

#define ____BTF_ID(symbol, word)					\
	asm(".pushsection " BTF_IDS_SECTION ",\"a\";\n"			\
	    ".local " #symbol ";\n"					\
	    ".type " #symbol ", STT_OBJECT;\n"				\
	    ".size " #symbol ", 4;\n"					\
	    #symbol ":\n"						\
	    ".zero 4\n"							\
	    word							\
	    ".popsection;\n");
#define __BTF_ID(symbol, word)	____BTF_ID(symbol, word)

/* One 4-byte slot that receives the ID of BTF type <kind> <name>. */
#define BTF_ID(prefix, name) \
	__BTF_ID(__BTF_ID_SYM(__BTF_ID__##prefix##__##name##__), "")

/*
 * A slot followed by a flags word (for sets made with BTF_SET8_START or
 * BTF_KFUNCS_START). The flags are an assembler constant expression,
 * written by the assembler in the target's byte order; omitted means 0.
 */
#define BTF_ID_FLAGS(prefix, name, ...)					\
	__BTF_ID(__BTF_ID_SYM(__BTF_ID__##prefix##__##name##__),	\
		 ".long 0 " __btfids_stringify(__VA_OPT__(| (__VA_ARGS__))) "\n")

#define __BTF_ID_LIST(name, scope)					\
	asm(".pushsection " BTF_IDS_SECTION ",\"a\";\n"			\
	    "." #scope " " #name ";\n"					\
	    #name ":;\n"						\
	    ".popsection;\n");

/* A label for the slots that follow: extern u32 name[]. */
#define BTF_ID_LIST(name)		\
	__BTF_ID_LIST(name, local)	\
	extern btf_ids_u32 name[] __btf_ids_local;

/* The same, visible to other objects. */
#define BTF_ID_LIST_GLOBAL(name, n)	\
	__BTF_ID_LIST(name, globl)

/* A list of exactly one slot. */
#define BTF_ID_LIST_SINGLE(name, prefix, typename)	\
	BTF_ID_LIST(name)				\
	BTF_ID(prefix, typename)

#define BTF_ID_LIST_GLOBAL_SINGLE(name, prefix, typename)	\
	BTF_ID_LIST_GLOBAL(name, 1)				\
	BTF_ID(prefix, typename)

/* A 4-byte hole in a list: no symbol, stays 0. */
#define BTF_ID_UNUSED							\
	asm(".pushsection " BTF_IDS_SECTION ",\"a\";\n"			\
	    ".zero 4\n"							\
	    ".popsection;\n");

#define __BTF_SET_START(name, scope)					\
	asm(".pushsection " BTF_IDS_SECTION ",\"a\";\n"			\
	    "." #scope " __BTF_ID__set__" #name ";\n"			\
	    "__BTF_ID__set__" #name ":;\n"				\
	    ".zero 4\n"							\
	    ".popsection;\n");

/* struct btf_id_set name: BTF_ID() entries up to BTF_SET_END(name). */
#define BTF_SET_START(name)			\
	__BTF_ID_LIST(name, local)		\
	__BTF_SET_START(name, local)

#define BTF_SET_START_GLOBAL(name)		\
	__BTF_ID_LIST(name, globl)		\
	__BTF_SET_START(name, globl)

#define BTF_SET_END(name)						\
	asm(".pushsection " BTF_IDS_SECTION ",\"a\";\n"			\
	    ".size __BTF_ID__set__" #name ", .-" #name "\n"		\
	    ".popsection;\n");						\
	extern struct btf_id_set name __btf_ids_local;

#define __BTF_SET8_START(name, scope, flags)				\
	__BTF_ID_LIST(name, local)					\
	asm(".pushsection " BTF_IDS_SECTION ",\"a\";\n"			\
	    "." #scope " __BTF_ID__set8__" #name ";\n"			\
	    "__BTF_ID__set8__" #name ":;\n"				\
	    ".zero 4\n"							\
	    ".long " __btfids_stringify(flags) "\n"			\
	    ".popsection;\n");

/* struct btf_id_set8 name: BTF_ID_FLAGS() entries up to BTF_SET8_END(). */
#define BTF_SET8_START(name)	__BTF_SET8_START(name, local, 0)

#define BTF_SET8_END(name)						\
	asm(".pushsection " BTF_IDS_SECTION ",\"a\";\n"			\
	    ".size __BTF_ID__set8__" #name ", .-" #name "\n"		\
	    ".popsection;\n");						\
	extern struct btf_id_set8 name __btf_ids_local;

/* A set8 of kfuncs: header flags BTF_SET8_KFUNCS. */
#define BTF_KFUNCS_START(name)	__BTF_SET8_START(name, local, BTF_SET8_KFUNCS)
#define BTF_KFUNCS_END(name)	BTF_SET8_END(name)

#endif /* _BTFIDS_BTF_IDS_H */
