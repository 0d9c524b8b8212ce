// SPDX-License-Identifier: GPL-2.0
/*
 * json.c - see include/btfids/json.h.
 *
 * Written for `btfids models --all`, which prints some 7 MB for a vmlinux:
 * no printf (integers are formatted here), bytes are staged in the
 * writer's own small buffer and handed to stdio with one fwrite_unlocked()
 * per top-level value, and btfids_json_buffer() gives the stream a large
 * buffer so that few write() calls follow.
 */
#include <stddef.h>
#include <string.h>

#include "btfids/json.h"

#define BIG_BUFFER	(1 << 20)

void btfids_json_buffer(FILE *f)
{
	static char buf[BIG_BUFFER];
	static FILE *owner;

	if (owner)
		return;		/* one stream gets it: stdout */
	if (!setvbuf(f, buf, _IOFBF, sizeof(buf)))
		owner = f;
}

void btfids_json_init(struct btfids_json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->first[0] = true;
	j->named = false;
	j->len = 0;
}

void btfids_json_flush(struct btfids_json *j)
{
	if (j->len)
		fwrite_unlocked(j->buf, 1, j->len, j->f);
	j->len = 0;
}

/* Make room for @n more bytes; false if they can never fit (write through). */
static bool room(struct btfids_json *j, size_t n)
{
	if (j->len + n <= sizeof(j->buf))
		return true;
	btfids_json_flush(j);
	return n <= sizeof(j->buf);
}

static void put(struct btfids_json *j, const char *s, size_t n)
{
	if (!room(j, n)) {
		fwrite_unlocked(s, 1, n, j->f);
		return;
	}
	memcpy(j->buf + j->len, s, n);
	j->len += n;
}

static void put_c(struct btfids_json *j, char c)
{
	room(j, 1);
	j->buf[j->len++] = c;
}

/* Before any value or member name: the comma that separates it. */
static void sep(struct btfids_json *j)
{
	if (j->named) {
		j->named = false;
		return;
	}
	if (!j->first[j->depth])
		put_c(j, ',');
	j->first[j->depth] = false;
}

static void open_container(struct btfids_json *j, char c)
{
	sep(j);
	put_c(j, c);
	if (j->depth + 1 < BTFIDS_JSON_MAX_DEPTH)
		j->depth++;
	j->first[j->depth] = true;
}

static void close_container(struct btfids_json *j, char c)
{
	put_c(j, c);
	if (j->depth > 0)
		j->depth--;
	if (!j->depth)
		btfids_json_flush(j);	/* a whole value: callers may write next */
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

/* Printable ASCII that stands for itself in a JSON string. */
static const bool plain[256] = {
	[0x20 ... 0x21] = true,		/* '"' is 0x22 */
	[0x23 ... 0x5b] = true,		/* '\\' is 0x5c */
	[0x5d ... 0x7e] = true,
};

/* @str as a JSON string: runs of plain bytes copied whole. */
static void put_escaped(struct btfids_json *j, const char *str)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)str, *run;
	char u[6] = { '\\', 'u', '0', '0' };

	put_c(j, '"');
	while (*s) {
		int n;

		for (run = s; plain[*s]; s++)
			;
		if (s > run)
			put(j, (const char *)run, s - run);
		if (!*s)
			break;
		n = utf8_len(s);
		if (*s == '"' || *s == '\\') {
			put_c(j, '\\');
			put_c(j, *s);
		} else if (*s == '\n') {
			put(j, "\\n", 2);
		} else if (*s == '\t') {
			put(j, "\\t", 2);
		} else if (*s < 0x20 || *s == 0x7f) {
			u[4] = hex[*s >> 4];
			u[5] = hex[*s & 0xf];
			put(j, u, sizeof(u));
		} else if (!n) {
			put(j, "\\ufffd", 6);
		} else {
			put(j, (const char *)s, n);
		}
		s += n ? n : 1;
	}
	put_c(j, '"');
}

void btfids_json_name(struct btfids_json *j, const char *name)
{
	sep(j);
	put_escaped(j, name);
	put_c(j, ':');
	j->named = true;
}

void btfids_json_string(struct btfids_json *j, const char *s)
{
	if (!s) {
		btfids_json_null(j);
		return;
	}
	sep(j);
	put_escaped(j, s);
	if (!j->depth)
		btfids_json_flush(j);
}

/* Decimal digits of @v, without printf: the hot path of `models --all`. */
static void put_u64(struct btfids_json *j, uint64_t v)
{
	char buf[20], *p = buf + sizeof(buf);	/* 2^64 - 1 has 20 digits */

	if (v < 10) {
		put_c(j, '0' + v);
		return;
	}
	do {
		*--p = '0' + v % 10;
		v /= 10;
	} while (v);
	put(j, p, buf + sizeof(buf) - p);
}

void btfids_json_uint(struct btfids_json *j, uint64_t v)
{
	sep(j);
	put_u64(j, v);
	if (!j->depth)
		btfids_json_flush(j);
}

void btfids_json_bool(struct btfids_json *j, bool v)
{
	sep(j);
	if (v)
		put(j, "true", 4);
	else
		put(j, "false", 5);
	if (!j->depth)
		btfids_json_flush(j);
}

void btfids_json_null(struct btfids_json *j)
{
	sep(j);
	put(j, "null", 4);
	if (!j->depth)
		btfids_json_flush(j);
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

void btfids_json_u8_array_field(struct btfids_json *j, const char *name,
				const uint8_t *v, size_t n)
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
	put_c(j, '\n');
	btfids_json_flush(j);
	j->depth = 0;
	j->first[0] = true;
	j->named = false;
}
