/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmdline.h - what every verb's option parser (resolve.c, check.c, dump.c,
 * models.c) says of a long option it does not know: one line on stderr,
 *
 *   btfids check: unknown option --btf-base (did you mean --btf_base?
 *   the kernel tool's spellings use '_')
 *
 * with a did-you-mean when a known long option is spelled the same but
 * for '-' against '_' (whole, or cut short as getopt_long() takes it:
 * --fatal-w), else when one is a few edits away (suggest.h). The kernel's
 * resolve_btfids spells its options with '_' (--fatal_warnings,
 * --btf_base), and btfids keeps them; a '-' there is the usual slip.
 * The caller prints the line after it (btfids_try_help()).
 */
#ifndef _BTFIDS_CMDLINE_H
#define _BTFIDS_CMDLINE_H

#include <getopt.h>

/* @prog: "btfids", "btfids check"...; @arg: the word as given (--x=VALUE too) */
void btfids_unknown_option(const char *prog, const char *arg, const struct option *opts);

#endif /* _BTFIDS_CMDLINE_H */
