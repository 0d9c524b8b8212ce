// SPDX-License-Identifier: GPL-2.0
/*
 * tramp.c - the patched 7.3 kernel (kernel/7.3, series v2) judges the
 * trampoline table btfids wrote for it: .BTF_tramp, every vmlinux BTF FUNC
 * with its func model class (tests/boot-tramp.sh).
 *
 * Built against the 7.3 tree's UAPI header (BPF_TRACE_FENTRY_MULTI,
 * link_create.tracing_multi), with raw bpf(2) calls: the guest's libbpf
 * predates tracing_multi.
 *
 *   /tramp.txt    the table as the host read it from vmlinux's bytes
 *                 (tests/tramp2_check.py's reader, not btfids): "id name
 *                 class attachable distilled" a line, in func_id order
 *   /tramp-probe  the index of the one attachable class the host altered
 *                 to "not attachable" (the table still valid)
 *
 *   klog    the kernel's own "btf_tramp:" lines (the table's validation,
 *           the CONFIG_BPF_BTF_TRAMP_SELFTEST lines), echoed "boot: ... klog:"
 *   attach  a sample of the table: every function of a class that is not
 *           attachable, every function of the image's btf_id_deny set (the
 *           verifier's; refused EINVAL whatever the class), every
 *           SAMPLE_EVERY-th function, and each class at
 *           least once (a function at an ftrace site when it has one); each
 *           alone, tables off then on (/sys/module/kernel/parameters/
 *           btf_tramp): the errno must be the one want_errno() derives from
 *           the class and from the ftrace sites (read_sites(): tracefs's
 *           records, named by /proc/kallsyms), both ways
 *   run     one link over every attachable sampled function at an ftrace
 *           site counts its runs while the guest makes syscalls, tables
 *           off and on; its attach and detach timed once (TSC)
 *   probe   every function of the altered class alone, tables off and on:
 *           attached at its ftrace sites both ways (the kernel checks the
 *           table and never trusts it: it drops the class in one line,
 *           echoed, and uses its own models)
 *   verdicts the attach verdicts of the table the kernel exports
 *           (/sys/kernel/btf_tramp/vmlinux, version 3; checked here against
 *           /sys/kernel/btf/vmlinux's crc32 with include/btfids/tramp.h's
 *           btf_tramp2_check()): for each tracing_multi type, one link over
 *           every function the table says it takes, and each function it
 *           refuses alone, with the table's errno
 *   kernel word one link of each tracing_multi type over every function of
 *           the table with BPF_F_TRACING_MULTI_SKIP_REFUSED: what it
 *           attaches and the errno of each it refuses, in one call, against
 *           the exported table's verdicts (kernel_word_type())
 *   same-name every function whose name /proc/kallsyms holds at two or
 *           more text addresses, with fentry and with fentry.multi alone:
 *           refused as btfids' verdicts say (/same-name.txt), never
 *           attached by the name to one of the addresses (same_name())
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>	/* the 7.3 tree's tools/include/uapi (tests/boot-tramp.sh) */
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <x86intrin.h>
#include <elf.h>
#include <zlib.h>

#include "boot.h"
#include "btfids/tramp.h"	/* the table's format and checks */

#ifndef ENOTSUPP
#define ENOTSUPP	524	/* the kernel's own, include/linux/errno.h */
#endif

#define PARAM		"/sys/module/kernel/parameters/btf_tramp"
#define TRACEFS		"/sys/kernel/tracing"
#define SITES		TRACEFS "/available_filter_functions_addrs"
#define SAMPLE_EVERY	20
#define NAME_MAX_LEN	512	/* KSYM_NAME_LEN */

/* One function of the table, and what attaching to it alone gave. */
struct tramp_func {
	uint32_t id;
	uint32_t class;
	char *name;
	bool attachable;	/* its class: the trampoline takes it */
	bool distilled;		/* its class: btf_distill_func_proto() takes it */
	bool denied;		/* in the image's btf_id_deny set (kernel/bpf/verifier.c) */
	bool site;		/* its name is at an ftrace call site (read_sites()) */
	uint64_t addr;		/* then its function's address (kallsyms) */
	bool shared;		/* its name is at two or more text addresses (mark_shared()) */
	bool sampled;
	int err[2];		/* attach errno alone: [0] tables off, [1] on */
};

struct tramp_table {
	struct tramp_func *f;
	int nr_funcs;
	uint32_t nr_classes;	/* the highest class index + 1 */
};

/* A text symbol of /proc/kallsyms */
struct tramp_sym {
	uint64_t addr;
	char *name;
	bool site;
};

/* The names at ftrace call sites, sorted by name */
struct tramp_sites {
	struct tramp_sym *sym;
	int cnt;
	int nrec;	/* ftrace records */
};

/*
 * The guest's CLOCK_MONOTONIC ticks in jiffies here (tinyconfig, TCG: 4 ms);
 * the TSC is fine-grained: times are TSC counts, turned into seconds with
 * the TSC rate measured against CLOCK_MONOTONIC over the whole run.
 */
static uint64_t tsc(void)
{
	return __rdtsc();
}

static long sys_bpf(int cmd, union bpf_attr *a)
{
	return syscall(__NR_bpf, cmd, a, sizeof(*a));
}

/* "1"/"0" into the tables' switch; 0 or -errno */
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

static int cmp_sym_name(const void *a, const void *b)
{
	const struct tramp_sym *x = a, *y = b;

	return strcmp(x->name, y->name);
}

/* The address of the function @name at an ftrace site, or 0 */
static uint64_t site_addr(const struct tramp_sites *s, const char *name)
{
	struct tramp_sym key = { .name = (char *)name }, *hit;

	hit = s->cnt ? bsearch(&key, s->sym, s->cnt, sizeof(*s->sym), cmp_sym_name) : NULL;
	return hit ? hit->addr : 0;
}

/* by name, then address: a name's first address first */
static int cmp_sym_name_addr(const void *a, const void *b)
{
	const struct tramp_sym *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->addr > y->addr) - (x->addr < y->addr);
}

static int cmp_sym(const void *a, const void *b)
{
	const struct tramp_sym *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

/* The text symbols of vmlinux in /proc/kallsyms, by address; count or -errno */
static int read_kallsyms(struct tramp_sym **out)
{
	char line[NAME_MAX_LEN + 64], name[NAME_MAX_LEN], type;
	struct tramp_sym *v = NULL, *x;
	int n = 0, cap = 0;
	unsigned long long addr;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		/* "addr type name", "[module]" after it for a module's */
		if (sscanf(line, "%llx %c %511s", &addr, &type, name) != 3 ||
		    !strchr("tTwW", type) || strchr(line, '['))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 1 << 15;
			x = realloc(v, cap * sizeof(*v));
			if (!x)
				break;
			v = x;
		}
		v[n].addr = addr;
		v[n].site = false;
		v[n].name = strdup(name);
		if (!v[n].name)
			break;
		n++;
	}
	fclose(f);
	qsort(v, n, sizeof(*v), cmp_sym);
	*out = v;
	return n;
}

/*
 * Mark the function holding ftrace record @ip: the symbols at the highest
 * address <= @ip (several when names alias one function; @ip may be past
 * the start, e.g. after an endbr64).
 */
static void mark_site(struct tramp_sym *v, int n, uint64_t ip)
{
	int lo = 0, hi = n, i;

	while (lo < hi) {	/* the first symbol above @ip */
		i = lo + (hi - lo) / 2;
		if (v[i].addr <= ip)
			lo = i + 1;
		else
			hi = i;
	}
	for (i = lo - 1; i >= 0 && v[i].addr == v[lo - 1].addr; i--)	/* none: lo 0 */
		v[i].site = true;
}

/*
 * Every name that bpf_check_attach_btf_id_multi() finds at an ftrace call
 * site (kallsyms_lookup_name(), then ftrace_location()): the kernel's own
 * list of ftrace records by address (tracefs), each mapped to all the
 * kallsyms names of its function; by address, since
 * available_filter_functions names an aliased function once. Their count,
 * or -errno.
 */
static int read_sites(struct tramp_sites *s)
{
	char line[NAME_MAX_LEN + 64];
	struct tramp_sym *v = NULL;
	const char *prev = NULL;
	unsigned long long ip;
	int n, i, err = 0;
	FILE *f;

	mount("tracefs", TRACEFS, "tracefs", 0, NULL);	/* EBUSY: mounted already */
	n = read_kallsyms(&v);
	if (n <= 0)
		return n ?: -ENOENT;
	f = fopen(SITES, "r");
	if (!v[n - 1].addr || !f) {	/* addresses all 0: kptr_restrict */
		err = f ? -EPERM : -errno;
		goto out;
	}
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx", &ip) == 1 && !strchr(line, '[')) {
			mark_site(v, n, ip);
			s->nrec++;
		}
	/*
	 * A name kallsyms has more than once (static functions of one name)
	 * is resolved to its first address: the name is at a site only if
	 * that function is
	 */
	qsort(v, n, sizeof(*v), cmp_sym_name_addr);
	s->sym = calloc(n, sizeof(*s->sym));
	for (i = 0; s->sym && i < n; i++) {
		bool first = !i || strcmp(prev, v[i].name);

		prev = v[i].name;
		if (v[i].site && first) {
			s->sym[s->cnt++] = v[i];
			v[i].name = NULL;	/* s->sym's now; prev still reads it */
		}
	}
	err = s->sym ? 0 : -ENOMEM;
out:
	if (f)
		fclose(f);
	for (i = 0; i < n; i++)
		free(v[i].name);
	free(v);
	return err ?: s->cnt;
}

/* /tramp.txt into @t, each function's site from @s; the count or -errno */
static int read_funcs(const char *path, const struct tramp_sites *s, struct tramp_table *t)
{
	char line[NAME_MAX_LEN + 64], name[NAME_MAX_LEN];
	int cap = 0, att, dist, deny;
	struct tramp_func *x;
	FILE *f = fopen(path, "r");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (t->nr_funcs == cap) {
			cap = cap ? 2 * cap : 1 << 14;
			x = realloc(t->f, cap * sizeof(*x));
			if (!x)
				break;
			t->f = x;
		}
		x = &t->f[t->nr_funcs];
		memset(x, 0, sizeof(*x));
		if (sscanf(line, "%u %511s %u %d %d %d", &x->id, name, &x->class, &att, &dist,
			   &deny) != 6)
			continue;
		x->name = strdup(name);
		if (!x->name)
			break;
		x->attachable = att;
		x->distilled = dist;
		x->denied = deny;
		x->addr = site_addr(s, name);
		x->site = x->addr != 0;
		if (x->class >= t->nr_classes)
			t->nr_classes = x->class + 1;
		t->nr_funcs++;
	}
	fclose(f);
	return t->nr_funcs ? t->nr_funcs : -ENOENT;
}

static int map_create(void)
{
	union bpf_attr a = {
		.map_type = BPF_MAP_TYPE_ARRAY, .key_size = 4, .value_size = 8,
		.max_entries = 1,
	};

	return sys_bpf(BPF_MAP_CREATE, &a);
}

/* a tracing_multi program of @type: counts its runs in @map_fd[0] */
static int prog_load_type(int map_fd, int type, char *log, size_t log_size)
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
		.expected_attach_type = type,
		.insns = (uintptr_t)insns, .insn_cnt = sizeof(insns) / sizeof(insns[0]),
		.license = (uintptr_t)"GPL",
		.log_buf = (uintptr_t)log, .log_size = log_size, .log_level = 1,
	};

	return sys_bpf(BPF_PROG_LOAD, &a);
}

static int prog_load(int map_fd, char *log, size_t log_size)
{
	return prog_load_type(map_fd, BPF_TRACE_FENTRY_MULTI, log, log_size);
}

/* A tracing_multi link of @type of @prog over @ids: its fd, or -errno */
static int link_multi_type(int prog, int type, const uint32_t *ids, uint32_t cnt)
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

static int link_multi(int prog, const uint32_t *ids, uint32_t cnt)
{
	return link_multi_type(prog, BPF_TRACE_FENTRY_MULTI, ids, cnt);
}

/* Attach @prog to @id alone and detach: 0, or the errno */
static int attach_alone(int prog, uint32_t id)
{
	int fd = link_multi(prog, &id, 1);

	if (fd < 0)
		return -fd;
	close(fd);
	return 0;
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

/*
 * The errno attaching fentry.multi to @f alone must give, tables @on or
 * off (0: attached), by bpf_check_attach_btf_id_multi() (kernel/bpf/
 * verifier.c) and btf_tramp_func_model() (kernel/bpf/btf_tramp.c):
 *   - a class btf_distill_func_proto() refuses: EINVAL, tables on (the
 *     class says so at once) or off (the distill says so), site or not;
 *   - a class the arch refuses: ENOTSUPP with the tables on, at once;
 *     off, ENOTSUPP from arch_prepare_bpf_trampoline() at an ftrace site,
 *     ENOENT elsewhere (the site is looked up before any image is built);
 *   - an attachable class: attached at an ftrace site, ENOENT elsewhere;
 *   - but a function of the image's btf_id_deny set: EINVAL, whatever its
 *     class (check_attach_btf_id() refuses it before the model);
 *   - and where the address is looked up (ENOENT above), a name kallsyms
 *     holds at two or more text addresses: EADDRNOTAVAIL (same_name()).
 * The site comes from tracefs and kallsyms, not from the attach: a
 * witness of its own.
 */
static int want_errno(const struct tramp_func *f, bool on)
{
	if (f->denied)
		return EINVAL;
	if (f->attachable)
		return f->shared ? EADDRNOTAVAIL : f->site ? 0 : ENOENT;
	if (!f->distilled)
		return EINVAL;
	if (!on && f->shared)
		return EADDRNOTAVAIL;
	return on || f->site ? ENOTSUPP : ENOENT;
}

/*
 * Mark the sample: every function of a class that is not attachable or in
 * btf_id_deny, every
 * SAMPLE_EVERY-th function in func_id order, then for each class without
 * a sampled function at an ftrace site its first one there, and for each
 * class still without any sampled function its first one. Counts into
 * @classes: [0] attachable classes, [1] those with a sampled function at
 * an ftrace site (attached alone). 0 or -ENOMEM.
 */
static int sample(struct tramp_table *t, int classes[2])
{
	uint8_t *seen = calloc(t->nr_classes, 1);	/* bit 0: sampled, bit 1: at a site */
	uint8_t *att = calloc(t->nr_classes, 1);
	int i, pass;
	struct tramp_func *f;

	if (!seen || !att) {
		free(seen);
		free(att);
		return -ENOMEM;
	}
	for (pass = 0; pass < 3; pass++)
		for (i = 0; i < t->nr_funcs; i++) {
			f = &t->f[i];
			att[f->class] = f->attachable;
			if (pass == 0 && (f->attachable && !f->denied && i % SAMPLE_EVERY))
				continue;
			if (pass == 1 && (seen[f->class] & 2 || !f->site || f->sampled))
				continue;
			if (pass == 2 && seen[f->class])
				continue;
			f->sampled = true;
			seen[f->class] |= 1 | (f->site ? 2 : 0);
		}
	classes[0] = classes[1] = 0;
	for (i = 0; i < (int)t->nr_classes; i++) {
		classes[0] += att[i];
		classes[1] += att[i] && seen[i] & 2;
	}
	free(seen);
	free(att);
	return 0;
}

/* The sampled functions alone, tables off then on: their errnos. */
static int attach_sample(int prog, struct tramp_table *t)
{
	int i, on;

	for (on = 0; on < 2; on++) {
		if (tables(on))
			return -errno;
		for (i = 0; i < t->nr_funcs; i++)
			if (t->f[i].sampled)
				t->f[i].err[on] = attach_alone(prog, t->f[i].id);
	}
	return 0;
}

static void judge_sample(const struct tramp_table *t, const int classes[2])
{
	int i, on, tried = 0, nref = 0, every = 0, refused = 0, attached = 0, nosite = 0;
	int wrong = 0, denied = 0;
	const struct tramp_func *f;
	char first[NAME_MAX_LEN + 128] = "";
	bool ok;

	for (i = 0; i < t->nr_funcs; i++) {
		f = &t->f[i];
		if (!f->sampled)
			continue;
		tried++;
		nref += !f->attachable;
		every += f->attachable && !(i % SAMPLE_EVERY);
		for (ok = true, on = 0; on < 2; on++)
			ok &= f->err[on] == want_errno(f, on);
		if (!ok) {
			if (!wrong++)
				snprintf(first, sizeof(first),
					 "; first: %s (id %u, class %u, %s, %s): off %s, on %s",
					 f->name, f->id, f->class,
					 f->attachable ? "attachable" : "not attachable",
					 f->site ? "an ftrace site" : "no ftrace site",
					 strerror(f->err[0]), strerror(f->err[1]));
			continue;
		}
		attached += !f->err[0];
		denied += f->denied;
		refused += !f->attachable && !f->denied;
		nosite += f->attachable && !f->site && !f->denied;
	}
	say("tramp sample: %d functions, %u classes: %d tried: %d of classes not attachable, %d every %dth, the rest for each class once; %d of the %d attachable classes at an ftrace site",
	    t->nr_funcs, t->nr_classes, tried, nref, every, SAMPLE_EVERY, classes[1], classes[0]);
	say("tramp attach: %d tried, %d attached, %d refused as their class says, %d attachable at no ftrace site (ENOENT), %d in btf_id_deny (EINVAL), tables off and on; %d wrong%s",
	    tried, attached, refused, nosite, denied, wrong, first);
}

static int cmp_func_addr(const void *a, const void *b)
{
	const struct tramp_func *x = *(const struct tramp_func *const *)a;
	const struct tramp_func *y = *(const struct tramp_func *const *)b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

/*
 * The ids of the attachable sampled functions at an ftrace site, one a
 * call site (two FUNCs of one name, or two names of one function, are one
 * call site: the kernel refuses such a link, EINVAL). Their count, or
 * -ENOMEM.
 */
static int run_ids(const struct tramp_table *t, uint32_t **out)
{
	const struct tramp_func **v = calloc(t->nr_funcs, sizeof(*v));
	uint32_t *ids = calloc(t->nr_funcs, sizeof(*ids));
	int i, n = 0, cnt = 0;

	if (!v || !ids) {
		free(v);
		free(ids);
		return -ENOMEM;
	}
	for (i = 0; i < t->nr_funcs; i++)
		if (t->f[i].sampled && t->f[i].attachable && t->f[i].site && !t->f[i].denied &&
		    !t->f[i].shared)
			v[n++] = &t->f[i];
	qsort(v, n, sizeof(*v), cmp_func_addr);
	for (i = 0; i < n; i++)
		if (!i || v[i]->addr != v[i - 1]->addr)
			ids[cnt++] = v[i]->id;
	free(v);
	*out = ids;
	return cnt;
}

/* One link over @ids: attach, run, detach; TSC counts into @t[2]. */
static int whole(int prog, int map, const uint32_t *ids, uint32_t cnt, uint64_t *t,
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

static void run(int prog, int map, const struct tramp_table *t)
{
	uint64_t ran[2] = { 0, 0 }, tt[2][2] = { { 0 } }, s0 = tsc();
	double m0 = now(), hz;
	uint32_t *ids = NULL;
	int cnt = run_ids(t, &ids), on, err = 0;
	bool failed_on = false;

	if (cnt <= 0) {
		say("tramp run FAILED (%s)", cnt ? strerror(-cnt) : "no attachable function sampled");
		return;
	}
	for (on = 0; on < 2 && !err; on++) {
		err = tables(on) ?: whole(prog, map, ids, cnt, tt[on], &ran[on]);
		failed_on = on;
	}
	free(ids);
	if (err) {
		say("tramp run FAILED (tracing_multi over %d functions, tables %s: %s)", cnt,
		    failed_on ? "on" : "off", strerror(-err));
		return;
	}
	say("tramp run: %d functions at once, program ran %llu times (tables off), %llu (on)",
	    cnt, (unsigned long long)ran[0], (unsigned long long)ran[1]);
	hz = (tsc() - s0) / (now() - m0);
	say("tramp time: %d functions, one round each (TSC): attach off %.4f s on %.4f s, detach off %.4f s on %.4f s",
	    cnt, tt[0][0] / hz, tt[1][0] / hz, tt[0][1] / hz, tt[1][1] / hz);
}

/* The kernel's lines about the classes it dropped (none before an attach), echoed */
static void klog_dropped(void)
{
	int size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0), n;
	char *buf, *p, *nl;

	if (size <= 0 || !(buf = malloc(size + 1)))
		return;
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, size);
	buf[n > 0 ? n : 0] = 0;
	for (p = buf; (nl = strchr(p, '\n')); p = nl + 1) {
		*nl = 0;
		if (strstr(p, "btf_tramp: ") && strstr(p, " dropped: "))
			say("klog: %s", strstr(p, "btf_tramp: "));
	}
	free(buf);
}

/*
 * /tramp-probe: the class the host altered from attachable to not (the
 * table still valid). The kernel checks the table and never trusts it
 * (issue 41): the class's first attach with the tables on checks it
 * against the arch's trampoline, which takes it, so the kernel drops the
 * class (one line) and models its functions itself. Each of its functions
 * alone, tables off then on: attached at its ftrace sites both ways,
 * ENOENT elsewhere; then the kernel's drop lines.
 */
static void probe(const char *path, int prog, const struct tramp_table *t)
{
	int i, n = 0, sites = 0, attached_on = 0, attached = 0, wrong = 0, err[2], on;
	char first[NAME_MAX_LEN + 96] = "", example[NAME_MAX_LEN] = "-";
	const struct tramp_func *f;
	uint32_t class;
	FILE *p = fopen(path, "r");

	if (!p || fscanf(p, "%u", &class) != 1) {
		say("tramp probe FAILED (%s unreadable)", path);
		if (p)
			fclose(p);
		return;
	}
	fclose(p);
	for (i = 0; i < t->nr_funcs; i++) {
		f = &t->f[i];
		if (f->class != class || f->denied)
			continue;
		for (on = 0; on < 2; on++)
			err[on] = tables(on) ? EIO : attach_alone(prog, f->id);
		n++;
		sites += f->site;
		attached_on += !err[1];
		attached += !err[0];
		if (!err[0] && example[0] == '-')
			snprintf(example, sizeof(example), "%s", f->name);
		/* the class is attachable to the kernel, which drops the altered one (want_errno()) */
		if (err[1] != err[0] || err[0] != (f->shared ? EADDRNOTAVAIL : f->site ? 0 : ENOENT)) {
			if (!wrong++)
				snprintf(first, sizeof(first), "; first: %s (id %u, %s): off %s, on %s",
					 f->name, f->id, f->site ? "an ftrace site" : "no ftrace site",
					 strerror(err[0]), strerror(err[1]));
		}
	}
	say("tramp probe: class %u, %d functions, %d at an ftrace site: tables on %d attached, off %d attached (e.g. %s); %d wrong%s",
	    class, n, sites, attached_on, attached, example, wrong, first);
	klog_dropped();
}

static void free_table(struct tramp_table *t, struct tramp_sites *s)
{
	int i;

	for (i = 0; i < t->nr_funcs; i++)
		free(t->f[i].name);
	free(t->f);
	for (i = 0; i < s->cnt; i++)
		free(s->sym[i].name);
	free(s->sym);
}

/*
 * The table's tracing_multi verdicts of every function (table_verdicts()):
 * "id fentry.multi fexit.multi" a line, each "taken", "same-call-site" or
 * the errno's name. Per type: one link over every function the table
 * takes, at the first try; each one it refuses alone, with its errno; and
 * a same-call-site one both ways: beside the lowest taken id of its call
 * site refused, EINVAL (kernel/7.3-fixes 3/10), alone taken.
 */
#define VERDICT_EXAMPLES	4

static const char *errno_name(int e)
{
	return e == EINVAL ? "EINVAL" : e == ENOENT ? "ENOENT" : e == EOPNOTSUPP ? "EOPNOTSUPP" :
	       e == ENOTSUPP ? "ENOTSUPP" : e == EBUSY ? "EBUSY" :
	       e == EADDRNOTAVAIL ? "EADDRNOTAVAIL" : e ? "other" : "taken";
}

struct id_addr {
	uint32_t id;
	uint64_t addr;
};

static int cmp_id_addr_id(const void *a, const void *b)
{
	const struct id_addr *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static int cmp_id_addr_addr(const void *a, const void *b)
{
	const struct id_addr *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/*
 * Of @ids[0..n), one id a call site, in place, by @t's addresses of the
 * functions at ftrace sites: two names of one function (such as
 * __x64_sys_munlockall and __do_sys_munlockall) are each taken alone, but
 * a link that names one call site twice is refused, EINVAL
 * (kernel/7.3-fixes 3/10). The count kept; @n when out of memory.
 */
static int one_per_site(const struct tramp_table *t, uint32_t *ids, int n)
{
	struct id_addr *all = calloc(t->nr_funcs ? t->nr_funcs : 1, sizeof(*all));
	struct id_addr *v = calloc(n ? n : 1, sizeof(*v)), key = { 0 }, *hit;
	int i, m = 0;

	if (!all || !v) {
		free(all);
		free(v);
		return n;
	}
	for (i = 0; i < t->nr_funcs; i++) {
		all[i].id = t->f[i].id;
		all[i].addr = t->f[i].site ? t->f[i].addr : 0;
	}
	qsort(all, t->nr_funcs, sizeof(*all), cmp_id_addr_id);
	for (i = 0; i < n; i++) {
		key.id = ids[i];
		hit = bsearch(&key, all, t->nr_funcs, sizeof(*all), cmp_id_addr_id);
		v[i].id = ids[i];
		v[i].addr = hit ? hit->addr : 0;
	}
	qsort(v, n, sizeof(*v), cmp_id_addr_addr);
	for (i = 0; i < n; i++)
		if (!i || !v[i].addr || v[i].addr != v[i - 1].addr)
			ids[m++] = v[i].id;
	free(all);
	free(v);
	return m;
}

/* @t's function @id: its address at an ftrace site, or 0 */
static uint64_t func_site(const struct tramp_table *t, uint32_t id)
{
	for (int i = 0; i < t->nr_funcs; i++)
		if (t->f[i].id == id)
			return t->f[i].site ? t->f[i].addr : 0;
	return 0;
}

/*
 * A same-call-site verdict of @x judged: a link of @x and the lowest of
 * @ids (those the verdicts take) at its call site must be refused,
 * EINVAL, and @x alone taken. True when both hold; else why in @why.
 */
static bool same_site_holds(const struct tramp_table *t, int prog, int type, uint32_t x,
			    const uint32_t *ids, int nt, char *why, size_t size)
{
	uint64_t addr = func_site(t, x);
	uint32_t pair[2] = { 0, x }, y;
	int i, j, e1, e2, fd;

	/* the table once; few ids share a site, so @ids for each of those */
	for (i = 0; addr && i < t->nr_funcs; i++) {
		y = t->f[i].id;
		if (y >= x || (pair[0] && y >= pair[0]) || !t->f[i].site || t->f[i].addr != addr)
			continue;
		for (j = 0; j < nt && ids[j] != y; j++)
			;
		if (j < nt)
			pair[0] = y;
	}
	if (!pair[0]) {
		snprintf(why, size, "id %u: same-call-site, no taken id below it at its site", x);
		return false;
	}
	fd = link_multi_type(prog, type, pair, 2);
	e1 = fd < 0 ? -fd : 0;
	if (fd >= 0)
		close(fd);
	fd = link_multi_type(prog, type, &x, 1);
	e2 = fd < 0 ? -fd : 0;
	if (fd >= 0)
		close(fd);
	if (e1 == EINVAL && !e2)
		return true;
	snprintf(why, size, "id %u: same-call-site as %u, kernel %s beside it, %s alone", x,
		 pair[0], errno_name(e1), errno_name(e2));
	return false;
}

static void judge_verdicts_type(const struct tramp_table *t, const char *path, const char *who,
				int k, int prog, int type, const char *name)
{
	uint32_t *ids = NULL, *ref = NULL, id, x;
	char want[2][16], (*refwant)[16] = NULL, ex[VERDICT_EXAMPLES][96];
	int nt = 0, nr = 0, cap = 0, q = 0, sq = 0, w = 0, fd, i, e, link_err, same, taken;
	double t0;
	FILE *f = fopen(path, "r");

	if (!f) {
		say("verdicts: %s FAILED (%s unreadable)", name, path);
		return;
	}
	while (fscanf(f, "%u %15s %15s", &id, want[0], want[1]) == 3) {
		if (nt + nr >= cap) {
			void *a, *b, *c;

			cap = cap ? 2 * cap : 4096;
			a = realloc(ids, cap * sizeof(*ids));
			ids = a ? a : ids;
			b = realloc(ref, cap * sizeof(*ref));
			ref = b ? b : ref;
			c = realloc(refwant, cap * sizeof(*refwant));
			refwant = c ? c : refwant;
			if (!a || !b || !c) {
				say("verdicts: %s FAILED (no memory)", name);
				fclose(f);
				goto out;
			}
		}
		if (!strcmp(want[k], "taken")) {
			ids[nt++] = id;
		} else {
			ref[nr] = id;
			snprintf(refwant[nr++], 16, "%s", want[k]);
		}
	}
	fclose(f);
	if (!nt) {
		say("verdicts: %s FAILED (no function taken in %s)", name, path);
		goto out;
	}
	/*
	 * the ones of a call site another taken id names: left out of the
	 * link (one_per_site()), and each a wrong verdict: the table refuses
	 * all but one id of a site (same-call-site)
	 */
	taken = same = nt;
	nt = one_per_site(t, ids, nt);
	same -= nt;
	t0 = now();
	fd = link_multi_type(prog, type, ids, nt);
	link_err = fd < 0 ? -fd : 0;
	if (fd >= 0)
		close(fd);
	say("verdicts: %s: one link over the %d taken, one a call site (%d more on those sites): %s (attach and detach %.1f s)",
	    name, nt, same, link_err ? strerror(link_err) : "attached", now() - t0);
	for (i = 0; i < nr; i++) {
		x = ref[i];
		if (!strcmp(refwant[i], "same-call-site")) {
			char why[sizeof(ex[0])];

			if (same_site_holds(t, prog, type, x, ids, nt, why, sizeof(why))) {
				q++;
				sq++;
				continue;
			}
			if (w < VERDICT_EXAMPLES)
				snprintf(ex[w], sizeof(ex[w]), "%s", why);
			w++;
			continue;
		}
		fd = link_multi_type(prog, type, &x, 1);
		e = fd < 0 ? -fd : 0;
		if (fd >= 0)
			close(fd);
		if (!strcmp(errno_name(e), refwant[i])) {
			q++;
			continue;
		}
		if (w < VERDICT_EXAMPLES)
			snprintf(ex[w], sizeof(ex[w]), "id %u: %s %s, kernel %s", x, who,
				 refwant[i], errno_name(e));
		w++;
	}
	say("verdicts: %s: %d taken by %s, %d taken by one link, %d refused by %s, %d refused by the kernel (%d of them same-call-site: beside their site's first, and taken alone), %d wrong",
	    name, taken, who, link_err ? 0 : nt, nr, who, q, sq, w + same + (link_err ? nt : 0));
	for (i = 0; i < w && i < VERDICT_EXAMPLES; i++)
		say("verdicts: %s: wrong: %s", name, ex[i]);
out:
	free(ids);
	free(ref);
	free(refwant);
}

/*
 * The kernel's own word (kernel/7.3: BPF_F_TRACING_MULTI_SKIP_REFUSED):
 * one link of @type over every function of @path, which attaches what the
 * kernel takes and gives each other one's errno, in one call; each against
 * the table's verdict @k ("taken" for 0; "same-call-site" for EINVAL, the
 * kernel keeping a site's lowest id, as the table does; else the errno's
 * name). "kernel word: <type> '*': <A> attached, <R> refused with reasons
 * in one call; the table's verdicts against them: <D> differ".
 */
static void kernel_word_type(const char *path, int k, int prog, int type, const char *name)
{
	char want[2][16], ex[VERDICT_EXAMPLES][96];
	uint32_t *ids = NULL, id;
	char (*wants)[16] = NULL;
	int n = 0, cap = 0, fd, i, a = 0, r = 0, d = 0;
	int32_t *errs = NULL;
	const char *got;
	FILE *f = fopen(path, "r");
	union bpf_attr at = { 0 };
	double t0;

	if (!f) {
		say("kernel word: %s FAILED (%s unreadable)", name, path);
		return;
	}
	while (fscanf(f, "%u %15s %15s", &id, want[0], want[1]) == 3) {
		if (n >= cap) {
			void *x, *y;

			cap = cap ? 2 * cap : 4096;
			x = realloc(ids, cap * sizeof(*ids));
			ids = x ? x : ids;
			y = realloc(wants, cap * sizeof(*wants));
			wants = y ? y : wants;
			if (!x || !y) {
				say("kernel word: %s FAILED (no memory)", name);
				fclose(f);
				goto out;
			}
		}
		ids[n] = id;
		snprintf(wants[n++], 16, "%s", want[k]);
	}
	fclose(f);
	errs = calloc(n ? n : 1, sizeof(*errs));
	if (!n || !errs) {
		say("kernel word: %s FAILED (%s)", name, n ? "no memory" : "no function");
		goto out;
	}
	at.link_create.prog_fd = prog;
	at.link_create.attach_type = type;
	at.link_create.tracing_multi.ids = (uintptr_t)ids;
	at.link_create.tracing_multi.cnt = n;
	/* shared images, as a tracer's link of every function asks (22/24) */
	at.link_create.tracing_multi.flags = BPF_F_TRACING_MULTI_SKIP_REFUSED |
					     BPF_F_TRACING_MULTI_SHARE;
	at.link_create.tracing_multi.errs = (uintptr_t)errs;
	t0 = now();
	fd = sys_bpf(BPF_LINK_CREATE, &at);
	if (fd < 0) {
		say("kernel word: %s FAILED (one link over %d functions with their refusals: %s)",
		    name, n, strerror(errno));
		goto out;
	}
	close(fd);
	for (i = 0; i < n; i++) {
		a += !errs[i];
		r += !!errs[i];
		got = errno_name(-errs[i]);
		if (!strcmp(got, wants[i]) ||
		    (errs[i] == -EINVAL && !strcmp(wants[i], "same-call-site")))
			continue;
		if (d < VERDICT_EXAMPLES)
			snprintf(ex[d], sizeof(ex[d]), "id %u: the table %s, the kernel %s", ids[i],
				 wants[i], got);
		d++;
	}
	say("kernel word: %s: one call over %d functions: %.1f s", name, n, now() - t0);
	say("kernel word: %s '*': %d attached, %d refused with reasons in one call; the table's verdicts against them: %d differ",
	    name, a, r, d);
	for (i = 0; i < d && i < VERDICT_EXAMPLES; i++)
		say("kernel word: %s: differ: %s", name, ex[i]);
out:
	free(ids);
	free(wants);
	free(errs);
}

static void judge_verdicts(const struct tramp_table *t, const char *path, const char *who, int map)
{
	static char log[1 << 12];
	static const struct {
		int type;
		const char *name;
	} types[] = {
		{ BPF_TRACE_FENTRY_MULTI, "fentry.multi" },
		{ BPF_TRACE_FEXIT_MULTI, "fexit.multi" },
	};
	size_t k;

	for (k = 0; k < 2; k++) {
		int prog = prog_load_type(map, types[k].type, log, sizeof(log));

		if (prog < 0) {
			say("verdicts: %s FAILED (the program was refused: %s)", types[k].name,
			    strerror(errno));
			continue;
		}
		judge_verdicts_type(t, path, who, k, prog, types[k].type, types[k].name);
		kernel_word_type(path, k, prog, types[k].type, types[k].name);
		close(prog);
	}
}

#define TABLE		"/sys/kernel/btf_tramp/vmlinux"
#define TABLE_VERDICTS	"/table-verdicts.txt"
#define TABLE_SINGLE	"/table-single.txt"

/*
 * The single-function attach types, judged one function at a time: a
 * program of the type loaded on the function's BTF ID (the load runs
 * bpf_check_attach_target()), then a link of its own (the attach runs
 * bpf_trampoline_link_prog()), closed at once. One fentry link, the
 * anchor, stays attached the whole time: ftrace's direct ops then stays
 * registered, so each attach and detach is one update of it (without it
 * every detach unregisters the ops; with every link kept, each attach
 * copies a filter hash of all of them).
 */
static const struct {
	int type;
	const char *name;
} single[3] = {
	{ BPF_TRACE_FENTRY, "fentry" },
	{ BPF_TRACE_FEXIT, "fexit" },
	{ BPF_MODIFY_RETURN, "fmod_ret" },
};

struct single_verdict {
	uint32_t id;
	struct btf_tramp_attach_verdict at[3];	/* the table's, in single[]'s order */
};

/* A link of @prog, of @type, on the function it was loaded for: its fd, or -errno */
static int link_single(int prog, int type)
{
	union bpf_attr a = { .link_create = { .prog_fd = prog, .attach_type = type } };
	int fd = sys_bpf(BPF_LINK_CREATE, &a);

	return fd < 0 ? -errno : fd;
}

static double t_single[3];	/* load, attach, detach: seconds */

/*
 * The kernel's verdict on a program of @type on @id alone, into @k (refusal
 * BTF_TRAMP_TAKEN, or 1 with the step and errno that refused it)
 */
static void try_single(int type, uint32_t id, struct btf_tramp_attach_verdict *k)
{
	double t = now();
	int prog = load_empty(type, 0, id), link;

	t_single[0] += now() - t;
	memset(k, 0, sizeof(*k));
	if (prog < 0) {
		k->refusal = 1;
		k->step = BTF_TRAMP_STEP_LOAD;
		k->err = -prog;
		return;
	}
	t = now();
	link = link_single(prog, type);
	t_single[1] += now() - t;
	if (link < 0) {
		k->refusal = 1;
		k->step = BTF_TRAMP_STEP_ATTACH;
		k->err = -link;
	}
	t = now();
	if (link >= 0)
		close(link);
	close(prog);
	t_single[2] += now() - t;
}

static const char *step_name(int s)
{
	return s == BTF_TRAMP_STEP_LOAD ? "load" : s == BTF_TRAMP_STEP_ATTACH ? "attach" : "-";
}

/*
 * The anchor: a fentry link on a function the table's fentry verdict takes
 * whose call site no other listed function shares (a link there would make
 * that other function's attach fail: EINVAL from 7.3's one direct ops,
 * update_ftrace_direct_add()); its fd, or -1
 */
static int anchor_link(const struct single_verdict *v, int n, const struct tramp_table *t,
		       const char **name)
{
	int i, j, k, prog, link;

	for (i = 0; i < n; i++) {
		const struct tramp_func *x = NULL;

		if (v[i].at[0].refusal != BTF_TRAMP_TAKEN)
			continue;
		for (j = 0; j < t->nr_funcs && !x; j++)
			if (t->f[j].id == v[i].id && t->f[j].addr)
				x = &t->f[j];
		for (k = 0, j = 0; x && j < t->nr_funcs; j++)
			k += t->f[j].addr == x->addr;
		if (!x || k != 1)
			continue;
		prog = load_empty(BPF_TRACE_FENTRY, 0, v[i].id);
		if (prog < 0)
			continue;
		link = link_single(prog, BPF_TRACE_FENTRY);
		close(prog);
		if (link >= 0) {
			*name = x->name;
			return link;
		}
	}
	return -1;
}

/*
 * /single-sample, when there (make check; make check-full has none): "N K",
 * judge per type every N-th function of the table and the first K of each
 * distinct verdict (refusal, step, errno) of that type, so that every
 * verdict the table gives is tried. The picks: @pick[i] for function @i.
 * The count of distinct verdicts of the table into @nv, of the picked
 * ones into @pv; the count picked returned.
 */
#define SINGLE_SAMPLE	"/single-sample"
#define SINGLE_KINDS	64

static int single_pick(const struct single_verdict *v, int n, int k, int every, int first,
		       bool *pick, int *nv, int *pv)
{
	struct btf_tramp_attach_verdict kind[SINGLE_KINDS];
	int seen[SINGLE_KINDS] = { 0 }, nk = 0, i, j, picked = 0;

	*nv = *pv = 0;
	for (i = 0; i < n; i++) {
		const struct btf_tramp_attach_verdict *a = &v[i].at[k];

		pick[i] = false;
		if (a->refusal == BTF_TRAMP_NOT_JUDGED)
			continue;
		for (j = 0; j < nk; j++)
			if (!memcmp(&kind[j], a, sizeof(*a)))
				break;
		if (j == nk && nk < SINGLE_KINDS)
			kind[nk++] = *a;
		pick[i] = !every || i % every == 0 || (j < nk && seen[j] < first);
		if (pick[i] && j < nk && !seen[j]++)
			(*pv)++;
		picked += pick[i];
	}
	*nv = nk;
	return picked;
}

/*
 * Per single type: each function the table's verdict takes is taken by a
 * link of its own at the first try; each one it refuses is refused alone,
 * at the step and with the errno the verdict gives. A "cpu-alternative"
 * verdict (an entry the boot CPU's alternatives decide) allows either.
 * Every function, or the sample of /single-sample.
 */
static void judge_single(const char *path, const struct tramp_table *t)
{
	struct single_verdict *v = NULL, *p;
	struct btf_tramp_attach_verdict got;
	char ex[VERDICT_EXAMPLES][112];
	unsigned int r[3], s[3], e[3], id;
	int n = 0, cap = 0, i, k, anchor, every = 0, first = 0, nv, pv;
	const char *aname = "";
	bool *pick = NULL;
	FILE *f = fopen(path, "r"), *g = fopen(SINGLE_SAMPLE, "r");

	if (!f) {
		say("verdicts: single FAILED (%s unreadable)", path);
		return;
	}
	while (fscanf(f, "%u %u %u %u %u %u %u %u %u %u", &id, &r[0], &s[0], &e[0], &r[1], &s[1],
		      &e[1], &r[2], &s[2], &e[2]) == 10) {
		if (n == cap) {
			p = realloc(v, (cap = cap ? 2 * cap : 1 << 15) * sizeof(*v));
			if (!p) {
				say("verdicts: single FAILED (no memory)");
				goto out;
			}
			v = p;
		}
		v[n].id = id;
		for (k = 0; k < 3; k++)
			v[n].at[k] = (struct btf_tramp_attach_verdict){ r[k], s[k], e[k] };
		n++;
	}
	if (!feof(f)) {
		say("verdicts: single FAILED (%s: line %d unreadable)", path, n + 1);
		goto out;
	}
	if (g && fscanf(g, "%d %d", &every, &first) != 2)
		every = first = 0;
	pick = calloc(n ? n : 1, sizeof(*pick));
	if (!pick) {
		say("verdicts: single FAILED (no memory)");
		goto out;
	}
	anchor = anchor_link(v, n, t, &aname);
	if (anchor < 0) {
		say("verdicts: single FAILED (no function took the anchor's fentry link)");
		goto out;
	}
	say("verdicts: single types: %d functions of the table, each tried alone%s, a fentry link on %s kept meanwhile",
	    n, every ? " (a sample)" : "", aname);
	for (k = 0; k < 3; k++) {
		int nt = 0, kt = 0, nr = 0, q = 0, w = 0, alt = 0;
		double t0 = now();
		int picked = single_pick(v, n, k, every, first, pick, &nv, &pv);

		if (every)
			say("verdicts: %s: a sample of %d: every %dth function and the first %d of each verdict; %d of the table's %d verdicts of this type tried",
			    single[k].name, picked, every, first, pv, nv);
		t_single[0] = t_single[1] = t_single[2] = 0;
		for (i = 0; i < n; i++) {
			const struct btf_tramp_attach_verdict *want = &v[i].at[k];
			bool taken = want->refusal == BTF_TRAMP_TAKEN;

			if (!pick[i])
				continue;
			try_single(single[k].type, v[i].id, &got);
			if (taken)
				nt++;
			else
				nr++;
			if (taken && !got.refusal) {
				kt++;
				continue;
			}
			if (!taken && got.refusal && got.step == want->step && got.err == want->err) {
				q++;
				continue;
			}
			if (want->refusal == BTF_TRAMP_REF_CPU_ALT && !got.refusal) {
				q++;
				alt++;
				continue;
			}
			if (w < VERDICT_EXAMPLES)
				snprintf(ex[w], sizeof(ex[w]), "id %u: the table %s %s, kernel %s %s",
					 v[i].id, taken ? "taken" : errno_name(want->err),
					 step_name(want->step),
					 got.refusal ? errno_name(got.err) : "taken",
					 step_name(got.step));
			w++;
		}
		say("verdicts: %s: %d taken by the table, %d taken by one link, %d refused by the table, %d refused by the kernel alone, %d wrong",
		    single[k].name, nt, kt, nr, q, w);
		say("verdicts: %s: a link each, %.1f s: load %.1f, attach %.1f, detach %.1f; %d cpu-alternative taken on this CPU",
		    single[k].name, now() - t0, t_single[0], t_single[1], t_single[2], alt);
		for (i = 0; i < w && i < VERDICT_EXAMPLES; i++)
			say("verdicts: %s: wrong: %s", single[k].name, ex[i]);
	}
	close(anchor);
out:
	fclose(f);
	if (g)
		fclose(g);
	free(pick);
	free(v);
}

/* All of @path into a malloc'd buffer (sysfs files report no size) */
static unsigned char *slurp(const char *path, size_t *len)
{
	size_t cap = 1 << 20;
	unsigned char *buf = malloc(cap), *p;
	int fd = open(path, O_RDONLY);
	ssize_t n;

	*len = 0;
	if (fd < 0 || !buf)
		goto fail;
	while ((n = read(fd, buf + *len, cap - *len)) > 0) {
		*len += n;
		if (*len == cap) {
			p = realloc(buf, cap *= 2);
			if (!p)
				goto fail;
			buf = p;
		}
	}
	if (n < 0)
		goto fail;
	close(fd);
	return buf;
fail:
	if (fd >= 0)
		close(fd);
	free(buf);
	return NULL;
}

/*
 * The kernel's exported table, checked as the kernel checks it (e_machine,
 * /sys/kernel/btf/vmlinux's crc32), its tracing_multi verdicts into @out
 * as judge_verdicts() reads them: "id fentry.multi fexit.multi", each
 * "taken" or the errno's name; every function's fentry, fexit and fmod_ret
 * verdicts into @single_out as judge_single() reads them: "id" and
 * "refusal step errno" for each, the table's numbers. 0, or -1 after a
 * FAILED line.
 */
/* "same-call-site" (judged in pairs: same_site_holds()), else the errno's name */
static const char *multi_verdict_name(const struct btf_tramp_attach_verdict *v)
{
	return v->refusal == BTF_TRAMP_REF_SAME_SITE ? "same-call-site" : errno_name(v->err);
}

static int table_verdicts(const char *out, const char *single_out)
{
	size_t len, blen;
	unsigned char *tab = slurp(TABLE, &len), *btf = slurp("/sys/kernel/btf/vmlinux", &blen);
	const struct btf_tramp2_hdr *h = (const void *)tab;
	int st = -1, n = 0;
	uint32_t i, where;
	FILE *f = NULL, *g = NULL;
	bool bad;

	if (!tab || !btf) {
		say("verdicts FAILED (cannot read %s)", tab ? "/sys/kernel/btf/vmlinux" : TABLE);
		goto out;
	}
	st = btf_tramp2_check(tab, len, EM_X86_64, crc32(0, btf, blen), &where);
	if (st != BTF_TRAMP2_VALID || h->version != BTF_TRAMP3_VERSION) {
		say("verdicts FAILED (%s: %s, version %u)", TABLE, btf_tramp2_status_str(st),
		    len >= sizeof(*h) ? h->version : 0);
		st = -1;
		goto out;
	}
	f = fopen(out, "w");
	g = fopen(single_out, "w");
	for (i = 0; f && g && i < h->nr_funcs; i++) {
		const struct btf_tramp_verdict *v =
			&btf_tramp2_verdicts(h)[btf_tramp2_func_verdicts(h)[i]];
		int a = BTF_TRAMP_FENTRY_MULTI, b = BTF_TRAMP_FEXIT_MULTI, k;

		fprintf(g, "%u", btf_tramp2_func_ids(h)[i]);
		for (k = BTF_TRAMP_FENTRY; k <= BTF_TRAMP_FMOD_RET; k++)
			fprintf(g, " %u %u %u", v->at[k].refusal, v->at[k].step, v->at[k].err);
		fputc('\n', g);
		if (v->at[a].refusal == BTF_TRAMP_NOT_JUDGED || v->at[b].refusal == BTF_TRAMP_NOT_JUDGED)
			continue;
		fprintf(f, "%u %s %s\n", btf_tramp2_func_ids(h)[i], multi_verdict_name(&v->at[a]),
			multi_verdict_name(&v->at[b]));
		n++;
	}
	bad = !f || !g;
	if (g && fclose(g))
		bad = true;
	if (f && fclose(f))
		bad = true;
	if (bad) {
		say("verdicts FAILED (cannot write %s or %s)", out, single_out);
		st = -1;
		goto out;
	}
	say("verdicts: %s: version %u, %u functions, %u distinct verdicts, %zu bytes, .BTF crc32 matches; %d judged for tracing_multi",
	    TABLE, h->version, h->nr_funcs, h->nr_verdicts, len, n);
out:
	free(tab);
	free(btf);
	return st;
}

/*
 * /same-name.txt (tests/boot-tramp.sh, from `btfids models --all
 * --verdicts`): "id name fentry_errno fentry_step fentry.multi_errno
 * fentry.multi_step nm" a function, step 0 and errno 0 when the verdict
 * takes it (steps as enum btf_tramp_step); nm 1 when the host's nm puts
 * the name at two or more text addresses (a witness of its own: the two
 * must agree).
 *
 * Every function whose name this kernel's kallsyms holds at two or more
 * distinct text addresses ([_stext, _etext), [_sinittext, _einittext);
 * names of one address are one function): static functions of one name in
 * two files, of which a BTF id describes one. Each is tried with fentry (a
 * program loaded on its id, then its link) and with fentry.multi (a link
 * of that one id): refused as its verdicts say, or attached. An attach
 * went to one of several addresses, picked by the name alone: to the
 * function's own code only where that can be shown, and nothing here can
 * show which of them a BTF id describes (BTF holds no address), so every
 * attach counts as to another's.
 */
#define SAME_NAME	"/same-name.txt"
#define SAME_EXAMPLES	4

struct same_name_func {
	uint32_t id;
	char name[NAME_MAX_LEN];
	int err[2], step[2];	/* the verdicts': fentry, fentry.multi */
	int nm;			/* the host's nm: at two or more text addresses */
};

/* Names of this kernel at two or more distinct text addresses, sorted */
static int shared_names(char ***out)
{
	uint64_t t0 = 0, t1 = 0, i0 = 0, i1 = 0, first = 0;
	struct tramp_sym *v = NULL;
	int n = read_kallsyms(&v), i, j, k, cnt = 0;
	char **names;

	*out = NULL;
	if (n <= 0)
		return n ?: -ENOENT;
	for (i = 0; i < n; i++) {
		if (!strcmp(v[i].name, "_stext"))
			t0 = v[i].addr;
		else if (!strcmp(v[i].name, "_etext"))
			t1 = v[i].addr;
		else if (!strcmp(v[i].name, "_sinittext"))
			i0 = v[i].addr;
		else if (!strcmp(v[i].name, "_einittext"))
			i1 = v[i].addr;
	}
	names = calloc(n, sizeof(*names));
	if (!names || !t0 || t1 <= t0 || !v[n - 1].addr) {	/* addresses 0: kptr_restrict */
		cnt = names ? -EPERM : -ENOMEM;
		free(names);
		names = NULL;
		goto out;
	}
	qsort(v, n, sizeof(*v), cmp_sym_name_addr);
	for (i = 0; i < n; i = j) {
		int distinct = 0;

		for (j = i; j < n && !strcmp(v[j].name, v[i].name); j++) {
			uint64_t a = v[j].addr;

			if (!((a >= t0 && a < t1) || (a >= i0 && a < i1)))
				continue;
			if (!distinct || a != first)
				distinct++;
			first = a;
		}
		if (distinct > 1) {
			names[cnt++] = v[i].name;
			v[i].name = NULL;
		}
	}
	*out = names;
out:
	for (k = 0; k < n; k++)
		free(v[k].name);
	free(v);
	return cnt;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The refusal of @type on @id alone: [0] step (0: attached), [1] errno */
static void same_name_try(int type, uint32_t id, int multi_prog, int got[2])
{
	struct btf_tramp_attach_verdict k;
	int fd;

	if (type == BPF_TRACE_FENTRY) {
		try_single(type, id, &k);
		got[0] = k.refusal ? k.step : 0;
		got[1] = k.refusal ? k.err : 0;
		return;
	}
	fd = link_multi_type(multi_prog, type, &id, 1);
	got[0] = fd < 0 ? BTF_TRAMP_STEP_LINK : 0;
	got[1] = fd < 0 ? -fd : 0;
	if (fd >= 0)
		close(fd);
}

/* Each function of @t whose name is at two or more text addresses: ->shared */
static void mark_shared(struct tramp_table *t)
{
	char **names = NULL;
	int nn = shared_names(&names), i;

	for (i = 0; nn > 0 && i < t->nr_funcs; i++) {
		char *key = t->f[i].name;

		t->f[i].shared = bsearch(&key, names, nn, sizeof(*names), cmp_str);
	}
	for (i = 0; i < nn; i++)
		free(names[i]);
	free(names);
}

static void same_name(const char *path)
{
	static const char *const tname[2] = { "fentry", "fentry.multi" };
	static char log[1 << 12];
	char **names = NULL, line[NAME_MAX_LEN + 64], ex[SAME_EXAMPLES][NAME_MAX_LEN + 96];
	int nn = shared_names(&names), map = -1, prog = -1, i, k, got[2];
	int n = 0, refused = 0, own = 0, other = 0, unlike = 0, w = 0, per[2][3] = { { 0 } };
	int nm = 0, nm_differ = 0;
	struct same_name_func f;
	double t0 = now();
	FILE *in = fopen(path, "r");

	if (nn <= 0 || !in) {
		say("same-name FAILED (%s)", !in ? "no " SAME_NAME :
		    nn ? "cannot read /proc/kallsyms' text symbols" : "no name at two text addresses");
		goto out;
	}
	qsort(names, nn, sizeof(*names), cmp_str);
	map = map_create();
	prog = map < 0 ? -1 : prog_load_type(map, BPF_TRACE_FENTRY_MULTI, log, sizeof(log));
	if (prog < 0) {
		say("same-name FAILED (the fentry.multi program was refused: %s)", strerror(errno));
		goto out;
	}
	while (fgets(line, sizeof(line), in)) {
		char *key = f.name;
		bool attached = false, wrong = false, ks;

		if (sscanf(line, "%u %511s %d %d %d %d %d", &f.id, f.name, &f.err[0], &f.step[0],
			   &f.err[1], &f.step[1], &f.nm) != 7) {
			say("same-name FAILED (%s: line %d unreadable)", path, n + 1);
			goto out;
		}
		ks = bsearch(&key, names, nn, sizeof(*names), cmp_str);
		nm += f.nm;
		if (ks != !!f.nm && nm_differ++ < SAME_EXAMPLES)
			say("same-name: nm and kallsyms differ: %s (id %u): at two or more text addresses by %s only",
			    f.name, f.id, ks ? "kallsyms" : "nm");
		if (!ks)
			continue;
		n++;
		for (k = 0; k < 2; k++) {
			same_name_try(k ? BPF_TRACE_FENTRY_MULTI : BPF_TRACE_FENTRY, f.id, prog, got);
			if (!got[0]) {
				attached = true;	/* to another's: see above */
				per[k][2]++;
			} else if (got[0] == f.step[k] && got[1] == f.err[k]) {
				per[k][0]++;
				continue;
			} else {
				wrong = true;
				per[k][1]++;
			}
			if (w < SAME_EXAMPLES)
				snprintf(ex[w], sizeof(ex[w]), "%s: %s (id %u): the verdict %s %s, the kernel %s %s",
					 tname[k], f.name, f.id,
					 f.step[k] ? errno_name(f.err[k]) : "taken",
					 !f.step[k] ? "" : k ? "link" : step_name(f.step[k]),
					 got[0] ? errno_name(got[1]) : "attached",
					 !got[0] ? "" : k ? "link" : step_name(got[0]));
			w++;
		}
		other += attached;
		unlike += !attached && wrong;
		refused += !attached && !wrong;
	}
	for (k = 0; k < 2; k++)
		say("same-name: %s: %d tried, %d refused as the verdicts say, %d refused otherwise, %d attached",
		    tname[k], n, per[k][0], per[k][1], per[k][2]);
	for (i = 0; i < w && i < SAME_EXAMPLES; i++)
		say("same-name: wrong: %s", ex[i]);
	say("same-name: %d names of this kernel at two or more text addresses (/proc/kallsyms); %d functions of them refused otherwise than their verdicts say; %.1f s",
	    nn, unlike, now() - t0);
	say("same-name: nm (the host's) puts %d functions' names at two or more text addresses, kallsyms %d; %d differ",
	    nm, n, nm_differ);
	say("same-name: %d functions of shared names tried, %d refused, %d attached to their own code, %d to another's",
	    n, refused, own, other);
out:
	if (in)
		fclose(in);
	if (prog >= 0)
		close(prog);
	if (map >= 0)
		close(map);
	for (i = 0; i < nn; i++)
		free(names[i]);
	free(names);
}

/*
 * The kallsyms batch pass (feature series 5/24: a tracing_multi link of
 * BATCH_LOOKUP functions or more resolves its names in one pass over
 * kallsyms) must refuse a name at two text addresses as the one-by-one
 * lookup does (same_name()): one fentry.multi link of BATCH_LOOKUP - 1
 * attachable functions, one a call site, and one function of a shared name
 * is refused, EADDRNOTAVAIL; the same link with another attachable
 * function in its place attaches. Then the threshold, where the test-only
 * counters are: the check and get stages of links of BATCH_LOOKUP / 2 and
 * BATCH_LOOKUP - 1 functions (each name looked up alone) and of
 * BATCH_LOOKUP and 2 * BATCH_LOOKUP (one pass), medians of three, and
 * where two lines through those points cross. Says "same-name batch: ...".
 */
#define BATCH_LOOKUP	4096	/* BPF_MULTI_BATCH_LOOKUP, kernel/bpf/trampoline.c */
#define TRAMP_STATS	"/sys/kernel/debug/bpf_tramp_stats"

/*
 * The get_cycles() of the "check" and "get" stages of the last
 * tracing_multi attach of @cnt functions (the test-only counters,
 * kernel/7.3-test 1/2: "stages multi_attach <cnt>: check <C> get <C>
 * ..."), or 0: the checks of each function, and the rest of the loop over
 * them (the trampolines' lookup) with the kallsyms pass before it
 */
static double check_cycles(uint32_t cnt)
{
	unsigned long long c = 0, g = 0;
	char line[512], *p, *q;
	unsigned int n;
	FILE *f;

	mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);	/* once */
	f = fopen(TRAMP_STATS, "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "stages multi_attach %u:", &n) == 1 && n == cnt &&
		    (p = strstr(line, " check ")) && (q = strstr(line, " get "))) {
			c = strtoull(p + 7, NULL, 10);
			g = strtoull(q + 5, NULL, 10);
		}
	if (f)
		fclose(f);
	return c && g ? c + g : 0;
}

/*
 * The check and get stages of a fentry.multi link of @ids[0..@cnt), attached and
 * closed: the median of three; 0 when one failed
 */
static double check_of(int prog, const uint32_t *ids, uint32_t cnt)
{
	double c[3], t;
	int i, fd;

	for (i = 0; i < 3; i++) {
		fd = link_multi(prog, ids, cnt);
		c[i] = fd >= 0 ? check_cycles(cnt) : 0;
		if (fd < 0)
			return 0;
		close(fd);
	}
	if (c[0] > c[1])
		t = c[0], c[0] = c[1], c[1] = t;
	return c[2] < c[0] ? c[0] : c[2] > c[1] ? c[1] : c[2];
}

/* The threshold's figures: one by one at n[0], n[1], one pass at n[2], n[3] */
static void batch_threshold(int prog, const uint32_t *ids)
{
	static const uint32_t n[4] = {
		BATCH_LOOKUP / 2, BATCH_LOOKUP - 1, BATCH_LOOKUP, 2 * BATCH_LOOKUP,
	};
	double c[4], a1, b1, a2, b2;
	int i;

	for (i = 0; i < 4; i++) {
		c[i] = check_of(prog, ids, n[i]);
		if (!c[i])
			return;		/* no counters: a tree without kernel/7.3-test */
	}
	/* each path a line c = a + b * n; they cross where a1 + b1 n = a2 + b2 n */
	b1 = (c[1] - c[0]) / (n[1] - n[0]);
	a1 = c[0] - b1 * n[0];
	b2 = (c[3] - c[2]) / (n[3] - n[2]);
	a2 = c[2] - b2 * n[2];
	say("same-name batch: the check and get stages (test-only counters): one by one %u names %.1f, %u names %.1f Mcycles; one kallsyms pass %u names %.1f, %u names %.1f Mcycles",
	    n[0], c[0] / 1e6, n[1], c[1] / 1e6, n[2], c[2] / 1e6, n[3], c[3] / 1e6);
	if (b1 > b2)
		say("same-name batch: one pass costs as much as the lookups one by one at %.0f names (the kernel switches at %d)",
		    (a2 - a1) / (b1 - b2), BATCH_LOOKUP);
}

static void same_name_batch(int prog, const struct tramp_table *t)
{
	const struct tramp_func **v = calloc(t->nr_funcs, sizeof(*v)), *shared = NULL;
	uint32_t *ids = calloc(2 * BATCH_LOOKUP, sizeof(*ids)), keep;
	int i, n = 0, cnt = 0, fd[2] = { -1, -1 };

	for (i = 0; v && i < t->nr_funcs; i++) {
		const struct tramp_func *f = &t->f[i];

		if (!f->attachable || !f->site || f->denied)
			continue;
		if (!f->shared)
			v[n++] = f;
		else if (!shared)
			shared = f;
	}
	if (v)
		qsort(v, n, sizeof(*v), cmp_func_addr);
	for (i = 0; v && ids && i < n && cnt < 2 * BATCH_LOOKUP; i++)
		if (!i || v[i]->addr != v[i - 1]->addr)
			ids[cnt++] = v[i]->id;
	if (!shared || cnt != 2 * BATCH_LOOKUP) {
		say("same-name batch FAILED (%s)", !v || !ids ? "no memory" :
		    !shared ? "no attachable function of a shared name" :
		    "fewer attachable functions than two batches");
		goto out;
	}
	keep = ids[BATCH_LOOKUP - 1];
	ids[BATCH_LOOKUP - 1] = shared->id;
	fd[0] = link_multi(prog, ids, BATCH_LOOKUP);
	ids[BATCH_LOOKUP - 1] = keep;
	fd[1] = link_multi(prog, ids, BATCH_LOOKUP);
	say("same-name batch: a link of %d functions with %s (id %u): %s; with another function in its place: %s",
	    BATCH_LOOKUP, shared->name, shared->id,
	    fd[0] >= 0 ? "attached" : fd[0] == -EADDRNOTAVAIL ? "EADDRNOTAVAIL" : strerror(-fd[0]),
	    fd[1] >= 0 ? "attached" : strerror(-fd[1]));
	for (i = 0; i < 2; i++)
		if (fd[i] >= 0)
			close(fd[i]);
	if (fd[1] >= 0)
		batch_threshold(prog, ids);
out:
	free(v);
	free(ids);
}

/* The table's own tests: the sample alone, one link, or the probe. */
static void boot_tramp_table(const char *path, const char *probe_path)
{
	struct tramp_table t = { 0 };
	struct tramp_sites s = { 0 };
	static char log[1 << 16];
	int n, map, prog, classes[2];

	n = read_sites(&s);
	if (n <= 0) {
		say("tramp FAILED (no ftrace sites in %s: %s)", SITES, strerror(n ? -n : ENOENT));
		free_table(&t, &s);
		return;
	}
	n = read_funcs(path, &s, &t);
	mark_shared(&t);
	map = map_create();
	prog = map < 0 ? -1 : prog_load(map, log, sizeof(log));
	if (n <= 0 || prog < 0) {
		say("tramp FAILED (%s)", n <= 0 ? "no functions in /tramp.txt" :
		    map < 0 ? "cannot create the map" : "fentry.multi program refused");
		goto out;
	}
	say("tramp sites: %d ftrace records (%s), %d names of their functions (/proc/kallsyms)",
	    s.nrec, SITES, s.cnt);
	if (probe_path) {
		probe(probe_path, prog, &t);
		goto out;
	}
	n = sample(&t, classes);
	if (n || attach_sample(prog, &t))
		say("tramp attach FAILED (%s)", n ? "no memory" : "cannot write " PARAM);
	else
		judge_sample(&t, classes);
	run(prog, map, &t);
	same_name_batch(prog, &t);
	if (!table_verdicts(TABLE_VERDICTS, TABLE_SINGLE)) {
		judge_verdicts(&t, TABLE_VERDICTS, "the table", map);
		judge_single(TABLE_SINGLE, &t);
	}
out:
	if (prog >= 0)
		close(prog);
	if (map >= 0)
		close(map);
	free_table(&t, &s);
}

void boot_tramp(const char *path, const char *probe_path)
{
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
	if (path)	/* else the refusal image: the kernel's lines, the switch */
		boot_tramp_table(path, probe_path);
	else
		say("tramp export: %s", access(TABLE, F_OK) ? "none" : TABLE);
	tables(state[0] == 'Y');
	if (path && !probe_path && !access(SAME_NAME, R_OK))	/* the tables as booted */
		same_name(SAME_NAME);
}
