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
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
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
 * proofs allow (share_proof.c, MEM_TOLERANCE_KB) and 1 MB for a second
 * CPU under load. The per-CPU lists' free pages count as free (share.c
 * pcp_kb()); a make check run on a slow host lost 6.7 MB by MemFree alone.
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
	bool cookies;		/* the cookie-life part's calls too (cookie_life()) */
	atomic_int tid;		/* the thread's id, once it runs */
};

/*
 * Traced calls on another CPU: syscalls whose paths go through many
 * functions (files, pids, limits, memory, scheduling), until told to stop.
 * With ->cookies, more syscall wrappers (ck_driven[]): uname(2), times(2)
 * and getcwd(2) on a page just mapped (ck_sleep's read of the pointer
 * faults it in, inside the image), umask(2), and a short nanosleep(2)
 * (fsession's exit half runs after a sleep in the original). Not
 * madvise(2): the tiny tree has none (CONFIG_ADVISE_SYSCALLS).
 */
/* A page of nothing yet in place of @page (unmapped, if there was one) */
static void *fresh(void *page)
{
	if (page != MAP_FAILED)
		munmap(page, 4096);
	return mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

static void *load_thread(void *arg)
{
	struct load *l = arg;
	struct timespec ts = { 0, 20 * 1000 };
	void *page = MAP_FAILED;
	cpu_set_t set;
	struct stat st;
	char buf[256];
	int fd;

	CPU_ZERO(&set);
	CPU_SET(l->cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	if (l->cookies)
		page = fresh(MAP_FAILED);
	atomic_store(&l->tid, (int)syscall(SYS_gettid));
	while (!atomic_load(&l->stop)) {
		if (page != MAP_FAILED) {
			syscall(SYS_uname, page);
			page = fresh(page);
			syscall(SYS_times, page);
			page = fresh(page);
			syscall(SYS_getcwd, page, 256);
			page = fresh(page);
			syscall(SYS_umask, 022);
			syscall(SYS_nanosleep, &ts, NULL);
		}
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
	if (page != MAP_FAILED)
		munmap(page, 4096);
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

/*
 * The cookie-life part (sharing on, after its rounds): the lifetime of a
 * tracing_multi link's cookie table (struct bpf_tramp_cookies, the patched
 * kernel's "bpf: Look a shared trampoline image's cookies up by call
 * site"), which a shared image probes at run time and which is freed with
 * call_rcu_tasks() after the link's deallocation. A sleepable fentry.multi.s
 * link and an fsession.multi link, both with cookies, over the syscall
 * wrappers (on the error-injection list, all of one model: one shared image
 * probing both tables), attached and detached in varying orders while the
 * load thread calls syscalls among them on CPU 1; the cookies change every
 * round, so an image still reading an old table gives wrong ones. The
 * programs (share.bpf.c ck_sleep, ck_session) check each run's cookie
 * against ck_funcs. A task can be inside the image at a detach in
 * ck_sleep (its user copy faults), in the original between fsession's
 * halves (the load's nanosleep; the test's own close() of the link runs
 * inside the other link's image), or between the entry and the program.
 *
 * Lines: "stress: begin cookies", "stress: cookies round <r>: ..." for
 * each round, then "stress: cookies: <R> rounds, <F> functions
 * (fentry.multi.s, fsession.multi, cookies), <C> calls on CPU <n>, <W>
 * wrong cookies, <S> strays, ..., <B> bad" (the host counts the kernel's
 * splats between the first and the last).
 */
#define CK_ROUNDS	10	/* unless /share-stress's sixth number says */
#define CK_LOAD_CALLS	20	/* the load's loops an attach and between the detaches */
#define CK_PREFIX	"__x64_sys_"
#define CK_EI_LIST	"/sys/kernel/debug/error_injection/list"

/*
 * The syscalls the load thread calls with ->cookies, and the test's
 * getpgid(2): each must be run by both links. Wrappers with a BTF FUNC:
 * SYSCALL_DEFINE0's (getppid(2), sched_yield(2)) have none here.
 * tests/boot-share.sh keeps every "__x64_sys_*" named in this file in
 * /funcs.txt whatever its thinning.
 */
static const char *const ck_driven[] = {
	"__x64_sys_getpgid", "__x64_sys_newuname", "__x64_sys_times", "__x64_sys_getcwd",
	"__x64_sys_umask", "__x64_sys_nanosleep", "__x64_sys_mmap", "__x64_sys_munmap",
};
#define CK_DRIVEN	(sizeof(ck_driven) / sizeof(ck_driven[0]))

enum { CK_S, CK_X, CK_LINKS };	/* fentry.multi.s, fsession.multi */
static const char *const ck_name[CK_LINKS] = { "fentry.multi.s", "fsession.multi" };

struct ck {
	struct share_ctx *c;
	struct bpf_program *prog[CK_LINKS];
	struct bpf_map *map;
	const struct share_func **f;	/* the sleepable link's functions */
	bool *x;			/* of them, the fsession link's */
	int n, xn;
	uint32_t *ids[CK_LINKS];
	uint64_t *cookies[CK_LINKS];
	uint64_t (*tot)[SHARE_CK_RUNS];	/* each function's runs, all rounds */
};

/* Whether the error-injection list (a sleepable program's targets) names @name */
static bool ck_injectable(char **list, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(list[i], name))
			return true;
	return false;
}

/* Whether one link of @prog takes @f[0..n), without cookies */
static bool ck_takes(struct bpf_program *prog, const struct share_func **f, int n)
{
	uint32_t *ids = malloc(n * sizeof(*ids));
	int fd = -ENOMEM;

	for (int i = 0; ids && i < n; i++)
		ids[i] = f[i]->id;
	if (ids)
		fd = share_link(prog, ids, NULL, n);
	free(ids);
	if (fd >= 0)
		close(fd);
	return fd >= 0;
}

/* Keep those of @f[0..n) one link of @prog takes (halving what it refuses) */
static int ck_search(struct bpf_program *prog, const struct share_func **f, int n)
{
	int a, b, half = n / 2;

	if (!n || ck_takes(prog, f, n))
		return n;
	if (n == 1)
		return 0;
	a = ck_search(prog, f, half);
	b = ck_search(prog, f + half, n - half);
	memmove(f + a, f + half, b * sizeof(*f));
	return a + b;
}

/*
 * The functions: the context's syscall wrappers on the error-injection
 * list with an address, those a fentry.multi.s link takes; of them, those
 * an fsession.multi link takes (the fexit link's). 0, or -1 (said).
 */
static int ck_prepare(struct ck *k, struct share_ctx *c)
{
	FILE *f = fopen(CK_EI_LIST, "r");
	const struct share_func **x;
	char line[256], **list = NULL;
	int nl = 0, cap = 0, xn = 0;

	k->c = c;
	k->prog[CK_S] = bpf_object__find_program_by_name(c->obj, "ck_sleep");
	k->prog[CK_X] = bpf_object__find_program_by_name(c->obj, "ck_session");
	k->map = bpf_object__find_map_by_name(c->obj, "ck_funcs");
	if (!k->prog[CK_S] || !k->prog[CK_X] || !k->map) {
		say("stress: cookies: FAILED (no ck_sleep, ck_session or ck_funcs in share.bpf.o)");
		return -1;
	}
	while (f && fgets(line, sizeof(line), f)) {
		char **g = boot_grow(list, &cap, nl, sizeof(*list));

		if (!g)
			break;
		list = g;
		line[strcspn(line, " \t\n")] = 0;
		if (!strncmp(line, CK_PREFIX, strlen(CK_PREFIX)) && (list[nl] = strdup(line)))
			nl++;
	}
	if (f)
		fclose(f);
	k->f = calloc(c->n, sizeof(*k->f));
	x = calloc(c->n, sizeof(*x));
	if (!k->f || !x) {
		free(x);
		return -1;
	}
	for (int i = 0; i < c->n; i++)
		if (!strncmp(c->f[i].name, CK_PREFIX, strlen(CK_PREFIX)) && c->f[i].addr &&
		    ck_injectable(list, nl, c->f[i].name))
			k->f[k->n++] = &c->f[i];
	for (int i = 0; i < nl; i++)
		free(list[i]);
	free(list);
	k->n = ck_search(k->prog[CK_S], k->f, k->n);
	for (int i = 0; i < k->n; i++)
		if (k->f[i]->fexit)
			x[xn++] = k->f[i];
	xn = ck_search(k->prog[CK_X], x, xn);
	k->x = calloc(k->n ? k->n : 1, sizeof(*k->x));
	k->tot = calloc(k->n ? k->n : 1, sizeof(*k->tot));
	for (int l = 0; l < CK_LINKS; l++) {
		k->ids[l] = calloc(k->n ? k->n : 1, sizeof(*k->ids[l]));
		k->cookies[l] = calloc(k->n ? k->n : 1, sizeof(*k->cookies[l]));
	}
	if (!k->x || !k->tot || !k->ids[CK_S] || !k->ids[CK_X] || !k->cookies[CK_S] ||
	    !k->cookies[CK_X]) {
		free(x);
		return -1;
	}
	/* both in the context's order */
	for (int i = 0, j = 0; i < k->n; i++)
		if (j < xn && x[j] == k->f[i]) {
			k->x[i] = true;
			j++;
		}
	k->xn = xn;
	free(x);
	if (!k->n || !k->xn) {
		say("stress: cookies: FAILED (the links take %d syscall wrappers of %s, fsession.multi %d)",
		    k->n, CK_EI_LIST, k->xn);
		return -1;
	}
	return 0;
}

static void ck_free(struct ck *k)
{
	free(k->f);
	free(k->x);
	free(k->tot);
	for (int l = 0; l < CK_LINKS; l++) {
		free(k->ids[l]);
		free(k->cookies[l]);
	}
}

/* Round @r's cookies (new each round, other for each link) into the links' arrays and ck_funcs */
static int ck_fill(struct ck *k, int r)
{
	struct share_ck v;
	int nx = 0, err;

	for (int i = 0; i < k->n; i++) {
		uint64_t ck = share_cookie(k->f[i]->id) ^ (uint64_t)(r + 1) << 44;

		memset(&v, 0, sizeof(v));
		v.in[CK_S] = 1;
		v.want[CK_S] = ck;
		k->ids[CK_S][i] = k->f[i]->id;
		k->cookies[CK_S][i] = ck;
		if (k->x[i]) {
			v.in[CK_X] = 1;
			v.want[CK_X] = ck ^ 1ULL << 42;
			k->ids[CK_X][nx] = k->f[i]->id;
			k->cookies[CK_X][nx++] = v.want[CK_X];
		}
		err = bpf_map__update_elem(k->map, &k->f[i]->addr, sizeof(k->f[i]->addr), &v,
					   sizeof(v), BPF_ANY);
		if (err)
			return err;
	}
	return 0;
}

/* ck_funcs' runs of this round into the totals */
static void ck_collect(struct ck *k)
{
	struct share_ck v;

	for (int i = 0; i < k->n; i++)
		if (!bpf_map__lookup_elem(k->map, &k->f[i]->addr, sizeof(k->f[i]->addr), &v,
					  sizeof(v), 0))
			for (int j = 0; j < SHARE_CK_RUNS; j++)
				k->tot[i][j] += v.hits[j];
}

/* The load's loops since @from reach @n (up to @secs, scaled): whether they did */
static bool ck_load_runs(struct load *l, long from, long n, double secs)
{
	double t0 = now();

	secs *= boot_scale();
	while (atomic_load(&l->calls) - from < n) {
		if (now() - t0 > secs)
			return false;
		usleep(10 * 1000);
	}
	return true;
}

/* The function of address @ip among the links', for a line */
static const char *ck_func_name(const struct ck *k, uint64_t ip)
{
	for (int i = 0; i < k->n; i++)
		if (k->f[i]->addr == ip)
			return k->f[i]->name;
	return "not a traced function";
}

/* One round: 0, or the things that went wrong (said) */
static int ck_round(struct ck *k, int r, struct load *l)
{
	const int att[CK_LINKS] = { r % 2 ? CK_X : CK_S, r % 2 ? CK_S : CK_X };
	const int det[CK_LINKS] = { r / 2 % 2 ? CK_S : CK_X, r / 2 % 2 ? CK_X : CK_S };
	const int cnt[CK_LINKS] = { k->n, k->xn };
	struct share_counts got;
	struct share_stats st;
	uint64_t runs0[SHARE_CK_RUNS], runs[SHARE_CK_RUNS], wrong0, stray0, wrong, stray;
	int fd[CK_LINKS] = { -1, -1 }, bad = 0;
	long calls0 = atomic_load(&l->calls), both = 0;
	double t0, ta, td, tw;
	bool gone = true;

	if (ck_fill(k, r)) {
		say("stress: cookies round %d: FAILED (ck_funcs: %s)", r, strerror(errno));
		return 1;
	}
	for (int j = 0; j < SHARE_CK_RUNS; j++)
		runs0[j] = share_counter(k->c, SHARE_CK_HITS + j);
	wrong0 = share_counter(k->c, SHARE_CK_WRONG);
	stray0 = share_counter(k->c, SHARE_CK_STRAYS);
	t0 = now();
	for (int i = 0; i < CK_LINKS; i++) {
		fd[att[i]] = share_link(k->prog[att[i]], k->ids[att[i]], k->cookies[att[i]],
					cnt[att[i]]);
		if (fd[att[i]] < 0) {
			say("stress: cookies round %d: %s attach FAILED (%s)", r, ck_name[att[i]],
			    strerror(-fd[att[i]]));
			bad++;
		}
	}
	ta = now() - t0;
	/* both run: ours through getpgid(2), the load's on CPU 1 */
	for (int i = 0; i < 100; i++)
		syscall(SYS_getpgid, 0);
	if (!ck_load_runs(l, atomic_load(&l->calls), CK_LOAD_CALLS, 60)) {
		say("stress: cookies round %d: FAILED (the load did not loop %d times on CPU %d)",
		    r, CK_LOAD_CALLS, l->cpu);
		bad++;
	}
	if (!share_stats(&st))
		both = st.images;
	t0 = now();
	if (fd[det[0]] >= 0)
		close(fd[det[0]]);
	/*
	 * the other link's images run on while the first's retire and its
	 * table goes: until the images are back to the count with both
	 */
	tw = now();
	ck_load_runs(l, atomic_load(&l->calls), CK_LOAD_CALLS, 60);
	while (!share_stats(&st) && st.images > both && (gone = now() - tw < 30 * boot_scale()))
		usleep(50 * 1000);
	tw = now() - tw;
	if (fd[det[1]] >= 0)
		close(fd[det[1]]);
	td = now() - t0 - tw;
	if (share_wait(&got, STRESS_SETTLE_SECS, idle, NULL, true)) {
		say("stress: cookies round %d: FAILED (not back to zero: %ld images, %d symbols, %d direct)",
		    r, got.s.images, got.ksyms, got.direct);
		bad++;
	}
	/* nothing runs the programs now: the round's counts are final */
	ck_collect(k);
	for (int j = 0; j < SHARE_CK_RUNS; j++)
		runs[j] = share_counter(k->c, SHARE_CK_HITS + j) - runs0[j];
	wrong = share_counter(k->c, SHARE_CK_WRONG) - wrong0;
	stray = share_counter(k->c, SHARE_CK_STRAYS) - stray0;
	if (!runs[SHARE_CK_SLEEP] || !runs[SHARE_CK_ENTRY] || !runs[SHARE_CK_EXIT]) {
		say("stress: cookies round %d: FAILED (the programs did not run: fentry.multi.s %llu, fsession.multi %llu+%llu)",
		    r, (unsigned long long)runs[SHARE_CK_SLEEP],
		    (unsigned long long)runs[SHARE_CK_ENTRY], (unsigned long long)runs[SHARE_CK_EXIT]);
		bad++;
	}
	if (wrong) {
		uint64_t ip = share_counter(k->c, SHARE_CK_WRONG_IP);

		say("stress: cookies round %d: FAILED (%llu wrong cookies, the last %#llx for %s)", r,
		    (unsigned long long)wrong,
		    (unsigned long long)share_counter(k->c, SHARE_CK_WRONG_COOKIE), ck_func_name(k, ip));
		bad++;
	}
	if (stray) {
		say("stress: cookies round %d: FAILED (%llu strays, the last at %#llx)", r,
		    (unsigned long long)stray,
		    (unsigned long long)share_counter(k->c, SHARE_CK_STRAY_IP));
		bad++;
	}
	say("stress: cookies round %d: %d functions (fsession %d), %ld images with both, attach %s/%s %.1f s, detach %s/%s %.1f s (%.1f s between%s), runs %llu fentry.multi.s, %llu+%llu fsession.multi, %ld calls on CPU %d, %llu wrong, %llu strays, %s",
	    r, k->n, k->xn, both, ck_name[att[0]], ck_name[att[1]], ta, ck_name[det[0]],
	    ck_name[det[1]], td, tw, gone ? "" : ", the first's images not gone",
	    (unsigned long long)runs[SHARE_CK_SLEEP], (unsigned long long)runs[SHARE_CK_ENTRY],
	    (unsigned long long)runs[SHARE_CK_EXIT], atomic_load(&l->calls) - calls0, l->cpu,
	    (unsigned long long)wrong, (unsigned long long)stray, bad ? "FAILED" : "ok");
	return bad;
}

/* /share-stress's sixth number: the cookie-life part's rounds (else CK_ROUNDS) */
static int ck_rounds(void)
{
	FILE *f = fopen("/share-stress", "r");
	int n = -1;

	if (f) {
		if (fscanf(f, "%*d %*7s %*d %*d %*d %d", &n) != 1)
			n = -1;
		fclose(f);
	}
	return n >= 0 ? n : CK_ROUNDS;
}

static void cookie_life(struct share_ctx *c)
{
	struct ck k = { 0 };
	struct load l = { .cpu = 1, .cookies = true };
	struct share_counts base, end;
	int rounds = ck_rounds(), bad = 0, driven = 0;
	double t0 = now();
	pthread_t th;
	char miss[256] = "";
	long lost;
	bool kasan;

	if (!rounds)
		return;
	say("stress: begin cookies");
	if (ck_prepare(&k, c)) {
		say("stress: cookies: FAILED (no functions)");
		ck_free(&k);
		return;
	}
	for (int i = SHARE_CK_LOAD_TID; i <= SHARE_CK_STRAY_IP; i++)
		share_counter_set(c, i, 0);
	share_wait(&base, STRESS_SETTLE_SECS, idle, NULL, true);
	if (pthread_create(&th, NULL, load_thread, &l)) {
		say("stress: cookies: FAILED (no load thread)");
		ck_free(&k);
		return;
	}
	while (!atomic_load(&l.tid))
		usleep(1000);
	share_counter_set(c, SHARE_CK_LOAD_TID, atomic_load(&l.tid));
	for (int r = 0; r < rounds; r++)
		bad += ck_round(&k, r, &l);
	atomic_store(&l.stop, 1);
	pthread_join(th, NULL);
	share_wait(&end, STRESS_SETTLE_SECS, idle, NULL, true);
	if (end.s.images || end.ksyms || end.direct)
		bad++;
	lost = share_mem_settle(&base, &end, STRESS_MEM_TOLERANCE_KB);
	kasan = share_kasan();
	if (lost > STRESS_MEM_TOLERANCE_KB && !kasan)
		bad++;
	/* each syscall the load calls, run by both links */
	for (size_t d = 0; d < CK_DRIVEN; d++) {
		int i;

		for (i = 0; i < k.n && strcmp(k.f[i]->name, ck_driven[d]); i++)
			;
		if (i < k.n && k.tot[i][SHARE_CK_SLEEP] &&
		    (!k.x[i] || (k.tot[i][SHARE_CK_ENTRY] && k.tot[i][SHARE_CK_EXIT]))) {
			driven++;
			continue;
		}
		snprintf(miss + strlen(miss), sizeof(miss) - strlen(miss), " %s (%s)", ck_driven[d],
			 i == k.n ? "not in the links" : "not run");
	}
	if (driven < (int)CK_DRIVEN) {
		say("stress: cookies: FAILED (driven syscalls not run by both links:%s)", miss);
		bad++;
	}
	say("stress: cookies: %d rounds, %d functions (fentry.multi.s, fsession.multi %d, cookies), %ld calls on CPU %d, %llu wrong cookies, %llu strays, runs %llu fentry.multi.s (%llu user copies), %llu+%llu fsession.multi, %llu in the load thread, %d of %zu driven syscalls run by both, images %ld, memory %+ld kB%s (Slab %+ld, VmallocUsed %+ld kB), %.0f s, %d bad",
	    rounds, k.n, k.xn, atomic_load(&l.calls), l.cpu,
	    (unsigned long long)share_counter(c, SHARE_CK_WRONG),
	    (unsigned long long)share_counter(c, SHARE_CK_STRAYS),
	    (unsigned long long)share_counter(c, SHARE_CK_HITS + SHARE_CK_SLEEP),
	    (unsigned long long)share_counter(c, SHARE_CK_COPIES),
	    (unsigned long long)share_counter(c, SHARE_CK_HITS + SHARE_CK_ENTRY),
	    (unsigned long long)share_counter(c, SHARE_CK_HITS + SHARE_CK_EXIT),
	    (unsigned long long)share_counter(c, SHARE_CK_LOAD), driven, CK_DRIVEN,
	    end.s.images, lost, kasan ? " (not judged: KASAN)" : "", end.slab_kb - base.slab_kb,
	    end.vmalloc_kb - base.vmalloc_kb, now() - t0, bad);
	ck_free(&k);
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
	lost = share_mem_settle(&base, &end, STRESS_MEM_TOLERANCE_KB);
	kasan = share_kasan();
	if (lost > STRESS_MEM_TOLERANCE_KB && !kasan)
		bad++;
	say("stress: end %s: %d rounds, %d functions, %ld cpus, %d bad, memory %+ld kB "
	    "(%sMemFree %+ld, per-CPU lists %+ld, VmallocUsed %+ld, Slab %+ld, Percpu %+ld, "
	    "KernelStack %+ld kB, threads %+ld)",
	    m, rounds, most, ncpu, bad, lost,
	    kasan ? "not judged: KASAN's quarantine holds freed objects; " : "",
	    end.memfree_kb - base.memfree_kb, end.pcp_kb - base.pcp_kb,
	    end.vmalloc_kb - base.vmalloc_kb,
	    end.slab_kb - base.slab_kb, end.percpu_kb - base.percpu_kb,
	    end.stack_kb - base.stack_kb, end.threads - base.threads);
	if (mode)
		cookie_life(c);
}
