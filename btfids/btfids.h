/* SPDX-License-Identifier: GPL-2.0 */
/* btfids.h - the verbs main() dispatches to, and shared exit codes. */
#ifndef _BTFIDS_MAIN_H
#define _BTFIDS_MAIN_H

#include <stdio.h>

#include "btf_uapi.h"	/* the 7.x <linux/btf.h>, or no build */

/* Exit codes of the kernel's resolve_btfids (tools/lib/subcmd parse-options) */
#define BTFIDS_EXIT_OK		0
#define BTFIDS_EXIT_FAIL	255
#define BTFIDS_EXIT_USAGE	129

/*
 * What btfids adds (check, dump, models, help, the mistyped-verb check)
 * exits as cmp(1) and diff(1): 0 ok, 1 findings (check), 2 bad input or
 * usage error (btfids(1), EXIT STATUS); resolve's usage errors are 129.
 */
#define BTFIDS_EXIT_FINDINGS	1
#define BTFIDS_EXIT_BAD		2

#define BTFIDS_VERSION		"0.1.0"

/* Each verb parses its own argv (argv[0] is the verb or program name). */
int do_resolve(int argc, char **argv);	/* resolve.c */
int do_check(int argc, char **argv);	/* check.c */
int do_dump(int argc, char **argv);	/* dump.c */
int do_models(int argc, char **argv);	/* models.c */

/* Each verb's --help text (btfids help VERB prints it to stdout). */
void btfids_resolve_usage(FILE *f);
void btfids_check_usage(FILE *f);
void btfids_dump_usage(FILE *f);
void btfids_models_usage(FILE *f);

#endif /* _BTFIDS_MAIN_H */
