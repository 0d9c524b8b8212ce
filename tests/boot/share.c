// SPDX-License-Identifier: GPL-2.0
/*
 * share.c - shared trampoline images of the patched 7.3 kernel
 * (kernel/bpf/trampoline.c, bpf_tramp_share): the functions to attach, the
 * kernel's switch and counts, links; then the proof (share_proof.c) or,
 * with /share-bench in the initramfs, the bench (share_bench.c); with
 * /share-stress, the stress (share_stress.c); with /share-trust, a wrong
 * trampoline table's test (share_trust.c, tests/boot-trust.sh).
 *
 * Input /funcs.txt (tests/boot-share.sh, from btfids models --all on the
 * host): "id name slots ret_size arg_sizes model fexit" a line, every FUNC
 * btfids models as attachable whose name is unique in the symbol table
 * (fexit 0: not for the fexit.multi link, tests/boot/share-deny.txt).
 * The guest keeps those ftrace lists (available_filter_functions) that one
 * fentry.multi link takes, and of them those one fexit.multi link takes.
 * It finds them twice, timed in the same boot (issue 28): by trial (tracefs's
 * list, then halving what a link refuses: search_chunks()), and by the
 * attach verdicts of the table the kernel exports (table_takes()); the two
 * must agree.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/klog.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include <elf.h>
#include <x86intrin.h>
#include <zlib.h>

#include "boot.h"
#include "btfids/tramp.h"	/* the exported table's format and checks */
#include "share.h"
#include "share.bpf.h"

/* share_wait(): after this long, name what is left and run on every CPU */
#define WAIT_VISIT_SECS	30.0
#define SHARE_PARAM	"/sys/module/kernel/parameters/bpf_tramp_share"
#define STATS		"/sys/kernel/debug/bpf_tramp_stats"
#define CHUNK		512	/* the attach search tries this many at once */

int share_write_param(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY), err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) != (ssize_t)strlen(val))
		err = -errno;
	close(fd);
	return err;
}

char *share_klog_read(void)
{
	int size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0), n;
	char *buf;

	if (size <= 0 || !(buf = malloc(size + 1)))
		return NULL;
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, size);
	buf[n > 0 ? n : 0] = 0;
	return buf;
}

int share_set(int mode)
{
	char want[4], got[16] = "";
	int err, fd, n;

	snprintf(want, sizeof(want), "%d", mode);
	err = share_write_param(SHARE_PARAM, want);
	fd = open(SHARE_PARAM, O_RDONLY);
	n = fd < 0 ? 0 : read(fd, got, sizeof(got) - 1);
	if (fd >= 0)
		close(fd);
	got[n > 0 ? n - (got[n - 1] == '\n') : 0] = 0;
	if (err || strcmp(got, want)) {
		say("share: set %s: %s (reads %s)", want, strerror(-err), got);
		return -1;
	}
	return 0;
}

/* "stages multi_attach 17297: check C get C ..." into @st */
static void parse_stages(char *line, struct share_stats *s)
{
	static const char *const kinds[SHARE_KINDS] = {
		"multi_attach", "multi_detach",
	};
	char kind[32], *p;
	int k, used;

	if (sscanf(line, "stages %31s %n", kind, &used) != 1)
		return;
	kind[strcspn(kind, ":")] = 0;
	for (k = 0; k < SHARE_KINDS && strcmp(kind, kinds[k]); k++)
		;
	if (k == SHARE_KINDS)
		return;
	p = line + used;
	s->st[k].cnt = atoi(p);
	p = strchr(p, ':');
	if (!p)
		return;
	p++;
	for (s->st[k].n = 0; s->st[k].n < SHARE_STAGES; s->st[k].n++) {
		unsigned long long c;
		int i = s->st[k].n;

		if (sscanf(p, " %15s %llu%n", s->st[k].name[i], &c, &used) != 2)
			break;
		s->st[k].cycles[i] = c;
		p += used;
	}
}

int share_stats(struct share_stats *s)
{
	FILE *f = fopen(STATS, "r");
	char line[512];

	memset(s, 0, sizeof(*s));
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		sscanf(line, "images %ld bytes %ld", &s->images, &s->bytes);
		sscanf(line, "shared %ld bytes %ld", &s->shared, &s->shared_bytes);
		sscanf(line, "stubs %ld blocks %ld bytes %ld", &s->stubs, &s->stub_blocks,
		       &s->stub_bytes);
		if (sscanf(line, "stamped %ld templates %ld alloc %lld build %lld write %lld blocks %ld",
			   &s->stamped, &s->templates, &s->stamp_cycles[0], &s->stamp_cycles[1],
			   &s->stamp_cycles[2], &s->stamp_blocks) >= 2)
			s->has_stamped = true;
		parse_stages(line, s);
	}
	fclose(f);
	return 0;
}

/*
 * /sys/kernel/tracing/enabled_functions: a line per function, and under
 * each with a direct call a "\tdirect-->SYMBOL+OFF" line (ftrace.c
 * t_show()): the functions, and of them those that call a shared image
 * (share_shared_name()).
 */
static void count_direct(int *funcs, int *shared)
{
	FILE *f = fopen("/sys/kernel/tracing/enabled_functions", "r");
	char line[512], *p;

	*funcs = *shared = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] != '\t')
			(*funcs)++;
		else if ((p = strstr(line, "-->")) && share_shared_name(p + 3))
			(*shared)++;
	}
	fclose(f);
}

static long meminfo(const char *key)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[128];
	long v = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)) && line[strlen(key)] == ':')
			v = atol(line + strlen(key) + 1);
	fclose(f);
	return v;
}

/* The threads in the system: the 4th field of /proc/loadavg, "running/all" */
static long threads(void)
{
	FILE *f = fopen("/proc/loadavg", "r");
	long run, all = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%*s %*s %*s %ld/%ld", &run, &all) != 2)
		all = -1;
	fclose(f);
	return all;
}

/*
 * A kthread's slab, bounded: its task_struct with the FPU state that
 * follows it (arch_task_struct_size, x86: 2,624 bytes + the xstate size;
 * order-3 slabs), struct kthread, struct worker, struct pid. Seen: 8.5 kB a
 * kworker on the SMP tree.
 */
#define SHARE_THREAD_SLAB_KB	12

long share_mem_lost_kb(const struct share_counts *base, const struct share_counts *end)
{
	long started = end->threads - base->threads;

	if (started < 0 || base->threads < 0 || end->threads < 0)
		started = 0;
	return base->memfree_kb + base->pcp_kb - end->memfree_kb - end->pcp_kb -
	       (end->stack_kb - base->stack_kb) - started * SHARE_THREAD_SLAB_KB;
}

/*
 * The free pages on the per-CPU lists, in kB: the sum of /proc/zoneinfo's
 * "count:" lines (pages, under each zone's "pagesets"; mm/vmstat.c
 * zoneinfo_show_print()). MemFree does not count them, and since 6.7 the
 * lists grow under load and shrink back only over seconds
 * (mm/page_alloc.c: the PCP high auto-tuning, decay_pcp_high()). -1: no
 * zoneinfo.
 */
static long pcp_kb(void)
{
	FILE *f = fopen("/proc/zoneinfo", "r");
	long pages = 0, n;
	char line[128];

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, " count: %ld", &n) == 1)
			pages += n;
	fclose(f);
	return pages * (sysconf(_SC_PAGESIZE) / 1024);
}

/* share_mem_settle(): above the bound, free memory is read again this long */
#define MEM_SETTLE_SECS	20.0

long share_mem_settle(const struct share_counts *base, struct share_counts *end, long bound_kb)
{
	long lost = share_mem_lost_kb(base, end), now_lost;
	double t0 = now(), secs = MEM_SETTLE_SECS * boot_scale();
	struct share_counts c;

	while (lost > bound_kb && now() - t0 < secs) {
		usleep(1000 * 1000);
		share_counts(&c);
		now_lost = share_mem_lost_kb(base, &c);
		if (now_lost < lost) {
			lost = now_lost;
			*end = c;
		}
	}
	return lost;
}

/*
 * A shared image's symbol: "bpf_trampoline_" and then not the digits of a
 * per-function trampoline's key (bpf_trampoline_<key>): the kernel names
 * a group's image bpf_trampoline_shared_<hash>, or
 * bpf_trampoline_class<C>_<hash> when a trampoline table gives its class.
 */
bool share_shared_name(const char *name)
{
	static const char pfx[] = "bpf_trampoline_";

	return !strncmp(name, pfx, sizeof(pfx) - 1) && name[sizeof(pfx) - 1] &&
	       (name[sizeof(pfx) - 1] < '0' || name[sizeof(pfx) - 1] > '9');
}

/*
 * The images' symbols: "addr t bpf_trampoline_... [bpf]"; their count,
 * the shared ones', and the first names into @list (NULL: not asked).
 */
static void ksyms(int *all, int *shared, char *list, size_t size)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512], name[256], mod[16];

	*all = *shared = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (!strstr(line, "bpf_trampoline_") ||
		    sscanf(line, "%*s %*s %255s %15s", name, mod) != 2 || strcmp(mod, "[bpf]"))
			continue;
		if ((*all)++ < 4 && list)
			append(list, size, "%s", name);
		*shared += share_shared_name(name);
	}
	fclose(f);
}

void share_ksyms_list(char *buf, size_t size)
{
	int all, shared;

	ksyms(&all, &shared, buf, size);
}

void share_counts(struct share_counts *c)
{
	share_stats(&c->s);
	ksyms(&c->ksyms, &c->ksyms_shared, NULL, 0);
	count_direct(&c->direct, &c->direct_shared);
	c->memfree_kb = meminfo("MemFree");
	c->pcp_kb = pcp_kb();
	c->stack_kb = meminfo("KernelStack");
	c->threads = threads();
	c->slab_kb = meminfo("Slab");
	c->percpu_kb = meminfo("Percpu");
	c->vmalloc_kb = meminfo("VmallocUsed");
}

static bool same_counts(const struct share_counts *a, const void *arg)
{
	const struct share_counts *b = arg;

	return a->s.images == b->s.images && a->s.bytes == b->s.bytes &&
	       a->s.shared == b->s.shared && a->ksyms == b->ksyms && a->direct == b->direct;
}

/* The first line of @path, without its newline, into @buf ("?": none) */
static void comm_of(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");

	if (!f || !fgets(buf, size, f))
		snprintf(buf, size, "?");
	buf[strcspn(buf, "\n")] = 0;
	if (f)
		fclose(f);
}

/* The tasks of @pid (its /proc/PID/task) in an image, appended to @buf */
static void holders_of(const char *pid, char *buf, size_t size)
{
	char path[300], line[256], prev[256], comm[64];
	struct dirent *e;
	DIR *d;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/task", pid);
	d = opendir(path);
	if (!d)
		return;
	while ((e = readdir(d))) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/task/%s/stack", pid, e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		prev[0] = 0;
		/* "[<0>] name+0x1d/0x40" a frame, innermost first */
		while (fgets(line, sizeof(line), f)) {
			char *fn = strchr(line, ']');

			fn = fn ? fn + 2 : line;
			fn[strcspn(fn, "+\n")] = 0;
			if (!strncmp(fn, "bpf_trampoline_", 15)) {
				snprintf(path, sizeof(path), "/proc/%s/task/%s/comm", pid, e->d_name);
				comm_of(path, comm, sizeof(comm));
				append(buf, size, "%s[%s] %s<%s", comm, e->d_name, prev, fn);
				break;
			}
			snprintf(prev, sizeof(prev), "%s", fn);
		}
		fclose(f);
	}
	closedir(d);
}

/*
 * The tasks inside an image: each whose kernel stack (/proc/PID/task/TID/
 * stack, the ORC unwinder's frame-pointer fallback through BPF code) has
 * a bpf_trampoline_* frame, as "comm[tid] function<image", appended to
 * @buf. An image that calls the original is freed only after every task
 * that entered it has left (its percpu_ref): these hold it. The idle
 * tasks are not in /proc.
 */
void share_holders(char *buf, size_t size)
{
	DIR *d = opendir("/proc");
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)))
		if (e->d_name[0] >= '1' && e->d_name[0] <= '9')
			holders_of(e->d_name, buf, size);
	closedir(d);
}

/*
 * Run this task on each CPU it may run on, once. A CPU idle since an fexit
 * link was attached can have its idle task inside a traced function of the
 * idle loop (do_idle() returns only when the CPU has a task to run),
 * holding that image; a tiny guest's other CPU may stay idle for minutes.
 * The CPUs it could not run on: their count.
 */
static int visit_cpus(void)
{
	cpu_set_t old, one;
	int missed = 0;

	if (sched_getaffinity(0, sizeof(old), &old))
		return -1;
	for (int i = 0; i < CPU_SETSIZE; i++) {
		if (!CPU_ISSET(i, &old))
			continue;
		CPU_ZERO(&one);
		CPU_SET(i, &one);
		if (sched_setaffinity(0, sizeof(one), &one))
			missed++;
		else
			sched_yield();
	}
	sched_setaffinity(0, sizeof(old), &old);
	return missed;
}

/* What is left (the first images) and who is in it, said with @what */
static void say_left(const char *what, double secs)
{
	char left[512] = "";
	size_t len;

	share_ksyms_list(left, sizeof(left));
	append(left, sizeof(left), "in them:");
	len = strlen(left);
	share_holders(left, sizeof(left));
	if (strlen(left) == len)
		append(left, sizeof(left), "none of /proc's tasks (an idle task, or one that exited inside)");
	say("share: %s after %.0f s: %s", what, secs, left);
}

int share_wait(struct share_counts *got, double secs,
	       bool (*done)(const struct share_counts *got, const void *arg), const void *arg,
	       bool visit)
{
	double t0 = now(), told = 0;
	int missed = 0;

	secs *= boot_scale();
	for (;;) {
		share_counts(got);
		if (done(got, arg)) {
			if (told)
				say("share: the images left went %.1f s after this task first ran on every CPU%s",
				    now() - told, missed ? " (some it could not run on)" : "");
			return 0;
		}
		if (now() - t0 > secs) {
			say_left("still left", now() - t0);
			return -1;
		}
		if (visit && !told && now() - t0 > WAIT_VISIT_SECS) {
			say_left("left", now() - t0);
			told = now();
		}
		if (told)
			missed |= visit_cpus();
		usleep(500 * 1000);
	}
}

int share_settle(const struct share_counts *want, struct share_counts *got, double secs)
{
	return share_wait(got, secs, same_counts, want, true);
}

int share_link_flags(struct bpf_program *prog, const uint32_t *ids, const uint64_t *cookies,
		     int cnt, uint32_t flags)
{
	union bpf_attr a;
	long fd;

	/* by hand: the guest's libbpf 1.8 passes no tracing_multi.flags */
	memset(&a, 0, sizeof(a));
	a.link_create.prog_fd = bpf_program__fd(prog);
	a.link_create.attach_type = bpf_program__expected_attach_type(prog);
	a.link_create.tracing_multi.ids = (uintptr_t)ids;
	a.link_create.tracing_multi.cookies = (uintptr_t)cookies;
	a.link_create.tracing_multi.cnt = cnt;
	a.link_create.tracing_multi.flags = flags;
	fd = syscall(__NR_bpf, BPF_LINK_CREATE, &a, sizeof(a));
	return fd < 0 ? -errno : (int)fd;
}

int share_link(struct bpf_program *prog, const uint32_t *ids, const uint64_t *cookies, int cnt)
{
	return share_link_flags(prog, ids, cookies, cnt, BPF_F_TRACING_MULTI_SHARE);
}

int share_link_kprobe(struct bpf_program *prog, const char **syms, const uint64_t *cookies,
		      int cnt)
{
	LIBBPF_OPTS(bpf_link_create_opts, o, .kprobe_multi = {
		.syms = syms, .cookies = (const __u64 *)cookies, .cnt = cnt });
	int fd = bpf_link_create(bpf_program__fd(prog), 0, BPF_TRACE_KPROBE_MULTI, &o);

	return fd < 0 ? -errno : fd;
}

uint64_t share_counter(struct share_ctx *c, uint32_t k)
{
	struct bpf_map *m = bpf_object__find_map_by_name(c->obj, "counters");
	uint64_t v = 0;

	bpf_map__lookup_elem(m, &k, sizeof(k), &v, sizeof(v), 0);
	return v;
}

void share_counter_set(struct share_ctx *c, uint32_t k, uint64_t v)
{
	struct bpf_map *m = bpf_object__find_map_by_name(c->obj, "counters");

	bpf_map__update_elem(m, &k, sizeof(k), &v, sizeof(v), 0);
}

/*
 * A KASAN kernel: its quarantine keeps freed objects (up to 1/32 of
 * memory) before giving them back, so free memory says nothing of a leak
 * there (mm/kasan/quarantine.c; its symbol in /proc/kallsyms).
 */
bool share_kasan(void)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[256];
	bool found = false;

	while (f && !found && fgets(line, sizeof(line), f))
		found = strstr(line, " kasan_quarantine_put\n") != NULL;
	if (f)
		fclose(f);
	return found;
}

/* A distinct cookie for each function, from its BTF id. */
uint64_t share_cookie(uint32_t id)
{
	return 0xc0c0000000000000ULL | (uint64_t)id << 8 | ((id & 0xff) ^ 0x5a);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct share_func *)a)->name, ((const struct share_func *)b)->name);
}

struct share_func *share_find(struct share_ctx *c, const char *name)
{
	for (int i = 0; i < c->n; i++)
		if (!strcmp(c->f[i].name, name))
			return &c->f[i];
	return NULL;
}

static int read_funcs(const char *path, struct share_func **out)
{
	struct share_func *v = NULL, *x, *e;
	char line[512], sizes[64];
	int n = 0, cap = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		x = boot_grow(v, &cap, n, sizeof(*v));
		if (!x)
			break;
		v = x;
		e = &v[n];
		memset(e, 0, sizeof(*e));
		if (sscanf(line, "%u %127s %d %d %63s %95s %d", &e->id, e->name, &e->slots,
			   &e->ret_size, sizes, e->model, &e->fexit) != 7)
			continue;
		sscanf(sizes, "%d,%d,%d,%d,%d,%d", &e->size[0], &e->size[1], &e->size[2],
		       &e->size[3], &e->size[4], &e->size[5]);
		n++;
	}
	fclose(f);
	*out = v;
	return n;
}

/*
 * Keep the functions of @v (sorted by name) that available_filter_functions
 * lists and /proc/kallsyms gives an address, in ftrace's order; the count.
 */
static int ftrace_sites(struct share_func *v, int n)
{
	FILE *f = fopen("/sys/kernel/tracing/available_filter_functions", "r");
	struct share_func key, *hit, *out;
	char line[512], name[256];
	unsigned long long addr;
	int cnt = 0;

	out = calloc(n, sizeof(*out));
	if (!f || !out)
		goto out;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, " \n")] = 0;
		if (strlen(line) >= sizeof(key.name))
			continue;
		strcpy(key.name, line);
		hit = bsearch(&key, v, n, sizeof(*v), cmp_name);
		if (hit && hit->id) {
			out[cnt++] = *hit;
			hit->id = 0;	/* listed twice: once */
		}
	}
	fclose(f);
	f = fopen("/proc/kallsyms", "r");
	qsort(out, cnt, sizeof(*out), cmp_name);
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %*s %255s", &addr, name) != 2 || strlen(name) >= sizeof(key.name))
			continue;
		strcpy(key.name, name);
		hit = bsearch(&key, out, cnt, sizeof(*out), cmp_name);
		if (hit)
			hit->addr = addr;
	}
	memcpy(v, out, cnt * sizeof(*v));
out:
	if (f)
		fclose(f);
	free(out);
	return cnt;
}

static int link_calls;	/* BPF_LINK_CREATE calls of the search */

/* Whether one link of @prog takes all of @f[0..cnt) */
static bool takes(struct bpf_program *prog, const struct share_func *f, int cnt)
{
	uint32_t *ids = malloc(cnt * sizeof(*ids));
	int fd = -ENOMEM;

	link_calls++;
	for (int i = 0; ids && i < cnt; i++)
		ids[i] = f[i].id;
	if (ids)
		fd = share_link(prog, ids, NULL, cnt);
	free(ids);
	if (fd >= 0)
		close(fd);
	return fd >= 0;
}

/* Keep the functions of @f[0..cnt) one link of @prog takes: halve what fails. */
static int search(struct bpf_program *prog, struct share_func *f, int cnt)
{
	int a, b, half = cnt / 2;

	if (!cnt || takes(prog, f, cnt))
		return cnt;
	if (cnt == 1)
		return 0;
	a = search(prog, f, half);
	b = search(prog, f + half, cnt - half);
	memmove(f + a, f + half, b * sizeof(*f));
	return a + b;
}

static int search_chunks(struct bpf_program *prog, struct share_func *f, int cnt)
{
	int kept = 0, k;

	if (takes(prog, f, cnt))
		return cnt;
	for (int i = 0; i < cnt; i += CHUNK) {
		k = search(prog, f + i, cnt - i < CHUNK ? cnt - i : CHUNK);
		memmove(f + kept, f + i, k * sizeof(*f));
		kept += k;
	}
	return kept;
}

static struct bpf_program *prog(struct bpf_object *obj, const char *name)
{
	return bpf_object__find_program_by_name(obj, name);
}

/* The object, with the plain fentry program on @plain_target. */
static struct bpf_object *load(const char *plain_target)
{
	struct bpf_object *obj = bpf_object__open_file("/share.bpf.o", NULL);
	int err;

	if (!obj) {
		say("share FAILED (open /share.bpf.o: %s)", strerror(errno));
		return NULL;
	}
	bpf_program__set_attach_target(prog(obj, "plain"), 0, plain_target);
	err = bpf_object__load(obj);
	if (err) {
		say("share FAILED (load share.bpf.o: %s)", strerror(-err));
		bpf_object__close(obj);
		return NULL;
	}
	return obj;
}

/* ->fexit of @f[0..n): in @x[0..xn), what the fexit.multi link took (@f's order) */
static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The addresses of the functions on the error injection list, sorted, into
 * *@out (their count), or -1 when the list cannot be read. The list names
 * each function as %ps does, which for two names at one address (gcc's
 * folded __x64_sys_X and __do_sys_X) may be either: /proc/kallsyms gives
 * the address, which the kernel's check (within_error_injection_list())
 * goes by.
 */
static int ei_addrs(uint64_t **out)
{
	FILE *fp = fopen("/sys/kernel/debug/error_injection/list", "r");
	char line[512], sym[256], **names = NULL, **a, *key = sym;
	int cnt = 0, cap = 0, n = 0, ncap = 0;
	unsigned long long addr;
	uint64_t *addrs = NULL, *b;

	if (!fp)
		return -1;
	while (fgets(line, sizeof(line), fp)) {
		line[strcspn(line, "\t\n ")] = 0;
		if (cnt == cap) {
			cap = cap ? 2 * cap : 1024;
			a = realloc(names, cap * sizeof(*names));
			if (!a)
				break;
			names = a;
		}
		names[cnt] = strdup(line);
		if (names[cnt])
			cnt++;
	}
	fclose(fp);
	qsort(names, cnt, sizeof(*names), cmp_str);
	fp = fopen("/proc/kallsyms", "r");
	while (fp && fgets(line, sizeof(line), fp)) {
		if (sscanf(line, "%llx %*s %255s", &addr, sym) != 2 ||
		    !bsearch(&key, names, cnt, sizeof(*names), cmp_str))
			continue;
		if (n == ncap) {
			ncap = ncap ? 2 * ncap : 1024;
			b = realloc(addrs, ncap * sizeof(*addrs));
			if (!b)
				break;
			addrs = b;
		}
		addrs[n++] = addr;
	}
	if (fp)
		fclose(fp);
	for (int i = 0; i < cnt; i++)
		free(names[i]);
	free(names);
	if (addrs)
		qsort(addrs, n, sizeof(*addrs), cmp_u64);
	*out = addrs;
	return n;
}

/*
 * Mark @f[0..n) whose address is on the error injection list; the count
 * marked, or -1 when the list cannot be read
 */
static int mark_ei(struct share_func *f, int n)
{
	uint64_t *addrs = NULL;
	int cnt = ei_addrs(&addrs), marked = 0;

	if (cnt < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		f[i].ei = f[i].addr && cnt &&
			  !!bsearch(&f[i].addr, addrs, cnt, sizeof(*addrs), cmp_u64);
		marked += f[i].ei;
	}
	free(addrs);
	return marked;
}

bool share_ei(const char *name)
{
	struct share_func f = { .addr = share_kallsyms_addr(name) };

	return mark_ei(&f, 1) > 0;
}

static void mark_fexit(struct share_func *f, int n, const struct share_func *x, int xn)
{
	for (int i = 0, k = 0; i < n; i++) {
		f[i].fexit = k < xn && x[k].id == f[i].id;
		k += f[i].fexit;
	}
}

#define TABLE	"/sys/kernel/btf_tramp/vmlinux"

/* All of @path (a sysfs file: no size) into a malloc'd buffer, or NULL */
static unsigned char *slurp(const char *path, size_t *len)
{
	size_t cap = 1 << 20;
	unsigned char *buf = malloc(cap), *p;
	int fd = open(path, O_RDONLY);
	ssize_t n = -1;

	*len = 0;
	while (fd >= 0 && buf && (n = read(fd, buf + *len, cap - *len)) > 0) {
		*len += n;
		if (*len < cap)
			continue;
		p = realloc(buf, cap *= 2);
		if (!p)
			n = -1;
		if (!p)
			break;
		buf = p;
	}
	if (fd >= 0)
		close(fd);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* A "taken" function of the table, by name, for one_per_site() */
struct site_name {
	const char *name;
	uint64_t addr;		/* /proc/kallsyms, 0 when not there */
	uint32_t id;
	int listed;		/* available_filter_functions names the site so */
};

static int cmp_site_name(const void *a, const void *b)
{
	return strcmp(((const struct site_name *)a)->name, ((const struct site_name *)b)->name);
}

/* by address, the name ftrace lists the site by first, then by id */
static int cmp_site_addr(const void *a, const void *b)
{
	const struct site_name *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->listed != y->listed)
		return y->listed - x->listed;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* Mark the names of @s[0..k) (sorted by name) that @path lists: "ADDR T NAME" or "NAME" */
static void site_names_read(struct site_name *s, int k, const char *path, int kallsyms)
{
	FILE *fp = fopen(path, "r");
	char line[512], name[256];
	unsigned long long a = 0;
	struct site_name key = { .name = name }, *hit;

	while (fp && fgets(line, sizeof(line), fp)) {
		if (kallsyms ? sscanf(line, "%llx %*s %255s", &a, name) != 2 :
			       sscanf(line, "%255s", name) != 1)
			continue;
		hit = bsearch(&key, s, k, sizeof(*s), cmp_site_name);
		if (!hit)
			continue;
		if (!kallsyms)
			hit->listed = 1;
		else if (!hit->addr)
			hit->addr = a;	/* the first of a name, as the kernel takes it */
	}
	if (fp)
		fclose(fp);
}

/*
 * Of @ids[0..k) (the names of @f[0..n), sorted by name), one id a call
 * site: two BTF ids can name one function (names the compiler folded into
 * one, such as __x64_sys_munlockall and __do_sys_munlockall), each "taken"
 * alone, but a link that names one call site twice is refused, -EINVAL
 * (kernel/7.3-fixes 3/10). A tool keeps one of them; this one keeps the
 * name ftrace lists the site by, as the search does. The count kept.
 */
static int one_per_site(const struct share_func *f, int n, uint32_t *ids, int k)
{
	struct site_name *s = calloc(k ? k : 1, sizeof(*s));
	int i, j, m = 0;

	if (!s)
		return k;
	for (i = 0, j = 0; i < n && j < k; i++)
		if (f[i].id == ids[j]) {
			s[j].name = f[i].name;
			s[j].id = ids[j];
			j++;
		}
	k = j;
	qsort(s, k, sizeof(*s), cmp_site_name);
	site_names_read(s, k, "/proc/kallsyms", 1);
	site_names_read(s, k, "/sys/kernel/tracing/available_filter_functions", 0);
	qsort(s, k, sizeof(*s), cmp_site_addr);
	for (i = 0; i < k; i++)
		if (!i || !s[i].addr || s[i].addr != s[i - 1].addr)
			ids[m++] = s[i].id;
	free(s);
	return m;
}

/*
 * What a tool does with the exported verdicts: read the table, check it
 * against /sys/kernel/btf/vmlinux, keep the functions of @f[0..n) whose
 * @type verdict (enum btf_tramp_attach) is "taken", one a call site
 * (one_per_site()), one link of @prog over them; for fexit.multi only those
 * /funcs.txt marks for fexit (the deny list's sleepers: a kworker started,
 * or kthreadd asleep, while the link is on stays inside worker_thread() or
 * schedule() through its image, which outlives the link by minutes, and for
 * good once the kworker exits from kthread() or a task from do_task_dead(),
 * neither of which returns). Their count, the ids in *@ids, the link's
 * attach and detach in *@link_s (when not NULL); -1 when the table is not
 * there or not valid (*@ids NULL), -2 when the link is refused.
 */
static int table_takes(struct bpf_program *prog, const struct share_func *f, int n, int type,
		       uint32_t **ids, double *link_s)
{
	double t0;
	size_t len, blen;
	unsigned char *tab = slurp(TABLE, &len), *btf = slurp("/sys/kernel/btf/vmlinux", &blen);
	const struct btf_tramp2_hdr *h = (const void *)tab;
	const struct btf_tramp_verdict *v;
	int k = -1, fd = -1;

	if (link_s)
		*link_s = 0;
	*ids = calloc(n ? n : 1, sizeof(**ids));
	if (!tab || !btf || !*ids ||
	    btf_tramp2_check(tab, len, EM_X86_64, crc32(0, btf, blen), NULL) != BTF_TRAMP2_VALID ||
	    h->version != BTF_TRAMP3_VERSION)
		goto out;
	k = 0;
	for (int i = 0; i < n; i++) {
		if (type == BTF_TRAMP_FEXIT_MULTI && !f[i].fexit)
			continue;
		v = btf_tramp2_find_verdict(h, f[i].id);
		if (v && v->at[type].refusal == BTF_TRAMP_TAKEN)
			(*ids)[k++] = f[i].id;
	}
	k = one_per_site(f, n, *ids, k);
	t0 = now();
	fd = share_link(prog, *ids, NULL, k);
	if (fd >= 0)
		close(fd);
	if (link_s)
		*link_s = now() - t0;
	if (fd < 0)
		k = -2;
out:
	free(tab);
	free(btf);
	return k;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Of @ids[0..k) (sorted here) against the ids of @f[0..n): how many are
 * not in @f (*@more), how many of @f are not in @ids (*@less), the names
 * of up to 3 of the first kind into @ex (from @all[0..na), by id).
 */
static void compare_ids(uint32_t *ids, int k, const struct share_func *f, int n,
			const struct share_func *all, int na, int *more, int *less,
			char *ex, size_t len)
{
	uint32_t *b = calloc(n ? n : 1, sizeof(*b));
	int i = 0, j = 0;

	*more = *less = 0;
	*ex = 0;
	if (!b) {
		*more = *less = -1;
		return;
	}
	for (int x = 0; x < n; x++)
		b[x] = f[x].id;
	qsort(ids, k, sizeof(*ids), cmp_u32);
	qsort(b, n, sizeof(*b), cmp_u32);
	while (i < k || j < n) {
		if (j == n || (i < k && ids[i] < b[j])) {
			for (int a = 0; *more < 3 && a < na; a++)
				if (all[a].id == ids[i])
					snprintf(ex + strlen(ex), len - strlen(ex), "%s%s",
						 *ex ? ", " : "", all[a].name);
			++*more, i++;
		} else if (i == k || b[j] < ids[i]) {
			++*less, j++;
		} else {
			i++, j++;
		}
	}
	free(b);
}

/*
 * The same functions found with the exported verdicts, in this boot: one
 * read of the table, one link; against the search's time and link calls.
 * The search starts from tracefs's list of ftrace sites, by name: a
 * function it lists under another name is one the search cannot find.
 */
static void by_table(struct share_ctx *c, const struct share_func *all, int n, double search_s,
		     int calls)
{
	static const char *const what[] = { "", "no valid version 3 table in " TABLE,
					    "one link refused them" };
	uint32_t *ids = NULL, *xids = NULL;
	double t0 = now(), t, tl = 0;
	int k, xk, more = -1, less = -1;
	char ex[256] = "";

	k = table_takes(prog(c->obj, "count_entry"), all, n, BTF_TRAMP_FENTRY_MULTI, &ids, &tl);
	t = now() - t0;
	xk = table_takes(prog(c->obj, "count_exit"), all, n, BTF_TRAMP_FEXIT_MULTI, &xids, NULL);
	if (k >= 0)
		compare_ids(ids, k, c->f, c->n, all, n, &more, &less, ex, sizeof(ex));
	say("share: verdicts: fentry.multi: %d taken by the table, %s; the search kept %d: %d of them not in the table, %d more in it%s%s%s; "
	    "the table %.2f s (its link %.2f s), the search %.2f s and %d link calls",
	    k, k < 0 ? what[-k] : "one link took them", c->n, less, more,
	    *ex ? " (" : "", ex, *ex ? ")" : "", t, tl, search_s, calls);
	say("share: verdicts: fexit.multi: %d taken by the table, %s (the search, from the functions /funcs.txt marks for fexit, kept %d)",
	    xk, xk < 0 ? what[-xk] : "one link took them", c->xn);
	free(ids);
	free(xids);
}

static int prepare(struct share_ctx *c, const char *path)
{
	struct share_func *x, *all;
	double t0 = now(), ts, search_s;
	int n = read_funcs(path, &c->f), sites, calls;

	if (n <= 0) {
		say("share FAILED (no functions in %s)", path);
		return -1;
	}
	qsort(c->f, n, sizeof(*c->f), cmp_name);
	all = malloc(n * sizeof(*all));
	if (!all)
		return -1;
	memcpy(all, c->f, n * sizeof(*all));
	ts = now();
	sites = ftrace_sites(c->f, n);
	if (share_set(1))
		goto fail;
	link_calls = 0;
	c->n = search_chunks(prog(c->obj, "count_entry"), c->f, sites);
	search_s = now() - ts;	/* tracefs's list, kallsyms, the halving */
	calls = link_calls;
	if (c->n <= 0) {
		say("share FAILED (one fentry.multi link takes none of the %d ftrace sites)", sites);
		goto fail;
	}
	/* fexit.multi: a subset of those, in the same order */
	x = malloc(c->n * sizeof(*x));
	if (!x)
		goto fail;
	for (int i = 0; i < c->n; i++)
		if (c->f[i].fexit)
			x[c->xn++] = c->f[i];
	c->xn = search_chunks(prog(c->obj, "count_exit"), x, c->xn);
	c->ids = calloc(c->n, sizeof(*c->ids));
	c->cookies = calloc(c->n, sizeof(*c->cookies));
	c->syms = calloc(c->n, sizeof(*c->syms));
	c->xids = calloc(c->xn, sizeof(*c->xids));
	c->xcookies = calloc(c->xn, sizeof(*c->xcookies));
	if (!c->ids || !c->cookies || !c->syms || !c->xids || !c->xcookies) {
		free(x);
		goto fail;
	}
	mark_fexit(c->f, c->n, x, c->xn);
	if (mark_ei(c->f, c->n) < 0)
		say("share: no /sys/kernel/debug/error_injection/list: every function counted as shareable");
	for (int i = 0; i < c->n; i++) {
		c->ids[i] = c->f[i].id;
		c->cookies[i] = share_cookie(c->f[i].id);
		c->syms[i] = c->f[i].name;
	}
	for (int i = 0; i < c->xn; i++) {
		c->xids[i] = x[i].id;
		c->xcookies[i] = share_cookie(x[i].id);
	}
	free(x);
	say("share: %d functions of /funcs.txt, %d ftrace sites, %d taken by one fentry.multi link, %d by one fexit.multi link (%.1f s)",
	    n, sites, c->n, c->xn, now() - t0);
	by_table(c, all, n, search_s, calls);
	free(all);
	return 0;
fail:
	free(all);
	return -1;
}

/*
 * One attach and detach of both links over everything, the way the proofs
 * attach them: what the kernel allocates once and keeps (share_proof.c,
 * MEM_TOLERANCE_KB) is there before the proofs' memory baseline. With
 * @kprobe (the stress, share_stress.c), a kprobe_multi link over them too:
 * fprobe's tables of functions grow with the largest link and stay grown
 * (kernel/trace/fprobe.c; a CI run without it: MemFree 7.5 MB lower after
 * the stress's first mode, 6.1 MB higher after the second).
 */
/* The multi_attach "check" stage of the last attach, in ms; -1 if none */
static double check_ms(const struct share_ctx *c)
{
	struct share_stats s;

	if (share_stats(&s) || !c->hz)
		return -1;
	for (int i = 0; i < s.st[0].n; i++)
		if (!strcmp(s.st[0].name[i], "check"))
			return s.st[0].cycles[i] * 1e3 / c->hz;
	return -1;
}

/*
 * What the kernel's use of the trampoline table costs an attach
 * (btf_tramp_func_model()): once the search has confirmed each function
 * (the kernel's own btf_distill_func_proto() and each class against the
 * trampoline, once), the warm-up's link (@with, its check stage, ms) finds
 * them confirmed; a link with the table off (btf_tramp=0) walks BTF for
 * each as mainline does; one more link with the table after it, and the
 * table's side is the better of its two (a host's load spike doubled one:
 * 130.7 against 208.9 ms, where 65 against 182 is usual). One line:
 * "share: the table's check: N functions: check stage with the table
 * (confirmed) X ms, without Y ms".
 * The cost of confirming all of them once is the boot self-test's line.
 */

static void check_cost(struct share_ctx *c, double with)
{
	struct share_counts idle = { 0 }, got;
	double without, again;
	int l, err;

	err = share_write_param(BTF_TRAMP_PARAM, "N");
	l = err ? err : share_link(prog(c->obj, "count_entry"), c->ids, NULL, c->n);
	without = check_ms(c);
	share_write_param(BTF_TRAMP_PARAM, "Y");
	if (l < 0) {
		say("share: the table's check: the link without the table: %s", strerror(-l));
		return;
	}
	close(l);
	share_settle(&idle, &got, 90);
	/*
	 * the table's side again, after the walk: a time under TCG moves with
	 * the host's load, so each side is its best of the links made
	 */
	l = share_link(prog(c->obj, "count_entry"), c->ids, NULL, c->n);
	if (l >= 0) {
		again = check_ms(c);
		if (with < 0 || (again >= 0 && again < with))
			with = again;
		close(l);
		share_settle(&idle, &got, 90);
	}
	say("share: the table's check: %d functions: check stage with the table (confirmed) %.1f ms, without %.1f ms",
	    c->n, with, without);
}

/*
 * Which links share (kernel/7.3 22/24, BPF_F_TRACING_MULTI_SHARE), with
 * sharing on, over the functions of pid_vnr()'s model the fexit link takes,
 * less those on the error injection list (never shared): where a shared
 * image would cost a call more (it calls the original, or looks a cookie
 * up) every link on the function must have asked; where all are fentry
 * links without cookies it shares unasked. Judged by bpf_tramp_stats:
 * "shared" when images were made, all shared and fewer than a tenth as
 * many as functions; "own" when there is an image a function and none
 * shared. One line: "share: asked: N functions of pid_vnr()'s model:
 * 8 of 8 cases right", or the first wrong one.
 */
struct share_link_case {
	const char *prog;		/* NULL: none */
	bool cookies, asks;
};

static const struct {
	const char *what;
	struct share_link_case l[2];
	bool shared;
} share_cases[] = {
	{ "fentry without cookies, not asked",
	  { { "count_entry", false, false } }, true },
	{ "fentry with cookies, not asked",
	  { { "count_entry", true, false } }, false },
	{ "fentry with cookies, asked",
	  { { "count_entry", true, true } }, true },
	{ "fentry and fexit with cookies, asked",
	  { { "count_entry", true, true }, { "count_exit", true, true } }, true },
	{ "fexit with cookies not asked beside fentry asked",
	  { { "count_entry", true, true }, { "count_exit", true, false } }, false },
	{ "fexit without cookies, not asked",
	  { { "count_entry", false, true }, { "count_exit", false, false } }, false },
	{ "fentry without cookies not asked beside fexit asked",
	  { { "count_entry", false, false }, { "count_exit", false, true } }, false },
	{ "fentry without cookies not asked beside fentry with cookies asked",
	  { { "count_entry", false, false }, { "proof_entry", true, true } }, false },
};

#define SHARE_NCASES	(int)(sizeof(share_cases) / sizeof(share_cases[0]))

struct share_case_want {
	const struct share_counts *base;
	int k, n;
};

/* The images made since @arg's base are what share_cases[k] wants */
static bool share_case_right(const struct share_counts *got, const void *arg)
{
	const struct share_case_want *w = arg;
	long made = got->s.images - w->base->s.images;
	long shared = got->s.shared - w->base->s.shared;

	return share_cases[w->k].shared ? made > 0 && shared == made && made * 10 < w->n :
					   made == w->n && !shared;
}

/*
 * share_cases[@k] over @ids: 0, or 1 with what it made in @why. An image
 * the second link replaced is counted until its RCU-tasks free, so the
 * case is judged once the counts are right or after 60 s.
 */
static int share_case(struct share_ctx *c, int k, const uint32_t *ids, const uint64_t *ck,
		      int n, char *why, size_t size)
{
	struct share_counts idle = { 0 }, base, got;
	struct share_case_want w = { .base = &base, .k = k, .n = n };
	int fd[2] = { -1, -1 }, err = 0, i;
	bool right = false;

	if (share_settle(&idle, &base, 90)) {
		snprintf(why, size, "%s: the images of the case before did not go",
			 share_cases[k].what);
		return 1;
	}
	for (i = 0; i < 2 && share_cases[k].l[i].prog && !err; i++) {
		const struct share_link_case *l = &share_cases[k].l[i];

		fd[i] = share_link_flags(prog(c->obj, l->prog), ids, l->cookies ? ck : NULL, n,
					 l->asks ? BPF_F_TRACING_MULTI_SHARE : 0);
		err = fd[i] < 0 ? fd[i] : 0;
	}
	if (err) {
		snprintf(why, size, "%s: the links: %s", share_cases[k].what, strerror(-err));
	} else {
		right = !share_wait(&got, 60, share_case_right, &w, true);
		snprintf(why, size, "%s: %ld images for %d functions, %ld shared", share_cases[k].what,
			 got.s.images - base.s.images, n, got.s.shared - base.s.shared);
	}
	for (i = 1; i >= 0; i--)
		if (fd[i] >= 0)
			close(fd[i]);
	return !right;
}

static void share_asked(struct share_ctx *c)
{
	struct share_func *t = share_find(c, "pid_vnr");
	uint32_t *ids = calloc(c->n, sizeof(*ids));
	uint64_t *ck = calloc(c->n, sizeof(*ck));
	int n = 0, k, right = 0, nc = SHARE_NCASES;
	char why[256] = "";

	if (!t || !ids || !ck || share_set(1)) {
		say("share: asked: FAILED (%s)", t ? "no memory or no bpf_tramp_share" : "no pid_vnr");
		goto out;
	}
	for (int i = 0; i < c->n; i++) {
		if (strcmp(c->f[i].model, t->model) || !c->f[i].fexit || c->f[i].ei)
			continue;
		ids[n] = c->ids[i];
		ck[n] = n + 1;
		n++;
	}
	for (k = 0; k < nc; k++) {
		if (share_case(c, k, ids, ck, n, why, sizeof(why)))
			break;
		right++;
	}
	share_settle(&(struct share_counts){ 0 }, &(struct share_counts){ 0 }, 90);
	if (right == nc)
		say("share: asked: %d functions of pid_vnr()'s model: %d of %d cases right", n, right,
		    nc);
	else
		say("share: asked: %d functions of pid_vnr()'s model: FAILED (%s)", n, why);
out:
	free(ids);
	free(ck);
}

/* ... and the fentry.multi link's check stage, ms (check_cost()) */
static double warm_up(struct share_ctx *c, bool kprobe)
{
	struct share_counts idle = { 0 }, got;
	double t0 = now(), first;
	int le, lx, lk = 0, err;

	if (share_set(1))
		return -1;
	/* one after the other, as the proof runs them (share_proof.c) */
	le = share_link(prog(c->obj, "count_entry"), c->ids, NULL, c->n);
	first = check_ms(c);
	if (le >= 0)
		close(le);
	share_settle(&idle, &got, 90);
	lx = share_link(prog(c->obj, "count_exit"), c->xids, NULL, c->xn);
	if (lx >= 0)
		close(lx);
	share_settle(&idle, &got, 90);
	if (kprobe) {
		lk = share_link_kprobe(prog(c->obj, "count_kprobe"), c->syms, NULL, c->n);
		if (lk >= 0)
			close(lk);
		share_settle(&idle, &got, 90);
	}
	err = le < 0 ? le : lx < 0 ? lx : lk;
	say("share: warm-up (each link%s, sharing on): %s, %.1f s", kprobe ? ", kprobe_multi too" : "",
	    err < 0 ? strerror(-err) : "attached and detached", now() - t0);
	return le < 0 ? -1 : first;
}

void boot_share(const char *path)
{
	struct share_ctx c = { 0 };
	double m0 = now();
	uint64_t s0 = __rdtsc();
	bool bench = !access("/share-bench", R_OK);
	int kprobe_n = 0;
	FILE *f;

	/* the plain fentry's function: one the proof drives (share_proof.c) */
	c.obj = load("ksys_fchown");
	if (!c.obj || prepare(&c, path))
		return;
	/* the TSC rate against CLOCK_MONOTONIC (jiffies here: a long span) */
	c.hz = (__rdtsc() - s0) / (now() - m0);
	if (bench) {
		/*
		 * /share-bench: empty, N: only kprobe_multi over N functions,
		 * "table": only the table's rounds (-1), "runtime": only the
		 * run-time costs (-2), "fexit": only fexit's sizes (-3)
		 */
		f = fopen("/share-bench", "r");
		if (f) {
			char word[16] = "";

			if (fscanf(f, "%15s", word) != 1 || sscanf(word, "%d", &kprobe_n) != 1)
				kprobe_n = !strcmp(word, "table") ? -1 :
					   !strcmp(word, "runtime") ? -2 :
					   !strcmp(word, "fexit") ? -3 : 0;
			fclose(f);
		}
		share_bench(&c, kprobe_n);
	} else if (share_trust && !access("/share-trust", R_OK)) {
		/* tests/boot-trust.sh (share_trust.c): no warm-up, its free
		 * memory is not judged there */
		share_trust(&c);
	} else if (!access("/share-stress", R_OK)) {
		/* tests/boot-share.sh --stress (share_stress.c) */
		warm_up(&c, true);
		share_stress(&c, 1);
		share_stress(&c, 0);
	} else {
		check_cost(&c, warm_up(&c, false));
		share_asked(&c);
		share_proof(&c, 1);
		share_proof(&c, 0);
		/*
		 * stamped images: kernel/7.3-test, when the kernel has them;
		 * 3: the copies carved out of blocks, a symbol each
		 */
		if (!share_set(2))
			share_proof(&c, 2);
		else
			say("shared: proof: stamped skipped (the kernel refuses bpf_tramp_share=2)");
		if (!share_set(3))
			share_proof(&c, 3);
		else
			say("shared: proof: stamped-blocks skipped (the kernel refuses bpf_tramp_share=3)");
		share_klp(&c, 1);
		share_klp(&c, 0);
		share_override(&c);
	}
	share_set(1);
	bpf_object__close(c.obj);
}
