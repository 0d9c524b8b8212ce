/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - messages of btfids, compatible with the kernel's resolve_btfids.
 *
 * Everything goes to stderr. Errors start "FAILED", warnings "WARN:", so
 * build logs and the scripts that grep them read btfids like the kernel
 * tool (tools/bpf/resolve_btfids/main.c). Debug output needs -v (level 1)
 * or -vv (level 2).
 */
#ifndef _BTFIDS_REPORT_H
#define _BTFIDS_REPORT_H

#include <stdio.h>

struct btfids_report {
	FILE *out;		/* stderr unless a test redirects it */
	int verbose;		/* number of -v */
	unsigned int warnings;	/* WARN: lines printed so far */
};

#define BTFIDS_PRINTF(a, b) __attribute__((format(printf, a, b)))

/* "FAILED <file>: <message>\n"; file may be NULL. */
void btfids_err(struct btfids_report *r, const char *file, const char *fmt, ...)
	BTFIDS_PRINTF(3, 4);
/* "WARN: <message>\n", counted in r->warnings. */
void btfids_warn(struct btfids_report *r, const char *fmt, ...) BTFIDS_PRINTF(2, 3);
/* Printed only when r->verbose >= level. */
void btfids_dbg(struct btfids_report *r, int level, const char *fmt, ...)
	BTFIDS_PRINTF(3, 4);
/*
 * After a usage error's own line: "Try 'btfids VERB --help' for more
 * information." on stderr (VERB NULL: 'btfids --help'). A usage error is
 * those two lines, never the whole usage (btfids(1), EXIT STATUS).
 */
void btfids_try_help(const char *verb);

#endif /* _BTFIDS_REPORT_H */
