// SPDX-License-Identifier: GPL-2.0
/*
 * srcscan.c - find the btf_ids.h macros that name a type or a set in C
 * text; see include/btfids/srcloc.h.
 *
 * Not a C parser: a tokenizer that knows what hides a macro name
 * (comments, string and character literals, preprocessor directives with
 * their continuation lines) and reads the arguments of the macros it
 * looks for up to the matching ')', over any number of lines.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "btfids/srcloc.h"

/* The macros and which arguments are the kind and the name. */
struct macro_shape {
	const char *name;
	int kind_arg;		/* -1: the macro makes a set of kind @set */
	int name_arg;
	enum btfids_kind set;
};

static const struct macro_shape shapes[] = {
	{ "BTF_ID", 0, 1, 0 },
	{ "BTF_ID_FLAGS", 0, 1, 0 },
	{ "BTF_ID_LIST_SINGLE", 1, 2, 0 },
	{ "BTF_ID_LIST_GLOBAL_SINGLE", 1, 2, 0 },
	{ "BTF_SET_START", -1, 0, BTFIDS_SET },
	{ "BTF_SET_START_GLOBAL", -1, 0, BTFIDS_SET },
	{ "BTF_SET8_START", -1, 0, BTFIDS_SET8 },
	{ "BTF_KFUNCS_START", -1, 0, BTFIDS_SET8 },
};

#define NR_SHAPES	(sizeof(shapes) / sizeof(shapes[0]))
#define MAX_ARGS	3

struct scan {
	const char *p, *end;
	unsigned int line;
	bool bol;		/* nothing but blanks since the line began */
};

/* One argument: its first token, if an identifier, and how many tokens. */
struct arg {
	const char *id;
	size_t len;
	unsigned int line;
	unsigned int tokens;
};

static bool is_ident(int c)
{
	return isalnum(c) || c == '_';
}

static void skip_block_comment(struct scan *sc)
{
	for (sc->p += 2; sc->p < sc->end; sc->p++) {
		if (*sc->p == '\n')
			sc->line++;
		else if (*sc->p == '*' && sc->p + 1 < sc->end && sc->p[1] == '/') {
			sc->p += 2;
			return;
		}
	}
}

/* Blanks, newlines, comments and backslash-newlines. */
static void skip_blanks(struct scan *sc)
{
	while (sc->p < sc->end) {
		char c = *sc->p;

		if (c == '\n') {
			sc->line++;
			sc->bol = true;
			sc->p++;
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			sc->p++;
		} else if (c == '\\' && sc->p + 1 < sc->end && sc->p[1] == '\n') {
			sc->line++;
			sc->p += 2;
		} else if (c == '/' && sc->p + 1 < sc->end && sc->p[1] == '*') {
			skip_block_comment(sc);
		} else if (c == '/' && sc->p + 1 < sc->end && sc->p[1] == '/') {
			while (sc->p < sc->end && *sc->p != '\n')
				sc->p++;
		} else {
			return;
		}
	}
}

/* A "..." or '...' literal; an unterminated one ends at its line's end. */
static void skip_literal(struct scan *sc)
{
	char q = *sc->p++;

	while (sc->p < sc->end && *sc->p != q && *sc->p != '\n') {
		if (*sc->p == '\\' && sc->p + 1 < sc->end) {
			if (sc->p[1] == '\n')
				sc->line++;
			sc->p++;
		}
		sc->p++;
	}
	if (sc->p < sc->end && *sc->p == q)
		sc->p++;
}

/* A preprocessor directive, continuation lines and comments included. */
static void skip_directive(struct scan *sc)
{
	while (sc->p < sc->end && *sc->p != '\n') {
		if (*sc->p == '\\' && sc->p + 1 < sc->end && sc->p[1] == '\n') {
			sc->line++;
			sc->p += 2;
		} else if (*sc->p == '/' && sc->p + 1 < sc->end && sc->p[1] == '*') {
			skip_block_comment(sc);
		} else if (*sc->p == '"' || *sc->p == '\'') {
			skip_literal(sc);
		} else {
			sc->p++;
		}
	}
}

static const struct macro_shape *find_shape(const char *id, size_t len)
{
	size_t i;

	for (i = 0; i < NR_SHAPES; i++)
		if (strlen(shapes[i].name) == len && !memcmp(shapes[i].name, id, len))
			return &shapes[i];
	return NULL;
}

/* One token inside the parentheses; returns the new depth. */
static int arg_token(struct scan *sc, int depth, struct arg *args, size_t *nr)
{
	struct arg *a = &args[*nr < MAX_ARGS ? *nr : MAX_ARGS - 1];
	const char *start = sc->p;
	char c = *sc->p;

	if (c == '"' || c == '\'') {
		skip_literal(sc);
	} else if (is_ident(c)) {
		while (sc->p < sc->end && is_ident(*sc->p))
			sc->p++;
	} else {
		sc->p++;
		if (c == '(')
			return depth + 1;
		if (c == ')')
			return depth - 1;
		if (c == ',' && depth == 1) {
			(*nr)++;
			return depth;
		}
	}
	if (*nr >= MAX_ARGS)
		return depth;
	if (!a->tokens++ && is_ident(c) && !isdigit(c)) {
		a->id = start;
		a->len = sc->p - start;
		a->line = sc->line;
	}
	return depth;
}

/* The arguments after the '(' at sc->p; false if the text ends first. */
static bool read_args(struct scan *sc, struct arg *args, size_t *nr, unsigned int *last)
{
	int depth = 1;

	memset(args, 0, MAX_ARGS * sizeof(*args));
	*nr = 0;
	sc->p++;
	while (depth > 0) {
		skip_blanks(sc);
		if (sc->p >= sc->end)
			return false;
		depth = arg_token(sc, depth, args, nr);
	}
	*last = sc->line;
	(*nr)++;
	return true;
}

static bool plain(const struct arg *a)
{
	return a->id && a->tokens == 1;
}

/* "func", "struct", "union", "typedef" as a kind; -1 otherwise */
static int kind_word(const struct arg *a)
{
	int k;

	for (k = 0; k < BTFIDS_NR_TYPE_KINDS; k++) {
		const char *s = btfids_kind_str(k);

		if (strlen(s) == a->len && !memcmp(s, a->id, a->len))
			return k;
	}
	return -1;
}

struct macros {
	struct btfids_src_macro *v;
	size_t n, cap;
};

static int push(struct macros *m, const struct btfids_src_macro *x)
{
	if (m->n == m->cap) {
		size_t n = m->cap ? 2 * m->cap : 16;
		void *p = reallocarray(m->v, n, sizeof(*m->v));

		if (!p)
			return -ENOMEM;
		m->v = p;
		m->cap = n;
	}
	m->v[m->n++] = *x;
	return 0;
}

/* The macro @sh, whose name began on line @first, at its '(' */
static int take_macro(struct scan *sc, const struct macro_shape *sh, unsigned int first,
		      struct macros *m)
{
	struct btfids_src_macro x = { .first = first };
	struct arg args[MAX_ARGS];
	const struct arg *name;
	size_t nr;
	int kind;

	if (!read_args(sc, args, &nr, &x.last) || (size_t)sh->name_arg >= nr)
		return 0;
	name = &args[sh->name_arg];
	kind = sh->kind_arg < 0 ? (int)sh->set :
	       plain(&args[sh->kind_arg]) ? kind_word(&args[sh->kind_arg]) : -1;
	if (kind < 0 || !plain(name))
		return 0;
	x.kind = kind;
	x.name = name->id;
	x.name_len = name->len;
	x.line = name->line;
	return push(m, &x);
}

int btfids_src_scan(const char *text, size_t len, struct btfids_src_macro **v, size_t *n)
{
	struct scan sc = { .p = text, .end = text + len, .line = 1, .bol = true };
	struct macros m = {};

	for (;;) {
		const struct macro_shape *sh;
		const char *id;
		unsigned int first;

		skip_blanks(&sc);
		if (sc.p >= sc.end)
			break;
		if (sc.bol && *sc.p == '#') {
			skip_directive(&sc);
			continue;
		}
		sc.bol = false;
		if (*sc.p == '"' || *sc.p == '\'') {
			skip_literal(&sc);
			continue;
		}
		if (!is_ident(*sc.p)) {
			sc.p++;
			continue;
		}
		for (id = sc.p, first = sc.line; sc.p < sc.end && is_ident(*sc.p); sc.p++)
			;
		sh = isdigit(*id) ? NULL : find_shape(id, sc.p - id);
		if (!sh)
			continue;
		skip_blanks(&sc);
		if (sc.p < sc.end && *sc.p == '(' && take_macro(&sc, sh, first, &m)) {
			free(m.v);
			return -ENOMEM;
		}
	}
	*v = m.v;
	*n = m.n;
	return 0;
}

unsigned int btfids_src_sym_line(const char *sym, unsigned int line)
{
	const char *u = strrchr(sym, '_');
	char digits[16];
	size_t ul;
	int n;

	if (!u || !line)
		return 0;
	u++;
	ul = strlen(u);
	n = snprintf(digits, sizeof(digits), "%u", line);
	if (ul <= (size_t)n || strcmp(u + ul - n, digits))
		return 0;
	return n;
}
