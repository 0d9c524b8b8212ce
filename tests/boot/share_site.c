// SPDX-License-Identifier: GPL-2.0
/*
 * share_site.c - where a function's ftrace call site goes, by its text
 * (tests/boot-share.sh, make check): the proof (share_proof.c), the
 * livepatch test (share_klp.c) and the override test (share_override.c)
 * judge a call site by address, not by the name enabled_functions prints
 * for ftrace's record of it: mainline's bpf_tree_comp() (kernel/bpf/core.c)
 * counts a BPF symbol's end as its own, for return addresses, so %pS names
 * an image that starts where a block of stubs ends "<image>_stubs+<size>".
 * The proof reads the bytes the CPU runs (share_site_read()); where another
 * ftrace ops shares the site (a livepatch, a kprobe), the site calls
 * ftrace's caller, which looks the direct target up, and the tests read
 * ftrace's record by address (share_site_record()).
 *
 * The text is read with the peek program (share.bpf.c, a syscall program
 * run by BPF_PROG_TEST_RUN: bpf_probe_read_kernel()); the symbols are
 * those of /proc/kallsyms, by address. x86-64 only: the call site is a
 * 5-byte call or jmp (e8/e9 rel32) at the function's start or past its
 * ENDBR (f3 0f 1e fa) or objtool's seal of one (nopl -42(%rax), 0f 1f 40
 * d6); a stub is arch_bpf_tramp_stub()'s (kernel/7.3 14/24):
 *
 *   0: push $(site + 5)   5: mov $(stub + 20), %r11   12: jmp image
 *  20: jmp site + 5       (32 bytes, a block's stubs 32 bytes apart)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "boot.h"
#include "share.h"
#include "share.bpf.h"

#define STUB_SIZE	32
#define STUB_ORIG	20

/* SHARE_PEEK_BYTES of kernel memory at @addr into @out: 0 or -errno */
static int peek(int fd, uint64_t addr, uint8_t *out)
{
	struct share_peek a = { .addr = addr };
	LIBBPF_OPTS(bpf_test_run_opts, o, .ctx_in = &a, .ctx_size_in = sizeof(a));

	if (fd < 0)
		return -EBADF;
	if (bpf_prog_test_run_opts(fd, &o))
		return -errno;
	if (o.retval)
		return (int)o.retval;
	memcpy(out, a.bytes, sizeof(a.bytes));
	return 0;
}

static int32_t le32(const uint8_t *b)
{
	return (int32_t)(b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24);
}

/* The target of a jmp at @b (e9 rel32 or eb rel8) run from @at, or 0 */
static uint64_t jmp_target(const uint8_t *b, uint64_t at)
{
	if (b[0] == 0xe9)
		return at + 5 + (int64_t)le32(b + 1);
	if (b[0] == 0xeb)
		return at + 2 + (int8_t)b[1];
	return 0;
}

static int cmp_sym(const void *a, const void *b)
{
	uint64_t x = ((const struct share_sym *)a)->addr, y = ((const struct share_sym *)b)->addr;

	return x < y ? -1 : x > y;
}

/* One pass over /proc/kallsyms: the count, and @t[0..cap) filled */
static int syms_pass(FILE *f, struct share_sym *t, int cap)
{
	unsigned long long a;
	char line[256], name[128];
	int n = 0;

	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %*s %127s", &a, name) != 2)
			continue;
		if (n < cap) {
			t[n].addr = a;
			/* only the trampolines' names are looked at */
			snprintf(t[n].name, sizeof(t[n].name), "%.63s",
				 strncmp(name, "bpf_trampoline_", 15) ? "" : name);
		}
		n++;
	}
	return n;
}

int share_syms_load(struct share_syms *s)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	int n, tries;

	memset(s, 0, sizeof(*s));
	if (!f)
		return -errno;
	n = syms_pass(f, NULL, 0);
	/* room for symbols added meanwhile; again if that was not enough */
	for (tries = 0; tries < 3; tries++) {
		s->len = (n + 1024) * sizeof(*s->t);
		s->t = mmap(NULL, s->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (s->t == MAP_FAILED) {
			s->t = NULL;
			break;
		}
		n = syms_pass(f, s->t, n + 1024);
		if (n <= (int)(s->len / sizeof(*s->t)))
			break;
		munmap(s->t, s->len);
		s->t = NULL;
	}
	fclose(f);
	if (!s->t)
		return -ENOMEM;
	s->n = n;
	qsort(s->t, n, sizeof(*s->t), cmp_sym);
	return 0;
}

void share_syms_free(struct share_syms *s)
{
	if (s->t)
		munmap(s->t, s->len);
	memset(s, 0, sizeof(*s));
}

/* The symbol @addr lies in: the last one starting at or below it, or NULL */
static const struct share_sym *sym_at(const struct share_syms *s, uint64_t addr)
{
	int lo = 0, hi = s->n;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (s->t[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &s->t[lo - 1] : NULL;
}

static bool stubs_name(const char *name)
{
	size_t n = strlen(name);

	return n > 6 && !strcmp(name + n - 6, "_stubs");
}

/* A stub at @stub (in a block of stubs): its pushed site, or a kind */
static enum share_site_kind stub_at(int fd, const struct share_syms *s, uint64_t stub,
				    struct share_site *out)
{
	uint8_t b[SHARE_PEEK_BYTES];
	const struct share_sym *im;
	uint64_t image, orig;

	if (peek(fd, stub, b))
		return SHARE_SITE_UNREAD;
	if (b[0] != 0x68 || b[5] != 0x49 || b[6] != 0xc7 || b[7] != 0xc3 ||
	    (uint64_t)(int64_t)le32(b + 8) != stub + STUB_ORIG)
		return SHARE_SITE_ELSEWHERE;
	out->pushed = (uint64_t)(int64_t)le32(b + 1);
	image = jmp_target(b + 12, stub + 12);
	orig = jmp_target(b + STUB_ORIG, stub + STUB_ORIG);
	im = image ? sym_at(s, image) : NULL;
	/* the stub enters a shared image at its start, and goes on to the body */
	if (!im || im->addr != image || !share_shared_name(im->name) || stubs_name(im->name) ||
	    orig != out->pushed)
		return SHARE_SITE_ELSEWHERE;
	snprintf(out->image, sizeof(out->image), "%s", im->name);
	return out->pushed == out->site + 5 ? SHARE_SITE_STUB : SHARE_SITE_OTHER_STUB;
}

/* What @out->target is, @out->site and @out->jmp set */
static enum share_site_kind classify(int fd, const struct share_syms *s, struct share_site *out)
{
	const struct share_sym *sym = sym_at(s, out->target);

	if (!sym || strncmp(sym->name, "bpf_trampoline_", 15))
		return SHARE_SITE_ELSEWHERE;
	snprintf(out->image, sizeof(out->image), "%s", sym->name);
	if (stubs_name(sym->name)) {
		/* jumped to (a call would push a second return address) */
		if (!out->jmp || (out->target - sym->addr) % STUB_SIZE)
			return SHARE_SITE_ELSEWHERE;
		return stub_at(fd, s, out->target, out);
	}
	/* an image is entered at its start */
	if (out->target != sym->addr)
		return SHARE_SITE_ELSEWHERE;
	return share_shared_name(sym->name) ? SHARE_SITE_SHARED : SHARE_SITE_OWN;
}

enum share_site_kind share_site_read(int fd_peek, const struct share_syms *s, uint64_t faddr,
				     struct share_site *out)
{
	static const uint8_t endbr[] = { 0xf3, 0x0f, 0x1e, 0xfa };
	/* objtool's seal of an ENDBR no indirect call needs */
	static const uint8_t sealed[] = { 0x0f, 0x1f, 0x40, 0xd6 };
	uint8_t b[SHARE_PEEK_BYTES];
	int off;

	memset(out, 0, sizeof(*out));
	if (peek(fd_peek, faddr, b))
		return SHARE_SITE_UNREAD;
	memcpy(out->head, b, sizeof(out->head));
	off = memcmp(b, endbr, sizeof(endbr)) && memcmp(b, sealed, sizeof(sealed)) ? 0 : 4;
	out->site = faddr + off;
	if (b[off] != 0xe8 && b[off] != 0xe9)
		return SHARE_SITE_NONE;
	out->jmp = b[off] == 0xe9;
	out->target = out->site + 5 + (int64_t)le32(b + off + 1);
	return classify(fd_peek, s, out);
}

/*
 * ftrace's direct record of the call site of @name or @alias
 * (enabled_functions: the function's line, then
 * "\tdirect[(jmp)]-->SYMBOL+0xOFF/0xSIZE"): SYMBOL into @sym, the offset
 * into *@off, whether it is a jmp into *@jmp; 0, or -ENOENT
 */
static int direct_record(const char *name, const char *alias, char *sym, size_t size,
			 uint64_t *off, bool *jmp)
{
	FILE *f = fopen("/sys/kernel/tracing/enabled_functions", "r");
	char line[512], *p, *plus;
	bool in = false;
	int err = -ENOENT;

	while (f && fgets(line, sizeof(line), f)) {
		if (line[0] != '\t') {
			size_t n = strcspn(line, " \n");

			in = (n == strlen(name) && !strncmp(line, name, n)) ||
			     (n == strlen(alias) && !strncmp(line, alias, n));
		} else if (in && (p = strstr(line, "-->"))) {
			*jmp = strstr(line, "(jmp)") && strstr(line, "(jmp)") < p;
			p += 3;
			p[strcspn(p, " \n")] = 0;
			plus = strchr(p, '+');
			*off = plus ? strtoull(plus + 1, NULL, 16) : 0;
			if (plus)
				*plus = 0;
			snprintf(sym, size, "%s", p);
			err = 0;
		}
	}
	if (f)
		fclose(f);
	return err;
}

enum share_site_kind share_site_record(struct share_ctx *c, const char *name, const char *alias,
				       struct share_site *out)
{
	enum share_site_kind k = SHARE_SITE_NONE, one;
	uint64_t faddr = share_kallsyms_addr(name), off;
	struct share_syms s;
	struct share_site text, cand;
	char sym[128];
	bool jmp;

	memset(out, 0, sizeof(*out));
	if (!faddr || share_syms_load(&s))
		return SHARE_SITE_UNREAD;
	share_site_read(share_peek_fd(c), &s, faddr, &text);
	if (direct_record(name, alias, sym, sizeof(sym), &off, &jmp))
		goto out;
	/* a block of stubs' name is not unique: every symbol of that name */
	for (int i = 0; i < s.n; i++) {
		if (strcmp(s.t[i].name, sym))
			continue;
		memset(&cand, 0, sizeof(cand));
		cand.site = text.site;
		cand.jmp = jmp;
		cand.target = s.t[i].addr + off;
		one = classify(share_peek_fd(c), &s, &cand);
		if (one == SHARE_SITE_ELSEWHERE)
			continue;
		if (k != SHARE_SITE_NONE && k != one) {
			k = SHARE_SITE_ELSEWHERE;	/* two readings */
			break;
		}
		k = one;
		*out = cand;
	}
	if (k == SHARE_SITE_NONE)
		k = SHARE_SITE_ELSEWHERE;
out:
	share_syms_free(&s);
	return k;
}

int share_peek_fd(struct share_ctx *c)
{
	return bpf_program__fd(bpf_object__find_program_by_name(c->obj, "peek"));
}

const char *share_site_str(enum share_site_kind k)
{
	static const char *const str[] = {
		[SHARE_SITE_UNREAD] = "unreadable",
		[SHARE_SITE_NONE] = "not patched",
		[SHARE_SITE_ELSEWHERE] = "not an image's start or a stub of a shared one",
		[SHARE_SITE_OWN] = "an image of its own",
		[SHARE_SITE_SHARED] = "a shared image",
		[SHARE_SITE_STUB] = "its stub of a shared image",
		[SHARE_SITE_OTHER_STUB] = "another function's stub",
	};

	return k < sizeof(str) / sizeof(str[0]) && str[k] ? str[k] : "?";
}
