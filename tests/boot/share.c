// SPDX-License-Identifier: GPL-2.0
/*
 * share.c - shared trampoline images in the patched 7.3 kernel (kernel/7.3,
 * /sys/module/kernel/parameters/bpf_tramp_share): quick measurements.
 *
 * Input /funcs.txt: "id name" a line, every FUNC btfids models as
 * attachable (tests/boot-share.sh writes it from btfids models --all).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/bpf.h>	/* the 7.3 tree's tools/include/uapi */
#include <sys/klog.h>
#include <sys/syscall.h>
#include <x86intrin.h>

#include "boot.h"

#define SHARE_PARAM	"/sys/module/kernel/parameters/bpf_tramp_share"
#define STATS		"/sys/kernel/debug/bpf_tramp_stats"

struct func {
	uint32_t id;
	char name[128];
};

static long sys_bpf(int cmd, union bpf_attr *a)
{
	return syscall(__NR_bpf, cmd, a, sizeof(*a));
}

static int write_param(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY), err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) != (ssize_t)strlen(val))
		err = -errno;
	close(fd);
	return err;
}

static int read_param(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY), n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	close(fd);
	buf[n > 0 ? n - (buf[n - 1] == '\n') : 0] = 0;
	return 0;
}

static int set_share(int mode)
{
	char want[4], got[16] = "";
	int err;

	snprintf(want, sizeof(want), "%d", mode);
	err = write_param(SHARE_PARAM, want);
	read_param(SHARE_PARAM, got, sizeof(got));
	if (err || strcmp(got, want)) {
		say("share: set %s: %s (reads %s)", want, strerror(-err), got);
		return -1;
	}
	return 0;
}

static int read_funcs(const char *path, struct func **out)
{
	struct func *v = NULL, *x;
	int n = 0, cap = 0;
	char line[256];
	FILE *f = fopen(path, "r");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (n == cap) {
			cap = cap ? 2 * cap : 4096;
			x = realloc(v, cap * sizeof(*v));
			if (!x)
				break;
			v = x;
		}
		if (sscanf(line, "%u %127s", &v[n].id, v[n].name) == 2)
			n++;
	}
	fclose(f);
	*out = v;
	return n;
}

static int prog_load(enum bpf_attach_type type)
{
	struct bpf_insn insns[] = { MOV_IMM(BPF_REG_0, 0), EXIT() };
	union bpf_attr a = {
		.prog_type = BPF_PROG_TYPE_TRACING,
		.expected_attach_type = type,
		.insns = (uintptr_t)insns, .insn_cnt = 2,
		.license = (uintptr_t)"GPL",
	};

	return sys_bpf(BPF_PROG_LOAD, &a);
}

static int link_multi(int prog, enum bpf_attach_type type, const uint32_t *ids, uint32_t cnt)
{
	union bpf_attr a = {
		.link_create = {
			.prog_fd = prog, .attach_type = type,
			.tracing_multi = { .ids = (uintptr_t)ids, .cnt = cnt },
		},
	};
	int fd = sys_bpf(BPF_LINK_CREATE, &a);

	return fd < 0 ? -errno : fd;
}

static void stats(const char *when)
{
	char buf[4096];
	int fd = open(STATS, O_RDONLY), n;

	if (fd < 0) {
		say("share stats %s: %s", when, strerror(errno));
		return;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	for (char *p = buf; *p; p++)
		if (*p == '\n')
			*p = ';';
	say("share stats %s: %s", when, buf);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct func *)a)->name, ((const struct func *)b)->name);
}

/* The ids of @v that available_filter_functions lists, into @ids. */
static int ftrace_sites(struct func *v, int n, uint32_t *ids)
{
	FILE *f = fopen("/sys/kernel/tracing/available_filter_functions", "r");
	char line[256], *sp;
	struct func key, *hit;
	int cnt = 0;

	if (!f)
		return 0;
	qsort(v, n, sizeof(*v), cmp_name);
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, " \n")] = 0;
		if ((sp = strchr(line, ' ')))
			*sp = 0;
		if (strlen(line) >= sizeof(key.name))
			continue;
		strcpy(key.name, line);
		hit = bsearch(&key, v, n, sizeof(*v), cmp_name);
		if (hit && hit->id) {
			ids[cnt++] = hit->id;
			hit->id = 0;	/* listed twice: once */
		}
	}
	fclose(f);
	return cnt;
}

/* Keep the ids of @ids[0..cnt) one link takes: halve what fails. */
static int attachable(int prog, uint32_t *ids, int cnt)
{
	int fd, a, b;

	if (!cnt)
		return 0;
	fd = link_multi(prog, BPF_TRACE_FENTRY_MULTI, ids, cnt);
	if (fd >= 0) {
		close(fd);
		return cnt;
	}
	if (cnt == 1)
		return 0;
	a = attachable(prog, ids, cnt / 2);
	b = attachable(prog, ids + cnt / 2, cnt - cnt / 2);
	memmove(ids + a, ids + cnt / 2, b * sizeof(*ids));
	return a + b;
}

static int kprobe_load(void)
{
	struct bpf_insn insns[] = { MOV_IMM(BPF_REG_0, 0), EXIT() };
	union bpf_attr a = {
		.prog_type = BPF_PROG_TYPE_KPROBE,
		.expected_attach_type = BPF_TRACE_KPROBE_MULTI,
		.insns = (uintptr_t)insns, .insn_cnt = 2,
		.license = (uintptr_t)"GPL",
	};

	return sys_bpf(BPF_PROG_LOAD, &a);
}

static int link_kprobe(int prog, const char **syms, uint32_t cnt)
{
	union bpf_attr a = {
		.link_create = {
			.prog_fd = prog, .attach_type = BPF_TRACE_KPROBE_MULTI,
			.kprobe_multi = { .syms = (uintptr_t)syms, .cnt = cnt },
		},
	};
	int fd = sys_bpf(BPF_LINK_CREATE, &a);

	return fd < 0 ? -errno : fd;
}

static struct func *by_id(struct func *v, int n, uint32_t id)
{
	for (int i = 0; i < n; i++)
		if (v[i].id == id)
			return &v[i];
	return NULL;
}

static void bench_one(const char *what, int fd_or_err, uint64_t t0, uint64_t t1, int n)
{
	uint64_t t2;

	if (fd_or_err < 0) {
		say("share: %s %d: %s", what, n, strerror(-fd_or_err));
		return;
	}
	stats(what);
	t2 = __rdtsc();
	close(fd_or_err);
	say("share: %s %d functions: attach %.3f Mcycles, detach %.3f Mcycles", what, n,
	    (t1 - t0) / 1e6, (__rdtsc() - t2) / 1e6);
	stats("after detach");
	sleep(1);
}

/* The kernel's own "btf_tramp:" lines (validation, self-test), echoed */
static void klog_lines(const char *what)
{
	int size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0), n;
	char *buf, *p, *nl;

	if (size <= 0 || !(buf = malloc(size + 1)))
		return;
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, size);
	buf[n > 0 ? n : 0] = 0;
	for (p = buf; (nl = strchr(p, '\n')); p = nl + 1) {
		*nl = 0;
		if (strstr(p, what))
			say("klog: %s", strstr(p, what));
	}
	free(buf);
}

void boot_share(const char *path);

void boot_share(const char *path)
{
	struct func *v = NULL, *all;
	uint32_t *ids;
	const char **syms;
	int n = read_funcs(path, &v), prog, kprog, cnt = 0, fd, mode;
	uint64_t t0, t1;
	double m0 = now();
	uint64_t s0 = __rdtsc();

	klog_lines("btf_tramp: ");
	if (n <= 0) {
		say("share: no functions in %s", path);
		return;
	}
	prog = prog_load(BPF_TRACE_FENTRY_MULTI);
	if (prog < 0) {
		say("share: prog load: %s", strerror(errno));
		return;
	}
	ids = calloc(n, sizeof(*ids));
	all = malloc(n * sizeof(*all));
	memcpy(all, v, n * sizeof(*all));
	set_share(1);
	cnt = ftrace_sites(v, n, ids);
	say("share: %d of %d functions are ftrace sites", cnt, n);
	cnt = attachable(prog, ids, cnt);
	say("share: %d attach at once (%.1f s)", cnt, now() - m0);
	stats("after the search");
	syms = calloc(cnt, sizeof(*syms));
	for (int i = 0; i < cnt; i++)
		syms[i] = by_id(all, n, ids[i])->name;
	kprog = kprobe_load();
#ifdef SHARE_QUICK
	for (int k = 2; k < 3; k++) {
#else
	for (int k = 0; k < 4; k++) {
#endif
		int nf = k == 3 ? cnt : (int[]){ 100, 1000, 10000 }[k];

		if (nf > cnt)
			continue;
		for (int round = 0; round < 2; round++) {
			for (mode = 0; mode < 3; mode++) {
				if (mode < 2)
					set_share(mode);
				t0 = __rdtsc();
				fd = mode < 2 ? link_multi(prog, BPF_TRACE_FENTRY_MULTI, ids, nf) :
				     link_kprobe(kprog, syms, nf);
				t1 = __rdtsc();
				bench_one((const char *[]){ "off", "on", "kprobe_multi" }[mode], fd, t0, t1, nf);
			}
		}
	}
	say("share: tsc %.1f MHz", (__rdtsc() - s0) / (now() - m0) / 1e6);
}
