// SPDX-License-Identifier: GPL-2.0
/*
 * btfids - fill the .BTF_ids section of a kernel image or module.
 *
 * main() only dispatches: "btfids VERB ..." runs that verb; anything else
 * is the kernel-compatible resolve command line, so that
 * "make RESOLVE_BTFIDS=btfids" works unchanged.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>

#include "btfids.h"

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

static const struct cmd cmds[] = {
	{ "resolve", do_resolve, "fill .BTF_ids in place (the default verb)" },
	{ "check", do_check, "report names that no longer resolve, ambiguous names, stale IDs" },
	{ "dump", do_dump, "print the lists and sets of .BTF_ids" },
	{ "models", do_models, "print trampoline function models as JSON Lines" },
};

static int do_help(void)
{
	size_t i;

	printf("Usage: btfids [VERB] [OPTIONS] ELF...\n\n"
	       "Without a verb, btfids takes the options of the kernel's resolve_btfids:\n"
	       "  btfids [-v]... [--btf FILE] [-b|--btf_base FILE] [--fatal_warnings]\n"
	       "         [--distill_base] [--kernel RELEASE] ELF...\n"
	       "  btfids [-v]... [...] -o OUT ELF     (a resolved copy; ELF left as it is)\n"
	       "  btfids --patch_btfids BLOB ELF\n\n"
	       "The kernel an ELF was built from (linux_banner in vmlinux, vermagic= in a\n"
	       "module, else the kernel tree its debug info names; --kernel to set it)\n"
	       "decides the flow: 6.x patches .BTF_ids in place, 7.x (scripts/gen-btf.sh)\n"
	       "writes ELF.BTF_ids and ELF.BTF and leaves ELF as it is; no release found\n"
	       "means 6.x. -v prints how each ELF was classified.\n\n"
	       "Verbs (btfids VERB --help for each):\n");
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		printf("  %-10s %s\n", cmds[i].name, cmds[i].help);
	return 0;
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc == 2 && (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") ||
			  !strcmp(argv[1], "-h")))
		return do_help();
	if (argc == 2 && !strcmp(argv[1], "--version")) {
		printf("btfids %s (libbpf %u.%u, built from %s)\n", BTFIDS_VERSION,
		       libbpf_major_version(), libbpf_minor_version(), BTFIDS_LIBBPF_FROM);
		return 0;
	}
	for (i = 0; argc > 1 && i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	/*
	 * "btfids chek vmlinux" must not resolve vmlinux in place: a first word
	 * that is neither an option nor a file, with more to follow, is a
	 * mistyped verb.
	 */
	if (argc > 2 && argv[1][0] != '-' && access(argv[1], F_OK)) {
		fprintf(stderr, "btfids: '%s' is neither a verb nor a file (verbs:", argv[1]);
		for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
			fprintf(stderr, " %s", cmds[i].name);
		fprintf(stderr, "); nothing was changed\n");
		return BTFIDS_EXIT_USAGE;
	}
	return do_resolve(argc, argv);
}
