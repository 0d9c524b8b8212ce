/* SPDX-License-Identifier: GPL-2.0 */
/*
 * output.h - where the read-only verbs (check, dump) print, in which
 * format, and the one error helper they share (after bpftool's p_err()).
 *
 * Formats:
 *   text    for people: results on stdout, errors on stderr as
 *           "FAILED <file>: <what>" like every other btfids message
 *   json    JSON Lines on stdout, one object per input file; an input that
 *           cannot be read is {"file": ..., "error": ..., ...} on stdout
 *   github  GitHub Actions workflow commands on stdout:
 *           "::error file=F,line=L,title=T::MESSAGE" / "::warning ...", so the
 *           findings show up as annotations; plain text around them
 *
 * The library stages (elf, syms, lookup, layout) print errors through a
 * struct btfids_report. The verbs point that report at a capture buffer
 * while they work on one file, and hand what was caught to
 * btfids_out_error(), which prints it in the chosen format. The kernel
 * tool's warnings that btfids_lookup() also prints are dropped there: the
 * findings say the same, with more detail.
 */
#ifndef _BTFIDS_OUTPUT_H
#define _BTFIDS_OUTPUT_H

#include <stdio.h>

#include "btfids/json.h"
#include "btfids/report.h"

enum btfids_format {
	BTFIDS_FMT_TEXT,
	BTFIDS_FMT_JSON,
	BTFIDS_FMT_GITHUB,
};

struct btfids_out {
	enum btfids_format fmt;
	FILE *out;		/* results: stdout */
	FILE *err;		/* text errors: stderr */
	struct btfids_json jw;	/* the writer, on out */
};

/* "text", "json" or "github" into *fmt; -EINVAL for anything else. */
int btfids_format_parse(const char *s, enum btfids_format *fmt);

/* Print to @out and @err (NULL: stdout, stderr) in @fmt. */
void btfids_out_init(struct btfids_out *o, enum btfids_format fmt, FILE *out, FILE *err);

/* Messages caught from a struct btfids_report. */
struct btfids_capture {
	struct btfids_report *rep;
	FILE *saved;		/* the report's own stream, put back at the end */
	char *buf;
	size_t len;
};

/* Route @rep's messages into @c until btfids_capture_end(). Returns 0 or -ENOMEM. */
int btfids_capture_begin(struct btfids_capture *c, struct btfids_report *rep);
/*
 * Stop capturing; return the "FAILED" lines, without "FAILED " and joined
 * with "; ", as a malloc'd string (NULL when there were none). Warnings
 * are dropped; debug lines go to the report's own stream.
 */
char *btfids_capture_end(struct btfids_capture *c);

/*
 * The one error helper: @file could not be processed because of @msg
 * (which names the file it is about). Text: "FAILED <msg>" on stderr;
 * json: the line {"file": F, "error": MSG} on stdout, in place of the
 * file's result; github: "::error file=F,title=...::MSG".
 */
void btfids_out_error(struct btfids_out *o, const char *file, const char *msg);

/*
 * btfids_btf_load_base() with its FAILED line captured and printed through
 * btfids_out_error(). @path NULL: *base stays NULL, returns 0.
 */
struct btf;
int btfids_out_load_base(struct btfids_out *o, struct btfids_report *rep,
			 const char *path, struct btf **base);

/*
 * A GitHub Actions annotation: "::LEVEL file=F,line=L,title=T::MSG" with
 * the workflow-command escapes (% CR LF everywhere; also : and , in the
 * properties). @line 0: no line property (the annotation is on the file);
 * @title may be NULL. @file is a path relative to the repository root for
 * GitHub to show it on that file's line.
 */
void btfids_out_annotation(struct btfids_out *o, const char *level, const char *file,
			   unsigned int line, const char *title, const char *msg);

#endif /* _BTFIDS_OUTPUT_H */
