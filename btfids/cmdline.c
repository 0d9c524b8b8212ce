// SPDX-License-Identifier: GPL-2.0
/* cmdline.c - an unknown option's line and its did-you-mean; see include/btfids/cmdline.h. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "btfids/cmdline.h"
#include "btfids/suggest.h"

#define MAX_OPTS	32	/* more than any verb has */
#define MAX_OPT_LEN	64

/* @a (@len characters) and @b alike but for '-' against '_' */
static bool same_but_dashes(const char *a, size_t len, const char *b)
{
	size_t i;

	for (i = 0; i < len; i++) {
		char x = a[i] == '-' ? '_' : a[i], y = b[i] == '-' ? '_' : b[i];

		if (!y || x != y)
			return false;
	}
	return true;
}

/*
 * The long option @name (@len characters, no "--") stands for when '-' and
 * '_' are one: the whole name, else the one it is the start of; NULL when
 * none, or when it is the start of two (getopt_long() would not choose)
 */
static const char *dash_slip(const char *name, size_t len, const struct option *opts)
{
	const char *found = NULL;
	size_t i;

	for (i = 0; opts[i].name; i++) {
		if (!same_but_dashes(name, len, opts[i].name))
			continue;
		if (strlen(opts[i].name) == len)
			return opts[i].name;
		if (found)
			return NULL;
		found = opts[i].name;
	}
	return found;
}

/* The known long option a few edits from @name (@len characters), or NULL */
static const char *typo(const char *name, size_t len, const struct option *opts)
{
	const char *names[MAX_OPTS];
	char word[MAX_OPT_LEN];
	size_t n = 0;

	if (len >= sizeof(word))
		return NULL;
	memcpy(word, name, len);
	word[len] = '\0';
	while (n < MAX_OPTS && opts[n].name) {
		names[n] = opts[n].name;
		n++;
	}
	return btfids_suggest_word(word, names, n);
}

/*
 * What getopt_long() refused in an option that exists: "--all=1", a value
 * for one that takes none, or "--ver", the start of two or more; said in
 * one line, true. False for anything else.
 */
static bool known_but(const char *prog, const char *arg, const struct option *opts)
{
	const char *name = arg + 2;
	size_t len = strcspn(name, "="), i, n = 0;
	char starts[256] = "";

	for (i = 0; opts[i].name; i++) {
		if (strncmp(opts[i].name, name, len))
			continue;
		if (strlen(opts[i].name) == len) {
			if (name[len] != '=' || opts[i].has_arg != no_argument)
				return false;
			fprintf(stderr, "%s: option --%s takes no value (%s)\n", prog, opts[i].name,
				arg);
			return true;
		}
		if (strlen(starts) + strlen(opts[i].name) + 8 < sizeof(starts))
			snprintf(starts + strlen(starts), sizeof(starts) - strlen(starts), "%s--%s",
				 n ? ", " : "", opts[i].name);
		n++;
	}
	if (n < 2)
		return false;
	fprintf(stderr, "%s: option %.*s is ambiguous: %s\n", prog, (int)len + 2, arg, starts);
	return true;
}

void btfids_unknown_option(const char *prog, const char *arg, const struct option *opts)
{
	const char *name = arg + 2, *like = NULL;
	size_t len = strcspn(name, "=");
	bool dashes = false;

	if (!strncmp(arg, "--", 2) && len && known_but(prog, arg, opts))
		return;
	if (!strncmp(arg, "--", 2) && len) {
		like = dash_slip(name, len, opts);
		dashes = like != NULL;
		if (!like)
			like = typo(name, len, opts);
	}
	fprintf(stderr, "%s: unknown option %s", prog, arg);
	if (like)
		fprintf(stderr, " (did you mean --%s?%s)", like,
			dashes && strchr(like, '_') ? " the kernel tool's spellings use '_'" : "");
	fputc('\n', stderr);
}
