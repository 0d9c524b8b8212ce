/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json.h - the one JSON writer of btfids (after bpftool's json_writer).
 *
 * Compact output, no whitespace: each top-level value is one line when the
 * caller ends it with btfids_json_newline(), so a run prints JSON Lines.
 * Commas are placed by the writer: callers only open and close containers,
 * name members and write values. Strings are escaped per RFC 8259; bytes
 * that are not valid UTF-8 become U+FFFD, so the output always parses.
 * No printf anywhere: `btfids models --all` prints a line per kernel
 * function through it. Bytes are staged in the writer and reach the
 * stream (unlocked stdio: one thread per stream) whenever a top-level
 * value is complete, so callers may write to the stream themselves
 * between values, never inside one; btfids_json_flush() for the rest.
 */
#ifndef _BTFIDS_JSON_H
#define _BTFIDS_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define BTFIDS_JSON_MAX_DEPTH	16
#define BTFIDS_JSON_BUF		4096

struct btfids_json {
	FILE *f;
	int depth;				/* open containers */
	bool first[BTFIDS_JSON_MAX_DEPTH];	/* nothing written in it yet */
	bool named;				/* a member name awaits its value */
	size_t len;				/* bytes staged in buf */
	char buf[BTFIDS_JSON_BUF];		/* not yet handed to f */
};

/* Start writing to @f (stdout for the verbs). */
void btfids_json_init(struct btfids_json *j, FILE *f);
/*
 * Give @f a 1 MiB full buffer (setvbuf) for long outputs; call before the
 * first byte is written to @f. Only the first stream passed gets one.
 */
void btfids_json_buffer(FILE *f);

void btfids_json_start_object(struct btfids_json *j);
void btfids_json_end_object(struct btfids_json *j);
void btfids_json_start_array(struct btfids_json *j);
void btfids_json_end_array(struct btfids_json *j);
/* The name of the next member of the current object. */
void btfids_json_name(struct btfids_json *j, const char *name);

/* Values; a NULL string writes null. */
void btfids_json_string(struct btfids_json *j, const char *s);
void btfids_json_uint(struct btfids_json *j, uint64_t v);
void btfids_json_bool(struct btfids_json *j, bool v);
void btfids_json_null(struct btfids_json *j);

/* name + value in one call */
void btfids_json_string_field(struct btfids_json *j, const char *name, const char *s);
void btfids_json_uint_field(struct btfids_json *j, const char *name, uint64_t v);
void btfids_json_bool_field(struct btfids_json *j, const char *name, bool v);
/* "name": [v0, v1, ...] */
void btfids_json_uint_array_field(struct btfids_json *j, const char *name,
				  const uint32_t *v, size_t n);
/* The same for bytes. */
void btfids_json_u8_array_field(struct btfids_json *j, const char *name,
				const uint8_t *v, size_t n);

/* End a top-level value: a newline, ready for the next line. */
void btfids_json_newline(struct btfids_json *j);
/* Hand the staged bytes to the stream (done after every top-level value). */
void btfids_json_flush(struct btfids_json *j);

#endif /* _BTFIDS_JSON_H */
