// SPDX-License-Identifier: GPL-2.0
/*
 * share_trust.c - a wrong trampoline table cannot hurt (tests/boot-trust.sh,
 * issue 41): the kernel booted with a .BTF_tramp the host made wrong on
 * purpose in one class (tests/boot/tramp_table.py alter) must check the
 * table, never trust it: drop the class in one line and attach its
 * functions with its own models, or refuse them by its own checks.
 *
 * /share-trust, written by the host: the first line "KIND CLASS EXPECT"
 * (EXPECT "attach": the kernel's own checks take the class's functions;
 * an errno's name: they refuse them so), then "id name" for each function
 * of the altered class (for "move", the moved function first).
 *
 * After share.c's prepare() (its search attaches /funcs.txt's functions,
 * the first tracing_multi attach of most of them), with the tables on:
 *   proof   share_proof() with sharing on over /funcs.txt (the driven
 *           functions and the altered classes'), without its plain
 *           fentry: every run's cookie and argument count, the driven
 *           functions' arguments and returns on entry and exit;
 *   alone   each function of /share-trust alone, a fentry.multi link of
 *           its own, tables on, then off (/sys/module/kernel/parameters/
 *           btf_tramp) when the kernel has the switch: on must give what
 *           off gives, and what EXPECT says (ENOENT: no ftrace site); for
 *           a class /funcs.txt does not list (one the kernel refuses), the
 *           first tracing_multi attach of its functions;
 *   links   how many of the class's functions the proof's links took;
 *   klog    the kernel's "btf_tramp:" lines about the table (valid or
 *           refused) and every class it dropped, echoed.
 * Lines: "trust: alone: ...", "trust: links: ...", "trust: klog: ...".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "boot.h"
#include "share.h"

#ifndef ENOTSUPP
#define ENOTSUPP	524	/* the kernel's own, include/linux/errno.h */
#endif

#define TRUST		"/share-trust"
#define PARAM		"/sys/module/kernel/parameters/btf_tramp"
#define TRUST_MAX	256	/* functions of /share-trust read */

struct trust_func {
	uint32_t id;
	char name[128];
	int err[2];		/* alone, tables off and on: 0 or an errno */
};

static const char *err_name(int e)
{
	static char buf[16];

	switch (e) {
	case 0:
		return "attached";
	case EINVAL:
		return "EINVAL";
	case ENOENT:
		return "ENOENT";
	case EOPNOTSUPP:
		return "EOPNOTSUPP";
	case ENOTSUPP:
		return "ENOTSUPP";
	case EBUSY:
		return "EBUSY";
	default:
		snprintf(buf, sizeof(buf), "errno %d", e);
		return buf;
	}
}

/* The switch: 1 on, 0 off, -1 when the kernel has none (or it failed) */
static int tables(int on)
{
	int fd = open(PARAM, O_WRONLY), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, on ? "Y" : "N", 1) == 1;
	close(fd);
	return ok ? on : -1;
}

/* @f alone, a fentry.multi link of its own: 0 or the errno */
static int alone(struct share_ctx *c, const struct trust_func *f)
{
	int fd = share_link(bpf_object__find_program_by_name(c->obj, "count_entry"), &f->id,
			    NULL, 1);

	if (fd >= 0)
		close(fd);
	return fd >= 0 ? 0 : -fd;
}

/* Whether errno @e is what @expect ("attach" or an errno's name) says */
static bool expected(const char *expect, int e)
{
	if (!strcmp(expect, "attach"))
		return !e || e == ENOENT;	/* ENOENT: no ftrace site */
	return !strcmp(err_name(e), expect);
}

static void try_alone(struct share_ctx *c, const char *kind, int class, const char *expect,
		      struct trust_func *f, int n)
{
	int attached = 0, nosite = 0, refused = 0, wrong = 0, differ = 0, off = -1;
	char first[512] = "", how[64] = "";

	for (int i = 0; i < n; i++) {
		/* on first: for a class /funcs.txt does not list, the first
		 * tracing_multi attach of its functions */
		f[i].err[1] = alone(c, &f[i]);
		off = tables(0);
		f[i].err[0] = off < 0 ? f[i].err[1] : alone(c, &f[i]);
		tables(1);
		attached += !f[i].err[1];
		nosite += f[i].err[1] == ENOENT;
		if (f[i].err[1] && f[i].err[1] != ENOENT) {
			refused++;
			snprintf(how, sizeof(how), "%s", err_name(f[i].err[1]));
		}
		differ += f[i].err[0] != f[i].err[1];
		if (!expected(expect, f[i].err[1]) || f[i].err[0] != f[i].err[1]) {
			if (!wrong++)
				snprintf(first, sizeof(first), "; first: %s (id %u): on %s, off %s",
					 f[i].name, f[i].id, err_name(f[i].err[1]),
					 off < 0 ? "-" : err_name(f[i].err[0]));
		}
	}
	say("trust: alone: %s class %d, %d functions, expected %s: tables on %d attached, %d at no ftrace site (ENOENT), %d refused%s%s; %s; %d wrong%s",
	    kind, class, n, expect, attached, nosite, refused, refused ? " " : "", how,
	    off < 0 ? "no tables switch" : differ ? "tables off differs" : "tables off the same",
	    wrong, first);
}

static bool in(const uint32_t *ids, int n, uint32_t id)
{
	for (int i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

/*
 * How many of the class's functions each of the proof's links took; with
 * @expect "attach", those at an ftrace site (not ENOENT alone) they did not
 */
static void links(struct share_ctx *c, const char *expect, const struct trust_func *f, int n)
{
	int e = 0, x = 0;
	char missing[256] = "";

	for (int i = 0; i < n; i++) {
		bool fe = in(c->ids, c->n, f[i].id);

		e += fe;
		x += in(c->xids, c->xn, f[i].id);
		if (!fe && f[i].err[1] != ENOENT && !strcmp(expect, "attach"))
			append(missing, sizeof(missing), "%s", f[i].name);
	}
	say("trust: links: %d of the class's %d functions in the fentry.multi link, %d in the fexit.multi link%s%s",
	    e, n, x, missing[0] ? "; not in it, at an ftrace site: " : "", missing);
}

/* The kernel's lines about the table: taken or refused, and each drop */
static void klog(void)
{
	char *buf = share_klog_read(), *p, *nl, *b;
	int drops = 0;

	if (!buf) {
		say("trust: klog FAILED (cannot read the kernel's log)");
		return;
	}
	for (p = buf; (nl = strchr(p, '\n')); p = nl + 1) {
		*nl = 0;
		b = strstr(p, "btf_tramp: ");
		if (b && (strstr(b, " dropped: ") || !strncmp(b, "btf_tramp: table ", 17))) {
			say("trust: klog: %s", b);
			drops += !!strstr(b, " dropped: ");
		}
	}
	say("trust: klog: %d classes dropped", drops);
	free(buf);
}

void share_trust(struct share_ctx *c)
{
	char kind[16], expect[16], line[256];
	struct trust_func *f = calloc(TRUST_MAX, sizeof(*f));
	FILE *in = fopen(TRUST, "r");
	int class, n = 0;

	if (!f || !in || !fgets(line, sizeof(line), in) ||
	    sscanf(line, "%15s %d %15s", kind, &class, expect) != 3) {
		say("trust: FAILED (%s unreadable)", TRUST);
		goto out;
	}
	while (n < TRUST_MAX && fgets(line, sizeof(line), in))
		if (sscanf(line, "%u %127s", &f[n].id, f[n].name) == 2)
			n++;
	if (!n) {
		say("trust: FAILED (no functions in %s)", TRUST);
		goto out;
	}
	/* the plain fentry in a group is tests/boot-share.sh's: 3 s a phase */
	c->no_plain = true;
	share_proof(c, 1);
	try_alone(c, kind, class, expect, f, n);
	links(c, expect, f, n);
	klog();
out:
	if (in)
		fclose(in);
	free(f);
}
