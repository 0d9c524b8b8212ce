// SPDX-License-Identifier: GPL-2.0
/*
 * share_proof.c - the booted kernel proves its shared trampoline images
 * (make check: tests/boot-share.sh), once with sharing on (mode 1: cookies
 * looked up by call site at run time), once off (mode 0, mainline) and
 * once stamped (mode 2, kernel/7.3-test: an image per function, copied from
 * one JIT of its key with the function's address, image and cookies
 * written in; when the kernel has it) and once more with the copies carved
 * out of blocks (mode 3, "stamped-blocks"):
 *
 *   - one fentry.multi link (share.bpf.c) over every function one link
 *     takes, each function with its own cookie (from its BTF id); then
 *     that link and one fexit.multi link over every function one takes,
 *     both attached at once (one trampoline, and one image, holds both
 *     programs of a function);
 *   - the programs check every run: bpf_get_func_ip() must be an attached
 *     function's /proc/kallsyms address, bpf_get_attach_cookie() the one
 *     given for it, bpf_get_func_arg_cnt() its model's argument registers
 *     (btfids models on the host: an independent count);
 *   - the guest calls functions with arguments it chose (syscalls and the
 *     paths they take) and checks each one's arguments and return value,
 *     on entry (the fentry link) and exit (the fexit link), and that each
 *     ran exactly once (a call its programs missed by their recursion
 *     check is made again: drive_once());
 *   - the kernel's counts: one /proc/kallsyms symbol per image, one ftrace
 *     direct entry per function; with sharing on every image is shared
 *     but the error-injectable functions' own;
 *   - each call site's text (share_site.c): an image's start or a stub of
 *     its own; sharing on, shared but for the error-injectable functions,
 *     off and stamped, an image of its own;
 *     stamped, images were stamped from fewer templates than functions
 *     (in blocks: into fewer blocks than copies);
 *   - a plain fentry on a function of a shared group: both programs run, the
 *     group keeps its image, the function gets one of its own; after its
 *     detach, the function is back in the group's image;
 *   - after the detach the counts and free memory are back.
 * Lines: "shared: check <on|off|stamped|stamped-blocks>, <link>: <what>: ok|FAILED (<why>)",
 * then "shared: proof: <F> functions attached, <H> hits checked, <W> wrong (sharing <mode>)".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "boot.h"
#include "share.h"
#include "share.bpf.h"

/*
 * Free memory after the detach: the first attach of a boot leaves behind
 * what the kernel keeps for the next one (measured here: a 2 MB area of
 * BPF code, "unpurged vm_area" in /proc/vmallocinfo, kworkers' stacks,
 * slab; MemFree 2.5 MB lower), so boot_share() warms up first (one
 * attach and detach of each link). After that, measured here: within
 * 0.15 MB, but once 2.1 MB lower after the first phase (VmallocUsed
 * +2048 kB, nothing new in /proc/vmallocinfo: one more 2 MB area of BPF
 * code kept for reuse, a step the link order decides). So 2.5 MB on the
 * tiny UP tree: the
 * images themselves are judged by the counts (images, bytes, symbols,
 * direct entries back to zero); this catches more than one area kept, or
 * a leak beside them (sharing off: 3.7 MB of images).
 *
 * On the SMP guest (kernel/build-tree's distribution-like tree, 2 CPUs)
 * MemFree moves more: the per-CPU page lists hold free pages MemFree does
 * not count, and the frees start kworkers whose stacks stay (a sharing-off
 * fexit round of 22,836 images: MemFree -5.1 MB, KernelStack +1.3 MB,
 * Slab +0.7 MB, no image left; another: 674 kworkers, KernelStack
 * +10.5 MB, Slab +5.6 MB). So what the new threads hold is taken out of
 * the difference (share_mem_lost_kb()) and the bound is 5 MB; the images
 * themselves are judged by the counts.
 */
#define MEM_TOLERANCE_KB	5120
/*
 * One more 2 MB area of BPF code kept for reuse (VmallocUsed +2048 kB,
 * above) is not a leak: up to one such area is taken out of the
 * difference too (seen: MemFree 6.0 MB lower after the first phase of a
 * boot on the SMP tree, VmallocUsed +2048 kB, counts back to zero).
 */
#define MEM_KEPT_AREA_KB	2048
#define SETTLE_SECS		90.0	/* RCU-tasks frees of 34,000 images under TCG */

/* The links of a phase: the fentry.multi link alone, then both at once */
enum { ENTRY = 1, EXIT = 2, BOTH = ENTRY | EXIT };

struct proof {
	struct share_ctx *c;
	const char *mode;
	const char *link;	/* the phase's links: "fentry.multi", "fentry+fexit.multi" */
	unsigned int sides;	/* ENTRY or BOTH */
	int n;			/* functions the phase's links are over (fexit's are some of them) */
	double t0;
	long hits, wrong;
	int fd_map;
	bool on;		/* sharing on (images()) */
	int fd_peek;		/* the peek program (share.bpf.c): call sites' text */
	int fd_prog[2];		/* proof_entry, proof_exit: their recursion misses */
	int file, dir;		/* the drives' file and its folder */
	char buf[0x2000];
};

static void check(struct proof *p, bool ok, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void check(struct proof *p, bool ok, const char *what, const char *fmt, ...)
{
	char why[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	say("shared: check %s, %s: %s: %s (%s) [%.0f s]", p->mode, p->link, what,
	    ok ? "ok" : "FAILED", why, now() - p->t0);
}

static char *slurp(const char *path)
{
	size_t n = 0, cap = 1 << 16;
	char *buf = malloc(cap), *x;
	FILE *f = fopen(path, "r");
	size_t r;

	if (!f || !buf) {
		if (f)
			fclose(f);
		free(buf);
		return NULL;
	}
	while ((r = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += r;
		if (n + 1 == cap && (x = realloc(buf, cap *= 2)))
			buf = x;
		else if (n + 1 == cap)
			break;
	}
	buf[n] = 0;
	fclose(f);
	return buf;
}

/* The lines of /proc/vmallocinfo that @before did not have, into @buf */
static void vmalloc_new(const char *before, char *buf, size_t size)
{
	char *now = slurp("/proc/vmallocinfo"), *line, *save = NULL;

	if (!now || !before)
		return;
	for (line = strtok_r(now, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (!strstr(before, line))
			append(buf, size, "%s", line);
	free(now);
}

static int rec(struct proof *p, const struct share_func *f, struct share_rec *r)
{
	memset(r, 0, sizeof(*r));
	return bpf_map_lookup_elem(p->fd_map, &f->addr, r);
}

/* Every attached function in the map, its expected cookie and count. */
static int fill(struct proof *p)
{
	struct share_ctx *c = p->c;
	struct share_rec *v = calloc(c->n, sizeof(*v));
	uint64_t *keys = calloc(c->n, sizeof(*keys));
	uint32_t cnt = c->n;
	int err;

	if (!v || !keys) {
		free(v);
		free(keys);
		return -ENOMEM;
	}
	for (int i = 0; i < c->n; i++) {
		keys[i] = c->f[i].addr;
		v[i].want_cookie = c->cookies[i];
		v[i].want_nargs = c->f[i].slots;
	}
	err = bpf_map_update_batch(p->fd_map, keys, v, &cnt, NULL);
	free(v);
	free(keys);
	return err ? -errno : 0;
}

static uint64_t mask(int size)
{
	return size >= 8 || size <= 0 ? ~0ULL : (1ULL << 8 * size) - 1;
}

/*
 * One call whose arguments and return value the guest chose: @call makes
 * it and gives the return value it saw; @want the arguments, @known which
 * of them the guest knows (bit i: argument i).
 */
struct drive {
	const char *func;
	long (*call)(struct proof *p, uint64_t *want, unsigned int *known);
	bool fd_ret;	/* the call returns a new file descriptor: closed after it */
};

#define FILE_BYTES	0x1357
#define SEEK_TO		0x1111
#define READ_BYTES	0x123
#define PREAD_BYTES	0x135
#define PREAD_AT	0x777
#define PWRITE_BYTES	0x99
#define PWRITE_AT	0x2000
#define TRUNC_TO	0x4321
#define OWNER		1234
#define GROUP		5678
#define DUP_TO		77
#define DUPFD_FROM	200
#define MODE		0640

#define ARGS(...) do { uint64_t a_[] = { __VA_ARGS__ }; memcpy(want, a_, sizeof(a_)); } while (0)

static long d_write(struct proof *p, uint64_t *want, unsigned int *known)
{
	ARGS(p->file, (uintptr_t)p->buf, FILE_BYTES);
	*known = 7;
	return write(p->file, p->buf, FILE_BYTES);
}

static long d_llseek(struct proof *p, uint64_t *want, unsigned int *known)
{
	ARGS(0, SEEK_TO, SEEK_SET);
	*known = 6;
	return lseek(p->file, SEEK_TO, SEEK_SET);
}

static long d_read(struct proof *p, uint64_t *want, unsigned int *known)
{
	ARGS(p->file, (uintptr_t)p->buf, READ_BYTES);
	*known = 7;
	return read(p->file, p->buf, READ_BYTES);
}

static long d_pread(struct proof *p, uint64_t *want, unsigned int *known)
{
	ARGS(p->file, (uintptr_t)p->buf, PREAD_BYTES, PREAD_AT);
	*known = 15;
	return pread(p->file, p->buf, PREAD_BYTES, PREAD_AT);
}

static long d_pwrite(struct proof *p, uint64_t *want, unsigned int *known)
{
	ARGS(p->file, (uintptr_t)p->buf, PWRITE_BYTES, PWRITE_AT);
	*known = 15;
	return pwrite(p->file, p->buf, PWRITE_BYTES, PWRITE_AT);
}

static long d_ftruncate(struct proof *p, uint64_t *want, unsigned int *known)
{
	ARGS(p->file, TRUNC_TO, 0);
	*known = 7;
	return ftruncate(p->file, TRUNC_TO);
}

static long d_fchown(struct proof *p, uint64_t *want, unsigned int *known)
{
	ARGS(p->file, OWNER, GROUP);
	*known = 7;
	return fchown(p->file, OWNER, GROUP);
}

static long d_fdatasync(struct proof *p, uint64_t *want, unsigned int *known)
{
	ARGS(p->file, 1);
	*known = 3;
	return fdatasync(p->file);
}

static long d_dup3(struct proof *p, uint64_t *want, unsigned int *known)
{
	ARGS(p->file, DUP_TO, O_CLOEXEC);
	*known = 7;
	return dup3(p->file, DUP_TO, O_CLOEXEC);
}

static long d_dupfd(struct proof *p, uint64_t *want, unsigned int *known)
{
	ARGS(DUPFD_FROM, 0, 0);
	*known = 5;
	return fcntl(p->file, F_DUPFD, DUPFD_FROM);
}

static const char share_file[] = "share-file";

static long d_openat(struct proof *p, uint64_t *want, unsigned int *known)
{
	ARGS(p->dir, (uintptr_t)share_file);
	*known = 3;
	return openat(p->dir, share_file, O_RDONLY);
}

static long d_fchmodat(struct proof *p, uint64_t *want, unsigned int *known)
{
	ARGS(p->dir, (uintptr_t)share_file, MODE, 0);
	*known = 15;
	return syscall(SYS_fchmodat, p->dir, share_file, MODE);
}

static long d_prlimit(struct proof *p, uint64_t *want, unsigned int *known)
{
	struct rlimit old;

	(void)p;
	ARGS(0, RLIMIT_NOFILE, 0);
	*known = 6;
	return prlimit(0, RLIMIT_NOFILE, NULL, &old);
}

static long d_getpgid(struct proof *p, uint64_t *want, unsigned int *known)
{
	(void)p;
	(void)want;
	*known = 0;
	return syscall(SYS_getpgid, 0);
}

static const struct drive drives[] = {
	{ "ksys_write", d_write, false },		/* fd, buf, count */
	{ "vfs_llseek", d_llseek, false },		/* file, offset, whence */
	{ "ksys_read", d_read, false },
	{ "ksys_pread64", d_pread, false },		/* fd, buf, count, pos */
	{ "ksys_pwrite64", d_pwrite, false },
	{ "ksys_ftruncate", d_ftruncate, false },	/* fd, length, flags */
	{ "ksys_fchown", d_fchown, false },		/* fd, user, group */
	{ "do_fsync", d_fdatasync, false },		/* fd, datasync */
	{ "ksys_dup3", d_dup3, false },		/* oldfd, newfd, flags */
	{ "f_dupfd", d_dupfd, true },		/* from, file, flags */
	{ "do_sys_openat2", d_openat, true },	/* dfd, filename, how */
	{ "do_fchmodat", d_fchmodat, false },		/* dfd, filename, mode, flags */
	{ "do_prlimit", d_prlimit, false },		/* tsk, resource, new, old */
	{ "__x64_sys_getpgid", d_getpgid, false },	/* regs */
};

static bool in_exits(struct share_ctx *c, uint32_t id)
{
	for (int i = 0; i < c->xn; i++)
		if (c->xids[i] == id)
			return true;
	return false;
}

/* @fd's program's recursion misses so far (bpf_prog_info), 0 if unknown */
static uint64_t prog_misses(int fd)
{
	struct bpf_prog_info info = {};
	uint32_t len = sizeof(info);

	if (fd < 0 || bpf_prog_get_info_by_fd(fd, &info, &len))
		return 0;
	return info.recursion_misses;
}

/*
 * One drive: the function ran once on entry (and exit) with our values.
 * A program does not run on a CPU where it is already running: a task
 * preempted inside it (CONFIG_PREEMPTION: tracing programs run with
 * migration, not preemption, disabled) holds its per-CPU count, and a call
 * on that CPU meanwhile is a miss the kernel counts
 * (__bpf_prog_enter_recur(), bpf_prog_info.recursion_misses). With every
 * function traced some task often is. (The misses count far more than
 * that: every traced function a program's helpers call re-enters it. With
 * fexit over every function, a boot here counted 3.8 million for
 * proof_entry in the phase.) A try is missed when each side that ran 0
 * times had its own program's misses grow meanwhile and every other side
 * ran once; a missed try is made again after DRIVE_PAUSE_US, DRIVE_TRIES
 * tries in all, each named in @retried; the last one is judged as any
 * other.
 */
#define DRIVE_TRIES	5
#define DRIVE_PAUSE_US	20000

static int drive_once(struct proof *p, const struct drive *d, struct share_func *f, int sides,
		      bool last, char *why, size_t size, char *retried, size_t rsize)
{
	struct share_rec r0, r1;
	uint64_t want[SHARE_ARGS] = { 0 }, m0[2], m1[2], ran[2];
	unsigned int known = 0;
	int wrong = 0, zero = 0, explained = 0;
	long ret;

	for (int s = 0; s < 2; s++)
		m0[s] = prog_misses(p->fd_prog[s]);
	rec(p, f, &r0);
	ret = d->call(p, want, &known);
	if (rec(p, f, &r1)) {
		append(why, size, "%s: not in the map", d->func);
		return 1;
	}
	if (d->fd_ret && ret >= 0)
		close(ret);
	for (int s = 0; s < 2; s++) {
		m1[s] = prog_misses(p->fd_prog[s]);
		ran[s] = r1.side[s].own - r0.side[s].own;
	}
	for (int s = 0; s < sides; s++) {
		zero += !ran[s];
		explained += !ran[s] && m1[s] > m0[s];
	}
	if (!last && zero && zero == explained && (sides == zero || ran[!ran[0]] == 1)) {
		append(retried, rsize, "%s (%s%s%s)", d->func, !ran[0] ? "entry" : "",
		       sides == 2 && !ran[0] && !ran[1] ? " and " : "",
		       sides == 2 && !ran[1] ? "exit" : "");
		return -1;
	}
	for (int s = 0; s < sides; s++) {
		const struct share_side *a = &r1.side[s];
		const char *side = s ? "exit" : "entry";

		if (ran[s] != 1) {
			wrong++;
			append(why, size, "%s %s ran %llu times (its program's recursion misses %llu -> %llu)",
			       d->func, side, (unsigned long long)ran[s],
			       (unsigned long long)m0[s], (unsigned long long)m1[s]);
			continue;
		}
		for (int i = 0; i < SHARE_ARGS && i < f->slots; i++) {
			uint64_t m = mask(f->size[i]);

			if (!(known >> i & 1) || (a->args[i] & m) == (want[i] & m))
				continue;
			wrong++;
			append(why, size, "%s %s arg%d 0x%llx, not 0x%llx", d->func, side, i,
			       (unsigned long long)(a->args[i] & m),
			       (unsigned long long)(want[i] & m));
		}
		if (s && (a->ret & mask(f->ret_size)) != ((uint64_t)ret & mask(f->ret_size))) {
			wrong++;
			append(why, size, "%s returned 0x%llx, the syscall gave 0x%llx", d->func,
			       (unsigned long long)(a->ret & mask(f->ret_size)),
			       (unsigned long long)((uint64_t)ret & mask(f->ret_size)));
		}
	}
	return wrong;
}

static int drive_one(struct proof *p, const struct drive *d, char *why, size_t size,
		     char *retried, size_t rsize)
{
	struct share_func *f = share_find(p->c, d->func);
	int sides, wrong = -1;

	if (!f)
		return -1;	/* not attached: said by the caller */
	/* with both links, a function of the fentry link only: its entry */
	sides = p->sides & EXIT && in_exits(p->c, f->id) ? 2 : 1;
	for (int t = 0; t < DRIVE_TRIES && wrong < 0; t++) {
		/* the holder of the count runs meanwhile */
		if (t)
			usleep(DRIVE_PAUSE_US);
		wrong = drive_once(p, d, f, sides, t == DRIVE_TRIES - 1, why, size, retried, rsize);
	}
	return wrong;
}

static void drive_all(struct proof *p)
{
	char why[1024] = "", missing[512] = "", retried[512] = "";
	int done = 0, wrong = 0, w;

	p->dir = open("/", O_DIRECTORY | O_RDONLY);
	p->file = openat(p->dir, share_file, O_RDWR | O_CREAT | O_TRUNC, 0600);
	memset(p->buf, 0x5a, sizeof(p->buf));
	for (size_t i = 0; i < sizeof(drives) / sizeof(drives[0]); i++) {
		w = drive_one(p, &drives[i], why, sizeof(why), retried, sizeof(retried));
		if (w < 0) {
			append(missing, sizeof(missing), "%s", drives[i].func);
			continue;
		}
		done++;
		wrong += w;
	}
	close(DUP_TO);
	close(DUPFD_FROM);
	close(p->file);
	close(p->dir);
	unlink("/share-file");
	p->wrong += wrong;
	check(p, !wrong && done >= 10, "chosen arguments and return values",
	      "%d functions driven, %d wrong%s%s; made again after their programs' recursion misses: %s%s%s",
	      done, wrong, why[0] ? ": " : "", why, retried[0] ? retried : "none",
	      missing[0] ? "; not attached: " : "", missing);
}

/* Some of everything: files, /proc, memory, a child process. */
static void exercise(void)
{
	char buf[4096];
	struct stat st;
	int fd, pfd[2];
	pid_t pid;
	void *m;

	for (int i = 0; i < 2; i++) {
		fd = open(i & 1 ? "/proc/self/status" : "/proc/meminfo", O_RDONLY);
		if (fd >= 0) {
			while (read(fd, buf, sizeof(buf)) > 0)
				;
			close(fd);
		}
		stat("/init", &st);
		getppid();
		m = mmap(NULL, 1 << 16, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m != MAP_FAILED) {
			memset(m, 1, 1 << 16);
			munmap(m, 1 << 16);
		}
		if (!pipe(pfd)) {
			if (write(pfd[1], "x", 1) == 1 && read(pfd[0], buf, 1) < 0)
				break;
			close(pfd[0]);
			close(pfd[1]);
		}
	}
	pid = fork();
	if (!pid)
		_exit(0);
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

/* Every function's record: hits, the programs' own per-run checks. */
static void collect(struct proof *p)
{
	struct share_ctx *c = p->c;
	long hits = 0, wrong = 0, funcs_hit = 0;
	char why[512] = "";
	struct share_rec r;
	uint64_t stray;

	for (int i = 0; i < c->n; i++) {
		if (rec(p, &c->f[i], &r)) {
			wrong++;
			append(why, sizeof(why), "%s: not in the map", c->f[i].name);
			continue;
		}
		funcs_hit += r.side[0].hits || r.side[1].hits;
		for (int s = 0; s < 2; s++) {
			const struct share_side *x = &r.side[s];

			hits += x->hits;
			wrong += x->bad_cookie + x->bad_nargs;
			if (x->bad_cookie || x->bad_nargs)
				append(why, sizeof(why), "%s %s: %llu wrong cookies (last 0x%llx, want 0x%llx), %llu wrong counts (last %llu, want %llu)",
				       c->f[i].name, s ? "exit" : "entry",
				       (unsigned long long)x->bad_cookie, (unsigned long long)x->cookie,
				       (unsigned long long)r.want_cookie,
				       (unsigned long long)x->bad_nargs, (unsigned long long)x->nargs,
				       (unsigned long long)r.want_nargs);
		}
	}
	stray = share_counter(c, SHARE_STRAY_HITS);
	if (stray)
		append(why, sizeof(why), "%llu runs for an address not attached (last 0x%llx)",
		       (unsigned long long)stray,
		       (unsigned long long)share_counter(c, SHARE_STRAY_IP));
	wrong += stray;
	p->hits += hits;
	p->wrong += wrong;
	check(p, !wrong && funcs_hit > 100, "every run: ip, cookie, argument count",
	      "%ld runs of %ld functions, %ld wrong; runs the programs missed so far (recursion_misses): entry %llu, exit %llu%s%s",
	      hits, funcs_hit, wrong, (unsigned long long)prog_misses(p->fd_prog[0]),
	      (unsigned long long)prog_misses(p->fd_prog[1]), why[0] ? ": " : "", why);
}

/* One function's call site: its function (p->c->f), what share_site_read() found */
struct site_text {
	uint64_t site;
	int idx;
	enum share_site_kind kind;
	struct share_site s;
};

static int cmp_site(const void *a, const void *b)
{
	uint64_t x = ((const struct site_text *)a)->site, y = ((const struct site_text *)b)->site;

	return x < y ? -1 : x > y;
}

/* What the call sites' texts enter, counted by site_texts() */
struct site_counts {
	int kind[SHARE_SITE_OTHER_STUB + 1];
	int ei_own, ei_shared;		/* error-injectable: own image, shared image or stub */
	int shared, own;		/* the others: shared image or its stub, own image */
	char bad[320];			/* examples of what no phase takes */
	char policy[320];		/* examples of what this phase's rule refuses */
};

static void example(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void example(char *buf, size_t size, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	if (n > size - 80)
		return;
	if (n)
		n += snprintf(buf + n, size - n, ", ");
	va_start(ap, fmt);
	vsnprintf(buf + n, size - n, fmt, ap);
	va_end(ap);
}

static void site_one(struct proof *p, const struct site_text *t, const struct site_text *sites,
		     struct site_counts *k)
{
	const struct share_func *f = &p->c->f[t->idx];
	const struct share_site s = t->s;
	enum share_site_kind kind = t->kind;
	struct site_text key = { .site = s.pushed - 5 }, *o;
	bool shared = kind == SHARE_SITE_SHARED || kind == SHARE_SITE_STUB;

	k->kind[kind]++;
	switch (kind) {
	case SHARE_SITE_OWN:
	case SHARE_SITE_SHARED:
	case SHARE_SITE_STUB:
		break;
	case SHARE_SITE_OTHER_STUB:
		o = bsearch(&key, sites, p->n, sizeof(*sites), cmp_site);
		example(k->bad, sizeof(k->bad), "%s to the stub of %s", f->name,
			o ? p->c->f[o->idx].name : "a function not in the phase");
		return;
	case SHARE_SITE_NONE:
		example(k->bad, sizeof(k->bad), "%s not patched: %02x %02x %02x %02x %02x %02x %02x %02x %02x",
			f->name, s.head[0], s.head[1], s.head[2], s.head[3], s.head[4], s.head[5],
			s.head[6], s.head[7], s.head[8]);
		return;
	default:
		example(k->bad, sizeof(k->bad), "%s: %s (%s %#llx, in %s)", f->name,
			share_site_str(kind), s.jmp ? "jmp" : "call",
			(unsigned long long)s.target, s.image[0] ? s.image : "no bpf_trampoline_ symbol");
		return;
	}
	if (f->ei && shared)
		k->ei_shared++;
	else if (f->ei)
		k->ei_own++;
	else if (shared)
		k->shared++;
	else
		k->own++;
	if ((f->ei && shared) || (!f->ei && !shared && p->on) || (shared && !p->on))
		example(k->policy, sizeof(k->policy), "%s%s -> %s", f->name,
			f->ei ? " (error-injectable)" : "", s.image);
}

/*
 * Each of the phase's functions by its call site's text (share_site.c),
 * not ftrace's record of it: an image entered at its start or a well-formed
 * stub of a shared image that pushes the site's own return address (else
 * the shared image runs the programs and the body of another function).
 * Sharing on, a function on the error injection list enters an image of
 * its own (8/24), any other one a shared image or its stub; off (and
 * stamped), every function an image of its own. The sorted sites are
 * mmap()ed: the proof compares free memory before and after, and glibc's
 * heap would keep them.
 */
static void site_texts(struct proof *p)
{
	size_t len = p->n * sizeof(struct site_text);
	struct site_counts k = { 0 };
	struct share_syms syms;
	struct site_text *t;
	int err, fine;

	t = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	err = share_syms_load(&syms);
	if (t == MAP_FAILED || err || p->fd_peek < 0) {
		check(p, false, "every call site's text enters its own function", "%s",
		      p->fd_peek < 0 ? "no peek program" : err ? strerror(-err) : strerror(errno));
		goto out;
	}
	/* sorted by site, to name the function a stranger's stub is for */
	for (int i = 0; i < p->n; i++) {
		t[i].kind = share_site_read(p->fd_peek, &syms, p->c->f[i].addr, &t[i].s);
		t[i].site = t[i].s.site;
		t[i].idx = i;
	}
	qsort(t, p->n, sizeof(*t), cmp_site);
	for (int i = 0; i < p->n; i++)
		site_one(p, &t[i], t, &k);
	fine = k.kind[SHARE_SITE_OWN] + k.kind[SHARE_SITE_SHARED] + k.kind[SHARE_SITE_STUB];
	check(p, fine == p->n, "every call site's text enters its own function",
	      "%d sites: %d to an image's start, %d to a stub of a shared image that pushes their own return address, %d to another function's stub; %d not patched, %d elsewhere, %d unreadable%s%s",
	      p->n, k.kind[SHARE_SITE_OWN] + k.kind[SHARE_SITE_SHARED], k.kind[SHARE_SITE_STUB],
	      k.kind[SHARE_SITE_OTHER_STUB], k.kind[SHARE_SITE_NONE], k.kind[SHARE_SITE_ELSEWHERE],
	      k.kind[SHARE_SITE_UNREAD], k.bad[0] ? ": " : "", k.bad);
	if (p->on)
		check(p, !k.ei_shared && !k.own,
		      "no error-injectable function's call site to a shared image, every other one's to a shared image",
		      "%d sites by their text: error-injectable %d to an image of their own, %d to a shared one or its stub; the others %d to a shared image or its stub, %d to an image of their own%s%s",
		      p->n, k.ei_own, k.ei_shared, k.shared, k.own, k.policy[0] ? ": " : "", k.policy);
	else
		check(p, !k.ei_shared && !k.shared, "every call site's text to an image of its own",
		      "%d sites by their text: %d to an image of their own, %d to a shared one or a stub%s%s",
		      p->n, k.ei_own + k.own, k.ei_shared + k.shared, k.policy[0] ? ": " : "",
		      k.policy);
out:
	if (t != MAP_FAILED)
		munmap(t, len);
	share_syms_free(&syms);
}

static void images(struct proof *p, const struct share_counts *b, const struct share_counts *a,
		   bool on)
{
	long im = a->s.images - b->s.images, sh = a->s.shared - b->s.shared;
	long blocks = a->s.stub_blocks - b->s.stub_blocks, stubs = a->s.stubs - b->s.stubs;
	int ks = a->ksyms - b->ksyms, kss = a->ksyms_shared - b->ksyms_shared;
	int direct = a->direct - b->direct, dsh = a->direct_shared - b->direct_shared;
	int ei = 0, xei = 0, want_stubs;

	/* functions on the error injection list keep images of their own */
	for (int i = 0; on && i < p->n; i++) {
		ei += p->c->f[i].ei;
		xei += p->c->f[i].ei && p->c->f[i].fexit;
	}
	want_stubs = on && (p->sides & EXIT) ? p->c->xn - xei : 0;

	check(p, ks == im + blocks && kss == sh + blocks,
	      "one /proc/kallsyms symbol per image and per block of stubs",
	      "%ld images (%ld shared), %ld blocks of stubs, %d bpf_trampoline_* symbols (%d of shared images)",
	      im, sh, blocks, ks, kss);
	check(p, stubs == want_stubs && (blocks > 0) == (want_stubs > 0),
	      "a stub for each function of a shared image that calls the original",
	      "%ld stubs in %ld blocks of %ld bytes, want %d", stubs, blocks,
	      a->s.stub_bytes - b->s.stub_bytes, want_stubs);
	/*
	 * sharing on: the error-injectable functions' own images besides the
	 * shared ones (with fexit, some of their fentry-only images may still
	 * be on their way out: at least that many)
	 */
	check(p, on ? im - sh >= ei && sh > 0 && im < p->n : sh == 0 && im == p->n,
	      on ? "every image shared but the error-injectable functions' own, fewer than functions" :
		   "one image per function",
	      "%ld images of %ld bytes for %d functions, %ld shared, %d error-injectable", im,
	      a->s.bytes - b->s.bytes, p->n, sh, ei);
	p->on = on;
	site_texts(p);
	/*
	 * sharing on, ftrace's records by the names %pS gives them (which
	 * site_texts() does not trust): at least one to a shared image
	 */
	check(p, direct == p->n && (on ? dsh > 0 : dsh == 0), "one ftrace direct entry per function",
	      "%d new functions in enabled_functions for %d, %d of them named as a shared image's, %d error-injectable",
	      direct, p->n, dsh, ei);
}

/*
 * Stamped (mode 2, 3): the images were copies of fewer JITs (templates,
 * one a key) than functions, and the kernel said so; in blocks (3), the
 * copies were carved out of fewer blocks than copies (64 KiB each)
 */
static void stamped(struct proof *p, const struct share_counts *b, const struct share_counts *a,
		    int mode)
{
	long copies = a->s.stamped - b->s.stamped, tmpl = a->s.templates - b->s.templates;
	long blocks = a->s.stamp_blocks - b->s.stamp_blocks;

	check(p, a->s.has_stamped && copies > 0 && tmpl > 0 && tmpl < p->n,
	      "images stamped from fewer templates than functions",
	      "%ld images stamped, %ld templates, for %d functions%s", copies, tmpl, p->n,
	      a->s.has_stamped ? "" : " (no stamped line in bpf_tramp_stats)");
	if (mode == 3)
		check(p, blocks > 0 && blocks < copies, "the copies carved out of fewer blocks",
		      "%ld copies in %ld blocks", copies, blocks);
}

static bool idle(const struct share_counts *got, const void *arg)
{
	(void)arg;
	return !got->s.images && !got->ksyms && !got->direct;
}

struct attached {
	const struct share_counts *base;
	int n;
	bool on;
	int ei;		/* of them error-injectable: images of their own when on */
};

/* The images of the first link's attach freed: what the checks judge */
static bool settled(const struct share_counts *got, const void *arg)
{
	const struct attached *a = arg;
	long im = got->s.images - a->base->s.images;
	long blocks = got->s.stub_blocks - a->base->s.stub_blocks;

	return im == (a->on ? got->s.shared - a->base->s.shared + a->ei : a->n) &&
	       got->ksyms - a->base->ksyms == im + blocks;
}

/* The plain fentry's function, drive it once; both programs ran. */
static void plain(struct proof *p, bool on)
{
	struct bpf_program *pp = bpf_object__find_program_by_name(p->c->obj, "plain");
	struct share_func *f = share_find(p->c, "ksys_fchown");
	struct share_counts c0, c1, c2;
	struct share_rec r0, r1, r2;
	uint64_t h0, h1, h2, ip;
	struct bpf_link *l;
	int members = 0, s = 0;	/* the fentry side: every phase has it */

	if (!f) {
		check(p, false, "a plain fentry in a shared group", "ksys_fchown not attached");
		return;
	}
	for (int i = 0; i < p->c->n; i++)
		members += !strcmp(p->c->f[i].model, f->model);
	share_counts(&c0);
	rec(p, f, &r0);
	h0 = share_counter(p->c, SHARE_PLAIN_HITS);
	l = bpf_program__attach(pp);
	if (!l) {
		check(p, false, "a plain fentry in a shared group", "attach: %s", strerror(errno));
		return;
	}
	share_counts(&c1);
	share_counter_set(p->c, SHARE_RECORD, 1);
	fchown(0, OWNER, GROUP);
	share_counter_set(p->c, SHARE_RECORD, 0);
	h1 = share_counter(p->c, SHARE_PLAIN_HITS);
	ip = share_counter(p->c, SHARE_PLAIN_IP);
	rec(p, f, &r1);
	bpf_link__destroy(l);
	share_settle(&c0, &c2, SETTLE_SECS);
	share_counter_set(p->c, SHARE_RECORD, 1);
	fchown(0, OWNER, GROUP);
	share_counter_set(p->c, SHARE_RECORD, 0);
	h2 = share_counter(p->c, SHARE_PLAIN_HITS);
	rec(p, f, &r2);
	check(p, h1 - h0 == 1 && ip == f->addr && r1.side[s].own - r0.side[s].own == 1,
	      "a plain fentry and the multi link both run",
	      "ksys_fchown (%d of its model): plain ran %llu times at 0x%llx (0x%llx), %s %llu",
	      members, (unsigned long long)(h1 - h0), (unsigned long long)ip,
	      (unsigned long long)f->addr, p->link,
	      (unsigned long long)(r1.side[s].own - r0.side[s].own));
	if (on)
		check(p, c1.s.shared == c0.s.shared && c1.s.images == c0.s.images + 1 &&
		      c1.ksyms == c0.ksyms + 1 && members > 1,
		      "the group keeps its image, the function gets one of its own",
		      "shared images %ld -> %ld, images %ld -> %ld, symbols %d -> %d",
		      c0.s.shared, c1.s.shared, c0.s.images, c1.s.images, c0.ksyms, c1.ksyms);
	check(p, c2.s.images == c0.s.images && c2.s.shared == c0.s.shared &&
	      c2.ksyms == c0.ksyms && h2 == h1 && r2.side[s].own - r1.side[s].own == 1,
	      "after the plain detach the function is back in its image",
	      "images %ld, shared %ld, symbols %d (before the plain fentry %ld, %ld, %d); plain ran %llu more, %s %llu",
	      c2.s.images, c2.s.shared, c2.ksyms, c0.s.images, c0.s.shared, c0.ksyms,
	      (unsigned long long)(h2 - h1), p->link,
	      (unsigned long long)(r2.side[s].own - r1.side[s].own));
}

/*
 * What a profiler hears (share_ksym.c): with the links on, a
 * PERF_RECORD_KSYMBOL for every live image, each as long as its code (not
 * a page), none inside another, so a sample names one image; after the
 * detach, as many removals as additions.
 */
static void perf_heard(struct proof *p, struct share_ksym *w, const struct share_counts *b,
		       const struct share_counts *a, bool detached)
{
	struct share_ksym_counts k;
	long blocks = a->s.stub_blocks - b->s.stub_blocks;
	long im = a->s.images - b->s.images + blocks, sh = a->s.shared - b->s.shared + blocks;

	if (!w) {
		check(p, false, "perf hears of the images", "no perf watch (perf_event_open)");
		return;
	}
	share_ksym_read(w, &k);
	if (!detached)
		check(p, !k.lost && k.add - k.del == im && k.add_shared - k.del_shared == sh &&
		      k.live == im && k.add > 0 && !k.page_len && !k.overlap,
		      "perf hears of every image and block of stubs (PERF_RECORD_KSYMBOL), each its own range",
		      "%ld added, %ld removed (%ld, %ld of shared images) for %ld live images and blocks (%ld shared, %ld blocks); %ld live symbols, %ld images a page or longer, %ld overlapping; %ld lost",
		      k.add, k.del, k.add_shared, k.del_shared, im, sh, blocks, k.live, k.page_len,
		      k.overlap, k.lost);
	else
		check(p, !k.lost && k.add == k.del && k.add > 0 && !k.live,
		      "perf hears every image leave",
		      "%ld added, %ld removed (%ld, %ld of shared images), %ld live symbols; %ld lost",
		      k.add, k.del, k.add_shared, k.del_shared, k.live, k.lost);
}

/* One link over its functions: attach, drive, check, detach, counts back. */
static void proof_phase(struct proof *p, int mode)
{
	struct share_ctx *c = p->c;
	struct share_counts base, att, end;
	struct share_ksym *w;
	char left[256], vm[512], *vmalloc0;
	double t0, t1;
	int l, lx = -1, err, ei = 0;
	long kept, lost;
	bool kasan;

	p->n = c->n;
	/* a fresh map: this phase's runs only */
	err = fill(p);
	if (!err)
		err = share_set(mode);
	/* the perf watch first: its rings are in the free memory compared */
	w = share_ksym_open();
	/* no links: the last one's images freed (RCU tasks) */
	left[0] = 0;
	if (share_wait(&base, SETTLE_SECS, idle, NULL, true))
		share_ksyms_list(left, sizeof(left));
	vmalloc0 = slurp("/proc/vmallocinfo");
	check(p, !left[0], "no images before the attach", "images %ld, symbols %d, direct %d%s%s",
	      base.s.images, base.ksyms, base.direct, left[0] ? "; left: " : "", left);
	t0 = now();
	l = err ?: share_link(bpf_object__find_program_by_name(c->obj, "proof_entry"),
			      c->ids, c->cookies, c->n);
	if (l >= 0 && p->sides & EXIT) {
		lx = share_link(bpf_object__find_program_by_name(c->obj, "proof_exit"),
				c->xids, c->xcookies, c->xn);
		if (lx < 0) {
			close(l);
			l = lx;
		}
	}
	t1 = now();
	check(p, l >= 0, "attach", "%s over %d functions (fexit %d) %.1f s%s%s", p->link, p->n,
	      p->sides & EXIT ? c->xn : 0, t1 - t0, l < 0 ? ": " : "", l < 0 ? strerror(-l) : "");
	if (l < 0) {
		p->wrong++;
		share_ksym_close(w);
		free(vmalloc0);
		return;
	}
	for (int i = 0; mode == 1 && i < p->n; i++)
		ei += c->f[i].ei;
	share_wait(&att, SETTLE_SECS, settled, &(struct attached){ &base, p->n, mode == 1, ei },
		   false);
	images(p, &base, &att, mode == 1);
	if (mode >= 2)
		stamped(p, &base, &att, mode);
	perf_heard(p, w, &base, &att, false);
	share_counter_set(c, SHARE_RECORD, 1);
	drive_all(p);
	exercise();
	share_counter_set(c, SHARE_RECORD, 0);
	if (!c->no_plain)
		plain(p, mode == 1);
	collect(p);
	t0 = now();
	close(l);
	if (lx >= 0)
		close(lx);
	t1 = now();
	err = share_settle(&base, &end, SETTLE_SECS);
	left[0] = 0;
	if (err)
		share_ksyms_list(left, sizeof(left));
	perf_heard(p, w, &base, &end, true);
	check(p, !err, "the counts are back after the detach",
	      "images %ld (%ld bytes), shared %ld, symbols %d, direct %d; before %ld (%ld), %ld, %d, %d; detach %.1f s, settled %.1f s later%s%s",
	      end.s.images, end.s.bytes, end.s.shared, end.ksyms, end.direct, base.s.images,
	      base.s.bytes, base.s.shared, base.ksyms, base.direct, t1 - t0, now() - t1,
	      left[0] ? "; left: " : "", left);
	vm[0] = 0;
	if (end.vmalloc_kb != base.vmalloc_kb)
		vmalloc_new(vmalloc0, vm, sizeof(vm));
	/* a leak is less free memory; more is the kernel's own (an SMP guest's
	 * kworkers exit and free their stacks: KernelStack -7 MB seen) */
	kept = end.vmalloc_kb - base.vmalloc_kb;
	kept = kept < 0 ? 0 : kept > MEM_KEPT_AREA_KB ? MEM_KEPT_AREA_KB : kept;
	kasan = share_kasan();	/* one read of /proc/kallsyms */
	lost = share_mem_settle(&base, &end, MEM_TOLERANCE_KB + kept) - kept;
	check(p, lost <= MEM_TOLERANCE_KB || kasan,
	      kasan ? "free memory (not judged: KASAN's quarantine)" : "free memory is back",
	      "MemFree %ld kB, before %ld kB, with the link %ld kB; per-CPU lists %+ld kB, threads %+ld, KernelStack %+ld kB, Slab %+ld kB, Percpu %+ld kB, VmallocUsed %+ld kB%s%s",
	      end.memfree_kb, base.memfree_kb, att.memfree_kb, end.pcp_kb - base.pcp_kb,
	      end.threads - base.threads,
	      end.stack_kb - base.stack_kb,
	      end.slab_kb - base.slab_kb, end.percpu_kb - base.percpu_kb,
	      end.vmalloc_kb - base.vmalloc_kb, vm[0] ? "; new in vmallocinfo: " : "", vm);
	share_ksym_close(w);
	free(vmalloc0);
}

/*
 * /share-off-every, when there (make check; make check-full has none): N,
 * the proof with sharing off (mainline's image a function, most of the
 * boot's time under TCG) over every N-th function and every one the
 * drives or the plain fentry need. The subset of @c into @sub; 1 when it is
 * @c itself (no file, or N <= 1), 0 for a subset (free with
 * free_subset()), -1 when out of memory.
 */
#define OFF_EVERY	"/share-off-every"

static bool driven(const char *name)
{
	for (size_t i = 0; i < sizeof(drives) / sizeof(drives[0]); i++)
		if (!strcmp(drives[i].func, name))
			return true;
	return false;
}

static int subset(struct share_ctx *c, struct share_ctx *sub)
{
	FILE *f = fopen(OFF_EVERY, "r");
	int every = 0;

	if (f) {
		if (fscanf(f, "%d", &every) != 1)
			every = 0;
		fclose(f);
	}
	if (every <= 1)
		return 1;
	*sub = *c;
	sub->f = calloc(c->n, sizeof(*sub->f));
	sub->ids = calloc(c->n, sizeof(*sub->ids));
	sub->cookies = calloc(c->n, sizeof(*sub->cookies));
	sub->syms = calloc(c->n, sizeof(*sub->syms));
	sub->xids = calloc(c->n, sizeof(*sub->xids));
	sub->xcookies = calloc(c->n, sizeof(*sub->xcookies));
	if (!sub->f || !sub->ids || !sub->cookies || !sub->syms || !sub->xids || !sub->xcookies)
		return -1;
	sub->n = sub->xn = 0;
	for (int i = 0; i < c->n; i++) {
		if (i % every && !driven(c->f[i].name))
			continue;
		sub->f[sub->n] = c->f[i];
		sub->ids[sub->n] = c->ids[i];
		sub->cookies[sub->n] = c->cookies[i];
		sub->syms[sub->n] = c->syms[i];
		sub->n++;
		if (c->f[i].fexit) {
			sub->xids[sub->xn] = c->ids[i];
			sub->xcookies[sub->xn] = c->cookies[i];
			sub->xn++;
		}
	}
	say("share: proof with an image per function (off, stamped) over every %dth function and the driven ones: %d of %d",
	    every, sub->n, c->n);
	return 0;
}

static void free_subset(struct share_ctx *sub)
{
	free(sub->f);
	free(sub->ids);
	free(sub->cookies);
	free(sub->syms);
	free(sub->xids);
	free(sub->xcookies);
}

void share_proof(struct share_ctx *c, int mode)
{
	struct proof *p = calloc(1, sizeof(*p));
	struct share_ctx sub = { 0 };
	int part = mode == 1 ? 1 : subset(c, &sub);

	if (!p || part < 0) {
		say("shared: proof FAILED (no memory)");
		free(p);
		free_subset(&sub);
		return;
	}
	if (!part)
		c = &sub;
	p->c = c;
	p->mode = mode == 1 ? "on" : mode == 2 ? "stamped" : mode == 3 ? "stamped-blocks" : "off";
	p->t0 = now();
	p->fd_map = bpf_map__fd(bpf_object__find_map_by_name(c->obj, "funcs"));
	p->fd_peek = share_peek_fd(c);
	p->fd_prog[0] = bpf_program__fd(bpf_object__find_program_by_name(c->obj, "proof_entry"));
	p->fd_prog[1] = bpf_program__fd(bpf_object__find_program_by_name(c->obj, "proof_exit"));
	p->sides = ENTRY;
	p->link = "fentry.multi";
	proof_phase(p, mode);
	p->sides = BOTH;
	p->link = "fentry+fexit.multi";
	proof_phase(p, mode);
	say("shared: proof: %d functions attached, %ld hits checked, %ld wrong (sharing %s)",
	    c->n, p->hits, p->wrong, p->mode);
	say("share: proof with sharing %s: %.0f s", p->mode, now() - p->t0);
	free(p);
	free_subset(&sub);
}
