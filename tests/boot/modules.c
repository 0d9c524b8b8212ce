// SPDX-License-Identifier: GPL-2.0
/*
 * modules.c - the patched 7.3 kernel with real modules loaded judges
 * btfids' attach verdicts of module functions (tests/boot-modules.sh,
 * issue 51).
 *
 * Built against the 7.3 tree's UAPI header, with raw bpf(2) calls (the
 * guest's libbpf predates tracing_multi).
 *
 *   /modules.txt     "name path" a line, in an order that loads each
 *                    module after those it depends on (modinfo's depends)
 *   /modverdicts.txt "module id name try same" and, per attach type (fentry,
 *                    fexit, fmod_ret, fentry.multi, fexit.multi), "errno
 *                    step": btfids models --all --verdicts -b vmlinux
 *                    MODULE.ko (errno 0: taken; -1: not given; step 1 load,
 *                    2 attach, 3 link); try 1: in the sample tried alone;
 *                    same: for a same-call-site verdict, the id its site's
 *                    first is (0: none)
 *
 *   load     finit_module() of each, in order
 *   verdicts every sampled function of every loaded module alone, each
 *            attach type, a program (and a link) of its own, loaded against
 *            the module's BTF (attach_btf_obj_fd): taken where the verdict
 *            says taken, else refused at its step with its errno; a
 *            same-call-site one (a tracing_multi type) taken alone and
 *            refused (EINVAL at link) beside its site's first
 *   glob     per module, one fentry.multi link over every function its
 *            verdicts take (what `<module>:*` attaches): at the first try;
 *            all the modules' links held at once
 *   word     per module and tracing_multi type, one link with the
 *            kernel's own word (BPF_F_TRACING_MULTI_SKIP_REFUSED) over
 *            every function: each id's answer against its verdict; and
 *            what the table buys for <module>:* beside it: the links over
 *            the table's list against those with the word, timed, and how
 *            many modules mainline's link (no word) refuses whole
 *   unload   a module under a fentry program cannot leave (the program
 *            holds it: bpf_check_attach_target()'s btf_try_get_module());
 *            after the detach it unloads, loads again, is attached again,
 *            many times over
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>	/* the 7.3 tree's tools/include/uapi (tests/boot-modules.sh) */
#include <sys/syscall.h>

#include "boot.h"

#define NR_TYPES	5	/* fentry, fexit, fmod_ret, fentry.multi, fexit.multi */
#define MAX_MODULES	128
#define UNLOAD_CYCLES	20

static const struct {
	int type;
	const char *name;
	bool multi;
} types[NR_TYPES] = {
	{ BPF_TRACE_FENTRY, "fentry", false },
	{ BPF_TRACE_FEXIT, "fexit", false },
	{ BPF_MODIFY_RETURN, "fmod_ret", false },
	{ BPF_TRACE_FENTRY_MULTI, "fentry.multi", true },
	{ BPF_TRACE_FEXIT_MULTI, "fexit.multi", true },
};

struct mod {
	char name[64];
	char path[128];
	bool loaded;
	int err;		/* finit_module()'s errno */
	int btf_fd;		/* its BTF object, -1 */
	int multi[NR_TYPES];	/* a tracing_multi program on its BTF, per multi type, -1 */
	int funcs, taken;	/* functions in /modverdicts.txt; fentry.multi takes */
};

struct verdict {
	int mod;		/* index into the module array */
	uint32_t id;
	char name[96];
	int try;		/* in the sample */
	uint32_t same;		/* same-call-site: its site's first id */
	int err[NR_TYPES], step[NR_TYPES];
};

static long sys_bpf(int cmd, union bpf_attr *a)
{
	return syscall(__NR_bpf, cmd, a, sizeof(*a));
}

static int read_modules(const char *path, struct mod *m)
{
	FILE *f = fopen(path, "r");
	int n = 0;

	if (!f)
		return -errno;
	while (n < MAX_MODULES && fscanf(f, "%63s %127s", m[n].name, m[n].path) == 2) {
		m[n].btf_fd = -1;
		for (int t = 0; t < NR_TYPES; t++)
			m[n].multi[t] = -1;
		n++;
	}
	fclose(f);
	return n;
}

static int mod_index(const struct mod *m, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(m[i].name, name))
			return i;
	return -1;
}

static int read_verdicts(const char *path, struct mod *m, int nm, struct verdict **out)
{
	FILE *f = fopen(path, "r");
	struct verdict *v = NULL, x;
	char mname[64];
	int n = 0, cap = 0;

	if (!f)
		return -errno;
	while (fscanf(f, "%63s %u %95s %d %u", mname, &x.id, x.name, &x.try, &x.same) == 5) {
		int ok = 1;

		for (int t = 0; t < NR_TYPES && ok; t++)
			ok = fscanf(f, "%d %d", &x.err[t], &x.step[t]) == 2;
		x.mod = mod_index(m, nm, mname);
		if (!ok || x.mod < 0)
			break;
		v = boot_grow(v, &cap, n, sizeof(*v));
		if (!v)
			break;
		v[n++] = x;
		m[x.mod].funcs++;
		m[x.mod].taken += x.err[3] == 0;
	}
	fclose(f);
	*out = v;
	return v || !n ? n : -ENOMEM;
}

/* The fd of module @name's BTF object (/sys/kernel/btf/@name), or -1 */
static int btf_fd_of(const char *name)
{
	union bpf_attr a;
	uint32_t id = 0;

	for (;;) {
		struct bpf_btf_info info = {};
		char n[64] = "";
		int fd;

		memset(&a, 0, sizeof(a));
		a.start_id = id;
		if (sys_bpf(BPF_BTF_GET_NEXT_ID, &a))
			return -1;
		id = a.next_id;
		memset(&a, 0, sizeof(a));
		a.btf_id = id;
		fd = sys_bpf(BPF_BTF_GET_FD_BY_ID, &a);
		if (fd < 0)
			continue;
		info.name = (uintptr_t)n;
		info.name_len = sizeof(n);
		memset(&a, 0, sizeof(a));
		a.info.bpf_fd = fd;
		a.info.info = (uintptr_t)&info;
		a.info.info_len = sizeof(info);
		if (!sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a) && info.kernel_btf && !strcmp(n, name))
			return fd;
		close(fd);
	}
}

static int load_module(struct mod *m)
{
	int fd = open(m->path, O_RDONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return -errno;
	if (syscall(SYS_finit_module, fd, "", 0))
		err = -errno;
	close(fd);
	return err;
}

static int link_prog(int prog, int type, const uint32_t *ids, uint32_t cnt)
{
	union bpf_attr a = { .link_create = { .prog_fd = prog, .attach_type = type } };
	int fd;

	if (ids) {
		a.link_create.tracing_multi.ids = (uintptr_t)ids;
		a.link_create.tracing_multi.cnt = cnt;
	}
	fd = sys_bpf(BPF_LINK_CREATE, &a);
	return fd < 0 ? -errno : fd;
}

/* A tracing_multi link of type @t over @ids: 0, or the errno */
static int link_multi(const struct mod *m, int t, const uint32_t *ids, uint32_t cnt)
{
	int link = m->multi[t] < 0 ? m->multi[t] :
		   link_prog(m->multi[t], types[t].type, ids, cnt);

	if (link < 0)
		return -link;
	close(link);
	return 0;
}

/*
 * The kernel's answer for type @t on @v alone: *err 0 taken, else errno at
 * *step. A same-call-site verdict is the kernel's when the function is
 * taken alone and refused beside its site's first: then *err and *step
 * are the verdict's.
 */
static void try_one(struct mod *m, const struct verdict *v, int t, int *err, int *step)
{
	int prog, link;

	*err = 0;
	*step = 0;
	if (types[t].multi) {
		uint32_t two[2] = { v->same, v->id };

		*err = link_multi(m, t, &v->id, 1);
		*step = !*err ? 0 : m->multi[t] < 0 ? 1 : 3;
		if (v->same && !*err && v->err[t] == EINVAL && link_multi(m, t, two, 2) == EINVAL) {
			*err = EINVAL;
			*step = 3;
		}
		return;
	}
	prog = load_empty(types[t].type, m->btf_fd, v->id);
	if (prog < 0) {
		*err = -prog;
		*step = 1;
		return;
	}
	link = link_prog(prog, types[t].type, NULL, 0);
	if (link < 0) {
		*err = -link;
		*step = 2;
	} else {
		close(link);
	}
	close(prog);
}

static void judge(struct mod *m, const struct verdict *v, int nv)
{
	int tried[NR_TYPES] = {}, taken[NR_TYPES] = {}, wrong[NR_TYPES] = {}, said = 0;

	for (int i = 0; i < nv; i++) {
		struct mod *mm = &m[v[i].mod];

		if (!mm->loaded || mm->btf_fd < 0 || !v[i].try)
			continue;
		for (int t = 0; t < NR_TYPES; t++) {
			int err, step;

			if (v[i].err[t] < 0)
				continue;	/* not given for this release */
			try_one(mm, &v[i], t, &err, &step);
			tried[t]++;
			taken[t] += !err;
			if (err == v[i].err[t] && (!err || step == v[i].step[t]))
				continue;
			wrong[t]++;
			if (said++ < 10)
				say("modules: wrong: %s:%s (id %u) %s: btfids says %s%d at step %d, the kernel %d at step %d",
				    mm->name, v[i].name, v[i].id, types[t].name,
				    v[i].err[t] ? "errno " : "taken ", v[i].err[t], v[i].step[t],
				    err, step);
		}
	}
	for (int t = 0; t < NR_TYPES; t++)
		say("modules: verdicts: %s: %d functions tried alone, %d taken, %d wrong",
		    types[t].name, tried[t], taken[t], wrong[t]);
}

/* Per module, one fentry.multi link over every function its verdicts take */
static void globs(struct mod *m, int nm, const struct verdict *v, int nv)
{
	int links[MAX_MODULES], held = 0, first = 0, want = 0, said = 0;
	uint32_t *ids = calloc(nv + 1, sizeof(*ids));

	for (int k = 0; k < nm; k++) {
		int n = 0;

		links[k] = -1;
		if (!m[k].loaded || m[k].multi[3] < 0 || !m[k].taken)
			continue;
		for (int i = 0; ids && i < nv; i++)
			if (v[i].mod == k && !v[i].err[3])
				ids[n++] = v[i].id;
		want++;
		links[k] = n ? link_prog(m[k].multi[3], BPF_TRACE_FENTRY_MULTI, ids, n) : -ENOMEM;
		if (links[k] >= 0) {
			first++;
			held++;
		} else if (said++ < 5) {
			say("modules: glob: %s:* (%d functions): %s", m[k].name, n, strerror(-links[k]));
		}
	}
	say("modules: glob: <module>:* at the first try %d of %d; %d links held at once", first,
	    want, held);
	for (int k = 0; k < nm; k++)
		if (links[k] >= 0)
			close(links[k]);
	free(ids);
}

/* Module @k's functions type @t has a verdict for, into @ids: how many */
static int mod_ids(const struct verdict *v, int nv, int k, int t, bool taken_only, uint32_t *ids)
{
	int n = 0;

	for (int i = 0; i < nv; i++)
		if (v[i].mod == k && v[i].err[t] >= 0 && (!taken_only || !v[i].err[t]))
			ids[n++] = v[i].id;
	return n;
}

/*
 * One tracing_multi link of type @t over @ids of module @m, asking for
 * shared images (BPF_F_TRACING_MULTI_SHARE); with @errs, the
 * kernel's own word (kernel/7.3 19/24, BPF_F_TRACING_MULTI_SKIP_REFUSED:
 * what it takes attached, each other id's -errno in @errs). The link's fd,
 * or -errno.
 */
static int link_word(const struct mod *m, int t, const uint32_t *ids, int n, int32_t *errs)
{
	union bpf_attr a = { .link_create = { .prog_fd = m->multi[t],
					      .attach_type = types[t].type } };
	int fd;

	a.link_create.tracing_multi.ids = (uintptr_t)ids;
	a.link_create.tracing_multi.cnt = n;
	/* shared images, as a tracer's link of a whole module asks (22/24) */
	a.link_create.tracing_multi.flags = BPF_F_TRACING_MULTI_SHARE;
	if (errs) {
		for (int i = 0; i < n; i++)
			errs[i] = 1;	/* a kernel without the flag leaves it */
		a.link_create.tracing_multi.flags |= BPF_F_TRACING_MULTI_SKIP_REFUSED;
		a.link_create.tracing_multi.errs = (uintptr_t)errs;
	}
	fd = sys_bpf(BPF_LINK_CREATE, &a);
	return fd < 0 ? -errno : fd;
}

/*
 * Every function of every loaded module against the kernel's own word,
 * per tracing_multi type: one link a module with BPF_F_TRACING_MULTI_
 * SKIP_REFUSED over all of its functions, each id's answer against its
 * verdict (the same errno; a same-call-site one is EINVAL, the kernel
 * keeping a site's lowest id as the table does). Every function, where
 * judge() tries a sample alone.
 */
static void kernel_word(struct mod *m, int nm, const struct verdict *v, int nv, int t,
			uint32_t *ids, int32_t *errs)
{
	int mods = 0, loaded = 0, fns = 0, att = 0, ref = 0, diff = 0, failed = 0;

	for (int k = 0; k < nm; k++) {
		int n, fd;

		loaded += m[k].loaded;
		n = m[k].loaded ? mod_ids(v, nv, k, t, false, ids) : 0;
		if (!n)
			continue;
		mods++;
		if (m[k].multi[t] < 0) {
			if (failed++ < 5)
				say("modules: kernel word: %s: %s: no program: %s", types[t].name,
				    m[k].name, strerror(-m[k].multi[t]));
			continue;
		}
		fns += n;
		fd = link_word(&m[k], t, ids, n, errs);
		if (fd < 0 && fd != -ENOENT) {
			if (failed++ < 5)
				say("modules: kernel word: %s: %s:* failed: %s", types[t].name,
				    m[k].name, strerror(-fd));
			continue;
		}
		if (fd >= 0)
			close(fd);
		for (int i = 0, j = 0; i < nv; i++) {
			if (v[i].mod != k || v[i].err[t] < 0)
				continue;
			att += !errs[j];
			ref += errs[j] < 0;
			if (errs[j] != -v[i].err[t] && diff++ < 10)
				say("modules: kernel word: %s: differ: %s:%s (id %u): the table %d, the kernel %d",
				    types[t].name, m[k].name, v[i].name, v[i].id, -v[i].err[t], errs[j]);
			j++;
		}
	}
	say("modules: kernel word: %s: %d of %d loaded modules, %d functions, one call a module: %d attached, %d refused with reasons, %d links failed; the table's verdicts against them: %d differ",
	    types[t].name, mods, loaded, fns, att, ref, failed, diff);
}

/*
 * What the table buys for <module>:* where the kernel gives its word: the
 * fentry.multi links over the table's taken list against those with the
 * word over every function, all modules one after another, timed in
 * rounds table, word, word, table in this boot after a warm-up round (the
 * links of a round closed before the next); and how many modules' <module>:* over every
 * function a kernel without the word (mainline's link) refuses whole.
 */
static void table_buys(struct mod *m, int nm, const struct verdict *v, int nv, uint32_t *ids,
		       int32_t *errs)
{
	/* a warm-up round first, not counted (the first links of a boot pay more) */
	static const bool word_round[] = { true, false, true, true, false };
	double secs[2] = {};
	int links[MAX_MODULES], mods = 0, whole = 0, fns[2] = {}, failed[2] = {};

	for (size_t r = 0; r < sizeof(word_round) / sizeof(word_round[0]); r++) {
		bool w = word_round[r];

		for (int k = 0; k < nm; k++) {
			int n;
			double t0;

			links[k] = -1;
			if (!m[k].loaded || m[k].multi[3] < 0 || !m[k].taken)
				continue;
			n = mod_ids(v, nv, k, 3, !w, ids);
			t0 = now();
			links[k] = link_word(&m[k], 3, ids, n, w ? errs : NULL);
			if (r)
				secs[w] += now() - t0;
			if (r && links[k] < 0)
				failed[w]++;	/* a failed link is quick: the figure would lie */
			if (r == 1)
				fns[0] += n;
			if (r == 2)
				fns[1] += n;
		}
		for (int k = 0; k < nm; k++)
			if (links[k] >= 0)
				close(links[k]);
	}
	for (int k = 0; k < nm; k++) {
		int n, fd;

		if (!m[k].loaded || m[k].multi[3] < 0 || !m[k].taken)
			continue;
		mods++;
		n = mod_ids(v, nv, k, 3, false, ids);
		/* mainline's: no flags (neither the word nor 22/24's sharing) */
		fd = link_prog(m[k].multi[3], BPF_TRACE_FENTRY_MULTI, ids, n);
		if (fd >= 0)
			close(fd);
		else
			whole++;
	}
	say("modules: <module>:* without the kernel's word (mainline's link over every function): %d of %d modules refused whole",
	    whole, mods);
	say("modules: <module>:* over %d modules: the table's list (%d functions) %.3f s a round, the kernel's word (%d functions, the refused left out) %.3f s a round: %.2f; links failed: %d and %d",
	    mods, fns[0], secs[0] / 2, fns[1], secs[1] / 2, secs[1] > 0 ? secs[0] / secs[1] : 0,
	    failed[0], failed[1]);
}

/*
 * A module no other depends on, under a fentry program on one of its
 * functions: it cannot leave; after the detach it unloads and loads again
 */
static void unload_cycles(struct mod *m, int nm, const struct verdict *v, int nv)
{
	int k = mod_index(m, nm, "dummy"), refused = 0, cycles = 0, i;
	const char *why = NULL;

	for (i = 0; k >= 0 && i < nv; i++)
		if (v[i].mod == k && !v[i].err[0])
			break;
	if (k < 0 || !m[k].loaded || i == nv) {
		say("modules: unload: no dummy module with a function fentry takes");
		return;
	}
	for (int c = 0; c < UNLOAD_CYCLES && !why; c++) {
		int btf = btf_fd_of("dummy"), prog, link;

		prog = btf < 0 ? -ENOENT : load_empty(BPF_TRACE_FENTRY, btf, v[i].id);
		link = prog < 0 ? prog : link_prog(prog, BPF_TRACE_FENTRY, NULL, 0);
		if (link < 0) {
			why = "attach";
		} else {
			if (syscall(SYS_delete_module, "dummy", O_NONBLOCK) == 0)
				why = "unloaded under attach";
			else
				refused += errno == EWOULDBLOCK || errno == EBUSY;
			close(link);
		}
		if (prog >= 0)
			close(prog);
		if (btf >= 0)
			close(btf);
		/* the program's module reference goes with its last fd, in RCU time */
		for (double t = now(); !why; usleep(10000)) {
			if (!syscall(SYS_delete_module, "dummy", O_NONBLOCK))
				break;
			if (now() - t > 5 * boot_scale())
				why = "no unload after the detach";
		}
		if (!why && load_module(&m[k]))
			why = "load again";
		if (!why)
			cycles++;
	}
	say("modules: unload under attach: refused while attached %d of %d, %d load/attach/detach/unload cycles%s%s",
	    refused, cycles + (why != NULL), cycles, why ? "; failed: " : "", why ? why : "");
}

void boot_modules(const char *list, const char *verdicts)
{
	static struct mod m[MAX_MODULES];
	struct verdict *v = NULL;
	uint32_t *ids;
	int32_t *errs;
	int nm = read_modules(list, m), nv, loaded = 0, said = 0, funcs = 0, nodev = 0, nobtf = 0;
	double t0 = now();

	if (nm <= 0) {
		say("modules: FAILED: %s: %s", list, nm ? strerror(-nm) : "no modules");
		return;
	}
	nv = read_verdicts(verdicts, m, nm, &v);
	if (nv <= 0) {
		say("modules: FAILED: %s: %s", verdicts, nv ? strerror(-nv) : "no functions");
		return;
	}
	for (int k = 0; k < nm; k++) {
		m[k].err = -load_module(&m[k]);
		m[k].loaded = !m[k].err;
		if (m[k].loaded) {
			loaded++;
			funcs += m[k].funcs;
			m[k].btf_fd = btf_fd_of(m[k].name);
			nobtf += m[k].btf_fd < 0;
			for (int t = 3; t < NR_TYPES && m[k].btf_fd >= 0; t++)
				m[k].multi[t] = load_empty(types[t].type, m[k].btf_fd, 0);
		} else {
			nodev += m[k].err == ENODEV;
			if (said++ < 10)
				say("modules: not loaded: %s: %s", m[k].name, strerror(m[k].err));
		}
	}
	say("modules: %d loaded of %d, %d functions; %d not for want of their device (ENODEV); %d without their BTF; %.1f s",
	    loaded, nm, funcs, nodev, nobtf, now() - t0);
	judge(m, v, nv);
	say("modules: verdicts judged in %.1f s", now() - t0);
	globs(m, nm, v, nv);
	ids = calloc(nv + 1, sizeof(*ids));
	errs = calloc(nv + 1, sizeof(*errs));
	if (ids && errs) {
		kernel_word(m, nm, v, nv, 3, ids, errs);
		kernel_word(m, nm, v, nv, 4, ids, errs);
		table_buys(m, nm, v, nv, ids, errs);
	} else {
		say("modules: kernel word: FAILED (no memory)");
	}
	free(ids);
	free(errs);
	for (int k = 0; k < nm; k++)
		for (int t = 3; t < NR_TYPES; t++)
			if (m[k].multi[t] >= 0)
				close(m[k].multi[t]);
	for (int k = 0; k < nm; k++)
		if (m[k].btf_fd >= 0)
			close(m[k].btf_fd);
	unload_cycles(m, nm, v, nv);
	free(v);
}
