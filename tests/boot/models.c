// SPDX-License-Identifier: GPL-2.0
/*
 * models.c - the booted kernel judges btfids' function models.
 *
 * boot_models(): for each function of /models.txt, a fentry program is
 * loaded on its BTF ID (it reads every ctx slot the model gives that the
 * verifier lets a program read for its type) and attached. The kernel's
 * verdict is "taken", or a refusal named from the verifier log and the
 * errno of the step that refused (load or attach); it must equal btfids'
 * fentry verdict (`btfids models --all --verdicts`: reason, errno, step).
 * For an attached function a second program reads ctx[slots], one slot
 * past the model's last: the verifier must refuse it as past the last
 * argument. A refusal the kernel gives in words or with an errno no
 * verdict names is "outside the model", counted apart by the kernel's
 * error.
 *
 * boot_args(): fentry on functions reached from syscalls with known
 * arguments; each value must be in the ctx slot the model places it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>

#include "boot.h"

#ifndef ENOTSUPP
#define ENOTSUPP	524	/* kernel-internal, what the x86 trampoline returns */
#endif

static int parse_list(const char *s, uint8_t *v, int n)
{
	char *end;
	int i;

	if (!n)
		return strcmp(s, "-") ? -EINVAL : 0;
	for (i = 0; i < n; i++) {
		v[i] = strtoul(s, &end, 10);
		if (end == s || (i < n - 1 && *end != ','))
			return -EINVAL;
		s = end + 1;
	}
	return 0;
}

/*
 * /models.txt, one function a line: "id name attachable reason nr_args
 * slots sizes flags verdict errno step xverdict xerrno xstep mverdict
 * merrno mstep alias more" (reason "-" when attachable; nr_args -1 when
 * not distilled; lists comma-separated, "-" when empty; the fentry,
 * fexit (x) and fmod_ret (m) verdicts, errno and step "-" when taken;
 * alias 1 when another line's function has the same address in the ELF's
 * symbols: two BTF ids of one call site, whose links cannot both stay;
 * more 1: judge fexit and fmod_ret too). Every line must name
 * the guest's own FUNC of that ID, or the file is for another build.
 */
int boot_models_read(const char *path, const struct btf *vmlinux, struct boot_model **out)
{
	char line[512], sizes[64], flags[64];
	struct boot_model *m = NULL, *x;
	int n = 0, cap = 0, att, err = 0, k, alias, more;
	const struct btf_type *t;
	FILE *f = fopen(path, "r");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		x = boot_grow(m, &cap, n, sizeof(*m));
		if (!x) {
			err = -ENOMEM;
			break;
		}
		m = x;
		x = &m[n];
		memset(x, 0, sizeof(*x));
		k = sscanf(line, "%u %127s %d %23s %d %d %63s %63s %23s %15s %7s %23s %15s %7s "
			   "%23s %15s %7s %d %d", &x->id, x->name, &att, x->reason, &x->nr_args,
			   &x->slots, sizes, flags, x->verdict, x->verr, x->vstep, x->xverdict,
			   x->xerr, x->xstep, x->mverdict, x->merr, x->mstep, &alias, &more);
		if (k != 19 ||
		    x->nr_args > BOOT_MAX_ARGS ||
		    parse_list(sizes, x->size, x->nr_args > 0 ? x->nr_args : 0) ||
		    parse_list(flags, x->flags, x->nr_args > 0 ? x->nr_args : 0)) {
			err = -EINVAL;
			break;
		}
		x->attachable = att;
		x->alias = alias;
		x->more = more;
		t = btf__type_by_id(vmlinux, x->id);
		if (!t || !btf_is_func(t) ||
		    strcmp(btf__name_by_offset(vmlinux, t->name_off), x->name)) {
			say("models: line %d: %s is not FUNC %u of this kernel's BTF", n + 1,
			    x->name, x->id);
			err = -ESTALE;
			break;
		}
		n++;
	}
	fclose(f);
	if (err) {
		free(m);
		return err;
	}
	*out = m;
	return n;
}

static const struct btf_type *skip_mods(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	while (t && (btf_is_mod(t) || btf_is_typedef(t) || btf_is_type_tag(t)))
		t = btf__type_by_id(btf, t->type);
	return t;
}

/*
 * Whether the verifier lets a fentry program read an argument of type @id
 * (kernel/bpf/btf.c btf_ctx_access(): scalars up to 8 bytes, enums,
 * structs; void, int, struct and union pointers). The others (a 16-byte
 * int, a pointer to a pointer or a function...) are refused for their type,
 * which says nothing of the model, so they are not read.
 */
static bool readable(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t = skip_mods(btf, id);

	if (!t)
		return false;
	if (btf_is_int(t))
		return t->size <= 8;
	if (btf_is_any_enum(t) || btf_is_struct(t))
		return true;
	if (!btf_is_ptr(t))
		return false;
	if (!t->type)
		return true;
	t = skip_mods(btf, t->type);
	return t && (btf_is_int(t) || btf_is_composite(t));
}

/*
 * A program reading each ctx slot of @m's args that is readable, then
 * ctx[@extra] if @extra >= 0. Returns the instruction count.
 */
static int read_args_prog(const struct btf *btf, const struct boot_model *m, int extra,
			  struct bpf_insn *insn)
{
	const struct btf_type *proto = btf__type_by_id(btf, btf__type_by_id(btf, m->id)->type);
	const struct btf_param *p = btf_params(proto);
	int i, j, n = 0, slot = 0;

	for (i = 0; i < m->nr_args; i++) {
		int k = (m->size[i] + 7) / 8;

		if (i < (int)btf_vlen(proto) && readable(btf, p[i].type))
			for (j = 0; j < k; j++)
				insn[n++] = LDX_DW(BPF_REG_2, BPF_REG_1, 8 * (slot + j));
		slot += k;
	}
	if (extra >= 0)
		insn[n++] = LDX_DW(BPF_REG_2, BPF_REG_1, 8 * extra);
	insn[n++] = MOV_IMM(BPF_REG_0, 0);
	insn[n++] = EXIT();
	return n;
}

/* what the kernel said, named as btfids names its verdicts */
struct verdict {
	const char *reason;	/* "taken", a verdict's reason; NULL: outside */
	const char *err;	/* "EINVAL"...; "-" when taken */
	const char *step;	/* "load", "attach"; "-" when taken */
	char outside[48];	/* the kernel's error, when outside */
	char detail[160];
};

static void said(struct verdict *v, const char *reason, const char *err, const char *step)
{
	v->reason = reason;
	v->err = err;
	v->step = step;
}

/* name a failed load by the verifier's words (btf_distill_func_proto(), check_attach_btf_id()) */
static void load_refusal(int err, struct verdict *v)
{
	static const struct {
		const char *words, *reason;
	} distill[] = {		/* in this order: "return type" before "type" */
		{ "arguments. Too many.", "too-many-args" },
		{ "return type", "ret-unsupported" },
		{ "with variable args is unsupported", "variadic" },
		{ "type", "arg-unsupported" },	/* "... arg%d type %s is unsupported." */
		{ "malformed void argument", "void-arg" },
	};
	const char *l = last_log_line();
	size_t i;

	snprintf(v->detail, sizeof(v->detail), "load: %s: %s", strerror(-err), l);
	if (err == -ENOENT && strstr(l, "cannot be found")) {
		said(v, "no-address", "ENOENT", "load");
		return;
	}
	/*
	 * the patched kernel (kernel/7.3): kallsyms holds the name at two or
	 * more text addresses; nothing else at load gives this errno
	 */
	if (err == -EADDRNOTAVAIL) {
		said(v, "ambiguous-name", "EADDRNOTAVAIL", "load");
		return;
	}
	if (err == -EOPNOTSUPP && strstr(l, ">8 byte return value")) {
		said(v, "ret-over-8", "EOPNOTSUPP", "load");
		return;
	}
	if (err == -EINVAL && strstr(l, "__noreturn")) {
		said(v, "noreturn", "EINVAL", "load");
		return;
	}
	if (err == -EINVAL && strstr(l, "is not modifiable")) {
		said(v, "not-modifiable", "EINVAL", "load");
		return;
	}
	/*
	 * check_attach_btf_id()'s btf_id_deny refusal: 6.12 says no word,
	 * 6.1 only the verifier's closing line with no instruction processed,
	 * 7.x "Attaching tracing programs to function '%s' is rejected."
	 */
	if (err == -EINVAL && (!l[0] || !strncmp(l, "processed 0 insns", 17) ||
			       (strstr(l, "Attaching tracing programs to function '") &&
				strstr(l, "' is rejected.")))) {
		said(v, "deny", "EINVAL", "load");
		return;
	}
	for (i = 0; err == -EINVAL && i < sizeof(distill) / sizeof(distill[0]); i++) {
		if (strstr(l, distill[i].words) &&
		    (strstr(l, "is unsupported") || strstr(l, "Too many") ||
		     strstr(l, "malformed void"))) {
			said(v, distill[i].reason, "EINVAL", "load");
			return;
		}
	}
	snprintf(v->outside, sizeof(v->outside), "load %s: %.30s", strerror(-err), l);
}

#if defined(__aarch64__) || defined(__s390x__)
struct ksym_addr {
	uint64_t addr;
	char name[64];
};

static uint64_t *text_starts, *site_funcs;	/* sorted */
static size_t nr_text, nr_site_funcs;
static struct ksym_addr *by_name;	/* sorted by name, then address */
static size_t nr_by_name;

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_ksym(const void *a, const void *b)
{
	const struct ksym_addr *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : cmp_u64(&x->addr, &y->addr);
}

static int cmp_ksym_name(const void *a, const void *b)
{
	return strcmp(((const struct ksym_addr *)a)->name, ((const struct ksym_addr *)b)->name);
}

static void *grow(void *p, size_t *cap, size_t n, size_t size)
{
	void *x;

	if (n < *cap)
		return p;
	*cap = *cap ? 2 * *cap : 4096;
	x = realloc(p, *cap * size);
	if (!x)
		free(p);
	return x;
}

/* /proc/kallsyms' text symbols: their starts, and each name's addresses */
static void read_kallsyms(void)
{
	size_t cap_t = 0, cap_n = 0;
	char line[256], type, name[64];
	unsigned long long a;
	FILE *f = fopen("/proc/kallsyms", "r");

	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %63s", &a, &type, name) != 3 ||
		    !strchr("tTwW", type))
			continue;
		text_starts = grow(text_starts, &cap_t, nr_text, sizeof(*text_starts));
		by_name = grow(by_name, &cap_n, nr_by_name, sizeof(*by_name));
		if (!text_starts || !by_name)
			break;
		text_starts[nr_text++] = a;
		by_name[nr_by_name].addr = a;
		snprintf(by_name[nr_by_name++].name, sizeof(by_name[0].name), "%s", name);
	}
	if (f)
		fclose(f);
	if (text_starts)
		qsort(text_starts, nr_text, sizeof(*text_starts), cmp_u64);
	if (by_name)
		qsort(by_name, nr_by_name, sizeof(*by_name), cmp_ksym);
}

/* the start of the text symbol @ip is in, or 0 */
static uint64_t sym_start(uint64_t ip)
{
	size_t lo = 0, hi = nr_text;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (text_starts[mid] <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? text_starts[lo - 1] : 0;
}

/* The kallsyms entries of @name (sorted by name, then address): the first, and how many */
static struct ksym_addr *ksyms_named(const char *name, size_t *n)
{
	struct ksym_addr key = { 0 }, *k;

	snprintf(key.name, sizeof(key.name), "%s", name);
	k = by_name ? bsearch(&key, by_name, nr_by_name, sizeof(*by_name), cmp_ksym_name) : NULL;
	while (k && k > by_name && !strcmp(k[-1].name, name))
		k--;
	for (*n = 0; k && k + *n < by_name + nr_by_name && !strcmp(k[*n].name, name); (*n)++)
		;
	return k;
}

/*
 * Before 6.5 (no available_filter_functions_addrs): available_filter_functions
 * names the symbol of each record (vmlinux's: a module's end in " [mod]"),
 * so every address kallsyms has for a listed name is a function with a
 * record (an alias, two names at one address, is found through either).
 * A name at more addresses than it is listed is undecided: which of them
 * has the record, the names cannot say.
 */
static char **undecided;	/* sorted */
static size_t nr_undecided;

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void read_site_names(size_t *cap)
{
	size_t i, j, n, nr = 0, lcap = 0, ucap = 0;
	char line[256], **names = NULL;
	struct ksym_addr *k;
	FILE *f = fopen("/sys/kernel/tracing/available_filter_functions", "r");

	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (strchr(line, ' ') || !line[0])
			continue;
		names = grow(names, &lcap, nr, sizeof(*names));
		if (!names || !(names[nr] = strdup(line)))
			break;
		nr++;
	}
	if (f)
		fclose(f);
	if (names)
		qsort(names, nr, sizeof(*names), cmp_str);
	/* each name once: its addresses have records; listed fewer times, undecided */
	for (i = 0; i < nr; i = j) {
		for (j = i + 1; j < nr && !strcmp(names[j], names[i]); j++)
			;
		k = ksyms_named(names[i], &n);
		for (size_t a = 0; k && a < n; a++) {
			site_funcs = grow(site_funcs, cap, nr_site_funcs, sizeof(*site_funcs));
			if (!site_funcs)
				return;
			site_funcs[nr_site_funcs++] = k[a].addr;
		}
		if (n > j - i) {
			undecided = grow(undecided, &ucap, nr_undecided, sizeof(*undecided));
			if (undecided)
				undecided[nr_undecided++] = names[i];
		}
	}
}

/* @name's record cannot be told from the names alone (read_site_names()) */
static inline bool site_undecided(const char *name)
{
	return undecided && bsearch(&name, undecided, nr_undecided, sizeof(*undecided), cmp_str);
}
#endif

static int undecided_judged;	/* verdicts taken either way: "site-undecided" */

/*
 * "site-undecided": the kernel's ENOTSUPP at attach is either arm64 reason
 * (the names could not say which); the verdict's, when it is one of them
 */
static void undecided_as(struct verdict *v, const char *reason, const char *err, const char *step)
{
	if (!v->reason || strcmp(v->reason, "site-undecided") || strcmp(v->err, err) ||
	    strcmp(v->step, step) ||
	    (strcmp(reason, "no-ftrace-site") && strcmp(reason, "no-direct-call")))
		return;
	v->reason = reason;
	undecided_judged++;
}
#if defined(__aarch64__) || defined(__s390x__)

/*
 * The function kallsyms_lookup_name(@name) gives (its lowest address)
 * has an ftrace record now: available_filter_functions_addrs, each record
 * mapped to the symbol it is in (by address: two static functions of one
 * name are told apart); before 6.5, available_filter_functions by name
 */
static bool at_site(const char *name)
{
	static bool read;
	struct ksym_addr key = { 0 }, *k;
	unsigned long long ip;
	size_t cap = 0;
	char line[256];
	FILE *f;

	if (!read) {
		read = true;
		read_kallsyms();
		f = fopen("/sys/kernel/tracing/available_filter_functions_addrs", "r");
		while (f && text_starts && fgets(line, sizeof(line), f)) {
			if (sscanf(line, "%llx", &ip) != 1)
				continue;
			site_funcs = grow(site_funcs, &cap, nr_site_funcs, sizeof(*site_funcs));
			if (!site_funcs)
				break;
			site_funcs[nr_site_funcs++] = sym_start(ip);
		}
		if (f)
			fclose(f);
		else if (text_starts)
			read_site_names(&cap);
		if (site_funcs)
			qsort(site_funcs, nr_site_funcs, sizeof(*site_funcs), cmp_u64);
	}
	snprintf(key.name, sizeof(key.name), "%s", name);
	/* the first of the name: its lowest address */
	k = by_name ? bsearch(&key, by_name, nr_by_name, sizeof(*by_name), cmp_ksym_name) : NULL;
	while (k && k > by_name && !strcmp(k[-1].name, name))
		k--;
	return k && site_funcs &&
	       bsearch(&k->addr, site_funcs, nr_site_funcs, sizeof(*site_funcs), cmp_u64);
}
#endif

/*
 * Whether this kernel has ftrace direct calls (register_fentry() needs
 * them for a function with an ftrace record: arm64 before 6.4 has none):
 * an fentry program that reads nothing, on the first of a few everyday
 * functions the kernel has a record of, once; true when it attaches or
 * the probe cannot tell (no such function), false when it is ENOTSUPP.
 * Said on a line of its own the first time (boot.h).
 */
#if defined(__aarch64__) || defined(__s390x__)
bool boot_direct_calls(const struct btf *btf)
{
	static const char *const names[] = { "vfs_read", "vfs_write", "do_sys_openat2" };
	const struct bpf_insn insn[] = { MOV_IMM(BPF_REG_0, 0), EXIT() };
	static int direct = -1;
	size_t i;

	for (i = 0; btf && direct < 0 && i < sizeof(names) / sizeof(names[0]); i++) {
		int id = btf__find_by_name_kind(btf, names[i], BTF_KIND_FUNC), fd, lfd, err;

		if (id <= 0 || !at_site(names[i]))
			continue;
		fd = load_fentry(id, insn, 2, false);
		if (fd < 0)
			continue;
		lfd = bpf_raw_tracepoint_open(NULL, fd);
		err = errno;
		close(fd);
		if (lfd >= 0)
			close(lfd);
		direct = !(lfd < 0 && err == ENOTSUPP);
		printf("boot: models: ftrace direct calls: %s (an empty fentry program on %s: %s)\n",
		       direct ? "yes" : "no", names[i], lfd >= 0 ? "attached" : strerror(err));
	}
	if (direct < 0)
		direct = 1;
	return direct;
}
#else
bool boot_direct_calls(const struct btf *btf)
{
	(void)btf;
	return true;	/* x86_64: fentry on kernel functions since it has trampolines */
}
#endif

/* name a failed attach by its errno (bpf_trampoline_update(), register_fentry()) */
static void attach_refusal(int err, const struct boot_model *m, struct verdict *v)
{
	snprintf(v->detail, sizeof(v->detail), "attach: %s (%d)", strerror(err), err);
#if defined(__aarch64__)
	/*
	 * arm64's bpf_arch_text_poke() pokes BPF text only: a function with
	 * no ftrace record (none, or freed with init memory) is ENOTSUPP too;
	 * the kernel's list of records tells the two apart. With a record, a
	 * kernel without ftrace direct calls is ENOTSUPP as well (the probe)
	 */
	if (err == ENOTSUPP && m->attachable && !at_site(m->name)) {
		said(v, "no-ftrace-site", "ENOTSUPP", "attach");
		return;
	}
	if (err == ENOTSUPP && m->attachable && !boot_direct_calls(NULL)) {
		said(v, site_undecided(m->name) ? "site-undecided" : "no-direct-call", "ENOTSUPP",
		     "attach");
		return;
	}
#elif defined(__s390x__)
	/* s390's: EINVAL where the entry is no mcount nop (no record) */
	if (err == EINVAL && m->attachable && !at_site(m->name)) {
		said(v, "no-ftrace-site", "EINVAL", "attach");
		return;
	}
#endif
	if (err == ENOTSUPP)	/* arch_prepare_bpf_trampoline(): the arch's model reason */
		said(v, m->attachable ? "arch-refused" : m->reason, "ENOTSUPP", "attach");
	else if (err == EBUSY)	/* bpf_arch_text_poke(): not a 5-byte nop, no ftrace site */
		said(v, "no-ftrace-site", "EBUSY", "attach");
	else if (err == EINVAL)	/* bpf_arch_text_poke(): not kernel text (init text, freed) */
		said(v, "init-text", "EINVAL", "attach");
	else
		snprintf(v->outside, sizeof(v->outside), "attach errno %d (%s)", err,
			 strerror(err));
}

static double t_load, t_attach, t_detach, t_beyond;

static void judge(const struct btf *btf, const struct boot_model *m, struct verdict *v)
{
	struct bpf_insn insn[2 * BOOT_MAX_ARGS + 4];
	int fd, lfd, n;
	double t = now();

	memset(v, 0, sizeof(*v));
	n = read_args_prog(btf, m, -1, insn);
	fd = load_fentry(m->id, insn, n, false);
	t_load += now() - t;
	t = now();
	if (fd < 0) {
		load_refusal(fd, v);
		return;
	}
	lfd = bpf_raw_tracepoint_open(NULL, fd);
	t_attach += now() - t;
	t = now();
	if (lfd < 0) {
		int err = errno;

		close(fd);
		attach_refusal(err, m, v);
		return;
	}
	/*
	 * The link stays: a detach waits for RCU-tasks grace periods under
	 * ftrace's direct_mutex (unregister_ftrace_direct()), about 90 ms
	 * each under TCG, so the links are left until the reboot.
	 */
	if (m->alias)	/* the other id of this call site must find it free */
		close(lfd);
	close(fd);
	t_detach += now() - t;
	t = now();
	said(v, "taken", "-", "-");
	if (m->slots >= BOOT_MAX_ARGS || m->nr_args < 0)
		return;		/* ctx[12] is refused for any function */
	/* one slot past the model's args: past the last argument for the kernel too */
	n = read_args_prog(btf, m, m->slots, insn);
	fd = load_fentry(m->id, insn, n, true);
	if (fd >= 0) {
		close(fd);
		v->reason = "ctx-wider";	/* never a verdict: counts as differing */
		snprintf(v->detail, sizeof(v->detail), "the verifier lets ctx[%d] be read",
			 m->slots);
	} else if (!strstr(boot_log, "doesn't have")) {
		v->reason = "ctx-refused-other";	/* likewise */
		snprintf(v->detail, sizeof(v->detail), "ctx[%d]: %s", m->slots, last_log_line());
	}
	t_beyond += now() - t;
}

#define MAX_OUTSIDE	16

/* The kernel's verdict on a program of attach @type (fexit, fmod_ret) on @m alone */
static void judge_type(const struct boot_model *m, int type, struct verdict *v)
{
	const struct bpf_insn insn[] = { MOV_IMM(BPF_REG_0, 0), EXIT() };
	int fd, lfd;

	memset(v, 0, sizeof(*v));
	fd = load_tracing(type, m->id, insn, 2, false);
	if (fd < 0) {
		load_refusal(fd, v);
		return;
	}
	lfd = bpf_raw_tracepoint_open(NULL, fd);
	if (lfd < 0) {
		int err = errno;

		close(fd);
		attach_refusal(err, m, v);
		return;
	}
	if (m->alias)
		close(lfd);
	close(fd);
	said(v, "taken", "-", "-");
}

struct type_count {
	const char *name;
	int tried, agree, differ, outside;
};

/* fexit and fmod_ret on the functions marked "more" */
static void judge_more(const struct boot_model *m, struct type_count tc[2])
{
	static const int types[2] = { BPF_TRACE_FEXIT, BPF_MODIFY_RETURN };
	const char *want[2][3] = {
		{ m->xverdict, m->xerr, m->xstep }, { m->mverdict, m->merr, m->mstep },
	};
	struct verdict v;

	for (int k = 0; k < 2; k++) {
		judge_type(m, types[k], &v);
		tc[k].tried++;
		if (!v.reason) {
			tc[k].outside++;
			say("models: %s: outside: %s (id %u): %s", tc[k].name, m->name, m->id,
			    v.outside);
			continue;
		}
		if (!strcmp(want[k][0], "cpu-alternative") &&
		    (!strcmp(v.reason, "taken") || !strcmp(v.reason, "no-ftrace-site")))
			said(&v, "cpu-alternative", want[k][1], want[k][2]);
		undecided_as(&v, want[k][0], want[k][1], want[k][2]);
		if (!strcmp(v.reason, want[k][0]) && !strcmp(v.err, want[k][1]) &&
		    !strcmp(v.step, want[k][2])) {
			tc[k].agree++;
			continue;
		}
		if (tc[k].differ++ < 10)
			say("models: %s: differ: %s (id %u): btfids %s %s %s, kernel %s %s %s (%s)",
			    tc[k].name, m->name, m->id, want[k][0], want[k][1], want[k][2],
			    v.reason, v.err, v.step, v.detail);
	}
}

void boot_models(const struct btf *vmlinux, const struct boot_model *m, int n, int budget)
{
	struct {
		char what[48];
		int n;
		const char *example;
	} out[MAX_OUTSIDE] = {}, ref[MAX_OUTSIDE] = {};
	int i, j, agree = 0, differ = 0, outside = 0, nout = 0, nref = 0, attached = 0;
	char (*diffs)[320] = calloc(n, sizeof(*diffs));
	struct type_count tc[2] = { { .name = "fexit" }, { .name = "fmod_ret" } };
	double t0 = now();
	struct verdict v;

	if (!diffs) {
		say("models FAILED (out of memory)");
		return;
	}
	boot_direct_calls(vmlinux);
	for (i = 0; i < n; i++) {
		if (i && i % 1000 == 0)
			printf("boot: progress %d/%d, %.1f s\n", i, n, now() - t0);
		if (budget > 0 && now() - t0 > budget) {
			say("models: time budget of %d s reached after %d of %d functions", budget,
			    i, n);
			break;
		}
		judge(vmlinux, &m[i], &v);
		if (m[i].more)
			judge_more(&m[i], tc);
		if (!v.reason) {
			outside++;
			for (j = 0; j < nout && strcmp(out[j].what, v.outside); j++)
				;
			if (j == nout && nout < MAX_OUTSIDE) {
				snprintf(out[nout].what, sizeof(out[nout].what), "%s", v.outside);
				out[nout++].example = m[i].name;
			}
			if (j < nout)
				out[j].n++;
			continue;
		}
		if (!strcmp(v.reason, "taken"))
			attached++;
		/* the build cannot tell which CPU boots: either outcome is the verdict's */
		if (!strcmp(m[i].verdict, "cpu-alternative") &&
		    (!strcmp(v.reason, "taken") || !strcmp(v.reason, "no-ftrace-site")))
			said(&v, "cpu-alternative", m[i].verr, m[i].vstep);
		undecided_as(&v, m[i].verdict, m[i].verr, m[i].vstep);
		if (!strcmp(v.reason, m[i].verdict) && !strcmp(v.err, m[i].verr) &&
		    !strcmp(v.step, m[i].vstep)) {
			agree++;
			for (j = 0; j < nref && strcmp(ref[j].what, v.reason); j++)
				;
			if (j == nref && nref < MAX_OUTSIDE)
				snprintf(ref[nref++].what, sizeof(ref[0].what), "%s", v.reason);
			if (j < nref)
				ref[j].n++;
			continue;
		}
		snprintf(diffs[differ++], sizeof(diffs[0]),
			 "%s (id %u): btfids %s %s %s, kernel %s %s %s (%s)", m[i].name, m[i].id,
			 m[i].verdict, m[i].verr, m[i].vstep, v.reason, v.err ? v.err : "",
			 v.step ? v.step : "", v.detail);
	}
	say("models: %d tried, %d agree, %d differ, %d outside the model", i, agree, differ,
	    outside);
	for (j = 0; j < 2; j++)
		say("models: %s verdicts: %d tried, %d agree, %d differ, %d outside the model",
		    tc[j].name, tc[j].tried, tc[j].agree, tc[j].differ, tc[j].outside);
	say("models: %d attached, %.1f s, %.2f ms a function", attached, now() - t0,
	    i ? (now() - t0) * 1000 / i : 0);
	say("models: seconds: load %.1f, attach %.1f, close %.1f, ctx past the args %.1f",
	    t_load, t_attach, t_detach, t_beyond);
	if (undecided_judged)
		say("models: agree: %d of them a name at more addresses than its records, before 6.5 (no available_filter_functions_addrs): no-ftrace-site or no-direct-call, both ENOTSUPP",
		    undecided_judged);
	for (j = 0; j < nref; j++)
		say("models: agree: %s: %d", ref[j].what, ref[j].n);
	for (j = 0; j < nout; j++)
		say("models: outside: %s: %d (e.g. %s)", out[j].what, out[j].n, out[j].example);
	for (i = 0; i < differ; i++)
		say("models: differ: %s", diffs[i]);
	free(diffs);
}
