// SPDX-License-Identifier: GPL-2.0
/*
 * tramp.c - the patched 7.3 kernel (kernel/) judges the trampoline table
 * btfids stored in its .BTF_tramp (tests/boot-tramp.sh).
 *
 * Built against the 7.3 tree's UAPI header (BPF_TRACE_FENTRY_MULTI,
 * link_create.tracing_multi), with raw bpf(2) calls: the guest's libbpf
 * predates tracing_multi.
 *
 *   klog    the kernel's own "btf_tramp:" lines (table validation, the
 *           CONFIG_BPF_BTF_TRAMP_SELFTEST line), echoed as "boot: ... klog:"
 *   attach  one fentry.multi program attached to each table entry alone,
 *           with the tables on and off (/sys/module/kernel/parameters/
 *           btf_tramp): it must attach exactly where the table says
 *           attachable, both ways, with the same error where it does not
 *   run     the program attached to every attachable entry at once counts
 *           its runs; the functions are called (syscalls) and the count
 *           must grow, tables on and off
 *   bench   attach and detach time of that whole-table link, tables on
 *           and off, alternating, ROUNDS rounds (medians); and the
 *           per-function checks alone (the same link with a refused entry
 *           last: every function is checked, then all is rolled back)
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
#include <linux/bpf.h>	/* the 7.3 tree's tools/include/uapi (tests/boot-tramp.sh) */
#include <sys/klog.h>
#include <sys/syscall.h>
#include <x86intrin.h>

#include "boot.h"

#ifndef ENOTSUPP
#define ENOTSUPP	524
#endif

#define PARAM		"/sys/module/kernel/parameters/btf_tramp"
#define ROUNDS		7

struct tramp_entry {
	uint32_t id;
	char name[128];
	int attachable;
	int err[2];		/* attach errno alone: [0] tables off, [1] on */
};

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * The guest's CLOCK_MONOTONIC ticks in jiffies here (tinyconfig, TCG: 4 ms);
 * the TSC is fine-grained: times are TSC counts, turned into seconds with
 * the TSC rate measured against CLOCK_MONOTONIC over the whole bench.
 */
static uint64_t tsc(void)
{
	return __rdtsc();
}

static long sys_bpf(int cmd, union bpf_attr *a)
{
	return syscall(__NR_bpf, cmd, a, sizeof(*a));
}

/* "Y"/"N" into the tables' switch; 0 or -errno */
static int tables(bool on)
{
	int fd = open(PARAM, O_WRONLY), err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, on ? "1" : "0", 1) != 1)
		err = -errno;
	close(fd);
	return err;
}

/* /tramp.txt: "id name attachable" a line (btfids models VMLINUX on the host) */
static int read_entries(const char *path, struct tramp_entry **out)
{
	struct tramp_entry *v = NULL, *x;
	int n = 0, cap = 0;
	char line[256];
	FILE *f = fopen(path, "r");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (n == cap) {
			cap = cap ? 2 * cap : 2048;
			x = realloc(v, cap * sizeof(*v));
			if (!x) {
				free(v);
				fclose(f);
				return -ENOMEM;
			}
			v = x;
		}
		x = &v[n];
		memset(x, 0, sizeof(*x));
		if (sscanf(line, "%u %127s %d", &x->id, x->name, &x->attachable) == 3)
			n++;
	}
	fclose(f);
	*out = v;
	return n;
}

static int map_create(void)
{
	union bpf_attr a = {
		.map_type = BPF_MAP_TYPE_ARRAY, .key_size = 4, .value_size = 8,
		.max_entries = 1,
	};

	return sys_bpf(BPF_MAP_CREATE, &a);
}

/* fentry.multi: counts its runs in @map_fd[0] */
static int prog_load(int map_fd, char *log, size_t log_size)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ST | BPF_MEM | BPF_W, .dst_reg = BPF_REG_10, .off = -4, .imm = 0 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = BPF_REG_2, .src_reg = BPF_REG_10 },
		{ .code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = BPF_REG_2, .imm = -4 },
		{ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = BPF_REG_1,
		  .src_reg = BPF_PSEUDO_MAP_FD, .imm = map_fd },
		{ 0 },
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_map_lookup_elem },
		{ .code = BPF_JMP | BPF_JEQ | BPF_K, .dst_reg = BPF_REG_0, .off = 2, .imm = 0 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_1, .imm = 1 },
		{ .code = BPF_STX | BPF_ATOMIC | BPF_DW, .dst_reg = BPF_REG_0,
		  .src_reg = BPF_REG_1, .imm = BPF_ADD },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr a = {
		.prog_type = BPF_PROG_TYPE_TRACING,
		.expected_attach_type = BPF_TRACE_FENTRY_MULTI,
		.insns = (uintptr_t)insns, .insn_cnt = sizeof(insns) / sizeof(insns[0]),
		.license = (uintptr_t)"GPL",
		.log_buf = (uintptr_t)log, .log_size = log_size, .log_level = 1,
	};

	return sys_bpf(BPF_PROG_LOAD, &a);
}

/* A tracing_multi link of @prog over @ids: its fd, or -errno */
static int link_multi(int prog, const uint32_t *ids, uint32_t cnt)
{
	union bpf_attr a = {
		.link_create = {
			.prog_fd = prog, .attach_type = BPF_TRACE_FENTRY_MULTI,
			.tracing_multi = { .ids = (uintptr_t)ids, .cnt = cnt },
		},
	};
	int fd = sys_bpf(BPF_LINK_CREATE, &a);

	return fd < 0 ? -errno : fd;
}

static uint64_t runs(int map_fd)
{
	uint32_t key = 0;
	uint64_t v = 0;
	union bpf_attr a = {
		.map_fd = map_fd, .key = (uintptr_t)&key, .value = (uintptr_t)&v,
	};

	sys_bpf(BPF_MAP_LOOKUP_ELEM, &a);
	return v;
}

/* Call some of the kernel: read and write a file, ask for our parent. */
static void exercise(void)
{
	char buf[64];
	int fd, i;

	for (i = 0; i < 8; i++) {
		fd = open("/proc/version", O_RDONLY);
		if (fd >= 0) {
			if (read(fd, buf, sizeof(buf)) < 0)
				break;
			close(fd);
		}
		getppid();
	}
}

/* The kernel's own "btf_tramp:" lines (validation, self-test), echoed */
static void klog(void)
{
	int size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0), n;
	char *buf, *p, *nl;

	if (size <= 0 || !(buf = malloc(size + 1)))
		return;
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, size);
	buf[n > 0 ? n : 0] = 0;
	for (p = buf; (nl = strchr(p, '\n')); p = nl + 1) {
		*nl = 0;
		if (strstr(p, "btf_tramp: "))
			say("klog: %s", strstr(p, "btf_tramp: "));
	}
	free(buf);
}

/* Each entry alone, tables off then on: the errno (0: attached). */
static int attach_each(int prog, struct tramp_entry *v, int n)
{
	int i, on, fd;

	for (on = 0; on < 2; on++) {
		if (tables(on))
			return -errno;
		for (i = 0; i < n; i++) {
			if (!v[i].id)
				continue;
			fd = link_multi(prog, &v[i].id, 1);
			v[i].err[on] = fd < 0 ? -fd : 0;
			if (fd >= 0)
				close(fd);
		}
	}
	return 0;
}

static void judge_each(const struct tramp_entry *v, int n)
{
	int i, tried = 0, attached = 0, wrong = 0, errdiff = 0;
	char first[256] = "";

	for (i = 0; i < n; i++) {
		if (!v[i].id)
			continue;
		tried++;
		attached += !v[i].err[1];
		if (!v[i].err[0] != !!v[i].attachable || !v[i].err[1] != !!v[i].attachable) {
			if (!wrong++)
				snprintf(first, sizeof(first), "%s (id %u): table %s, off %s, on %s",
					 v[i].name, v[i].id, v[i].attachable ? "attachable" : "refused",
					 strerror(v[i].err[0]), strerror(v[i].err[1]));
		} else if (v[i].err[0] != v[i].err[1]) {
			errdiff++;
		}
	}
	say("tramp attach: %d tried, %d attached, %d wrong, %d other errno%s%s", tried,
	       attached, wrong, errdiff, wrong ? "; first: " : "", first);
}

/* The whole table at once: attach, run, detach; TSC counts into @t[2]. */
static int whole(int prog, int map, const uint32_t *ids, uint32_t cnt, double *t,
		 uint64_t *ran)
{
	uint64_t before, t0;
	int fd;

	t0 = tsc();
	fd = link_multi(prog, ids, cnt);
	t[0] = tsc() - t0;
	if (fd < 0)
		return fd;
	before = runs(map);
	exercise();
	*ran = runs(map) - before;
	t0 = tsc();
	close(fd);
	t[1] = tsc() - t0;
	return 0;
}

/*
 * The per-function checks alone: @ids (the attachable entries) then one
 * entry btf_distill_func_proto() refuses, so bpf_trampoline_multi_attach()
 * checks (and takes a trampoline for) every function and then rolls back
 * before any image is built. TSC counts, or -1.
 */
static double checks(int prog, uint32_t *ids, uint32_t cnt)
{
	uint64_t t0 = tsc();
	int fd = link_multi(prog, ids, cnt);

	if (fd >= 0) {
		close(fd);
		return -1;
	}
	return tsc() - t0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return v[n / 2];
}

#define CHECK_REPS	41

static void bench(int prog, int map, const struct tramp_entry *v, int n)
{
	double t[2][2][ROUNDS], c[2][CHECK_REPS], med[2][3], hz, m0 = mono();
	uint64_t ran[2] = { 0, 0 }, r = 0, s0 = tsc();
	uint32_t *ids = calloc(n + 2, sizeof(*ids)), cnt = 0, refused = 0;
	int i, on, k, err = 0;

	for (i = 0; ids && i < n; i++) {
		if (v[i].id && v[i].attachable)
			ids[cnt++] = v[i].id;
		else if (v[i].id && v[i].err[0] == EINVAL && v[i].err[1] == EINVAL && !refused)
			refused = v[i].id;	/* btf_distill_func_proto() refuses it */
	}
	if (!ids || !cnt) {
		say("tramp run FAILED (no attachable entry)");
		free(ids);
		return;
	}
	/* alternating which goes first, so neither always follows the other */
	for (k = 0; k < ROUNDS && !err; k++)
		for (i = 0; i < 2 && !err; i++) {
			double tt[2] = { 0, 0 };

			on = (i + k) % 2;
			err = tables(on) ?: whole(prog, map, ids, cnt, tt, &r);
			t[on][0][k] = tt[0];
			t[on][1][k] = tt[1];
			ran[on] = !k || r < ran[on] ? r : ran[on];
		}
	if (err) {
		say("tramp run FAILED (tracing_multi over %u functions, tables %s: %s)", cnt,
		    on ? "on" : "off", strerror(-err));
		free(ids);
		return;
	}
	say("tramp run: %u functions at once, program ran %llu times (tables off), %llu (on)",
	    cnt, (unsigned long long)ran[0], (unsigned long long)ran[1]);
	ids[cnt] = refused;
	for (k = 0; refused && k < CHECK_REPS; k++)
		for (i = 0; i < 2; i++) {
			on = (i + k) % 2;
			c[on][k] = tables(on) ? -1 : checks(prog, ids, cnt + 1);
		}
	hz = (tsc() - s0) / (mono() - m0);
	for (on = 0; on < 2; on++) {	/* median() sorts: [0] is then the fastest */
		med[on][0] = median(t[on][0], ROUNDS) / hz;
		med[on][1] = median(t[on][1], ROUNDS) / hz;
		med[on][2] = refused ? median(c[on], CHECK_REPS) / hz : -1;
	}
	say("tramp bench: %u functions, %d rounds: attach median off %.4f s on %.4f s ratio %.3f, fastest off %.4f s on %.4f s ratio %.3f; detach (reads no table) median off %.4f s on %.4f s ratio %.3f",
	    cnt, ROUNDS, med[0][0], med[1][0], med[1][0] / med[0][0], t[0][0][0] / hz,
	    t[1][0][0] / hz, t[1][0][0] / t[0][0][0], med[0][1], med[1][1], med[1][1] / med[0][1]);
	if (med[0][2] > 0 && med[1][2] > 0)
		say("tramp bench checks: %u functions, %d reps: fastest off %.6f s on %.6f s ratio %.3f (%.2f us/function off, %.2f on); median off %.6f s on %.6f s",
		    cnt, CHECK_REPS, c[0][0] / hz, c[1][0] / hz, c[1][0] / c[0][0],
		    c[0][0] / hz / cnt * 1e6, c[1][0] / hz / cnt * 1e6, med[0][2], med[1][2]);
	else
		say("tramp bench checks FAILED (%s)", refused ? "an attach meant to fail did not" :
		    "no entry the kernel refuses with EINVAL");
	free(ids);
}

/*
 * /tramp-probe: "id name" of an entry the host altered to "not attachable"
 * in a table that stays valid: the kernel must refuse it with the tables on
 * (ENOTSUPP, the table's word) and attach it with them off (BTF's word).
 */
static void probe(const char *path)
{
	int map = map_create(), prog, fd, err[2], on;
	static char log[1 << 12];
	char name[128] = "?";
	uint32_t id = 0;
	FILE *f = fopen(path, "r");

	if (!f || fscanf(f, "%u %127s", &id, name) != 2) {
		say("tramp probe FAILED (%s unreadable)", path);
		if (f)
			fclose(f);
		return;
	}
	fclose(f);
	prog = map < 0 ? -1 : prog_load(map, log, sizeof(log));
	for (on = 0; on < 2; on++) {
		err[on] = prog < 0 || tables(on) ? EIO : 0;
		fd = err[on] ? -1 : link_multi(prog, &id, 1);
		err[on] = err[on] ?: fd < 0 ? -fd : 0;
		if (fd >= 0)
			close(fd);
	}
	say("tramp probe: %s (id %u): tables off %s, on %s", name, id,
	    err[0] ? strerror(err[0]) : "attached", err[1] ? strerror(err[1]) : "attached");
	if (prog >= 0)
		close(prog);
	if (map >= 0)
		close(map);
}

void boot_tramp(const char *path, const char *probe_path)
{
	struct tramp_entry *v = NULL;
	static char log[1 << 16];
	int n, map, prog;
	char state[4] = "";
	FILE *f;

	klog();
	f = fopen(PARAM, "r");
	if (!f || !fgets(state, sizeof(state), f)) {
		say("tramp FAILED (no %s: not the patched kernel?)", PARAM);
		if (f)
			fclose(f);
		return;
	}
	fclose(f);
	say("tramp param: %c at boot", state[0]);
	if (probe_path)
		probe(probe_path);
	if (!path) {	/* the altered images: the kernel's lines, the switch, the probe */
		tables(state[0] == 'Y');
		return;
	}
	n = read_entries(path, &v);
	map = map_create();
	prog = map < 0 ? -1 : prog_load(map, log, sizeof(log));
	if (n <= 0 || prog < 0) {
		say("tramp FAILED (%s)", n <= 0 ? "no entries in /tramp.txt" :
		    map < 0 ? "cannot create the map" : "fentry.multi program refused");
		free(v);
		return;
	}
	if (attach_each(prog, v, n))
		say("tramp attach FAILED (cannot write %s: %s)", PARAM, strerror(errno));
	else
		judge_each(v, n);
	bench(prog, map, v, n);
	tables(state[0] == 'Y');
	close(prog);
	close(map);
	free(v);
}
