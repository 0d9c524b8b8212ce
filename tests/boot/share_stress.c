// SPDX-License-Identifier: GPL-2.0
/*
 * share_stress.c - mass attach under load (tests/boot-share.sh, make
 * check): a fentry.multi, a fexit.multi and a kprobe_multi link over the
 * same functions, all three attached at once, in rounds that vary the
 * order of the attaches and detaches and the functions taken, while a
 * thread on another CPU keeps calling traced functions through every
 * attach and detach. After each round the kernel's counts (images, their
 * symbols, ftrace direct entries) must be back to zero; after the last one
 * free memory must be back within STRESS_MEM_TOLERANCE_KB. The host counts
 * the oopses and warnings of the serial log between this file's "stress:
 * begin" and "stress: end" lines.
 *
 * Lines: "stress: round <r> <on|off>: ..." for each round, then
 * "stress: end <on|off>: <R> rounds, <F> functions, <C> cpus, <B> bad,
 * memory <+-M> kB", F the most one round attached, M the free memory lost
 * less what new threads hold (share_mem_lost_kb(), what the bound judges).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "boot.h"
#include "share.h"
#include "share.bpf.h"

#define STRESS_ROUNDS		4	/* unless /share-stress gives a number */
/*
 * Free memory after the rounds against before them, both after the
 * warm-up (the stress's warms up a kprobe_multi link too: fprobe's tables
 * stay sized for the largest link), less the threads' stacks: what the
 * proofs allow (share_proof.c, MEM_TOLERANCE_KB) and 1 MB for the per-CPU
 * page lists of a second CPU under load, which MemFree does not count.
 */
#define STRESS_MEM_TOLERANCE_KB	6144
#define STRESS_SETTLE_SECS	120.0

/* The three links of a round, in the order a round attaches them. */
enum { L_ENTRY, L_EXIT, L_KPROBE, L_KINDS };
static const char *const kind_name[L_KINDS] = { "fentry", "fexit", "kprobe_multi" };

/* Attach and detach orders: each permutation of the three once. */
static const int orders[6][L_KINDS] = {
	{ L_ENTRY, L_EXIT, L_KPROBE }, { L_EXIT, L_KPROBE, L_ENTRY },
	{ L_KPROBE, L_ENTRY, L_EXIT }, { L_ENTRY, L_KPROBE, L_EXIT },
	{ L_KPROBE, L_EXIT, L_ENTRY }, { L_EXIT, L_ENTRY, L_KPROBE },
};

/* The functions of one round: a subset of the context's, each link's. */
struct subset {
	uint32_t *ids, *xids;
	uint64_t *cookies, *xcookies;
	const char **syms;
	uint64_t *kcookies;
	int n, xn;
};

struct load {
	atomic_int stop;
	atomic_long calls;
	int cpu;
};

/*
 * Traced calls on another CPU: syscalls whose paths go through many
 * functions (files, pids, limits, memory, scheduling), until told to stop.
 */
static void *load_thread(void *arg)
{
	struct load *l = arg;
	cpu_set_t set;
	struct stat st;
	char buf[256];
	int fd;

	CPU_ZERO(&set);
	CPU_SET(l->cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	while (!atomic_load(&l->stop)) {
		fd = open("/proc/self/stat", O_RDONLY);
		if (fd >= 0) {
			if (read(fd, buf, sizeof(buf)) < 0)
				buf[0] = 0;
			close(fd);
		}
		stat("/funcs.txt", &st);
		syscall(SYS_getpgid, 0);
		syscall(SYS_getppid);
		sched_yield();
		atomic_fetch_add(&l->calls, 1);
	}
	return NULL;
}

/*
 * The function the round's "did the programs run" check calls (getpgid(2)
 * 1000 times): every round takes it, whatever the thinning leaves out, so
 * that the check cannot fail for a subset that happens to hold none of
 * the functions on getpgid's path (BTF order decides which those are).
 */
#define STRESS_DRIVEN		"__x64_sys_getpgid"

/*
 * Round @r's functions: all of them (rounds 0 and 3), the first half (1),
 * every other one (2); of those every @every-th when @every > 1; and
 * STRESS_DRIVEN always. The fexit link takes those of them the context's
 * fexit link takes.
 */
static int pick(struct share_ctx *c, int r, int every, struct subset *s)
{
	const struct share_func *driven = share_find(c, STRESS_DRIVEN);
	int n = c->n;

	s->ids = calloc(n, sizeof(*s->ids));
	s->xids = calloc(n, sizeof(*s->xids));
	s->cookies = calloc(n, sizeof(*s->cookies));
	s->xcookies = calloc(n, sizeof(*s->xcookies));
	s->kcookies = calloc(n, sizeof(*s->kcookies));
	s->syms = calloc(n, sizeof(*s->syms));
	if (!s->ids || !s->xids || !s->cookies || !s->xcookies || !s->kcookies || !s->syms)
		return -ENOMEM;
	s->n = s->xn = 0;
	for (int i = 0; i < n; i++) {
		const struct share_func *f = &c->f[i];

		if (f != driven &&
		    ((r % 4 == 1 && i >= n / 2) || (r % 4 == 2 && i % 2) ||
		     (every > 1 && i % every)))
			continue;
		s->ids[s->n] = c->ids[i];
		s->cookies[s->n] = c->cookies[i];
		s->syms[s->n] = c->syms[i];
		s->kcookies[s->n] = c->cookies[i];
		s->n++;
		if (f->fexit) {
			s->xids[s->xn] = c->ids[i];
			s->xcookies[s->xn] = c->cookies[i];
			s->xn++;
		}
	}
	return 0;
}

static void unpick(struct subset *s)
{
	free(s->ids);
	free(s->xids);
	free(s->cookies);
	free(s->xcookies);
	free(s->kcookies);
	free(s->syms);
}

static int attach(struct share_ctx *c, int kind, const struct subset *s)
{
	switch (kind) {
	case L_ENTRY:
		return share_link(bpf_object__find_program_by_name(c->obj, "count_entry"),
				  s->ids, s->cookies, s->n);
	case L_EXIT:
		return share_link(bpf_object__find_program_by_name(c->obj, "count_exit"),
				  s->xids, s->xcookies, s->xn);
	default:
		return share_link_kprobe(bpf_object__find_program_by_name(c->obj, "count_kprobe"),
					 s->syms, s->kcookies, s->n);
	}
}

static bool idle(const struct share_counts *got, const void *arg)
{
	(void)arg;
	return !got->s.images && !got->ksyms && !got->direct;
}

/*
 * One round: 0, or the number of things that went wrong (said); @most
 * rises to the functions the round attached if more.
 */
static int round_one(struct share_ctx *c, int r, int every, const char *mode, struct load *l,
		     int *most)
{
	const int *att = orders[r % 6], *det = orders[(r + 3) % 6];
	struct share_counts got;
	struct subset s = { 0 };
	int fd[L_KINDS] = { -1, -1, -1 };
	long calls0, calls1;
	uint64_t hits0;
	double t0 = now(), ta, td;
	int bad = 0;

	if (pick(c, r, every, &s)) {
		say("stress: round %d %s: FAILED (no memory)", r, mode);
		unpick(&s);
		return 1;
	}
	if (s.n > *most)
		*most = s.n;
	calls0 = atomic_load(&l->calls);
	for (int k = 0; k < L_KINDS; k++) {
		fd[att[k]] = attach(c, att[k], &s);
		if (fd[att[k]] < 0) {
			say("stress: round %d %s: %s attach FAILED (%s)", r, mode,
			    kind_name[att[k]], strerror(-fd[att[k]]));
			bad++;
		}
	}
	ta = now() - t0;
	/* every link runs: the load's calls and ours pass through all three */
	hits0 = share_counter(c, SHARE_COUNT);
	for (int i = 0; i < 1000; i++)
		syscall(SYS_getpgid, 0);
	if (share_counter(c, SHARE_COUNT) <= hits0) {
		say("stress: round %d %s: FAILED (the programs did not run: 1000 getpgid() calls, %s %s)",
		    r, mode, STRESS_DRIVEN,
		    share_find(c, STRESS_DRIVEN) ? "in the round" : "not in /funcs.txt");
		bad++;
	}
	t0 = now();
	for (int k = 0; k < L_KINDS; k++)
		if (fd[det[k]] >= 0)
			close(fd[det[k]]);
	td = now() - t0;
	calls1 = atomic_load(&l->calls);
	if (calls1 == calls0) {
		say("stress: round %d %s: FAILED (no traced call ran on CPU %d)", r, mode, l->cpu);
		bad++;
	}
	if (share_wait(&got, STRESS_SETTLE_SECS, idle, NULL, true)) {
		say("stress: round %d %s: FAILED (not back to zero: %ld images, %d symbols, %d direct)",
		    r, mode, got.s.images, got.ksyms, got.direct);
		bad++;
	}
	say("stress: round %d %s: %d functions (fexit %d), attach %s/%s/%s %.1f s, detach %s/%s/%s %.1f s, %ld calls on CPU %d, %s",
	    r, mode, s.n, s.xn, kind_name[att[0]], kind_name[att[1]], kind_name[att[2]], ta,
	    kind_name[det[0]], kind_name[det[1]], kind_name[det[2]], td, calls1 - calls0,
	    l->cpu, bad ? "FAILED" : "ok");
	unpick(&s);
	return bad;
}

/*
 * /share-stress: "<rounds> [on|off|both] [<off rounds>] [<first>] [<off
 * every>]": the rounds with sharing on (else STRESS_ROUNDS), the one mode
 * to run (else both), the rounds with sharing off (else as many), the
 * index of sharing on's first round (else 0: every function; make check
 * takes 1, a half, for CI's time), every how many of a round's functions
 * sharing off takes (else 1, all; make check 8: mainline's detach under
 * the load is most of the stress under TCG). Whether @mode runs; its
 * rounds into @rounds, the index of its first into @first, the thinning
 * into @every: sharing off starts at round 1 at least, the
 * halves (pick()): a round over every function, detached with mainline's
 * per-function images, keeps the test's task in one close() past RCU
 * Tasks' 10-minute stall timeout under TCG (round 0's fentry detach:
 * 22,819 images rebuilt while fexit and kprobe_multi trace every call of
 * it), a warning of the emulator's speed, not of the kernel (rounds 3 and
 * 4 of a longer run take every function again).
 */
static bool stress_wants(int mode, int *rounds, int *first, int *every)
{
	FILE *f = fopen("/share-stress", "r");
	char only[8] = "";
	int n = 0, off = 0, from = 0, thin = 0;

	if (f) {
		if (fscanf(f, "%d %7s %d %d %d", &n, only, &off, &from, &thin) < 1)
			n = 0;
		fclose(f);
	}
	n = n > 0 ? n : STRESS_ROUNDS;
	from = from > 0 ? from : 0;
	*rounds = mode || off <= 0 ? n : off;
	*first = mode ? from : (from > 1 ? from : 1);
	*every = mode || thin <= 1 ? 1 : thin;
	return !only[0] || !strcmp(only, "both") || !strcmp(only, mode ? "on" : "off");
}

void share_stress(struct share_ctx *c, int mode)
{
	int rounds, first, every, most = 0;
	long lost;
	const char *m = mode ? "on" : "off";
	struct load l = { .cpu = 1 };
	struct share_counts base, end;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	pthread_t th;
	int bad = 0;
	bool kasan;

	if (!stress_wants(mode, &rounds, &first, &every) || share_set(mode))
		return;
	say("stress: begin %s", m);
	if (ncpu < 2) {
		say("stress: end %s: FAILED (%ld CPU: the load needs another)", m, ncpu);
		return;
	}
	share_wait(&base, STRESS_SETTLE_SECS, idle, NULL, true);
	if (pthread_create(&th, NULL, load_thread, &l)) {
		say("stress: end %s: FAILED (no load thread)", m);
		return;
	}
	for (int r = first; r < first + rounds; r++)
		bad += round_one(c, r, every, m, &l, &most);
	atomic_store(&l.stop, 1);
	pthread_join(th, NULL);
	share_wait(&end, STRESS_SETTLE_SECS, idle, NULL, true);
	/* a leak is less free memory (share.h: kworkers come and go) */
	lost = share_mem_lost_kb(&base, &end);
	kasan = share_kasan();
	if (lost > STRESS_MEM_TOLERANCE_KB && !kasan)
		bad++;
	say("stress: end %s: %d rounds, %d functions, %ld cpus, %d bad, memory %+ld kB "
	    "(%sVmallocUsed %+ld, Slab %+ld, Percpu %+ld, KernelStack %+ld kB, threads %+ld)",
	    m, rounds, most, ncpu, bad, lost,
	    kasan ? "not judged: KASAN's quarantine holds freed objects; " : "",
	    end.vmalloc_kb - base.vmalloc_kb,
	    end.slab_kb - base.slab_kb, end.percpu_kb - base.percpu_kb,
	    end.stack_kb - base.stack_kb, end.threads - base.threads);
}
