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
#include "btfids/report.h"
#include "btfids/suggest.h"

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	void (*usage)(FILE *f);
	const char *help;
};

static const struct cmd cmds[] = {
	{ "resolve", do_resolve, btfids_resolve_usage, "fill .BTF_ids in place (the default verb)" },
	{ "check", do_check, btfids_check_usage, "report names that no longer resolve, ambiguous names, stale IDs" },
	{ "dump", do_dump, btfids_dump_usage, "print the lists and sets of .BTF_ids" },
	{ "models", do_models, btfids_models_usage, "print trampoline function models as JSON Lines" },
};

#define NR_CMDS	(sizeof(cmds) / sizeof(cmds[0]))

static const struct cmd *find_cmd(const char *name)
{
	size_t i;

	for (i = 0; i < NR_CMDS; i++)
		if (!strcmp(name, cmds[i].name))
			return &cmds[i];
	return NULL;
}

/*
 * After "no verb 'chek'": " (did you mean check? verbs: resolve check dump
 * models help)", on @f
 */
static void list_verbs(FILE *f, const char *word)
{
	const char *names[NR_CMDS + 1], *like;
	size_t i;

	for (i = 0; i < NR_CMDS; i++)
		names[i] = cmds[i].name;
	names[NR_CMDS] = "help";
	like = btfids_suggest_word(word, names, NR_CMDS + 1);
	fputs(" (", f);
	if (like)
		fprintf(f, "did you mean %s? ", like);
	fputs("verbs:", f);
	for (i = 0; i <= NR_CMDS; i++)
		fprintf(f, " %s", names[i]);
	fputc(')', f);
}

/*
 * btfids help [VERB]: the overview, or VERB's --help; exit 0. No such verb,
 * or more than one word, is a usage error of btfids' own: exit 2.
 */
static int do_help(int argc, char **argv)
{
	const char *verb = argc > 2 && strcmp(argv[2], "help") ? argv[2] : NULL;
	const struct cmd *c = verb ? find_cmd(verb) : NULL;
	size_t i;

	if (argc > 3) {
		fprintf(stderr, "btfids help: one VERB at a time\n");
		btfids_try_help(NULL);
		return BTFIDS_EXIT_BAD;
	}
	if (c) {
		c->usage(stdout);
		return BTFIDS_EXIT_OK;
	}
	if (verb) {
		fprintf(stderr, "btfids help: no verb '%s'", verb);
		list_verbs(stderr, verb);
		fputc('\n', stderr);
		btfids_try_help(NULL);
		return BTFIDS_EXIT_BAD;
	}
	printf("Usage: btfids [VERB] [OPTIONS] ELF...\n\n"
	       "Without a verb, btfids takes the options of the kernel's resolve_btfids:\n"
	       "  btfids [-v]... [--btf FILE] [-b|--btf_base FILE] [--fatal_warnings]\n"
	       "         [--distill_base] [--kernel RELEASE] [--tramp_table] ELF...\n"
	       "  btfids [-v]... [...] -o OUT ELF     (a resolved copy; ELF left as it is)\n"
	       "  btfids --patch_btfids BLOB ELF\n\n"
	       "The kernel an ELF was built from (linux_banner in vmlinux, vermagic= in a\n"
	       "module, else the kernel tree its debug info names; --kernel to set it)\n"
	       "decides the flow: 6.x patches .BTF_ids in place, 7.x (scripts/gen-btf.sh)\n"
	       "writes ELF.BTF_ids and ELF.BTF and leaves ELF as it is; no release found\n"
	       "means 6.x. -v prints how each ELF was classified.\n\n"
	       "Verbs (btfids help VERB, or btfids VERB --help, for each):\n");
	for (i = 0; i < NR_CMDS; i++)
		printf("  %-10s %s\n", cmds[i].name, cmds[i].help);
	printf("  %-10s %s\n", "help", "this overview, or a verb's options (help VERB)");
	printf("\nExit status: resolve keeps the kernel tool's: 0 ok, 255 failure, 129 usage\n"
	       "error. check, dump, models, help and a mistyped verb: 0 ok, 1 findings\n"
	       "(check), 2 bad input or usage error.\n");
	return BTFIDS_EXIT_OK;
}

int main(int argc, char **argv)
{
	const struct cmd *c;

	if (argc >= 2 && !strcmp(argv[1], "help"))
		return do_help(argc, argv);
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
		return do_help(argc, argv);
	if (argc == 2 && !strcmp(argv[1], "--version")) {
		printf("btfids %s (libbpf %u.%u, built from %s)\n", BTFIDS_VERSION,
		       libbpf_major_version(), libbpf_minor_version(), BTFIDS_LIBBPF_FROM);
		return 0;
	}
	c = argc > 1 ? find_cmd(argv[1]) : NULL;
	if (c)
		return c->fn(argc - 1, argv + 1);
	/*
	 * "btfids chek vmlinux" must not resolve vmlinux in place: a first word
	 * that is neither an option nor a file, with more to follow, is a
	 * mistyped verb, a usage error of btfids' own (2, as "help chek"); the
	 * rest is resolve's command line, the kernel tool's (129).
	 */
	if (argc > 2 && argv[1][0] != '-' && access(argv[1], F_OK)) {
		fprintf(stderr, "btfids: '%s' is neither a verb nor a file", argv[1]);
		list_verbs(stderr, argv[1]);
		fprintf(stderr, "; nothing was changed\n");
		btfids_try_help(NULL);
		return BTFIDS_EXIT_BAD;
	}
	return do_resolve(argc, argv);
}
