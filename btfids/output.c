// SPDX-License-Identifier: GPL-2.0
/* output.c - formats, captured errors and annotations; see include/btfids/output.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "btfids/lookup.h"
#include "btfids/output.h"

int btfids_format_parse(const char *s, enum btfids_format *fmt)
{
	if (!strcmp(s, "text"))
		*fmt = BTFIDS_FMT_TEXT;
	else if (!strcmp(s, "json"))
		*fmt = BTFIDS_FMT_JSON;
	else if (!strcmp(s, "github"))
		*fmt = BTFIDS_FMT_GITHUB;
	else
		return -EINVAL;
	return 0;
}

void btfids_out_init(struct btfids_out *o, enum btfids_format fmt, FILE *out, FILE *err)
{
	o->fmt = fmt;
	o->out = out ? out : stdout;
	o->err = err ? err : stderr;
	btfids_json_init(&o->jw, o->out);
}

int btfids_capture_begin(struct btfids_capture *c, struct btfids_report *rep)
{
	FILE *m;

	c->rep = rep;
	c->saved = rep->out;
	c->buf = NULL;
	c->len = 0;
	m = open_memstream(&c->buf, &c->len);
	if (!m)
		return -ENOMEM;
	rep->out = m;
	return 0;
}

/* Append @line (without "FAILED ") to the error string *@errs. */
static void add_error(char **errs, const char *line, size_t len)
{
	size_t old = *errs ? strlen(*errs) : 0;
	char *p = realloc(*errs, old + len + 3);

	if (!p)
		return;
	if (old)
		memcpy(p + old, "; ", 2), old += 2;
	memcpy(p + old, line, len);
	p[old + len] = 0;
	*errs = p;
}

char *btfids_capture_end(struct btfids_capture *c)
{
	FILE *own = c->saved ? c->saved : stderr;
	char *errs = NULL, *line, *next;

	fclose(c->rep->out);
	c->rep->out = c->saved;
	for (line = c->buf; line && *line; line = next) {
		size_t len = strcspn(line, "\n");

		next = line + len + (line[len] == '\n');
		if (!strncmp(line, "FAILED ", 7))
			add_error(&errs, line + 7, len - 7);
		else if (strncmp(line, "WARN: ", 6))
			fwrite(line, 1, next - line, own);
	}
	free(c->buf);
	c->buf = NULL;
	return errs;
}

/* Workflow-command escapes: % CR LF always, : and , inside properties. */
static void put_gh(FILE *f, const char *s, bool property)
{
	for (; *s; s++) {
		if (*s == '%')
			fputs("%25", f);
		else if (*s == '\r')
			fputs("%0D", f);
		else if (*s == '\n')
			fputs("%0A", f);
		else if (property && *s == ':')
			fputs("%3A", f);
		else if (property && *s == ',')
			fputs("%2C", f);
		else
			fputc(*s, f);
	}
}

void btfids_out_annotation(struct btfids_out *o, const char *level, const char *file,
			   unsigned int line, const char *title, const char *msg)
{
	fprintf(o->out, "::%s file=", level);
	put_gh(o->out, file, true);
	if (line)
		fprintf(o->out, ",line=%u", line);
	if (title) {
		fputs(",title=", o->out);
		put_gh(o->out, title, true);
	}
	fputs("::", o->out);
	put_gh(o->out, msg, false);
	fputc('\n', o->out);
}

/* @msg without a leading "@file: ": json and github give the file a field */
static const char *without_file(const char *file, const char *msg)
{
	size_t n = strlen(file);

	return !strncmp(msg, file, n) && msg[n] == ':' && msg[n + 1] == ' ' ? msg + n + 2 : msg;
}

void btfids_out_error(struct btfids_out *o, const char *file, const char *msg)
{
	struct btfids_json *j = &o->jw;

	switch (o->fmt) {
	case BTFIDS_FMT_TEXT:
		fprintf(o->err, "FAILED %s\n", msg);
		break;
	case BTFIDS_FMT_GITHUB:
		btfids_out_annotation(o, "error", file, 0, "btfids: cannot read",
				      without_file(file, msg));
		break;
	case BTFIDS_FMT_JSON:
		btfids_json_start_object(j);
		btfids_json_string_field(j, "file", file);
		btfids_json_string_field(j, "error", without_file(file, msg));
		btfids_json_end_object(j);
		btfids_json_newline(j);
		break;
	}
	fflush(o->out);
}

int btfids_out_load_base(struct btfids_out *o, struct btfids_report *rep,
			 const char *path, struct btf **base)
{
	struct btfids_capture cap;
	char *errs;
	int err;

	if (!path)
		return 0;
	if (btfids_capture_begin(&cap, rep))
		return -ENOMEM;
	err = btfids_btf_load_base(path, base, rep);
	errs = btfids_capture_end(&cap);
	if (err)
		btfids_out_error(o, path, errs ? errs : "cannot load base BTF");
	free(errs);
	return err;
}
