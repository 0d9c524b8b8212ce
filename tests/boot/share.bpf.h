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

/* The "counters" array map: one __u64 each */
enum share_counter {
	SHARE_STRAY_HITS,	/* proof runs for an address the guest did not attach */
	SHARE_STRAY_IP,		/* the last such address */
	SHARE_PLAIN_HITS,	/* runs of the plain fentry program */
	SHARE_PLAIN_IP,		/* its last bpf_get_func_ip() */
	SHARE_COUNT,		/* runs of the count_* programs */
	SHARE_RECORD,		/* set by the guest: the proof programs record (else return at once) */
	SHARE_COUNTERS,
};

#endif
