// SPDX-License-Identifier: GPL-2.0
/* report.c - the one place that prints diagnostics. */
#include <stdarg.h>

#include "btfids/report.h"

static FILE *report_out(struct btfids_report *r)
{
	return r->out ? r->out : stderr;
}

void btfids_err(struct btfids_report *r, const char *file, const char *fmt, ...)
{
	FILE *f = report_out(r);
	va_list ap;

	fputs("FAILED ", f);
	if (file)
		fprintf(f, "%s: ", file);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
}

void btfids_try_help(const char *verb)
{
	fprintf(stderr, "Try 'btfids%s%s --help' for more information.\n",
		verb ? " " : "", verb ? verb : "");
}

void btfids_warn(struct btfids_report *r, const char *fmt, ...)
{
	FILE *f = report_out(r);
	va_list ap;

	r->warnings++;
	fputs("WARN: ", f);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
}

void btfids_dbg(struct btfids_report *r, int level, const char *fmt, ...)
{
	va_list ap;

	if (r->verbose < level)
		return;
	va_start(ap, fmt);
	vfprintf(report_out(r), fmt, ap);
	va_end(ap);
}
