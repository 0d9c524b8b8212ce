// SPDX-License-Identifier: GPL-2.0
/*
 * share_override.c - shared images under an overriding kprobe, and the
 * folder tools read module BTF from (tests/boot-share.sh, make check): the
 * series' review findings of v5 (issue 49) as tests.
 *
 * An override (bpf_override_return() in a kprobe program with no
 * post_handler) moves regs->ip to just_return_func without IPMODIFY, and
 * ftrace_regs_caller enters the direct trampoline with that as its return
 * address: a shared image, which takes its function from the return
 * address, would report just_return_func's ip and miss its cookie. The
 * kernel keeps the error injection list's functions (the only ones an
 * override may touch) out of sharing (kernel/7.3 8/24).
 *
 * share_override(), sharing on: OVR_SYSCALLS syscall wrappers (on the error
 * injection list) under the kprobe program override_ret (share.bpf.c), in
 * one fentry.multi link (proof_entry, a cookie each) with OVR_PEERS
 * functions of their class that no override touches, so that their class
 * has a shared image; kprobes first, then the link, and the other way
 * round. Each syscall called once must run override_ret once (the ip
 * moved) and proof_entry once for its address with its cookie, for no
 * other address; its call site must call an image of its own, a peer's a
 * shared one. (What the syscall returns is not the override's: any fentry
 * image on the call site, one of its own as in mainline, returns to
 * just_return_func with rax its own, not regs->ax; said in docs/kernel.md.)
 * Lines: "shared: check on, override: <what>: ok|FAILED
 * (<why>)" and "share: override: <N> functions under an overriding kprobe
 * with fentry.multi and cookies: <W> wrong ip, <C> wrong cookies".
 *
 * share_btf_dir(): what pwru --all-kmods and cilium/ebpf's
 * LoadKernelModuleSpec() do, every entry of /sys/kernel/btf but vmlinux
 * parsed as a module's split BTF on vmlinux's (libbpf's
 * btf__parse_split()), and the table where it belongs: "share: btf dir: <M>
 * of <T> entries but vmlinux load as module BTF; /sys/kernel/btf_tramp/vmlinux
 * <bytes> bytes". share_klp.c calls it while its livepatch module (which
 * has BTF) is loaded.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "boot.h"
#include "share.h"
#include "share.bpf.h"

#define OVR_PEERS	8
#define TRAMP_TABLE	"/sys/kernel/btf_tramp/vmlinux"

/* the syscalls overridden: no arguments needed, none the guest needs meanwhile */
static const struct {
	const char *name;
	long nr;
} ovr_syscalls[] = {
	{ "__x64_sys_munlockall", SYS_munlockall },
	{ "__x64_sys_mlockall", SYS_mlockall },
	{ "__x64_sys_munlock", SYS_munlock },
	{ "__x64_sys_mlock", SYS_mlock },
	{ "__x64_sys_syncfs", SYS_syncfs },
};
#define OVR_SYSCALLS	(sizeof(ovr_syscalls) / sizeof(ovr_syscalls[0]))
#define OVR_IDS		(OVR_SYSCALLS + OVR_PEERS)

struct ovr_test {
	struct share_ctx *c;
	int fd_map;
	uint32_t ids[OVR_IDS];
	uint64_t cookies[OVR_IDS];
	uint64_t addrs[OVR_IDS];
	const char *names[OVR_IDS];
	int nargs[OVR_IDS];
	int n;
	int bad;
	int wrong_ip, wrong_cookie;
};

static void ovr_check(struct ovr_test *t, bool ok, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void ovr_check(struct ovr_test *t, bool ok, const char *what, const char *fmt, ...)
{
	char why[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	say("shared: check on, override: %s: %s (%s)", what, ok ? "ok" : "FAILED", why);
	t->bad += !ok;
}

/* The syscalls, then OVR_PEERS functions of their model no override touches */
static int ovr_pick(struct ovr_test *t, struct btf *btf)
{
	const struct share_func *m = NULL;

	/* the model of the syscall wrappers (one pt_regs pointer, a long) */
	for (int i = 0; i < t->c->n && !m; i++)
		if (!strncmp(t->c->f[i].name, "__x64_sys_", 10))
			m = &t->c->f[i];
	if (!m) {
		ovr_check(t, false, "the functions", "no __x64_sys_ wrapper among the attached functions");
		return -1;
	}
	for (size_t k = 0; k < OVR_SYSCALLS; k++) {
		int id = btf__find_by_name_kind(btf, ovr_syscalls[k].name, BTF_KIND_FUNC);
		uint64_t addr = share_kallsyms_addr(ovr_syscalls[k].name);

		if (id <= 0 || !addr) {
			ovr_check(t, false, "the functions", "%s: id %d, address %#llx",
				  ovr_syscalls[k].name, id, (unsigned long long)addr);
			return -1;
		}
		t->names[t->n] = ovr_syscalls[k].name;
		t->ids[t->n] = id;
		t->cookies[t->n] = share_cookie(id);
		t->addrs[t->n] = addr;
		t->nargs[t->n] = 1;	/* const struct pt_regs * */
		t->n++;
	}
	for (int i = 0; i < t->c->n && t->n < (int)OVR_IDS; i++) {
		const struct share_func *f = &t->c->f[i];

		/* the __x64_sys_ wrappers are all on the error injection list */
		if (!strncmp(f->name, "__x64_sys_", 10) || !strncmp(f->name, "__do_sys_", 9) ||
		    !f->addr || strcmp(f->model, m->model))
			continue;
		t->names[t->n] = f->name;
		t->ids[t->n] = f->id;
		t->cookies[t->n] = share_cookie(f->id);
		t->addrs[t->n] = f->addr;
		t->nargs[t->n] = f->slots;
		t->n++;
	}
	if (t->n < (int)OVR_IDS) {
		ovr_check(t, false, "the functions", "%d peers of %s's model, want %d",
			  t->n - (int)OVR_SYSCALLS, m->name, OVR_PEERS);
		return -1;
	}
	return 0;
}

static void ovr_reset(struct ovr_test *t)
{
	for (int i = 0; i < t->n; i++) {
		struct share_rec r = { .want_cookie = t->cookies[i], .want_nargs = t->nargs[i] };

		bpf_map_update_elem(t->fd_map, &t->addrs[i], &r, BPF_ANY);
	}
	share_counter_set(t->c, SHARE_STRAY_HITS, 0);
}

/* An overriding kprobe on each syscall: 0, or -errno (said); @kl filled */
static int ovr_kprobes(struct ovr_test *t, struct bpf_link **kl, const char *when)
{
	struct bpf_program *p = bpf_object__find_program_by_name(t->c->obj, "override_ret");
	int err = 0;

	for (size_t k = 0; k < OVR_SYSCALLS; k++) {
		kl[k] = p ? bpf_program__attach_kprobe(p, false, ovr_syscalls[k].name) : NULL;
		if (!kl[k]) {
			err = p ? -errno : -ENOENT;
			ovr_check(t, false, when, "kprobe override_ret on %s: %s",
				  ovr_syscalls[k].name, strerror(-err));
			break;
		}
	}
	return err;
}

static void ovr_kprobes_close(struct bpf_link **kl)
{
	for (size_t k = 0; k < OVR_SYSCALLS; k++) {
		bpf_link__destroy(kl[k]);
		kl[k] = NULL;
	}
}

/*
 * The call sites: each overridden function calls an image of its own, some
 * peer a shared one (else the test shares nothing)
 */
static void ovr_sites(struct ovr_test *t, const char *when)
{
	enum share_site_kind kind;
	struct share_site s;
	char what[96];
	int shared_peers = 0;

	/* by ftrace's records, by address (share_site.c): a kprobe shares the sites */
	for (size_t k = 0; k < OVR_SYSCALLS; k++) {
		char alias[64];

		/* ftrace may list the call site by gcc's other name of it */
		snprintf(alias, sizeof(alias), "__do_sys_%s", t->names[k] + 10);
		kind = share_site_record(t->c, t->names[k], alias, &s);
		if (kind != SHARE_SITE_OWN) {
			snprintf(what, sizeof(what), "%s, the call sites", when);
			ovr_check(t, false, what, "%s enters %s (%s), want an image of its own",
				  t->names[k], share_site_str(kind), s.image[0] ? s.image : "no image");
			return;
		}
	}
	for (int i = OVR_SYSCALLS; i < t->n; i++) {
		kind = share_site_record(t->c, t->names[i], t->names[i], &s);
		shared_peers += kind == SHARE_SITE_SHARED || kind == SHARE_SITE_STUB;
	}
	snprintf(what, sizeof(what), "%s, the call sites", when);
	ovr_check(t, shared_peers > 0, what,
		  "%zu overridden ones each call an image of their own; %d of %d peers a shared one",
		  OVR_SYSCALLS, shared_peers, OVR_PEERS);
}

/*
 * Each syscall once, recording: it returns OVR_RET and proof_entry ran once
 * for it, with its cookie; nothing ran for another address
 */
static void ovr_calls(struct ovr_test *t, const char *when)
{
	struct share_rec r0[OVR_SYSCALLS], r1;
	char why[512], what[96];
	uint64_t stray, runs;
	long ret;

	for (size_t k = 0; k < OVR_SYSCALLS; k++) {
		memset(&r0[k], 0, sizeof(r0[k]));
		bpf_map_lookup_elem(t->fd_map, &t->addrs[k], &r0[k]);
	}
	for (size_t k = 0; k < OVR_SYSCALLS; k++) {
		share_counter_set(t->c, SHARE_OVERRIDE_RUNS, 0);
		share_counter_set(t->c, SHARE_RECORD, 1);
		ret = syscall(ovr_syscalls[k].nr, 0, 0);
		share_counter_set(t->c, SHARE_RECORD, 0);
		runs = share_counter(t->c, SHARE_OVERRIDE_RUNS);
		memset(&r1, 0, sizeof(r1));
		bpf_map_lookup_elem(t->fd_map, &t->addrs[k], &r1);
		stray = share_counter(t->c, SHARE_STRAY_HITS);
		share_counter_set(t->c, SHARE_STRAY_HITS, 0);
		t->wrong_ip += (r1.side[0].own - r0[k].side[0].own != 1) + !!stray;
		t->wrong_cookie += r1.side[0].bad_cookie - r0[k].side[0].bad_cookie;
		snprintf(why, sizeof(why),
			 "%s(): override_ret ran %llu times (want 1; the call returned %ld); fentry.multi %llu own runs, cookie %#llx (want %#llx), wrong cookies %llu, runs for another address %llu (last %#llx)",
			 t->names[k] + 10, (unsigned long long)runs, ret,
			 (unsigned long long)(r1.side[0].own - r0[k].side[0].own),
			 (unsigned long long)r1.side[0].cookie, (unsigned long long)t->cookies[k],
			 (unsigned long long)(r1.side[0].bad_cookie - r0[k].side[0].bad_cookie),
			 (unsigned long long)stray,
			 (unsigned long long)share_counter(t->c, SHARE_STRAY_IP));
		snprintf(what, sizeof(what), "%s, a call", when);
		ovr_check(t, runs == 1 && r1.side[0].own - r0[k].side[0].own == 1 &&
			  r1.side[0].bad_cookie == r0[k].side[0].bad_cookie && !stray, what, "%s", why);
	}
}

/* @kprobes_first: the kprobes, then the link; else the other way round */
static void ovr_round(struct ovr_test *t, bool kprobes_first)
{
	const char *when = kprobes_first ? "kprobes, then the link" : "the link, then kprobes";
	struct bpf_program *p = bpf_object__find_program_by_name(t->c->obj, "proof_entry");
	struct bpf_link *kl[OVR_SYSCALLS] = { 0 };
	int le = -EBADF;

	ovr_reset(t);
	if (kprobes_first && ovr_kprobes(t, kl, when))
		goto out;
	le = share_link(p, t->ids, t->cookies, t->n);
	if (le < 0) {
		ovr_check(t, false, when, "fentry.multi over %d ids: %s", t->n, strerror(-le));
		goto out;
	}
	if (!kprobes_first && ovr_kprobes(t, kl, when))
		goto out;
	ovr_sites(t, when);
	ovr_calls(t, when);
out:
	ovr_kprobes_close(kl);
	if (le >= 0)
		close(le);
}

void share_override(struct share_ctx *c)
{
	struct ovr_test t = { .c = c };
	struct share_counts base, end = { 0 };
	struct btf *btf;

	t.fd_map = bpf_map__fd(bpf_object__find_map_by_name(c->obj, "funcs"));
	btf = btf__load_vmlinux_btf();
	if (!btf) {
		ovr_check(&t, false, "vmlinux BTF", "%s", strerror(errno));
		return;
	}
	if (share_set(1) || ovr_pick(&t, btf))
		goto out;
	share_counts(&base);
	ovr_round(&t, true);
	ovr_round(&t, false);
	ovr_check(&t, !share_settle(&base, &end, 90), "the counts are back",
		  "images %ld, symbols %d, direct %d; before %ld, %d, %d", end.s.images, end.ksyms,
		  end.direct, base.s.images, base.ksyms, base.direct);
	say("share: override: %zu functions under an overriding kprobe with fentry.multi and cookies: %d wrong ip, %d wrong cookies",
	    OVR_SYSCALLS, t.wrong_ip, t.wrong_cookie);
out:
	btf__free(btf);
}

void share_btf_dir(void)
{
	struct btf *vmlinux = btf__load_vmlinux_btf(), *mod;
	int entries = 0, loaded = 0;
	char path[512], failed[512] = "";
	struct dirent *e;
	struct stat st;
	DIR *d;

	d = opendir("/sys/kernel/btf");
	while (d && vmlinux && (e = readdir(d))) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "vmlinux"))
			continue;
		entries++;
		snprintf(path, sizeof(path), "/sys/kernel/btf/%s", e->d_name);
		mod = btf__parse_split(path, vmlinux);
		if (mod) {
			loaded++;
			btf__free(mod);
		} else if (!failed[0]) {
			snprintf(failed, sizeof(failed), "; %.200s: %s", e->d_name, strerror(errno));
		}
	}
	if (d)
		closedir(d);
	say("share: btf dir: %d of %d entries but vmlinux load as module BTF%s; %s %lld bytes",
	    loaded, entries, failed, TRAMP_TABLE,
	    stat(TRAMP_TABLE, &st) ? -1LL : (long long)st.st_size);
	btf__free(vmlinux);
}
