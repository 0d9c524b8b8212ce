/* SPDX-License-Identifier: GPL-2.0 */
/* btfids.h - the verbs main() dispatches to, and shared exit codes. */
#ifndef _BTFIDS_MAIN_H
#define _BTFIDS_MAIN_H

/* Exit codes of the kernel's resolve_btfids (tools/lib/subcmd parse-options) */
#define BTFIDS_EXIT_OK		0
#define BTFIDS_EXIT_FAIL	255
#define BTFIDS_EXIT_USAGE	129

#define BTFIDS_VERSION		"0.1.0"

/* Each verb parses its own argv (argv[0] is the verb or program name). */
int do_resolve(int argc, char **argv);	/* resolve.c */
int do_check(int argc, char **argv);	/* check.c */
int do_dump(int argc, char **argv);	/* dump.c */
int do_models(int argc, char **argv);	/* models.c */

#endif /* _BTFIDS_MAIN_H */
