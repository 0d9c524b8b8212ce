/* SPDX-License-Identifier: GPL-2.0 */
/*
 * share.bpf.h - what the shared-image proof's BPF programs (share.bpf.c) keep
 * for each traced function, read by the guest (share_proof.c). Included by
 * both sides: __u64 fields only, host byte order (x86-64: little endian).
 */
#ifndef _SHARE_BPF_H
#define _SHARE_BPF_H

#include <linux/types.h>

#define SHARE_ARGS	6	/* argument registers recorded (x86-64 passes 6) */
#define SHARE_FUNCS	32768	/* hash map entries: more than the tiny kernel's functions */
#define SHARE_CK_FUNCS	1024	/* ck_funcs entries: more than the syscall wrappers */
#define SHARE_OVERRIDE_RET 4243	/* the return value override_ret asks for */

/* What one program (fentry.multi or fexit.multi) saw for one function. */
struct share_side {
	__u64 hits;		/* runs for this function */
	__u64 bad_cookie;	/* runs whose bpf_get_attach_cookie() was not want_cookie */
	__u64 bad_nargs;	/* runs whose bpf_get_func_arg_cnt() was not want_nargs */
	__u64 cookie;		/* the last run's cookie */
	__u64 nargs;		/* the last run's argument count */
	__u64 own;		/* runs in the guest's own process (tgid 1) */
	__u64 args[SHARE_ARGS];	/* the last own run's arguments (bpf_get_func_arg) */
	__u64 ret;		/* fexit: the last own run's return value (bpf_get_func_ret) */
};

/*
 * The value of the "funcs" map, keyed by the function's address
 * (/proc/kallsyms, what bpf_get_func_ip() must give): the guest fills in
 * want_*, the programs only update entries that exist.
 */
struct share_rec {
	__u64 want_cookie;	/* the cookie the guest gave the links for this function */
	__u64 want_nargs;	/* argument registers of its model (btfids models: slots) */
	struct share_side side[2];	/* [0] fentry.multi, [1] fexit.multi */
};

/*
 * The value of the "ck_funcs" map of the stress's cookie-life part
 * (share_stress.c), keyed by the function's address like "funcs": the
 * guest sets want[] and in[] before each round's attach (no program runs
 * then), the programs count their runs.
 */
enum { SHARE_CK_SLEEP, SHARE_CK_ENTRY, SHARE_CK_EXIT, SHARE_CK_RUNS };
struct share_ck {
	__u64 want[2];		/* the cookie of [0] the fentry.multi.s link, [1] fsession.multi's */
	__u64 in[2];		/* whether that link takes the function (else its run is a stray) */
	__u64 hits[SHARE_CK_RUNS];	/* runs: fentry.multi.s, fsession entry, fsession exit */
	__u64 wrong;		/* runs whose bpf_get_attach_cookie() was not want[] */
};

/* The "counters" array map: one __u64 each */
enum share_counter {
	SHARE_STRAY_HITS,	/* proof runs for an address the guest did not attach */
	SHARE_STRAY_IP,		/* the last such address */
	SHARE_PLAIN_HITS,	/* runs of the plain fentry program */
	SHARE_PLAIN_IP,		/* its last bpf_get_func_ip() */
	SHARE_COUNT,		/* runs of the count_* programs */
	SHARE_RECORD,		/* set by the guest: the proof programs record (else return at once) */
	/* the cookie-life part (ck_sleep, ck_session): all runs of its programs */
	SHARE_CK_LOAD_TID,	/* set by the guest: the load thread's id */
	SHARE_CK_HITS,		/* runs for a function in ck_funcs: [SHARE_CK_RUNS] */
	SHARE_CK_LOAD = SHARE_CK_HITS + SHARE_CK_RUNS,	/* of them in the load thread */
	SHARE_CK_COPIES,	/* ck_sleep's bpf_copy_from_user() of regs->di that read */
	SHARE_CK_WRONG,		/* runs with a wrong cookie (before or after the copy) */
	SHARE_CK_WRONG_IP,	/* the last such function */
	SHARE_CK_WRONG_COOKIE,	/* and its cookie */
	SHARE_CK_STRAYS,	/* runs for a function not in ck_funcs or not the link's */
	SHARE_CK_STRAY_IP,	/* the last such address */
	SHARE_OVERRIDE_RUNS,	/* runs of override_ret (share_override.c) */
	SHARE_COUNTERS,
};

/*
 * The peek program's context (share.bpf.c, run by BPF_PROG_TEST_RUN): the
 * guest sets addr, the program copies SHARE_PEEK_BYTES of kernel memory
 * from there into bytes (the call site and stub checks, share_proof.c)
 */
#define SHARE_PEEK_BYTES	32
struct share_peek {
	__u64 addr;
	__u8 bytes[SHARE_PEEK_BYTES];
};

#endif
