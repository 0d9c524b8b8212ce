// SPDX-License-Identifier: GPL-2.0
/* json.c - see include/btfids/json.h. */
#include <stddef.h>

#include "btfids/json.h"

void btfids_json_init(struct btfids_json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->first[0] = true;
	j->named = false;
}

/* Before any value or member name: the comma that separates it. */
static void sep(struct btfids_json *j)
{
	if (j->named) {
		j->named = false;
		return;
	}
	if (!j->first[j->depth])
		fputc(',', j->f);
	j->first[j->depth] = false;
}

static void open_container(struct btfids_json *j, char c)
{
	sep(j);
	fputc(c, j->f);
	if (j->depth + 1 < BTFIDS_JSON_MAX_DEPTH)
		j->depth++;
	j->first[j->depth] = true;
}

static void close_container(struct btfids_json *j, char c)
{
	fputc(c, j->f);
	if (j->depth > 0)
		j->depth--;
}

void btfids_json_start_object(struct btfids_json *j)
{
	open_container(j, '{');
}

void btfids_json_end_object(struct btfids_json *j)
{
	close_container(j, '}');
}

void btfids_json_start_array(struct btfids_json *j)
{
	open_container(j, '[');
}

void btfids_json_end_array(struct btfids_json *j)
{
	close_container(j, ']');
}

/* Length of the valid UTF-8 sequence at @s (1..4), or 0 if it is not one. */
static int utf8_len(const unsigned char *s)
{
	int n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

static void put_escaped(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	fputc('"', f);
	while (*s) {
		int n = utf8_len(s);

		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", f);
		else if (*s == '\t')
			fputs("\\t", f);
		else if (*s < 0x20 || *s == 0x7f)
			fprintf(f, "\\u%04x", *s);
		else if (!n)
			fputs("\\ufffd", f);
		else
			fwrite(s, 1, n, f);
		s += n ? n : 1;
	}
	fputc('"', f);
}

void btfids_json_name(struct btfids_json *j, const char *name)
{
	sep(j);
	put_escaped(j->f, name);
	fputc(':', j->f);
	j->named = true;
}

void btfids_json_string(struct btfids_json *j, const char *s)
{
	if (!s) {
		btfids_json_null(j);
		return;
	}
	sep(j);
	put_escaped(j->f, s);
}

void btfids_json_uint(struct btfids_json *j, uint64_t v)
{
	sep(j);
	fprintf(j->f, "%llu", (unsigned long long)v);
}

void btfids_json_bool(struct btfids_json *j, bool v)
{
	sep(j);
	fputs(v ? "true" : "false", j->f);
}

void btfids_json_null(struct btfids_json *j)
{
	sep(j);
	fputs("null", j->f);
}

void btfids_json_string_field(struct btfids_json *j, const char *name, const char *s)
{
	btfids_json_name(j, name);
	btfids_json_string(j, s);
}

void btfids_json_uint_field(struct btfids_json *j, const char *name, uint64_t v)
{
	btfids_json_name(j, name);
	btfids_json_uint(j, v);
}

void btfids_json_bool_field(struct btfids_json *j, const char *name, bool v)
{
	btfids_json_name(j, name);
	btfids_json_bool(j, v);
}

void btfids_json_uint_array_field(struct btfids_json *j, const char *name,
				  const uint32_t *v, size_t n)
{
	size_t i;

	btfids_json_name(j, name);
	btfids_json_start_array(j);
	for (i = 0; i < n; i++)
		btfids_json_uint(j, v[i]);
	btfids_json_end_array(j);
}

void btfids_json_newline(struct btfids_json *j)
{
	fputc('\n', j->f);
	j->depth = 0;
	j->first[0] = true;
	j->named = false;
}
