// SPDX-License-Identifier: GPL-2.0
/*
 * client.c - the guest of tests/boot-client.sh (issue 43): a user's pattern
 * attach of fentry.multi in the patched 7.3 kernel, three ways, timed from
 * the pattern to an attached link, for each pattern of /client.txt:
 *
 *   as is    libbpf 1.8's bpf_program__attach_tracing_multi(prog, pattern):
 *            every BTF FUNC the pattern matches that libbpf deems
 *            traceable, one link
 *   tracefs  upstream's selftest way (prog_tests/tracing_multi.c,
 *            serial_test_tracing_multi_bench_attach, trace_helpers.c
 *            bpf_get_ksyms()): available_filter_functions less its unsafe
 *            names, /proc/kallsyms less the names it holds twice,
 *            intersected with BTF and btf_type_is_traceable_func(), one
 *            link by ids
 *   table    the same call as "as is" with kernel/7.3-libbpf's libbpf,
 *            which links the functions the kernel's exported trampoline
 *            table says fentry.multi takes
 *
 * Built twice from this file: /init, against libbpf as it is
 * (build/libbpf), runs the first two ways and writes their results to
 * /asis.txt, then runs /client-table, this file built with -DCLIENT_TABLE
 * against the patched libbpf (build/libbpf-table), which runs the third,
 * counts what the exported table says itself (include/btfids/tramp.h's
 * reader, glibc's fnmatch(): not the patched libbpf's code), checks the
 * link holds exactly those functions (the kernel's link info), prints one
 * "client: " line a pattern, and runs the example (/count,
 * kernel/7.3-libbpf/example) while this guest calls vfs_read().
 */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <elf.h>
#include <zlib.h>
#include <linux/bpf.h>	/* the 7.3 tree's tools/include/uapi */
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "btfids/tramp.h"	/* the table's format and checks */

#define MAX_PATTERNS	16

/* libbpf's own (libbpf_internal.h), in libbpf.a: what 1.8 deems traceable */
bool btf_type_is_traceable_func(const struct btf *btf, const struct btf_type *t);

static char release[65];

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("boot: %s ", release);
	vprintf(fmt, ap);
	putchar('\n');
	fflush(stdout);
	va_end(ap);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static struct bpf_program *load_prog(struct bpf_object **obj)
{
	struct bpf_program *prog;

	*obj = bpf_object__open_file("/client.bpf.o", NULL);
	if (!*obj)
		return NULL;
	prog = bpf_object__find_program_by_name(*obj, "client");
	if (!prog || bpf_object__load(*obj)) {
		bpf_object__close(*obj);
		return NULL;
	}
	return prog;
}

/* The BTF ids a tracing_multi link holds (the kernel's link info), sorted; their count or -errno */
static int link_ids(struct bpf_link *link, __u32 **ids)
{
	struct bpf_link_info info = {};
	__u32 len = sizeof(info), n;

	*ids = NULL;
	if (bpf_link_get_info_by_fd(bpf_link__fd(link), &info, &len))
		return -errno;
	n = info.tracing_multi.count;
	*ids = calloc(n + 1, sizeof(**ids));
	if (!*ids)
		return -ENOMEM;
	memset(&info, 0, sizeof(info));
	info.tracing_multi.ids = (__u64)(unsigned long)*ids;
	info.tracing_multi.count = n;
	len = sizeof(info);
	if (bpf_link_get_info_by_fd(bpf_link__fd(link), &info, &len))
		return -errno;
	return n;
}

#ifndef CLIENT_TABLE

static char *patterns[MAX_PATTERNS];
static int nr_patterns;

/* /client.txt: the patterns, one a line */
static int read_patterns(void)
{
	char line[256];
	FILE *f = fopen("/client.txt", "r");

	if (!f)
		return -errno;
	while (nr_patterns < MAX_PATTERNS && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (line[0])
			patterns[nr_patterns++] = strdup(line);
	}
	fclose(f);
	return nr_patterns;
}


static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* trace_helpers.c is_unsafe_function(): names upstream's way leaves out */
static bool unsafe(const char *name)
{
	static const char *const deny[] = {
		"migrate_disable", "migrate_enable", "rcu_read_unlock_strict",
		"preempt_count_add", "preempt_count_sub", "__rcu_read_lock",
		"__rcu_read_unlock", "bpf_get_numa_node_id", "___migrate_enable",
		"arch_cpu_idle", "default_idle", "bpf_dispatcher_xdp_func",
	};
	size_t i;

	if (!strncmp(name, "rcu_", 4) || !strncmp(name, "__ftrace_invalid_address__", 26))
		return true;
	for (i = 0; i < sizeof(deny) / sizeof(deny[0]); i++)
		if (!strcmp(name, deny[i]))
			return true;
	return false;
}

/* Each line's first word (@sym: the third, kallsyms's name), sorted */
static char **read_names(const char *path, bool sym, bool skip_unsafe, size_t *cnt)
{
	char line[512], name[256], **v = NULL, **x;
	size_t cap = 0;
	FILE *f = fopen(path, "r");

	*cnt = 0;
	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		/* the kernel's own: no module's "[mod]" */
		if (strchr(line, '['))
			continue;
		if (sym ? sscanf(line, "%*s %*s %255s", name) != 1 : sscanf(line, "%255s", name) != 1)
			continue;
		if (skip_unsafe && unsafe(name))
			continue;
		if (*cnt == cap) {
			cap = cap ? 2 * cap : 65536;
			x = realloc(v, cap * sizeof(*v));
			if (!x)
				break;
			v = x;
		}
		v[(*cnt)++] = strdup(name);
	}
	fclose(f);
	qsort(v, *cnt, sizeof(*v), cmp_str);
	return v;
}

static bool has(char **v, size_t n, const char *name)
{
	return v && bsearch(&name, v, n, sizeof(*v), cmp_str);
}

static void free_names(char **v, size_t n)
{
	while (n)
		free(v[--n]);
	free(v);
}

/*
 * Upstream's selftest way, from the pattern to a link: its functions'
 * count (the link's, or those it named when it failed), -errno in *@err
 */
static int tracefs_way(struct bpf_program *prog, const char *pattern, int *err, double *ms,
		       double *sel)
{
	LIBBPF_OPTS(bpf_tracing_multi_opts, opts);
	size_t nf, nk, nd = 0, i, cap = 0;
	char **filt, **ks, **dups;
	struct bpf_link *link;
	__u32 *ids = NULL, id, nr;
	double t0 = now();
	struct btf *btf;
	int cnt = 0;

	*ms = *sel = 0;
	filt = read_names("/sys/kernel/tracing/available_filter_functions", false, true, &nf);
	ks = read_names("/proc/kallsyms", true, false, &nk);
	btf = btf__load_vmlinux_btf();
	dups = calloc(nk + 1, sizeof(*dups));
	if (!filt || !ks || !btf || !dups) {
		*err = -ENOMEM;
		goto out;
	}
	/* the names kallsyms holds twice: kallsyms_lookup_name() takes the first */
	for (i = 1; i < nk; i++)
		if (!strcmp(ks[i], ks[i - 1]) && (!nd || strcmp(dups[nd - 1], ks[i])))
			dups[nd++] = ks[i];
	nr = btf__type_cnt(btf);
	for (id = 1; id < nr; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const char *name;

		if (!btf_is_func(t))
			continue;
		name = btf__name_by_offset(btf, t->name_off);
		if (!name || fnmatch(pattern, name, 0) || !has(filt, nf, name) ||
		    has(dups, nd, name) || !btf_type_is_traceable_func(btf, t))
			continue;
		if ((size_t)cnt == cap) {
			cap = cap ? 2 * cap : 4096;
			ids = realloc(ids, cap * sizeof(*ids));
			if (!ids) {
				*err = -ENOMEM;
				goto out;
			}
		}
		ids[cnt++] = id;
	}
	*err = -ENOENT;
	if (!cnt)
		goto out;
	opts.ids = ids;
	opts.cnt = cnt;
	*sel = (now() - t0) * 1000;
	link = bpf_program__attach_tracing_multi(prog, NULL, &opts);
	*err = link ? 0 : -errno;
	*ms = (now() - t0) * 1000;
	bpf_link__destroy(link);
out:
	free(ids);
	free(dups);
	btf__free(btf);
	if (filt)
		free_names(filt, nf);
	if (ks)
		free_names(ks, nk);
	return cnt;
}

/* The functions libbpf 1.8 names for @pattern: BTF FUNCs it deems traceable */
static int named(const struct btf *btf, const char *pattern)
{
	__u32 id, nr = btf__type_cnt(btf);
	int n = 0;

	for (id = 1; id < nr; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		if (btf_is_func(t) && !fnmatch(pattern, btf__name_by_offset(btf, t->name_off), 0) &&
		    btf_type_is_traceable_func(btf, t))
			n++;
	}
	return n;
}

static void setup(void)
{
	struct rlimit fds = { 1 << 16, 1 << 16 };
	struct utsname u;

	setrlimit(RLIMIT_NOFILE, &fds);
	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("tracefs", "/sys/kernel/tracing", "tracefs", 0, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);
	snprintf(release, sizeof(release), "%s", uname(&u) ? "unknown" : u.release);
}

static void __attribute__((noreturn)) finish(void)
{
	printf("boot: end\n");
	fflush(stdout);
	sync();
	reboot(RB_AUTOBOOT);
	for (;;)
		pause();
}

/*
 * /init: libbpf as it is and upstream's way for every pattern, into
 * /asis.txt ("pattern|as is|n2 err2 ms2" a line), then /client-table
 */
int main(void)
{
	struct bpf_object *obj;
	struct bpf_program *prog;
	double t0 = now(), t;
	struct btf *btf;
	FILE *out;
	int i, status;

	setup();
	printf("boot: %s init started\n", release);
	btf = btf__load_vmlinux_btf();
	prog = load_prog(&obj);
	out = fopen("/asis.txt", "w");
	if (read_patterns() <= 0 || !btf || !prog || !out) {
		say("client: FAILED: /client.txt, vmlinux BTF, /client.bpf.o or /asis.txt: %s",
		    strerror(errno));
		finish();
	}
	for (i = 0; i < nr_patterns; i++) {
		struct bpf_link *link;
		char asis[160];
		double ms, sel = 0;
		int n, err;

		t = now();
		link = bpf_program__attach_tracing_multi(prog, patterns[i], NULL);
		err = link ? 0 : -errno;
		ms = (now() - t) * 1000;
		n = named(btf, patterns[i]);
		if (link) {
			__u32 *ids;

			n = link_ids(link, &ids);
			free(ids);
			snprintf(asis, sizeof(asis), "one link of %d at the first try in %.0f ms", n, ms);
		} else {
			snprintf(asis, sizeof(asis), "fails (%s) naming %d functions, after %.0f ms",
				 strerrorname_np(-err) ?: "?", n, ms);
		}
		bpf_link__destroy(link);
		n = tracefs_way(prog, patterns[i], &err, &ms, &sel);
		say("client-asis: %s: as is: %s; tracefs way: %d functions, %s, %.0f ms", patterns[i],
		    asis, n, err ? strerrorname_np(-err) ?: "?" : "attached", ms);
		fprintf(out, "%s|%s|%d %d %.3f %.3f\n", patterns[i], asis, n, err, ms, sel);
	}
	fclose(out);
	bpf_object__close(obj);
	say("client: as is and tracefs ways: %.1f s", now() - t0);
	fflush(stdout);
	if (fork() == 0) {
		execl("/client-table", "/client-table", NULL);
		say("client: FAILED: exec /client-table: %s", strerror(errno));
		_exit(127);
	}
	wait(&status);
	say("client: guest seconds %.1f", now() - t0);
	finish();
}

#else /* CLIENT_TABLE */

static int cmp_u32(const void *a, const void *b)
{
	__u32 x = *(const __u32 *)a, y = *(const __u32 *)b;

	return x < y ? -1 : x > y;
}

/* where the kernel exports the table (little-endian), beside its BTF */
static const char *const table_paths[] = {
	"/sys/kernel/btf_tramp/vmlinux",
};

static void *read_file(const char *path, size_t *len)
{
	size_t cap = 0;
	char *buf = NULL, *x;
	ssize_t n;
	int fd = open(path, O_RDONLY);

	*len = 0;
	if (fd < 0)
		return NULL;
	do {
		if (*len == cap) {
			cap = cap ? 2 * cap : 1 << 20;
			x = realloc(buf, cap);
			if (!x) {
				n = -1;
				break;
			}
			buf = x;
		}
		n = read(fd, buf + *len, cap - *len);
		if (n > 0)
			*len += n;
	} while (n > 0);
	close(fd);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Whether one link over @ids takes them; -errno if not */
static int try_link(struct bpf_program *prog, const __u32 *ids, int n)
{
	LIBBPF_OPTS(bpf_tracing_multi_opts, opts, .ids = ids, .cnt = n);
	struct bpf_link *link = bpf_program__attach_tracing_multi(prog, NULL, &opts);
	int err = link ? 0 : -errno;

	bpf_link__destroy(link);
	return err;
}

/*
 * A function of @ids (refused by one link, @err) that one link refuses
 * alone, by halving; or when both halves link, the halves' sizes
 */
static void find_refused(struct bpf_program *prog, const struct btf *btf, const __u32 *ids,
			 int n, int err)
{
	int h = n / 2, e1 = 0, e2 = 0;

	while (n > 1) {
		h = n / 2;
		e1 = try_link(prog, ids, h);
		if (e1) {
			n = h;
			err = e1;
			continue;
		}
		e2 = try_link(prog, ids + h, n - h);
		if (!e2)
			break;
		ids += h;
		n -= h;
		err = e2;
	}
	if (n == 1)
		say("client-diag: the one it refuses: %s (id %u), %s",
		    btf__name_by_offset(btf, btf__type_by_id(btf, ids[0])->name_off), ids[0],
		    strerrorname_np(-err) ?: "?");
	else
		say("client-diag: %d functions a link refuses (%s) whose halves each link alone: two of them together",
		    n, strerrorname_np(-err) ?: "?");
	for (h = 0; n > 1 && n <= 16 && h < n; h++) {
		for (e1 = h + 1; e1 < n; e1++) {
			__u32 two[2] = { ids[h], ids[e1] };

			e2 = try_link(prog, two, 2);
			if (e2)
				say("client-diag: refused together (%s): %s (id %u) and %s (id %u)",
				    strerrorname_np(-e2) ?: "?",
				    btf__name_by_offset(btf, btf__type_by_id(btf, two[0])->name_off), two[0],
				    btf__name_by_offset(btf, btf__type_by_id(btf, two[1])->name_off), two[1]);
		}
	}
}

struct sym {
	char *name;
	unsigned long long addr;
};

static int cmp_sym(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : x->addr < y->addr ? -1 : x->addr > y->addr;
}

struct site {
	unsigned long long addr;
	__u32 id;
};

static int cmp_site(const void *a, const void *b)
{
	const struct site *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/*
 * When the table's link fails: the link again by ids, without the
 * functions whose names /proc/kallsyms holds at two or more text
 * addresses (the kernel resolves a name to its first: "ambiguous-name")
 * and, of ids at one call site (one name twice in BTF, names folded into
 * one function), all but the first (the kernel refuses a link naming a
 * site twice): what the verdicts lack. A diagnosis, with kallsyms; not
 * the table way
 */
static void diagnose(struct bpf_program *prog, const struct btf *btf, const char *pattern,
		     const __u32 *want, int n)
{
	LIBBPF_OPTS(bpf_tracing_multi_opts, opts);
	int i, nv = 0, cap = 0, k = 0, amb = 0, alias = 0, lerr;
	char line[512], name[256], type;
	struct sym *v = NULL, *x, key;
	struct site *sites;
	struct bpf_link *link;
	unsigned long long addr;
	__u32 *ids;
	double t;
	FILE *f = fopen("/proc/kallsyms", "r");

	ids = calloc(n + 1, sizeof(*ids));
	sites = calloc(n + 1, sizeof(*sites));
	while (f && ids && sites && fgets(line, sizeof(line), f)) {
		if (strchr(line, '[') || sscanf(line, "%llx %c %255s", &addr, &type, name) != 3 ||
		    !strchr("tTwW", type))
			continue;
		if (nv == cap) {
			cap = cap ? 2 * cap : 65536;
			x = realloc(v, cap * sizeof(*v));
			if (!x)
				break;
			v = x;
		}
		v[nv].name = strdup(name);
		v[nv++].addr = addr;
	}
	if (f)
		fclose(f);
	if (!v || !ids || !sites)
		return;
	qsort(v, nv, sizeof(*v), cmp_sym);
	for (i = 0; i < n; i++) {
		key.name = (char *)btf__name_by_offset(btf, btf__type_by_id(btf, want[i])->name_off);
		key.addr = 0;
		/* the first entry of the name: the one above all smaller */
		x = v;
		for (int lo = 0, hi = nv; lo < hi;) {
			int mid = (lo + hi) / 2;

			if (strcmp(v[mid].name, key.name) < 0)
				lo = mid + 1;
			else
				hi = mid;
			x = v + lo;
		}
		if (x < v + nv && !strcmp(x->name, key.name) && x + 1 < v + nv &&
		    !strcmp(x[1].name, key.name) && x[1].addr != x->addr) {
			amb++;
			continue;
		}
		sites[k].addr = x < v + nv && !strcmp(x->name, key.name) ? x->addr : 0;
		sites[k++].id = want[i];
	}
	qsort(sites, k, sizeof(*sites), cmp_site);
	for (i = 0, n = 0; i < k; i++) {
		if (i && sites[i].addr && sites[i].addr == sites[i - 1].addr) {
			alias++;
			continue;
		}
		ids[n++] = sites[i].id;
	}
	qsort(ids, n, sizeof(*ids), cmp_u32);
	opts.ids = ids;
	opts.cnt = n;
	t = now();
	link = bpf_program__attach_tracing_multi(prog, NULL, &opts);
	lerr = link ? 0 : -errno;
	say("client-diag: %s: the table's link failed; without the %d functions whose names kallsyms holds at two or more text addresses (ambiguous-name) and the %d second ids of a call site (the kernel refuses a link naming a site twice): %d functions, one link %s in %.0f ms",
	    pattern, amb, alias, n, link ? "attached" : strerrorname_np(-lerr) ?: "failed",
	    (now() - t) * 1000);
	if (!link)
		find_refused(prog, btf, ids, n, lerr);
	bpf_link__destroy(link);
	free(ids);
	free(sites);
	while (nv)
		free(v[--nv].name);
	free(v);
}

/*
 * The ids of BTF FUNCs matching @pattern that the table @h says
 * fentry.multi takes, sorted: their count
 */
static int table_taken(const struct btf *btf, const struct btf_tramp2_hdr *h,
		       const char *pattern, __u32 **ids)
{
	__u32 id, nr = btf__type_cnt(btf);
	int n = 0;

	*ids = calloc(nr, sizeof(**ids));
	for (id = 1; *ids && id < nr; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const struct btf_tramp_verdict *v;

		if (!btf_is_func(t) || fnmatch(pattern, btf__name_by_offset(btf, t->name_off), 0))
			continue;
		v = btf_tramp2_find_verdict(h, id);
		if (v && v->at[BTF_TRAMP_FENTRY_MULTI].refusal == BTF_TRAMP_TAKEN)
			(*ids)[n++] = id;
	}
	return n;
}

/* when the patched libbpf had its ids, just before it makes the link (its pr_debug) */
static double selected;

/*
 * libbpf_internal.h's (kernel/7.3-libbpf): the table's way, which this
 * client measures, where the kernel would be asked first
 * (BPF_F_TRACING_MULTI_SKIP_REFUSED: tests/boot-tramp.sh's kernel word)
 */
#ifdef CLIENT_TABLE
extern bool libbpf_tracing_multi_table_only;
#endif

static int print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_DEBUG && strstr(fmt, "trampoline table: "))
		selected = now();
	if (level == LIBBPF_DEBUG)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

int main(void)
{
	__u32 cnt[__MAX_BPF_TRACING_MULTI_VERDICT + 8];
	const struct btf_tramp2_hdr *h = NULL;
	size_t len = 0, blen = 0;
	struct bpf_object *obj;
	struct bpf_program *prog;
	char line[512], *tab = NULL, *raw;
	double t0 = now();
	struct btf *btf;
	unsigned int i;
	int st = -1, status, pfd[2];
	pid_t ex, rd;
	FILE *f;

	snprintf(release, sizeof(release), "%s", "?");
	{
		struct utsname u;

		if (!uname(&u))
			snprintf(release, sizeof(release), "%s", u.release);
	}
	libbpf_set_print(print);
#ifdef CLIENT_TABLE
	libbpf_tracing_multi_table_only = true;
#endif
	btf = btf__load_vmlinux_btf();
	prog = load_prog(&obj);
	raw = read_file("/sys/kernel/btf/vmlinux", &blen);
	for (i = 0; i < sizeof(table_paths) / sizeof(table_paths[0]) && !tab; i++)
		tab = read_file(table_paths[i], &len);
	if (tab && raw)
		st = btf_tramp2_check(tab, len, EM_X86_64, crc32(0, (void *)raw, blen), NULL);
	f = fopen("/asis.txt", "r");
	if (!btf || !prog || !f || st != BTF_TRAMP2_VALID) {
		say("client: FAILED: vmlinux BTF, /client.bpf.o, /asis.txt, or the exported table: %s",
		    st < 0 ? "no table" : btf_tramp2_status_str(st));
		return 1;
	}
	h = (const void *)tab;
	say("client: the exported table: version %u, %u functions, .BTF crc32 matches", h->version,
	    h->nr_funcs);
	while (fgets(line, sizeof(line), f)) {
		LIBBPF_OPTS(bpf_tracing_multi_opts, opts, .verdict_cnt = cnt,
			    .verdict_cnt_len = sizeof(cnt) / sizeof(cnt[0]));
		char *pattern = strtok(line, "|"), *asis = strtok(NULL, "|"), *tr = strtok(NULL, "\n");
		__u32 *want, *got = NULL;
		struct bpf_link *link;
		int n, n2, err2, nl = -1, left = 0, err = 0;
		char why[256] = "";
		double t, ms, ms2, sel2;

		if (!pattern || !asis || !tr || sscanf(tr, "%d %d %lf %lf", &n2, &err2, &ms2, &sel2) != 4)
			continue;
		n = table_taken(btf, h, pattern, &want);
		selected = 0;
		t = now();
		link = bpf_program__attach_tracing_multi(prog, pattern, &opts);
		ms = (now() - t) * 1000;
		if (link)
			nl = link_ids(link, &got);
		else
			err = errno;
		bpf_link__destroy(link);
		for (i = 1; i < sizeof(cnt) / sizeof(cnt[0]); i++) {
			if (!cnt[i])
				continue;
			left += cnt[i];
			snprintf(why + strlen(why), sizeof(why) - strlen(why), "%s%s %u",
				 *why ? ", " : "", libbpf_tracing_multi_verdict_str(i) ?: "?", cnt[i]);
		}
		if (got)
			qsort(got, nl, sizeof(*got), cmp_u32);
		say("client: %s: table: %d attached at the first try in %.0f ms; tracefs way: %d in %.0f ms%s; libbpf as is: %s",
		    pattern, link ? nl : 0, ms, n2, ms2,
		    err2 ? (err2 == -ENOENT ? " (none)" : " (its link failed)") : "", asis);
		say("client-check: %s: the table's verdicts take %d, the link holds %d (%s), libbpf counted %u taken and %d left out%s%s%s; table %s",
		    pattern, n, nl, !link ? strerror(err) :
		    nl == n && !memcmp(want, got, n * sizeof(*want)) ? "exactly those" : "OTHERS",
		    cnt[0], left, *why ? " (" : "", why, *why ? ")" : "",
		    !link || nl != n || cnt[0] != (unsigned int)n || memcmp(want, got, n * sizeof(*want)) ?
		    "WRONG" : "right");
		say("client-split: %s: pattern to ids: table %.0f ms, tracefs way %.0f ms; the link: table %.0f ms, tracefs way %.0f ms",
		    pattern, selected ? (selected - t) * 1000 : -1, sel2,
		    selected ? ms - (selected - t) * 1000 : -1, ms2 - sel2);
		if (!strcmp(pattern, "*"))
			say("client-ratio: *: tracefs way over table: %.1f; pattern to ids only: %.1f", ms2 / ms,
			    selected ? sel2 / ((selected - t) * 1000) : 0);
		if (!link)
			diagnose(prog, btf, pattern, want, n);
		free(want);
		free(got);
	}
	fclose(f);
	bpf_object__close(obj);
	say("client: table way: %.1f s", now() - t0);

	/* the example, counting vfs_* for 2 s while this guest reads a file */
	if (access("/count", X_OK) || pipe(pfd)) {
		say("client: example: FAILED: no /count");
		return 1;
	}
	ex = fork();
	if (ex == 0) {
		dup2(pfd[1], 1);
		execl("/count", "/count", "vfs_*", "2", NULL);
		_exit(127);
	}
	close(pfd[1]);
	rd = fork();
	if (rd == 0) {
		char buf[4096];
		int fd;

		for (;;) {
			fd = open("/client.txt", O_RDONLY);
			while (read(fd, buf, sizeof(buf)) > 0)
				;
			close(fd);
			usleep(1000);
		}
	}
	f = fdopen(pfd[0], "r");
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		say("client-example: %s", line);
	}
	waitpid(ex, &status, 0);
	kill(rd, SIGKILL);
	waitpid(rd, NULL, 0);
	say("client-example: exit %d", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return 0;
}

#endif /* CLIENT_TABLE */
