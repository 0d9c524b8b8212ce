// SPDX-License-Identifier: GPL-2.0
/*
 * share_klp.c - a livepatch on a function tracing_multi links trace
 * (tests/boot-share.sh, make check), sharing on and off: the series'
 * review findings on IPMODIFY ftrace_ops as tests.
 *
 * The links: fentry.multi and fexit.multi (share.bpf.c proof_entry,
 * proof_exit) over munlockall's call site, by __x64_sys_munlockall, and
 * KLP_PEERS other __x64_sys_* wrappers of the same model, so that with
 * sharing on munlockall starts in a shared image. /btfids_klp.ko
 * (tests/boot/klp) patches munlockall and four more syscalls
 * (klp_syscalls[], in the links too) to return KLP_RET. The site's other
 * BTF id, __do_sys_munlockall (gcc folds the two into one function), with
 * the first in one link is refused: -EINVAL (kernel/7.3-fixes 3/10).
 *
 *   1. attach, then the livepatch: munlockall returns KLP_RET, so the
 *      IPMODIFY callback (bpf_tramp_ftrace_ops_func()) acted on the live
 *      trampoline; both programs ran for munlockall's address with its
 *      cookie and the fexit one saw KLP_RET
 *      (a shared image reads its function from the return address, which
 *      ftrace_regs_caller rewrites to the livepatch's: a stray run and a
 *      lost cookie); its call site calls an image of its own. After the
 *      livepatch is removed munlockall returns 0 and both still run.
 *   2. the livepatch, then attach: the same (before kernel/7.3-fixes 5/10
 *      the attach failed with -EAGAIN, each try; an earlier form of it gave
 *      up after 3 more tries, fewer than five live-patched call sites take).
 * Then the counts are back. Lines: "shared: check <on|off>, livepatch:
 * <what>: ok|FAILED (<why>)"; without /btfids_klp.ko one "shared:
 * livepatch: skipped" line.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <sys/syscall.h>

#include "boot.h"
#include "share.h"
#include "share.bpf.h"

#define KLP_MODULE	"/btfids_klp.ko"
#define KLP_NAME	"btfids_klp"
#define KLP_SYSFS	"/sys/kernel/livepatch/" KLP_NAME
#define KLP_RET		4242	/* tests/boot/klp/btfids_klp.c */
#define KLP_LINKED	"__x64_sys_munlockall"
#define KLP_ALIAS	"__do_sys_munlockall"
#define KLP_PEERS	8
/*
 * The other syscalls the livepatch patches (tests/boot/klp/btfids_klp.c),
 * each an __x64_sys_ wrapper of the linked id's model: their call sites
 * are in the links too, so the attach on the live-patched functions meets
 * five IPMODIFY ops (kernel/7.3-fixes 5/10: one more try each at most).
 */
static const struct {
	const char *name;
	long nr;
} klp_syscalls[] = {
	{ "__x64_sys_mlockall", SYS_mlockall },
	{ "__x64_sys_munlock", SYS_munlock },
	{ "__x64_sys_mlock", SYS_mlock },
	{ "__x64_sys_syncfs", SYS_syncfs },
};
#define KLP_SYSCALLS	(sizeof(klp_syscalls) / sizeof(klp_syscalls[0]))
#define KLP_IDS		(KLP_PEERS + 1 + KLP_SYSCALLS)
#define KLP_WAIT_SECS	60.0

struct klp_test {
	struct share_ctx *c;
	const char *mode;
	int fd_map;
	uint64_t addr;		/* munlockall's /proc/kallsyms address */
	bool ei;		/* munlockall is on the error injection list */
	uint64_t cookie;	/* its cookie */
	uint32_t ids[KLP_IDS];
	uint64_t cookies[KLP_IDS];
	uint64_t addrs[KLP_IDS];
	int nargs[KLP_IDS];
	int n;
	int bad;
};

static void klp_check(struct klp_test *t, bool ok, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void klp_check(struct klp_test *t, bool ok, const char *what, const char *fmt, ...)
{
	char why[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	say("shared: check %s, livepatch: %s: %s (%s)", t->mode, what, ok ? "ok" : "FAILED", why);
	t->bad += !ok;
}

uint64_t share_kallsyms_addr(const char *name)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	unsigned long long a;
	char line[512], sym[256];
	uint64_t addr = 0;

	while (f && !addr && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %*s %255s", &a, sym) == 2 && !strcmp(sym, name))
			addr = a;
	if (f)
		fclose(f);
	return addr;
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) < 0)
		err = -errno;
	close(fd);
	return err;
}

/* Until the livepatch's transition is done (or it is gone): 0, or -ETIMEDOUT */
static int klp_settle(void)
{
	double t0 = now();
	char v[8];
	int fd;

	while (now() - t0 < KLP_WAIT_SECS * boot_scale()) {
		fd = open(KLP_SYSFS "/transition", O_RDONLY);
		if (fd < 0)
			return 0;
		v[0] = 0;
		if (read(fd, v, sizeof(v)) < 0)
			v[0] = 0;
		close(fd);
		if (v[0] == '0')
			return 0;
		usleep(100000);
	}
	return -ETIMEDOUT;
}

/* Load and enable the livepatch: 0, or -errno */
static int klp_load(void)
{
	int fd = open(KLP_MODULE, O_RDONLY), err = 0;

	if (fd < 0)
		return -errno;
	if (syscall(SYS_finit_module, fd, "", 0))
		err = -errno;
	close(fd);
	return err ? err : klp_settle();
}

/* Disable the livepatch and unload its module: 0, or -errno */
static int klp_unload(void)
{
	double t0 = now();
	int err = write_str(KLP_SYSFS "/enabled", "0");

	if (!err)
		err = klp_settle();
	if (err)
		return err;
	/* the patch is freed by a work item after the transition */
	while (syscall(SYS_delete_module, KLP_NAME, O_NONBLOCK)) {
		if ((errno != EBUSY && errno != EAGAIN) || now() - t0 > KLP_WAIT_SECS * boot_scale())
			return -errno;
		usleep(100000);
	}
	return 0;
}

/* Fresh records for the links' functions (share.bpf.h) */
static void reset_recs(struct klp_test *t)
{
	for (int i = 0; i < t->n; i++) {
		struct share_rec r = { .want_cookie = t->cookies[i], .want_nargs = t->nargs[i] };

		bpf_map_update_elem(t->fd_map, &t->addrs[i], &r, BPF_ANY);
	}
	share_counter_set(t->c, SHARE_STRAY_HITS, 0);
}

static void get_rec(struct klp_test *t, struct share_rec *r)
{
	memset(r, 0, sizeof(*r));
	bpf_map_lookup_elem(t->fd_map, &t->addr, r);
}

/*
 * One munlockall(2) with the programs recording; what it returned and
 * whether each program ran once for munlockall with its cookie, fexit
 * seeing that return value, and nothing ran for another address, into
 * @why: whether all of that holds.
 */
static bool one_call(struct klp_test *t, long want, char *why, size_t size)
{
	struct share_rec r0, r1;
	struct share_side *e = &r1.side[0], *x = &r1.side[1];
	uint64_t stray;
	long ret;

	get_rec(t, &r0);
	share_counter_set(t->c, SHARE_RECORD, 1);
	ret = syscall(SYS_munlockall);
	share_counter_set(t->c, SHARE_RECORD, 0);
	get_rec(t, &r1);
	stray = share_counter(t->c, SHARE_STRAY_HITS);
	snprintf(why, size,
		 "munlockall() %ld (want %ld); fentry.multi %llu own runs, fexit.multi %llu (return %lld), cookies wrong %llu/%llu, argument counts wrong %llu/%llu, runs for another address %llu (last %#llx)",
		 ret, want, (unsigned long long)(e->own - r0.side[0].own),
		 (unsigned long long)(x->own - r0.side[1].own), (long long)x->ret,
		 (unsigned long long)e->bad_cookie, (unsigned long long)x->bad_cookie,
		 (unsigned long long)e->bad_nargs, (unsigned long long)x->bad_nargs,
		 (unsigned long long)stray,
		 (unsigned long long)share_counter(t->c, SHARE_STRAY_IP));
	return ret == want && e->own - r0.side[0].own == 1 && x->own - r0.side[1].own == 1 &&
	       (long)x->ret == want && !e->bad_cookie && !x->bad_cookie && !e->bad_nargs &&
	       !x->bad_nargs && !stray;
}

/*
 * The livepatch's other syscalls, each called once (no arguments: the
 * patched ones ignore them): whether each returned KLP_RET (@patched) or
 * none did; the values into @why.
 */
static bool other_calls(bool patched, char *why, size_t size)
{
	bool ok = true;
	size_t n = 0;
	long r;

	why[0] = 0;
	for (size_t i = 0; i < KLP_SYSCALLS; i++) {
		r = syscall(klp_syscalls[i].nr, 0, 0);
		ok &= (r == KLP_RET) == patched;
		n += snprintf(why + n, n < size ? size - n : 0, "%s%s() %ld", i ? ", " : "",
			      klp_syscalls[i].name + 10, r);
	}
	return ok;
}

/*
 * Both links over the test's functions, fentry.multi first, each at the
 * first try (before kernel/7.3-fixes 5/10 a live-patched call site gave
 * -EAGAIN on every try): 0, or -errno (said)
 */
static int attach(struct klp_test *t, int *le, int *lx, const char *what)
{
	struct bpf_object *obj = t->c->obj;

	*lx = -EBADF;
	*le = share_link(bpf_object__find_program_by_name(obj, "proof_entry"), t->ids, t->cookies,
			 t->n);
	if (*le >= 0)
		*lx = share_link(bpf_object__find_program_by_name(obj, "proof_exit"), t->ids,
				 t->cookies, t->n);
	klp_check(t, *le >= 0 && *lx >= 0, what, "fentry.multi over %d ids: %s, fexit.multi: %s",
		  t->n, *le < 0 ? strerror(-*le) : "attached",
		  *le < 0 ? "not tried" : *lx < 0 ? strerror(-*lx) : "attached");
	if (*le >= 0 && *lx < 0)
		close(*le);
	return *le < 0 ? *le : *lx < 0 ? *lx : 0;
}

/* munlockall's call site by ftrace's record, by address (share_site.c) */
static void site(struct klp_test *t, bool want_shared, const char *what)
{
	struct share_site s;
	enum share_site_kind k = share_site_record(t->c, KLP_LINKED, KLP_ALIAS, &s);
	bool shared = k == SHARE_SITE_SHARED || k == SHARE_SITE_STUB;

	klp_check(t, (k == SHARE_SITE_OWN || shared) && shared == want_shared, what,
		  "munlockall's call site enters %s (%s), want %s", share_site_str(k),
		  s.image[0] ? s.image : "no image",
		  want_shared ? "a shared image" : "an image of its own");
}

/* 1: the links first, then the livepatch comes and goes */
static void klp_after(struct klp_test *t, int mode)
{
	char why[512];
	int le, lx, err;
	bool ok;

	reset_recs(t);
	if (attach(t, &le, &lx, "attach"))
		return;
	/*
	 * munlockall is a syscall wrapper, on the error injection list: the
	 * kernel keeps its image its own whatever the mode (kernel/7.3 8/24);
	 * the livepatch with a shared image is upstream's
	 * livepatch_trampoline on cmdline_proc_show (tests/selftests-boot.sh,
	 * sharing on)
	 */
	site(t, mode && !t->ei, "before the livepatch, the call site");
	ok = one_call(t, 0, why, sizeof(why));
	klp_check(t, ok, "before the livepatch, a call", "%s", why);
	err = klp_load();
	klp_check(t, !err, "the livepatch, loaded on the traced function", "%s",
		  err ? strerror(-err) : "enabled, transition done");
	if (err == -ETIMEDOUT)
		klp_unload();
	if (!err) {
		/* a module with BTF is loaded: what tools do with /sys/kernel/btf */
		if (mode)
			share_btf_dir();
		site(t, false, "with the livepatch, the call site");
		ok = one_call(t, KLP_RET, why, sizeof(why));
		klp_check(t, ok, "with the livepatch, a call", "%s", why);
		ok = other_calls(true, why, sizeof(why));
		klp_check(t, ok, "with the livepatch, its other syscalls", "%s (want %d)", why,
			  KLP_RET);
		err = klp_unload();
		klp_check(t, !err, "the livepatch, removed", "%s",
			  err ? strerror(-err) : "disabled, module unloaded");
		ok = one_call(t, 0, why, sizeof(why));
		klp_check(t, ok, "after the livepatch, a call", "%s", why);
		ok = other_calls(false, why, sizeof(why));
		klp_check(t, ok, "after the livepatch, its other syscalls", "%s (not %d)", why,
			  KLP_RET);
		/* the livepatch gone, the trampoline is updated at once (8/24) */
		site(t, mode && !t->ei, "after the livepatch, the call site");
	}
	close(lx);
	close(le);
}

/* 2: the livepatch first, then the links */
static void klp_before(struct klp_test *t)
{
	char why[512];
	int le, lx, err;
	bool ok;

	reset_recs(t);
	err = klp_load();
	klp_check(t, !err, "the livepatch, loaded before the links", "%s",
		  err ? strerror(-err) : "enabled, transition done");
	if (err == -ETIMEDOUT)
		klp_unload();
	if (err)
		return;
	if (!attach(t, &le, &lx, "attach on the live-patched function")) {
		site(t, false, "on the live-patched function, the call site");
		ok = one_call(t, KLP_RET, why, sizeof(why));
		klp_check(t, ok, "on the live-patched function, a call", "%s", why);
		ok = other_calls(true, why, sizeof(why));
		klp_check(t, ok, "on the live-patched functions, their other syscalls",
			  "%s (want %d)", why, KLP_RET);
		close(lx);
		close(le);
	}
	err = klp_unload();
	klp_check(t, !err, "the livepatch, removed after the links", "%s",
		  err ? strerror(-err) : "disabled, module unloaded");
}

static bool patched(const char *name)
{
	for (size_t k = 0; k < KLP_SYSCALLS; k++)
		if (!strcmp(name, klp_syscalls[k].name))
			return true;
	return false;
}

/*
 * A link over both ids of munlockall's one call site is refused, -EINVAL,
 * before anything is attached (kernel/7.3-fixes 3/10)
 */
static void twice(struct klp_test *t, int linked, int alias)
{
	struct bpf_program *prog = bpf_object__find_program_by_name(t->c->obj, "proof_entry");
	uint32_t ids[2] = { linked, alias };
	uint64_t cookies[2] = { t->cookie, t->cookie };
	int fd = share_link(prog, ids, cookies, 2);

	klp_check(t, fd == -EINVAL, "one call site by two ids",
		  "fentry.multi over %s and %s: %s (want %s)", KLP_LINKED, KLP_ALIAS,
		  fd >= 0 ? "attached" : strerror(-fd), strerror(EINVAL));
	if (fd >= 0)
		close(fd);
}

/*
 * The ids: munlockall's (KLP_LINKED), the livepatch's other syscalls, then
 * KLP_PEERS other __x64_sys_* wrappers of the fexit link with one model
 * (the linked id's: one pt_regs pointer, a long): 0, or -1 (said)
 */
static int pick(struct klp_test *t, struct btf *btf)
{
	struct share_ctx *c = t->c;
	const char *model = NULL;
	int linked = btf__find_by_name_kind(btf, KLP_LINKED, BTF_KIND_FUNC);
	int alias = btf__find_by_name_kind(btf, KLP_ALIAS, BTF_KIND_FUNC);

	t->addr = share_kallsyms_addr(KLP_LINKED);
	if (linked <= 0 || alias <= 0 || !t->addr || t->addr != share_kallsyms_addr(KLP_ALIAS)) {
		klp_check(t, false, "the functions", "%s id %d, %s id %d, addresses %#llx, %#llx: not one function of two ids",
			  KLP_LINKED, linked, KLP_ALIAS, alias, (unsigned long long)t->addr,
			  (unsigned long long)share_kallsyms_addr(KLP_ALIAS));
		return -1;
	}
	t->cookie = share_cookie(linked);
	t->ei = share_ei(KLP_LINKED);
	twice(t, linked, alias);
	t->ids[0] = linked;
	t->cookies[0] = t->cookie;
	t->addrs[0] = t->addr;
	t->nargs[0] = 1;
	t->n = 1;
	/* by BTF and kallsyms: ftrace may list a site by its other name */
	for (size_t k = 0; k < KLP_SYSCALLS; k++) {
		int id = btf__find_by_name_kind(btf, klp_syscalls[k].name, BTF_KIND_FUNC);
		uint64_t addr = share_kallsyms_addr(klp_syscalls[k].name);

		if (id <= 0 || !addr) {
			klp_check(t, false, "the functions", "%s: id %d, address %#llx",
				  klp_syscalls[k].name, id, (unsigned long long)addr);
			return -1;
		}
		t->ids[t->n] = id;
		t->cookies[t->n] = share_cookie(id);
		t->addrs[t->n] = addr;
		t->nargs[t->n] = 1;	/* const struct pt_regs *: the linked id's model */
		t->n++;
	}
	for (int i = 0; i < c->n && t->n < (int)KLP_IDS; i++) {
		const struct share_func *f = &c->f[i];

		if (strncmp(f->name, "__x64_sys_", 10) || !strcmp(f->name, KLP_LINKED) ||
		    patched(f->name) || !f->fexit || f->slots != 1 || f->ret_size != 8 ||
		    !f->addr || (model && strcmp(model, f->model)))
			continue;
		model = f->model;
		t->ids[t->n] = f->id;
		t->cookies[t->n] = share_cookie(f->id);
		t->addrs[t->n] = f->addr;
		t->nargs[t->n] = f->slots;
		t->n++;
	}
	return 0;
}

void share_klp(struct share_ctx *c, int mode)
{
	struct klp_test t = { .c = c, .mode = mode ? "on" : "off" };
	struct share_counts base, end = { 0 };
	struct btf *btf;

	if (access(KLP_MODULE, R_OK)) {
		say("shared: livepatch: skipped (no %s: the tree has no CONFIG_LIVEPATCH)", KLP_MODULE);
		return;
	}
	t.fd_map = bpf_map__fd(bpf_object__find_map_by_name(c->obj, "funcs"));
	btf = btf__load_vmlinux_btf();
	if (!btf) {
		klp_check(&t, false, "vmlinux BTF", "%s", strerror(errno));
		return;
	}
	if (share_set(mode) || pick(&t, btf))
		goto out;
	share_counts(&base);
	klp_after(&t, mode);
	klp_before(&t);
	klp_check(&t, !share_settle(&base, &end, 90), "the counts are back",
		  "images %ld, symbols %d, direct %d; before %ld, %d, %d", end.s.images, end.ksyms,
		  end.direct, base.s.images, base.ksyms, base.direct);
out:
	btf__free(btf);
}
