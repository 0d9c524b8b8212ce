// SPDX-License-Identifier: GPL-2.0
/*
 * share_bench.c - what sharing trampoline images buys the patched 7.3
 * kernel (bench/tramp; tests/boot-share.sh --bench), in one boot, but for
 * kprobe_multi's attach and detach: one boot each, the boot's last act
 * (share_bench()'s comment says why):
 *
 *   table          first the trampoline table on against off (issue 50;
 *                  table_bench()): tracing_multi fentry, sharing on, over
 *                  the same sizes, the table off (btf_tramp=N), on for a
 *                  first attach (btf_tramp_forget: the kernel confirms
 *                  each function again) and on for a second one; the boot
 *                  check's line (its time, the table's bytes)
 *   attach/detach  tracing_multi fentry over the first 100, 1,000, 10,000
 *                  and all functions, sharing off (one image per function),
 *                  on and stamped (bpf_tramp_share=2: an image per function,
 *                  each a copy of its class's one JIT with its immediates
 *                  patched; left out, said once, when the kernel refuses 2),
 *                  and stamped with the copies carved out of 64 KiB blocks,
 *                  a kallsyms symbol each (3, "stamped-blocks") or one a
 *                  block (4, "stamped-block-sym"; the same),
 *                  ROUNDS rounds, the order rotated each round, each link
 *                  with a distinct cookie per function; and kprobe_multi
 *                  (fprobe) over the same ones as the anchor
 *   images         the images each built and their bytes (bpf_tramp_stats)
 *   stages         where each attach and detach spent its time: the
 *                  kernel's own stage boundaries (get_cycles()) of the last
 *                  operation of each kind, medians over the rounds
 *   fexit sizes    alone (/share-bench "fexit", BTFIDS_BENCH_FEXIT_ONLY): the
 *                  attach/detach rounds with fexit.multi over the first 100,
 *                  1,000, 10,000 and all of the fexit link's functions, a
 *                  cookie each, sharing off and on (asked): where a shared
 *                  fexit link's attach pays for its dearer call (libbpf's
 *                  size rule, kernel/7.3 23/24)
 *   run-time       a tight loop over getpgid(0): TSC a call with fentry.multi
 *                  and fexit.multi over pid_vnr()'s group (the functions of
 *                  its model; getpgid reaches it) shared and per function,
 *                  each with cookies and without, fentry stamped, and
 *                  kprobe_multi over the same functions, less the loop with
 *                  nothing attached
 * Times are TSC counts (the guest's CLOCK_MONOTONIC ticks in jiffies),
 * in seconds by the TSC rate measured over the whole bench.
 * The last lines are the images and run-time lines of bench/tramp's
 * summary; the host makes the attach and detach lines from the rounds.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <x86intrin.h>

#include "boot.h"
#include "share.h"
#include "share.bpf.h"

#define ROUNDS		5
#define LOOP		20000	/* getpgid calls a round */
#define NSIZES		4

enum { OFF, ON, STAMPED, BLOCKS, BLOCK_SYM, KPROBE, NKINDS };
static const char *const kind_name[NKINDS] = {
	"off", "on", "stamped", "stamped-blocks", "stamped-block-sym", "kprobe_multi"
};
/* bpf_tramp_share for each tracing_multi kind */
static const int kind_mode[KPROBE] = { 0, 1, 2, 3, 4 };
/*
 * The tracing_multi kinds this kernel has, in the rounds' order: OFF and
 * ON, and each stamped kind whose bpf_tramp_share it takes (share_bench())
 */
static int kinds[KPROBE], nkinds;
/* the rounds attach fexit.multi over the fexit link's functions */
static bool fexit_sizes;

static bool have(int kind)
{
	for (int i = 0; i < nkinds; i++)
		if (kinds[i] == kind)
			return true;
	return false;
}

struct sample {
	double attach, detach;			/* TSC counts */
	long images, bytes;			/* built by the attach */
	long stamped, templates;		/* of them stamped; templates after it */
	long blocks;				/* blocks of copies it made */
	double stamp_cycles[3];			/* the copies' alloc, build, write */
	bool has_stamped;			/* the kernel's stamped line */
	struct share_stages st[2];		/* the kernel's attach, detach stages */
};

struct size_result {
	int n;
	struct sample s[NKINDS][ROUNDS];
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static struct bpf_program *prog(struct share_ctx *c, const char *name)
{
	return bpf_object__find_program_by_name(c->obj, name);
}

/*
 * A line in the kernel's log before each timed operation, in order with
 * the kernel's own (bench/ftrace-parts reads the ftrace stage's parts a
 * timed tree prints after it); outside the timed window.
 */
static void kmsg_mark(const char *what, int n, const char *op)
{
	char buf[96];
	int fd, len;

	/* the initramfs has no devtmpfs: the node, once (char 1:11) */
	if (access("/dev/kmsg", F_OK))
		mknod("/dev/kmsg", S_IFCHR | 0600, makedev(1, 11));
	fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	len = snprintf(buf, sizeof(buf), "<4>bench-op: %s %d %s\n", what, n, op);
	if (write(fd, buf, len) != len)
		say("share: bench: /dev/kmsg: %s", strerror(errno));
	close(fd);
}

/*
 * One attach and detach of @kind over the first @n functions into @s;
 * @mark: the kernel log's name of the operation (bench/ftrace-parts)
 */
static int one(struct share_ctx *c, int kind, int n, struct sample *s, const char *mark)
{
	struct share_counts idle = { 0 }, base;
	struct share_stats a, d;
	uint64_t t0, t1;
	int fd;

	if (kind != KPROBE && share_set(kind_mode[kind]))
		return -1;
	/* each from no images: the last one's RCU-tasks frees done */
	if (share_settle(&idle, &base, 90)) {
		say("shared: bench FAILED (before %s over %d functions: %ld images, %d symbols, %d direct left)",
		    kind_name[kind], n, base.s.images, base.ksyms, base.direct);
		return -EBUSY;
	}
	kmsg_mark(mark, n, "attach");
	t0 = __rdtsc();
	if (kind == KPROBE)
		fd = share_link_kprobe(prog(c, "count_kprobe"), c->syms, NULL, n);
	else if (fexit_sizes)
		fd = share_link(prog(c, "count_exit"), c->xids, c->xcookies, n);
	else
		fd = share_link(prog(c, "count_entry"), c->ids, c->cookies, n);
	t1 = __rdtsc();
	if (fd < 0) {
		say("shared: bench FAILED (%s over %d functions: %s)", kind_name[kind], n,
		    strerror(-fd));
		return fd;
	}
	s->attach = t1 - t0;
	share_stats(&a);
	kmsg_mark(mark, n, "detach");
	t0 = __rdtsc();
	close(fd);
	t1 = __rdtsc();
	s->detach = t1 - t0;
	share_stats(&d);

	s->images = a.images - base.s.images;
	s->bytes = a.bytes - base.s.bytes;
	s->stamped = a.stamped - base.s.stamped;
	for (int i = 0; i < 3; i++)
		s->stamp_cycles[i] = a.stamp_cycles[i] - base.s.stamp_cycles[i];
	s->templates = a.templates;
	s->blocks = a.stamp_blocks - base.s.stamp_blocks;
	s->has_stamped = a.has_stamped;
	/* the kernel times tracing_multi's stages only */
	if (kind != KPROBE) {
		s->st[0] = a.st[SHARE_ATTACH];
		s->st[1] = d.st[SHARE_DETACH];
	}
	return 0;
}

/* one() into @res->s[@kind][@r], and a progress line */
static int run_one(struct share_ctx *c, int kind, struct size_result *res, int r, double m0)
{
	struct sample *s = &res->s[kind][r];
	int err = one(c, kind, res->n, s, kind_name[kind]);

	/* "fexit off": not the fentry rounds tests/boot-share.sh summarizes */
	say("share: bench %s%s %d functions, round %d: attach %.3f, detach %.3f Mcycles (%.0f s)",
	    fexit_sizes ? "fexit " : "", kind_name[kind], res->n, r, s->attach / 1e6,
	    s->detach / 1e6, now() - m0);
	return err;
}

static double med_field(struct sample *v, int rounds, size_t off)
{
	double x[ROUNDS];

	for (int r = 0; r < rounds; r++)
		x[r] = *(double *)((char *)&v[r] + off);
	return median(x, rounds);
}

/* "check 0.120 s, get 0.020 s, ...": each stage's median over the rounds */
static void stages_text(struct sample *v, int rounds, int which, double hz, const char *unit,
			char *buf, size_t size)
{
	const struct share_stages *st = &v[0].st[which];

	buf[0] = 0;
	for (int i = 0; i < st->n; i++) {
		double x[ROUNDS];

		for (int r = 0; r < rounds; r++)
			x[r] = v[r].st[which].cycles[i];
		append(buf, size, "%s %.4f %s", st->name[i], median(x, rounds) / hz, unit);
	}
	for (char *p = buf; (p = strstr(p, "; ")); p++)
		*p = ',';
}

static void sizes(struct share_ctx *c, struct size_result *res, int *nres)
{
	static const int want[NSIZES] = { 100, 1000, 10000, 0 };
	int all = fexit_sizes ? c->xn : c->n;

	*nres = 0;
	for (int i = 0; i < NSIZES; i++) {
		int n = want[i] ? want[i] : all;

		if (n > all || (!want[i] && *nres && all == res[*nres - 1].n))
			continue;
		res[(*nres)++].n = n;
	}
}

/* Each getpgid(0) in a loop: TSC counts a call, the fastest of ROUNDS. */
static double loop(void)
{
	double best = 0;

	for (int r = 0; r < ROUNDS; r++) {
		uint64_t t0 = __rdtsc();

		for (int i = 0; i < LOOP; i++)
			syscall(SYS_getpgid, 0);
		double t = (double)(__rdtsc() - t0) / LOOP;

		best = !r || t < best ? t : best;
	}
	return best;
}

/*
 * The function the run-time loop's getpgid(0) reaches, whose model's
 * functions its links attach to: pid_vnr() (do_getpgid() calls it), which
 * shares an image; __x64_sys_getpgid, as before, on a kernel whose list
 * lacks it (a syscall is on the error injection list, so it keeps an
 * image of its own since v6 and measures no shared image)
 */
static struct share_func *rt_target(struct share_ctx *c)
{
	struct share_func *t = share_find(c, "pid_vnr");

	if (!t)
		t = share_find(c, "__x64_sys_getpgid");
	if (t && t->ei)
		say("shared: run-time: %s is on the error injection list: its image is never shared, the \"shared\" figures are a per-function image's",
		    t->name);
	return t;
}

/*
 * The run-time cost a call: fentry.multi (count_entry; @fexit:
 * fexit.multi, count_exit, over those one fexit link takes) over the
 * functions of rt_target()'s model shared (@kind ON), per function (OFF)
 * or stamped (STAMPED), kprobe_multi over the same; @cookies or not. TSC
 * counts of a loop's call (the fastest of ROUNDS), into @runs the
 * program's runs a call; into *@bare the same loop with nothing attached,
 * measured just before. A bare loop moves by 100 TSC from one measurement
 * to the next under TCG, more than the differences measured, so the caller
 * takes the fastest of the bare loops as the cost of the call itself.
 */
static double runtime(struct share_ctx *c, int kind, bool cookies, bool fexit, double *runs,
		      double *bare_min)
{
	struct share_func *target = rt_target(c);
	uint32_t *ids = calloc(c->n, sizeof(*ids));
	uint64_t *ck = calloc(c->n, sizeof(*ck)), r0;
	const char **syms = calloc(c->n, sizeof(*syms));
	struct share_counts idle = { 0 }, base;
	const char *pname = fexit ? "count_exit" : "count_entry";
	int n = 0, fd;
	double t = -1, bare;

	if (!target || !ids || !ck || !syms)
		goto out;
	for (int i = 0; i < c->n; i++) {
		if (strcmp(c->f[i].model, target->model))
			continue;
		/* fexit: those the fexit.multi link takes */
		if (fexit && !c->f[i].fexit)
			continue;
		ids[n] = c->ids[i];
		ck[n] = c->cookies[i];
		syms[n++] = c->syms[i];
	}
	if (kind != KPROBE && share_set(kind_mode[kind]))
		goto out;
	/*
	 * From no images: the last attach's RCU-tasks frees done, else their
	 * kworkers take the host thread that runs both vCPUs (TCG,
	 * thread=single) inside the timed loop (seen: the shared run with
	 * cookies, right after the per-function one, 351 ns a call, 3.0 times
	 * the per-function run; after a settle 148 ns, 1.07 times)
	 */
	if (share_settle(&idle, &base, 90))
		say("shared: run-time: %ld images still there before %s", base.s.images,
		    kind_name[kind]);
	bare = loop();
	fd = kind == KPROBE ?
		share_link_kprobe(prog(c, "count_kprobe"), syms, cookies ? ck : NULL, n) :
		share_link(prog(c, pname), ids, cookies ? ck : NULL, n);
	if (fd < 0) {
		say("shared: run-time FAILED (%s%s over %d functions: %s)", kind_name[kind],
		    fexit ? " fexit" : "", n, strerror(-fd));
		goto out;
	}
	r0 = share_counter(c, SHARE_COUNT);
	t = loop();
	*bare_min = bare < *bare_min ? bare : *bare_min;
	*runs = (double)(share_counter(c, SHARE_COUNT) - r0) / (ROUNDS * LOOP);
	close(fd);
	say("shared: run-time %s%s%s over %d functions of %s's model: %.0f TSC a call (nothing attached just before: %.0f), %.2f runs a call",
	    kind_name[kind], fexit ? " fexit" : "", cookies ? "" : " (no cookies)", n, target->name,
	    t, bare, *runs);
out:
	free(ids);
	free(ck);
	free(syms);
	return t;
}

static void report_sizes(struct share_ctx *c, struct size_result *res, int nres, double hz)
{
	char buf[2][512];

	for (int i = 0; i < nres; i++)
		for (int j = 0; j < nkinds; j++) {
			int k = kinds[j];
			struct sample *v = res[i].s[k];
			double im[ROUNDS], by[ROUNDS], cp[ROUNDS], tp[ROUNDS], bk[ROUNDS];
			double sc[3][ROUNDS];
			char more[192] = "";

			for (int r = 0; r < ROUNDS; r++) {
				im[r] = v[r].images;
				by[r] = v[r].bytes;
				cp[r] = v[r].stamped;
				tp[r] = v[r].templates;
				bk[r] = v[r].blocks;
				for (int p = 0; p < 3; p++)
					sc[p][r] = v[r].stamp_cycles[p];
			}
			/*
			 * the kernel's stamped line, when it has one: the copies
			 * and, within the link stage, their allocation with its
			 * announcement, build and write
			 */
			if (k >= STAMPED && k < KPROBE && v[0].has_stamped)
				snprintf(more, sizeof(more),
					 "; stamped copies %.0f, templates %.0f (copies: alloc %.4f s, build %.4f s, write %.4f s), blocks %.0f",
					 median(cp, ROUNDS), median(tp, ROUNDS),
					 median(sc[0], ROUNDS) / hz, median(sc[1], ROUNDS) / hz,
					 median(sc[2], ROUNDS) / hz, median(bk, ROUNDS));
			stages_text(v, ROUNDS, 0, hz, "s", buf[0], sizeof(buf[0]));
			stages_text(v, ROUNDS, 1, hz, "s", buf[1], sizeof(buf[1]));
			say("shared: stages %d functions %s: attach %.4f s (%s); detach %.4f s (%s); images %.0f (%.0f bytes)%s",
			    res[i].n, kind_name[k], med_field(v, ROUNDS, offsetof(struct sample, attach)) / hz,
			    buf[0], med_field(v, ROUNDS, offsetof(struct sample, detach)) / hz, buf[1],
			    median(im, ROUNDS), median(by, ROUNDS), more);
		}
	(void)c;
}

/*
 * The images and run-time lines of bench/tramp; its attach and detach
 * lines are the host's (tests/boot-share.sh), from the round lines of this
 * boot and of the kprobe_multi boots
 */
/*
 * A call's cost without the bare loop, in TSC: [0] per function, [1]
 * shared; each [0] without cookies, [1] with them
 */
struct rt_calls {
	double entry[2][2], exit[2][2];
};

static void summary(struct size_result *res, int nres, const double *rt,
		    const struct rt_calls *rc, double hz)
{
	struct size_result *all = &res[nres ? nres - 1 : 0];
	double im[KPROBE][ROUNDS], by[KPROBE][ROUNDS];
	char st[2][64] = { "", "" };

	for (int k = 0; k < KPROBE; k++)
		for (int r = 0; r < ROUNDS; r++) {
			im[k][r] = all->s[k][r].images;
			by[k][r] = all->s[k][r].bytes;
		}
	if (have(STAMPED)) {
		snprintf(st[0], sizeof(st[0]), ", stamped %.0f (%.0f bytes)",
			 median(im[STAMPED], ROUNDS), median(by[STAMPED], ROUNDS));
		snprintf(st[1], sizeof(st[1]), ", stamped %.1f ns", rt[STAMPED] * 1e9 / hz);
	}
	if (nres)
		say("shared: images: on %.0f (%.0f bytes), off %.0f (%.0f bytes)%s",
		    median(im[ON], ROUNDS), median(by[ON], ROUNDS), median(im[OFF], ROUNDS),
		    median(by[OFF], ROUNDS), st[0]);
	say("shared: run-time a call: per-function %.1f ns, per-function without cookies %.1f ns, shared %.1f ns, shared without cookies %.1f ns%s, kprobe_multi %.1f ns; shared/per-function %.3f",
	    rt[OFF] * 1e9 / hz, rc->entry[0][0] * 1e9 / hz, rt[ON] * 1e9 / hz,
	    rc->entry[1][0] * 1e9 / hz, st[1], rt[KPROBE] * 1e9 / hz, rt[ON] / rt[OFF]);
	say("shared: run-time a call, fexit: per-function %.1f ns, per-function without cookies %.1f ns, shared %.1f ns, shared without cookies %.1f ns; shared/per-function %.3f",
	    rc->exit[0][1] * 1e9 / hz, rc->exit[0][0] * 1e9 / hz, rc->exit[1][1] * 1e9 / hz,
	    rc->exit[1][0] * 1e9 / hz, rc->exit[1][1] / rc->exit[0][1]);
}

/*
 * The table on against the table off (issue 50), sharing on, in this boot:
 * for each size, ROUNDS rounds of three kinds, the order rotated each
 * round:
 *   off     btf_tramp=N: the kernel walks BTF for each function's model,
 *           as without a table (every attach alike)
 *   first   btf_tramp=Y after btf_tramp_forget (kernel/7.3-test 2/4): the
 *           kernel confirms each function's class before it uses it, as
 *           the first attach after boot does (the cold one a user's first
 *           command pays)
 *   second  btf_tramp=Y, the functions confirmed by an attach before it
 * and the boot check's own line (its time and the table's bytes), which
 * the host turns into the "table:" lines (bench/tramp).
 */
enum { T_OFF, T_FIRST, T_SECOND, T_KINDS };
static const char *const tkind_name[T_KINDS] = { "off", "first", "second" };
#define FORGET_PARAM	"/sys/module/kernel/parameters/btf_tramp_forget"

/* The table's switches for @kind; -errno when the kernel has none */
static int table_set(int kind)
{
	int err = share_write_param(BTF_TRAMP_PARAM, kind == T_OFF ? "N" : "Y");

	if (!err && kind == T_FIRST)
		err = share_write_param(FORGET_PARAM, "1");
	return err;
}

/*
 * The kernel's "btf_tramp: table valid: ..." line (the boot check's
 * counts, bytes and time) from its log, printed as "share: table: boot:
 * <line>"; the host reads its bytes and time (under icount, an instruction
 * a ns). The console's loglevel hides it, the buffer keeps it.
 */
static void table_boot_line(void)
{
	char *buf = share_klog_read(), *p, *e;

	if (!buf)
		return;
	p = strstr(buf, "btf_tramp: table valid: ");
	if (p) {
		e = strchr(p, '\n');
		if (e)
			*e = 0;
		say("share: table: boot: %s", p);
	} else {
		say("share: table: boot: no \"table valid\" line in the kernel's log");
	}
	free(buf);
}

/* one table round of @kind over @res->n functions into @v[@kind][@r] */
static int table_one(struct share_ctx *c, int kind, struct size_result *res,
		     struct sample (*v)[ROUNDS], int r, double m0)
{
	struct sample *s = &v[kind][r];
	int err = table_set(kind);
	char mark[16];

	if (err) {
		say("shared: table bench FAILED (btf_tramp for %s: %s)", tkind_name[kind],
		    strerror(-err));
		return err;
	}
	snprintf(mark, sizeof(mark), "table-%s", tkind_name[kind]);
	err = one(c, ON, res->n, s, mark);
	say("share: table %s %d functions, round %d: attach %.3f, detach %.3f Mcycles (%.0f s)",
	    tkind_name[kind], res->n, r, s->attach / 1e6, s->detach / 1e6, now() - m0);
	return err;
}

/* The table's rounds over each size of @res; 0 or the first error */
static int table_bench(struct share_ctx *c, struct size_result *res, int nres, double m0)
{
	struct sample (*v)[T_KINDS][ROUNDS] = calloc(nres, sizeof(*v));
	char buf[2][512];
	int err = 0;

	if (!v)
		return -ENOMEM;
	table_boot_line();
	if (access(FORGET_PARAM, F_OK)) {
		say("shared: table bench left out (no btf_tramp_forget: a kernel without kernel/7.3-test 2/4)");
		free(v);
		return -ENOENT;
	}
	for (int i = 0; i < nres && !err; i++) {
		for (int r = 0; r < ROUNDS && !err; r++)
			for (int j = 0; j < T_KINDS && !err; j++)
				err = table_one(c, (j + r) % T_KINDS, &res[i], v[i], r, m0);
		say("share: table %d functions: %d rounds done, %.0f s", res[i].n, ROUNDS,
		    now() - m0);
	}
	/* the rest of the bench with the table, as the kernel boots */
	if (share_write_param(BTF_TRAMP_PARAM, "Y") && !err)
		err = -EIO;
	for (int i = 0; i < nres && !err; i++)
		for (int k = 0; k < T_KINDS; k++) {
			double im[ROUNDS];

			for (int r = 0; r < ROUNDS; r++)
				im[r] = v[i][k][r].images;
			stages_text(v[i][k], ROUNDS, 0, 1e6, "M", buf[0], sizeof(buf[0]));
			stages_text(v[i][k], ROUNDS, 1, 1e6, "M", buf[1], sizeof(buf[1]));
			say("share: table stages %d functions %s: attach (%s); detach (%s) (M: Mcycles); images %.0f",
			    res[i].n, tkind_name[k], buf[0], buf[1], median(im, ROUNDS));
		}
	if (!err)
		say("shared: table done");
	free(v);
	return err;
}

/*
 * ROUNDS rounds of each of kinds[] over each of @res's sizes, the kinds'
 * order rotated each round; after each size, for fentry's rounds, the line
 * tests/boot-share.sh starts that size's kprobe_multi boot by. 0 or -errno
 */
static int run_rounds(struct share_ctx *c, struct size_result *res, int nres, double m0)
{
	int err = 0;

	for (int i = 0; i < nres && !err; i++) {
		for (int r = 0; r < ROUNDS && !err; r++)
			for (int j = 0; j < nkinds && !err; j++)
				err = run_one(c, kinds[(j + r) % nkinds], &res[i], r, m0);
		if (!fexit_sizes)
			say("share: bench %d functions: %d rounds done, %.0f s", res[i].n, ROUNDS,
			    now() - m0);
	}
	return err;
}

/*
 * fexit.multi over @res's sizes, sharing off and on, ROUNDS rounds in
 * turn; one line a size: "shared: fexit: N functions: attach off A, on B
 * Mcycles (on/off R); detach off C, on D Mcycles (on/off R); images off
 * I, on J" (medians; under icount a Mcycle is a million instructions)
 */
static void fexit_bench(struct share_ctx *c, struct size_result *res, int nres, double m0,
			uint64_t s0)
{
	const size_t at = offsetof(struct sample, attach), dt = offsetof(struct sample, detach);
	int err = 0;

	nkinds = 0;
	kinds[nkinds++] = OFF;
	kinds[nkinds++] = ON;
	err = run_rounds(c, res, nres, m0);
	if (err) {
		say("shared: bench FAILED (fexit: %s)", strerror(-err));
		return;
	}
	say("shared: bench %d rounds, TSC %.1f MHz, %.0f s", ROUNDS,
	    (__rdtsc() - s0) / (now() - m0) / 1e6, now() - m0);
	for (int i = 0; i < nres; i++) {
		double a0 = med_field(res[i].s[OFF], ROUNDS, at) / 1e6;
		double a1 = med_field(res[i].s[ON], ROUNDS, at) / 1e6;
		double d0 = med_field(res[i].s[OFF], ROUNDS, dt) / 1e6;
		double d1 = med_field(res[i].s[ON], ROUNDS, dt) / 1e6;

		say("shared: fexit: %d functions: attach off %.1f, on %.1f Mcycles (on/off %.3f); detach off %.1f, on %.1f Mcycles (on/off %.3f); images off %ld, on %ld",
		    res[i].n, a0, a1, a1 / a0, d0, d1, d1 / d0, res[i].s[OFF][0].images,
		    res[i].s[ON][0].images);
	}
	say("shared: fexit sizes done");
}

void share_bench(struct share_ctx *c, int kprobe_n)
{
	struct size_result *res = calloc(NSIZES, sizeof(*res));
	double m0 = now(), base, rt[NKINDS] = { 0 }, runs, hz;
	struct rt_calls rc = { 0 };
	uint64_t s0 = __rdtsc();
	int nres, err = 0;

	if (!res)
		return;
	sizes(c, res, &nres);
	/*
	 * kprobe_multi: a boot of its own a size N, its attaches and detaches
	 * the boot's last acts: after a kprobe_multi detach over 1,000 or more
	 * functions the 7.3-rc7 kernel called NULL from the next traced call
	 * on, until kernel/7.3-fixes 1/10 fixed its x86 ftrace (docs/kernel.md,
	 * Found and fixed); the figures stay comparable with the earlier ones.
	 * ROUNDS rounds now that the fix is in the tree (one round moved by
	 * 1.7% between two icount boots)
	 */
	if (kprobe_n > 0) {
		struct size_result one = { .n = kprobe_n > c->n ? c->n : kprobe_n };

		for (int r = 0; r < ROUNDS && !err; r++)
			err = run_one(c, KPROBE, &one, r, m0);
		say("shared: bench kprobe_multi %d functions %s", one.n, err ? "FAILED" : "done");
		free(res);
		return;
	}
	/*
	 * the table first: the rest runs with it on, as the kernel boots;
	 * alone (@kprobe_n -1), each size also says its rounds are done, for
	 * the host's kprobe_multi boots of that size
	 */
	if (kprobe_n == -2) {
		/* the run-time costs alone (@kprobe_n -2): no sizes, no table */
		nres = 0;
		goto run_time;
	}
	if (kprobe_n == -3) {
		/* fexit's sizes alone (@kprobe_n -3) */
		fexit_sizes = true;
		sizes(c, res, &nres);
		fexit_bench(c, res, nres, m0, s0);
		free(res);
		return;
	}
	err = table_bench(c, res, nres, m0);
	/* a kernel without btf_tramp_forget: the rest of the bench still runs */
	if (err == -ENOENT && !kprobe_n)
		err = 0;
	if (kprobe_n < 0 || err) {
		for (int i = 0; i < nres && !err; i++)
			say("share: bench %d functions: table rounds done", res[i].n);
		hz = (__rdtsc() - s0) / (now() - m0);
		say("shared: bench %d rounds, TSC %.1f MHz, %.0f s", ROUNDS, hz / 1e6, now() - m0);
		free(res);
		return;
	}
	/* stamped images: a kernel without them refuses bpf_tramp_share=2 (3, 4) */
	nkinds = 0;
	kinds[nkinds++] = OFF;
	kinds[nkinds++] = ON;
	for (int k = STAMPED; k < KPROBE; k++) {
		if (!share_set(kind_mode[k]))
			kinds[nkinds++] = k;
		else
			say("shared: bench: the kernel refuses bpf_tramp_share=%d: %s left out",
			    kind_mode[k], kind_name[k]);
	}
	err = run_rounds(c, res, nres, m0);
	if (err) {
		say("shared: bench FAILED (%s)", strerror(-err));
		free(res);
		return;
	}
run_time:
	if (!nres) {
		nkinds = 0;
		kinds[nkinds++] = OFF;
		kinds[nkinds++] = ON;
	}
	share_settle(&(struct share_counts){ 0 }, &(struct share_counts){ 0 }, 90);
	base = loop();
	say("shared: run-time nothing attached: %.0f TSC a getpgid(0)", base);
	/* kprobe_multi last: over a few functions, but after it nothing */
	/* the blocks' copies run the same code as STAMPED's */
	for (int j = 0; j < nkinds; j++)
		if (kinds[j] <= STAMPED)
			rt[kinds[j]] = runtime(c, kinds[j], true, false, &runs, &base);
	/* fentry without cookies, fexit both ways: per function and shared */
	for (int sh = 0; sh < 2; sh++) {
		rc.entry[sh][1] = rt[sh ? ON : OFF];
		rc.entry[sh][0] = runtime(c, sh ? ON : OFF, false, false, &runs, &base);
		for (int ck = 0; ck < 2; ck++)
			rc.exit[sh][ck] = runtime(c, sh ? ON : OFF, ck, true, &runs, &base);
	}
	rt[KPROBE] = runtime(c, KPROBE, true, false, &runs, &base);
	/* each less the fastest bare loop: the call's own cost */
	for (int k = 0; k < NKINDS; k++)
		rt[k] -= base;
	for (int sh = 0; sh < 2; sh++)
		for (int ck = 0; ck < 2; ck++) {
			rc.entry[sh][ck] -= base;
			rc.exit[sh][ck] -= base;
		}
	hz = (__rdtsc() - s0) / (now() - m0);
	say("shared: bench %d rounds, TSC %.1f MHz, %.0f s; nothing attached %.0f TSC (the fastest)",
	    ROUNDS, hz / 1e6, now() - m0, base);
	report_sizes(c, res, nres, hz);
	summary(res, nres, rt, &rc, hz);
	free(res);
}
