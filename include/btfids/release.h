/* SPDX-License-Identifier: GPL-2.0 */
/*
 * release.h - which kernel an object was built from, and so which
 * resolve_btfids behaviour it expects.
 *
 * kbuild changed how it runs the tool in 7.0 (scripts/gen-btf.sh): the 6.x
 * flow patches .BTF_ids in place; the 7.x flow rewrites and sorts BTF and
 * writes <ELF>.BTF_ids, <ELF>.BTF (and <ELF>.BTF.base) for kbuild to link.
 * Within 7.x, 7.3 finds kfuncs in BTF_SET8_KFUNCS sets, adds their decl
 * tags itself and runs btf__dedup(); 7.0 to 7.2 find them by pahole's
 * "bpf_kfunc" decl tags. The command line is the same in both flows, so
 * the release is read from the ELF itself:
 *   vmlinux  the linux_banner string, "Linux version 7.2.13-... (...)"
 *            (init/version-timestamp.c), through its symbol;
 *   module   "vermagic=7.2.13-... SMP ..." in .modinfo
 *            (include/linux/vermagic.h).
 */
#ifndef _BTFIDS_RELEASE_H
#define _BTFIDS_RELEASE_H

#include "btfids/elf.h"

enum btfids_flow {
	BTFIDS_FLOW_6X,		/* in place (Linux 5.9 to 6.x) */
	BTFIDS_FLOW_72,		/* gen-btf.sh, kfuncs by decl tag (7.0 to 7.2) */
	BTFIDS_FLOW_73,		/* gen-btf.sh, kfuncs by set8, dedup (7.3 on) */
};

struct btfids_release {
	unsigned int major, minor;
	char text[64];		/* the release as found, e.g. "7.2.13+deb14-cloud-amd64" */
	const char *from;	/* "linux_banner", "vermagic", "--kernel", "kernel tree" (srctree.h) or NULL */
	const char *bad;	/* -EBADMSG: "linux_banner" or "vermagic", its string in text */
};

/*
 * Parse a release such as "7.3", "6.12.1" or "7.2.13+deb14-amd64" into
 * @rel (from stays as it is). Returns 0, or -EINVAL when it does not start
 * with MAJOR.MINOR.
 */
int btfids_release_parse(const char *s, struct btfids_release *rel);

/*
 * Read the release @e was built from (see above). Returns 0 with @rel
 * filled, -ENOENT when @e carries none (rel->from NULL): a test object, or
 * a kernel built without init/version.o; or -EBADMSG when a linux_banner
 * or vermagic= is there but does not start with MAJOR.MINOR ("Linux
 * version 1000.1", "vermagic=7."): rel->from NULL, rel->bad names it and
 * rel->text holds it, to the end of its line. A corrupt or foreign object:
 * which flow it takes cannot be known.
 */
int btfids_release_read(const struct btfids_elf *e, struct btfids_release *rel);

/* The flow of a release; a missing one (from NULL) is the 6.x flow. */
enum btfids_flow btfids_release_flow(const struct btfids_release *rel);

/* "6.x in place", "7.2 (gen-btf.sh)", "7.3 (gen-btf.sh)" */
const char *btfids_flow_str(enum btfids_flow flow);

#endif /* _BTFIDS_RELEASE_H */
