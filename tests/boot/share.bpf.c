// SPDX-License-Identifier: GPL-2.0
/*
 * share.bpf.c - the programs of the shared trampoline image proof and
 * bench (share_proof.c, share_bench.c; tests/boot-share.sh), loaded with
 * the kernel's own libbpf (1.8: fentry.multi, fexit.multi).
 *
 *   proof_entry  fentry.multi: for the function bpf_get_func_ip() names,
 *   proof_exit   fexit.multi   counts the run, checks its cookie and
 *                              argument count against what the guest put
 *                              in the map, keeps the last arguments (and
 *                              return value) of a call from the guest;
 *                              an address not in the map is a stray; only
 *                              while the guest says so (SHARE_RECORD): the
 *                              attach and detach of the other link run
 *                              with them on every function
 *   plain        fentry on one function (its target set by the guest): runs
 *   count_entry  fentry.multi, fexit.multi, kprobe.multi: count runs (the
 *   count_exit   attach search, the bench)
 *   count_kprobe
 *   ck_sleep     fentry.multi.s, fsession.multi: the stress's cookie-life
 *   ck_session   part (share_stress.c), over the syscall wrappers: for the
 *                function bpf_get_func_ip() names, count the run and check
 *                its cookie against the link's in ck_funcs; an address not
 *                there, or not the link's, is a stray; ck_sleep reads 8
 *                bytes of user memory at regs->di (a fault, maybe a sleep,
 *                inside the image) and checks its cookie again after it
 *   override_ret kprobe: counts its run, bpf_override_return() of
 *                SHARE_OVERRIDE_RET (the override test, share_override.c)
 *   peek         syscall: copies kernel text (a call site, a stub) into its
 *                context for the guest (share_proof.c's site_texts())
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "share.bpf.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SHARE_FUNCS);
	__type(key, __u64);
	__type(value, struct share_rec);
} funcs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SHARE_COUNTERS);
	__type(key, __u32);
	__type(value, __u64);
} counters SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SHARE_CK_FUNCS);
	__type(key, __u64);
	__type(value, struct share_ck);
} ck_funcs SEC(".maps");

extern _Bool bpf_session_is_return(void *ctx) __ksym;

static __always_inline __u64 *counter(__u32 k)
{
	return bpf_map_lookup_elem(&counters, &k);
}

static __always_inline void add(__u32 k)
{
	__u64 *c = counter(k);

	if (c)
		__sync_fetch_and_add(c, 1);
}

static __always_inline void set(__u32 k, __u64 v)
{
	__u64 *c = counter(k);

	if (c)
		*c = v;
}

static __always_inline void record(void *ctx, int exit)
{
	__u64 *on = counter(SHARE_RECORD), ip, cookie, nargs;
	struct share_side *s;
	struct share_rec *r;
	__u32 i;

	if (!on || !*on)
		return;
	ip = bpf_get_func_ip(ctx);
	cookie = bpf_get_attach_cookie(ctx);
	nargs = bpf_get_func_arg_cnt(ctx);
	r = bpf_map_lookup_elem(&funcs, &ip);
	if (!r) {
		add(SHARE_STRAY_HITS);
		set(SHARE_STRAY_IP, ip);
		return;
	}
	s = &r->side[exit];
	__sync_fetch_and_add(&s->hits, 1);
	if (cookie != r->want_cookie)
		__sync_fetch_and_add(&s->bad_cookie, 1);
	if (nargs != r->want_nargs)
		__sync_fetch_and_add(&s->bad_nargs, 1);
	s->cookie = cookie;
	s->nargs = nargs;
	if (bpf_get_current_pid_tgid() >> 32 != 1)
		return;
	s->own++;
	for (i = 0; i < SHARE_ARGS; i++) {
		__u64 v = 0;

		if (bpf_get_func_arg(ctx, i, &v))
			break;
		s->args[i] = v;
	}
	if (exit)
		bpf_get_func_ret(ctx, &s->ret);
}

SEC("fentry.multi")
int proof_entry(void *ctx)
{
	record(ctx, 0);
	return 0;
}

SEC("fexit.multi")
int proof_exit(void *ctx)
{
	record(ctx, 1);
	return 0;
}

SEC("fentry")
int plain(void *ctx)
{
	add(SHARE_PLAIN_HITS);
	set(SHARE_PLAIN_IP, bpf_get_func_ip(ctx));
	return 0;
}

SEC("fentry.multi")
int count_entry(void *ctx)
{
	add(SHARE_COUNT);
	return 0;
}

SEC("fexit.multi")
int count_exit(void *ctx)
{
	add(SHARE_COUNT);
	return 0;
}

SEC("kprobe.multi")
int count_kprobe(void *ctx)
{
	add(SHARE_COUNT);
	return 0;
}

/*
 * One run of the cookie-life programs, @k: SHARE_CK_SLEEP, _ENTRY or _EXIT;
 * @count: count the run (else only check its cookie)
 */
static __always_inline void ck_check(void *ctx, __u32 k, int count)
{
	__u64 ip = bpf_get_func_ip(ctx), cookie = bpf_get_attach_cookie(ctx);
	__u32 l = k != SHARE_CK_SLEEP;
	struct share_ck *w = bpf_map_lookup_elem(&ck_funcs, &ip);
	__u64 *tid;

	if (!w || !w->in[l]) {
		add(SHARE_CK_STRAYS);
		set(SHARE_CK_STRAY_IP, ip);
		return;
	}
	if (cookie != w->want[l]) {
		__sync_fetch_and_add(&w->wrong, 1);
		add(SHARE_CK_WRONG);
		set(SHARE_CK_WRONG_IP, ip);
		set(SHARE_CK_WRONG_COOKIE, cookie);
	}
	if (!count)
		return;
	if (k < SHARE_CK_RUNS)
		__sync_fetch_and_add(&w->hits[k], 1);
	add(SHARE_CK_HITS + k);
	tid = counter(SHARE_CK_LOAD_TID);
	if (tid && *tid == (__u32)bpf_get_current_pid_tgid())
		add(SHARE_CK_LOAD);
}

/* x86-64's struct pt_regs (arch/x86/include/asm/ptrace.h): r15 ... si, di */
#define PT_REGS_DI_OFF	(14 * 8)

SEC("fentry.multi.s")
int ck_sleep(void *ctx)
{
	__u64 regs = 0, di = 0, v;

	ck_check(ctx, SHARE_CK_SLEEP, 1);
	/* a syscall wrapper's argument: the task's registers */
	if (bpf_get_func_arg(ctx, 0, &regs) || !regs ||
	    bpf_probe_read_kernel(&di, sizeof(di), (void *)(regs + PT_REGS_DI_OFF)) || !di)
		return 0;
	if (!bpf_copy_from_user(&v, sizeof(v), (void *)di))
		add(SHARE_CK_COPIES);
	/* the run context (its cookie) is still this run's after the fault */
	ck_check(ctx, SHARE_CK_SLEEP, 0);
	return 0;
}

SEC("fsession.multi")
int ck_session(void *ctx)
{
	ck_check(ctx, bpf_session_is_return(ctx) ? SHARE_CK_EXIT : SHARE_CK_ENTRY, 1);
	return 0;
}

SEC("kprobe")
int override_ret(struct pt_regs *ctx)
{
	add(SHARE_OVERRIDE_RUNS);
	bpf_override_return(ctx, SHARE_OVERRIDE_RET);
	return 0;
}

SEC("syscall")
int peek(struct share_peek *a)
{
	return bpf_probe_read_kernel(a->bytes, sizeof(a->bytes), (void *)a->addr);
}

char LICENSE[] SEC("license") = "GPL";
