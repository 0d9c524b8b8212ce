// SPDX-License-Identifier: GPL-2.0
/*
 * check_verdict.c - `btfids models --all --verdicts` on Debian's real
 * kernels (../shared/realdata/fetch-kernels), against what the kernel's
 * sources say of named functions: each expectation below cites the rule
 * and the source line that makes it. The booted kernels judge every
 * verdict of the tiny trees (tests/boot.sh); these hold for the
 * distribution builds, whose .BTF_ids sets the kernel's own tool resolved.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testlib.h"

struct expect {
	const char *kernel;	/* NULL: both */
	const char *func;
	const char *attach;	/* "fentry", "fexit", "fmod_ret" */
	const char *verdict;	/* "taken", or "<reason> <errno> <step>" */
	const char *why;	/* the source of the rule */
};

static const struct expect expects[] = {
	{ NULL, "vfs_read", "fentry", "taken", "an ordinary traced function" },
	{ NULL, "vfs_read", "fexit", "taken", "an ordinary traced function" },
	{ NULL, "vfs_read", "fmod_ret", "not-modifiable EINVAL load",
	  "no ALLOW_ERROR_INJECTION(vfs_read), not security_* (verifier.c check_attach_modify_return())" },
	{ NULL, "security_file_open", "fmod_ret", "taken",
	  "SECURITY_PREFIX \"security_\" (verifier.c check_attach_modify_return())" },
	/*
	 * Debian's kernels have no CONFIG_FUNCTION_ERROR_INJECTION: 6.12's
	 * check_attach_modify_return() then takes security_* alone
	 */
	{ "amd64-6.12", "__x64_sys_arch_prctl", "fmod_ret", "not-modifiable EINVAL load",
	  "6.12 without CONFIG_FUNCTION_ERROR_INJECTION: within_error_injection_list() is false" },
	{ NULL, "do_exit", "fentry", "taken", "noreturn_deny spares fentry" },
	{ NULL, "do_exit", "fexit", "noreturn EINVAL load",
	  "BTF_ID(func, do_exit) in noreturn_deny (verifier.c)" },
	{ NULL, "migrate_disable", "fentry", "deny EINVAL load",
	  "BTF_ID(func, migrate_disable) in btf_id_deny under CONFIG_SMP (verifier.c)" },
	{ NULL, "start_kernel", "fentry", "init-text EINVAL attach",
	  "__init start_kernel (init/main.c): freed, bpf_arch_text_poke() refuses non-kernel text" },
	/* tracing_multi (7.2 on): bpf_check_attach_btf_id_multi() of 7.3, at BPF_LINK_CREATE */
	{ "amd64-7", "do_exit", "fexit.multi", "noreturn EINVAL link",
	  "noreturn_deny, checked first for fexit.multi (verifier.c bpf_check_attach_btf_id_multi())" },
	{ "amd64-7", "do_exit", "fentry.multi", "taken", "noreturn_deny spares fentry.multi" },
	{ "amd64-7", "start_kernel", "fentry.multi", "init-text ENOENT link",
	  "!ftrace_location(addr): -ENOENT (bpf_check_attach_btf_id_multi())" },
	{ "amd64-7", "migrate_disable", "fentry.multi", "deny EINVAL link",
	  "btf_id_deny (bpf_check_attach_btf_id_multi())" },
	{ NULL, "native_sched_clock", "fentry", "no-ftrace-site EBUSY attach",
	  "noinstr native_sched_clock (arch/x86/kernel/tsc.c): no __fentry__, no nop to poke" },
	/* the model refuses a struct returned by value, every attach type alike */
	{ NULL, "ns_to_timespec64", "fentry", "ret-unsupported EINVAL load",
	  "struct timespec64 ns_to_timespec64() (kernel/time/time.c): btf_distill_func_proto() refuses a struct return (btf.c)" },
	{ "amd64-7", "ns_to_timespec64", "fexit.multi", "ret-unsupported EINVAL link",
	  "the model, at BPF_LINK_CREATE (bpf_check_attach_btf_id_multi())" },
	/* fmod_ret: a kfunc set registered with register_btf_fmodret_id_set() */
	{ NULL, "bpf_modify_return_test", "fmod_ret", "taken",
	  "BTF_ID_FLAGS(func, bpf_modify_return_test) in bpf_test_modify_return_ids, register_btf_fmodret_id_set() (net/bpf/test_run.c)" },
	{ NULL, "bpf_fentry_test1", "fmod_ret", "taken",
	  "bpf_fentry_test1 in bpf_test_modify_return_ids too (net/bpf/test_run.c), Debian having no error-injection list" },
};

/* The JSON text btfids writes for @verdict of attach type @attach */
static void want_json(const struct expect *x, char *buf, size_t len)
{
	char reason[32], err[16], step[8];

	if (!strcmp(x->verdict, "taken")) {
		snprintf(buf, len, "\"%s\":{\"taken\":true}", x->attach);
		return;
	}
	ck_assert_int_eq(sscanf(x->verdict, "%31s %15s %7s", reason, err, step), 3);
	snprintf(buf, len, "\"%s\":{\"taken\":false,\"reason\":\"%s\",\"errno\":\"%s\",\"step\":\"%s\"}",
		 x->attach, reason, err, step);
}

static char *kernel_path(const char *k)
{
	char *p;

	if (asprintf(&p, "%s/btfids/kernels/%s/vmlinux", tl_cache_dir(), k) < 0)
		return NULL;
	if (access(p, R_OK)) {
		printf("check_verdict: %s not fetched, skipped\n", k);
		free(p);
		return NULL;
	}
	return p;
}

static void check_kernel(const char *k)
{
	char *path = kernel_path(k), want[256];
	size_t i;

	if (!path)
		return;
	for (i = 0; i < sizeof(expects) / sizeof(expects[0]); i++) {
		char *out = NULL, *err = NULL;
		int rc;

		if (expects[i].kernel && strcmp(expects[i].kernel, k))
			continue;
		rc = TL_RUN_OUT(&out, &err, "models", "--all", "--verdicts", "--func",
				expects[i].func, path);

		ck_assert_msg(rc == 0, "%s: %s: exit %d: %s", k, expects[i].func, rc, err);
		want_json(&expects[i], want, sizeof(want));
		ck_assert_msg(strstr(out, want), "%s: %s %s: want %s (%s); got %s", k,
			      expects[i].func, expects[i].attach, expects[i].verdict,
			      expects[i].why, out);
		free(out);
		free(err);
	}
	free(path);
}

START_TEST(t_debian_612)
{
	check_kernel("amd64-6.12");
}
END_TEST

START_TEST(t_debian_7)
{
	check_kernel("amd64-7");
}
END_TEST

/*
 * Every FUNC gets a verdict per attach type of its release: 7.2's five
 * (tracing_multi's two with them); the counts add up
 */
START_TEST(t_every_func)
{
	char *path = kernel_path("amd64-7"), *out = NULL, *err = NULL, *p;
	long lines = 0, verdicts = 0;

	if (!path)
		return;
	ck_assert_int_eq(TL_RUN_OUT(&out, &err, "models", "--all", "--verdicts", path), 0);
	/* a byte loop: sanitizers check a whole string at each str*() call */
	for (p = out; *p; p++) {
		lines += *p == '\n';
		verdicts += *p == '"' && !strncmp(p, "\"taken\":", 8);
	}
	ck_assert_int_gt(lines, 40000);
	ck_assert_int_eq(verdicts, 5 * lines);
	free(out);
	free(err);
	free(path);
}
END_TEST

/*
 * Where no verdict can be given, none is written, and the user is told why:
 * a riscv64 image (verdicts are x86_64's, arm64's and s390x's)
 */
START_TEST(t_no_verdicts)
{
	char *dir = tl_path(tl_build_dir(), "fixtures/riscv64-linux-gnu");
	char *path = tl_path(dir, "image"), *out = NULL, *err = NULL;

	if (access(path, R_OK)) {
		printf("verdict: no verdicts for riscv64: skipped (no riscv64 fixture: its cross gcc)\n");
		goto out;
	}
	ck_assert_int_eq(TL_RUN_OUT(&out, &err, "models", "--all", "--verdicts", path), 0);
	ck_assert_ptr_null(strstr(out, "verdicts"));
	ck_assert_ptr_nonnull(strstr(err, "no attach verdicts: not an x86_64, arm64 or s390x vmlinux"));
	free(out);
	free(err);
out:
	free(path);
	free(dir);
}
END_TEST

/*
 * A module's verdicts (btfids_attach_info_read_module()), by its own
 * facts: Debian's tcp_bbr.ko and nf_conntrack.ko, against the sources'
 * rules; the patched kernel with the tree's modules loaded judges every
 * function (tests/boot-modules.sh)
 */
static const struct expect mod_expects[] = {
	{ NULL, "tcp_bbr:bbr_main", "fentry", "taken",
	  "an ordinary module function: its __fentry__ call in the module's __mcount_loc (ftrace_module_init())" },
	{ NULL, "tcp_bbr:bbr_main", "fmod_ret", "not-modifiable EINVAL load",
	  "not on the module's error-injection list, not security_* (verifier.c check_attach_modify_return())" },
	{ NULL, "tcp_bbr:bbr_register", "fentry", "no-address ENOENT load",
	  "__init bbr_register (net/ipv4/tcp_bbr.c): .init.text is no core symbol (kernel/module/kallsyms.c is_core_symbol()), so find_kallsyms_symbol_value() finds nothing once the module is live" },
	{ NULL, "tcp_bbr:bbr_unregister", "fentry", "no-ftrace-site EINVAL attach",
	  "__exit is notrace (include/linux/init.h): no __fentry__, and x86's bpf_arch_text_poke() pokes kernel and BPF text only" },
	{ "amd64-7", "tcp_bbr:bbr_unregister", "fentry.multi", "no-ftrace-site ENOENT link",
	  "!ftrace_location(addr): -ENOENT (bpf_check_attach_btf_id_multi())" },
	{ "amd64-7", "nf_conntrack:nf_ct_key_equal", "fentry", "no-ftrace-site EINVAL attach",
	  "inline is notrace (include/linux/compiler_types.h): the out-of-line copy of the inline nf_ct_key_equal() has no __fentry__" },
	{ "amd64-7", "nf_conntrack:nf_conntrack_standalone_init", "fexit", "no-address ENOENT load",
	  "__init (net/netfilter/nf_conntrack_standalone.c): freed after init, no core symbol" },
};

START_TEST(t_module)
{
	static const char *const kernels[] = { "amd64-6.12", "amd64-7" };
	size_t k, i;

	for (k = 0; k < 2; k++) {
		char *path = kernel_path(kernels[k]);

		for (i = 0; path && i < sizeof(mod_expects) / sizeof(mod_expects[0]); i++) {
			const struct expect *x = &mod_expects[i];
			const char *colon = strchr(x->func, ':');
			char *mod = NULL, *out = NULL, *err = NULL, want[256];

			if (x->kernel && strcmp(x->kernel, kernels[k]))
				continue;
			ck_assert_int_ge(asprintf(&mod, "%s/btfids/kernels/%s/modules/%.*s.ko",
						  tl_cache_dir(), kernels[k],
						  (int)(colon - x->func), x->func), 0);
			if (access(mod, R_OK)) {
				printf("check_verdict: %s not fetched, skipped\n", mod);
				free(mod);
				continue;
			}
			ck_assert_int_eq(TL_RUN_OUT(&out, &err, "models", "--all", "--verdicts",
						    "--func", colon + 1, "-b", path, mod), 0);
			want_json(x, want, sizeof(want));
			ck_assert_msg(strstr(out, want), "%s: %s %s: want %s (%s); got %s %s",
				      kernels[k], x->func, x->attach, x->verdict, x->why, out, err);
			free(out);
			free(err);
			/* without its vmlinux: no verdicts, and the user told why, exit 2 */
			ck_assert_int_eq(TL_RUN_OUT(&out, &err, "models", "--all", "--verdicts",
						    mod), 2);
			ck_assert_ptr_null(strstr(out, "verdicts"));
			ck_assert_ptr_nonnull(strstr(err, "no attach verdicts: a module needs its vmlinux (-b)"));
			ck_assert_ptr_nonnull(strstr(err, "a module's split BTF needs its base: -b vmlinux"));
			free(out);
			free(err);
			free(mod);
		}
		free(path);
	}
}
END_TEST

/*
 * Names at two or more distinct text addresses, the patched kernel's
 * refusal (include/btfids/verdict.h, step 3), told apart by another
 * reader than btfids': nm(1), its t/T/w/W symbols within [_stext, _etext)
 * and [_sinittext, _einittext).
 */
struct nm_sym {
	char *name;
	unsigned long long addr;
};

struct shared_names {
	char **v;	/* sorted */
	size_t n;
};

static int cmp_nm_sym(const void *a, const void *b)
{
	const struct nm_sym *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->addr > y->addr) - (x->addr < y->addr);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* @name at @addr appended to *@v (*@n of *@cap) */
static void nm_push(struct nm_sym **v, size_t *n, size_t *cap, const char *name,
		    unsigned long long addr)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 4096;
		*v = realloc(*v, *cap * sizeof(**v));
		ck_assert_ptr_nonnull(*v);
	}
	(*v)[*n].name = strdup(name);
	(*v)[(*n)++].addr = addr;
}

static void nm_shared(const char *path, struct shared_names *sn)
{
	unsigned long long addr, t0 = 0, t1 = 0, i0 = 0, i1 = 0;
	char *out = NULL, *line, *save = NULL, type, name[512];
	struct nm_sym *v = NULL;
	size_t n = 0, cap = 0, i, j;

	ck_assert_int_eq(tl_spawn(&out, NULL, (const char *const[]){ "nm", path, NULL }), 0);
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%llx %c %511s", &addr, &type, name) != 3)
			continue;
		if (!strcmp(name, "_stext"))
			t0 = addr;
		else if (!strcmp(name, "_etext"))
			t1 = addr;
		else if (!strcmp(name, "_sinittext"))
			i0 = addr;
		else if (!strcmp(name, "_einittext"))
			i1 = addr;
		if (!strchr("tTwW", type))
			continue;
		nm_push(&v, &n, &cap, name, addr);
	}
	ck_assert_msg(t0 && t1 > t0, "%s: nm gives no _stext and _etext", path);
	qsort(v, n, sizeof(*v), cmp_nm_sym);
	sn->v = calloc(n + 1, sizeof(*sn->v));
	sn->n = 0;
	ck_assert_ptr_nonnull(sn->v);
	for (i = 0; i < n; i = j) {
		unsigned long long first = 0;
		int distinct = 0;

		for (j = i; j < n && !strcmp(v[j].name, v[i].name); j++) {
			bool text = (v[j].addr >= t0 && v[j].addr < t1) ||
				    (v[j].addr >= i0 && v[j].addr < i1);

			if (text && (!distinct || v[j].addr != first))
				distinct++;
			if (text)
				first = v[j].addr;
		}
		if (distinct > 1)
			sn->v[sn->n++] = strdup(v[i].name);
	}
	for (i = 0; i < n; i++)
		free(v[i].name);
	free(v);
	free(out);
}

static bool shared(const struct shared_names *sn, const char *name)
{
	return sn->n && bsearch(&name, sn->v, sn->n, sizeof(*sn->v), cmp_str);
}

static void shared_free(struct shared_names *sn)
{
	size_t i;

	for (i = 0; i < sn->n; i++)
		free(sn->v[i]);
	free(sn->v);
}

#define FE_AMBIGUOUS	"\"fentry\":{\"taken\":false,\"reason\":\"ambiguous-name\",\"errno\":\"EADDRNOTAVAIL\",\"step\":\"load\"}"
#define FM_AMBIGUOUS	"\"fentry.multi\":{\"taken\":false,\"reason\":\"ambiguous-name\",\"errno\":\"EADDRNOTAVAIL\",\"step\":\"link\"}"

/* The fentry verdict of @line refuses the model (btf_distill_func_proto()) */
static bool model_refused(const char *line)
{
	static const char *const reasons[] = {
		"too-many-args", "ret-unsupported", "variadic", "arg-unsupported", "void-arg",
	};
	const char *fe = strstr(line, "\"fentry\":{\"taken\":false,\"reason\":\"");
	char want[96];
	size_t i;

	for (i = 0; fe && i < sizeof(reasons) / sizeof(reasons[0]); i++) {
		snprintf(want, sizeof(want), "%s\",\"errno\":\"EINVAL\",\"step\":\"load\"}",
			 reasons[i]);
		if (!strncmp(fe + strlen("\"fentry\":{\"taken\":false,\"reason\":\""), want,
			     strlen(want)))
			return true;
	}
	return false;
}

/*
 * `models --all --verdicts` of @path against nm's shared names: for the
 * patched kernel (@patched), a function whose name nm puts at two text
 * addresses is ambiguous-name for fentry (at load) and fentry.multi (at
 * link), unless its model is refused first, and no other is; for mainline
 * none is. The count of functions of shared names into @nfunc, of those
 * refused ambiguous-name into @namb.
 */
static void judge_shared(const char *path, const struct shared_names *sn, bool patched,
			 int *nfunc, int *namb)
{
	char *out = NULL, *err = NULL, *line, *save = NULL, name[512];
	int wrong = 0;

	*nfunc = *namb = 0;
	ck_assert_int_eq(TL_RUN_OUT(&out, &err, "models", "--all", "--verdicts", path), 0);
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *p = strstr(line, "\"name\":\"");
		bool in, fe, fm;

		ck_assert_ptr_nonnull(p);
		ck_assert_int_eq(sscanf(p + 8, "%511[^\"]", name), 1);
		in = shared(sn, name);
		fe = strstr(line, FE_AMBIGUOUS);
		fm = strstr(line, FM_AMBIGUOUS);
		*nfunc += in;
		*namb += fe;
		if (!patched ? !strstr(line, "ambiguous-name") :
		    in ? (fe && fm) || (!strstr(line, "ambiguous-name") && model_refused(line)) :
		    !strstr(line, "ambiguous-name"))
			continue;
		if (!wrong++)
			printf("check_verdict: %s: %s (nm: %s): %s\n", path, name,
			       in ? "two text addresses" : "one", line);
	}
	ck_assert_msg(!wrong, "%s: %d functions' verdicts unlike nm's addresses (%s rules)", path,
		      wrong, patched ? "the patched kernel's" : "mainline");
	free(out);
	free(err);
}

/*
 * The fixture samename (tests/fixtures/src/samename.c): static functions of
 * one name in two files, in kernel text, in init text, and one copy outside
 * both ranges. samename.t places .BTF_tramp, as the patched kernel does:
 * sn_same, sn_twoproto and sn_init are ambiguous-name (EADDRNOTAVAIL);
 * samename, a mainline image, takes each name's lowest address.
 */
START_TEST(t_same_name_fixture)
{
	char *dir = tl_path(tl_build_dir(), "fixtures/x86_64-linux-gnu");
	char *plain = tl_path(dir, "samename"), *tramp = tl_path(dir, "samename.t");
	char *out = NULL, *err = NULL;
	struct shared_names sn = {};
	int nfunc, namb;

	if (access(plain, R_OK) || access(tramp, R_OK)) {
		printf("check_verdict: no samename fixture (x86_64 only): skipped\n");
		goto out;
	}
	nm_shared(tramp, &sn);
	/* the fixture is what it says: three shared names, sn_outside not one */
	ck_assert_int_eq(sn.n, 3);
	ck_assert(shared(&sn, "sn_same") && shared(&sn, "sn_twoproto") && shared(&sn, "sn_init"));
	ck_assert(!shared(&sn, "sn_outside") && !shared(&sn, "sn_alone_first"));
	judge_shared(tramp, &sn, true, &nfunc, &namb);
	ck_assert_int_ge(nfunc, 3);
	ck_assert_int_eq(namb, nfunc);
	judge_shared(plain, &sn, false, &nfunc, &namb);
	ck_assert_int_eq(namb, 0);
	/* mainline: the lowest address, here kernel text with an ftrace site */
	ck_assert_int_eq(TL_RUN_OUT(&out, &err, "models", "--all", "--verdicts", "--func",
				    "sn_same", plain), 0);
	ck_assert_ptr_nonnull(strstr(out, "\"fentry\":{\"taken\":true}"));
	ck_assert_ptr_nonnull(strstr(out, "\"fentry.multi\":{\"taken\":true}"));
	free(out);
	free(err);
	/* the patched kernel: every attach type, at load (multi: at link) */
	ck_assert_int_eq(TL_RUN_OUT(&out, &err, "models", "--all", "--verdicts", "--func",
				    "sn_twoproto", tramp), 0);
	ck_assert_ptr_nonnull(strstr(out, FE_AMBIGUOUS));
	ck_assert_ptr_nonnull(strstr(out, FM_AMBIGUOUS));
	ck_assert_ptr_nonnull(strstr(out, "\"fexit\":{\"taken\":false,\"reason\":\"ambiguous-name\",\"errno\":\"EADDRNOTAVAIL\",\"step\":\"load\"}"));
	ck_assert_ptr_nonnull(strstr(out, "\"fexit.multi\":{\"taken\":false,\"reason\":\"ambiguous-name\",\"errno\":\"EADDRNOTAVAIL\",\"step\":\"link\"}"));
	/* init text: ambiguity is looked up first, at load, not init-text at attach */
	free(out);
	free(err);
	ck_assert_int_eq(TL_RUN_OUT(&out, &err, "models", "--all", "--verdicts", "--func",
				    "sn_init", tramp), 0);
	ck_assert_ptr_nonnull(strstr(out, FE_AMBIGUOUS));
out:
	free(out);
	free(err);
	shared_free(&sn);
	free(plain);
	free(tramp);
	free(dir);
}
END_TEST

/*
 * The fixtures arm64sites.* (tests/fixtures/src/arm64sites.c): arm64's
 * ftrace layouts, with and without BTI. Expected, by the source's
 * annotations and the kernel's rules (docs/design.md, "Where the ftrace
 * record is"): as_notrace has no record (no-ftrace-site, ENOTSUPP), the
 * others one, taken where the release has ftrace direct calls (7.3 with
 * either layout; 6.12 with CALL_OPS only), else no-direct-call (ENOTSUPP);
 * no verdicts for CALL_OPS on 6.1 (no such layout then) or the entry
 * layout on 7.0 (direct calls without CALL_OPS not known there).
 */
#define FE_NODIRECT	"\"fentry\":{\"taken\":false,\"reason\":\"no-direct-call\",\"errno\":\"ENOTSUPP\",\"step\":\"attach\"}"
#define FE_NOSITE_A64	"\"fentry\":{\"taken\":false,\"reason\":\"no-ftrace-site\",\"errno\":\"ENOTSUPP\",\"step\":\"attach\"}"
#define FE_TAKEN	"\"fentry\":{\"taken\":true}"

/* @func's line of models --all --verdicts --kernel @kernel on @image contains @want */
static void arm64_verdict(const char *image, const char *kernel, const char *func,
			  const char *want)
{
	char *out = NULL, *err = NULL;

	ck_assert_int_eq(TL_RUN_OUT(&out, &err, "models", "--all", "--verdicts", "--kernel", kernel,
				    "--func", func, image), 0);
	ck_assert_msg(strstr(out, want), "%s --kernel %s, %s: want %s, got %s (stderr %s)", image,
		      kernel, func, want, out, err);
	free(out);
	free(err);
}

/* models --all --verdicts --kernel @kernel on @image: no verdicts, a warning with @why */
static void arm64_unjudged(const char *image, const char *kernel, const char *why)
{
	char *out = NULL, *err = NULL;

	ck_assert_int_eq(TL_RUN_OUT(&out, &err, "models", "--all", "--verdicts", "--kernel", kernel,
				    image), 0);
	ck_assert_msg(!strstr(out, "\"verdicts\""), "%s --kernel %s: verdicts given", image, kernel);
	ck_assert_msg(strstr(err, why), "%s --kernel %s: no '%s' in %s", image, kernel, why, err);
	free(out);
	free(err);
}

START_TEST(t_arm64_layouts)
{
	static const char *const variants[] = { "entry", "entrybti", "callops", "callopsbti" };
	char *dir = tl_path(tl_build_dir(), "fixtures/aarch64-linux-gnu"), *image = NULL;
	size_t i;

	for (i = 0; i < sizeof(variants) / sizeof(variants[0]); i++) {
		bool ops = !strncmp(variants[i], "callops", 7);

		free(image);
		ck_assert_int_ge(asprintf(&image, "%s/arm64sites.%s", dir, variants[i]), 0);
		if (access(image, R_OK)) {
			printf("check_verdict: no %s fixture (aarch64-linux-gnu-gcc): skipped\n", image);
			break;
		}
		arm64_verdict(image, "7.3", "as_traced", FE_TAKEN);
		arm64_verdict(image, "7.3", "as_after", FE_TAKEN);
		arm64_verdict(image, "7.3", "as_notrace", FE_NOSITE_A64);
		arm64_verdict(image, "6.12", "as_traced", ops ? FE_TAKEN : FE_NODIRECT);
		arm64_verdict(image, "6.12", "as_notrace", FE_NOSITE_A64);
		if (ops) {
			arm64_unjudged(image, "6.1", "no arm64 layout btfids knows");
		} else {
			arm64_verdict(image, "6.1", "as_after", FE_NODIRECT);
			arm64_unjudged(image, "7.0", "its release lies between");
		}
	}
	free(image);
	free(dir);
}
END_TEST

/*
 * The patched 7.3 tree (kernel/build-tree; BTFIDS_KBUILD_PATCHED), when
 * built: every function of a name nm puts at two text addresses is
 * ambiguous-name (or refused by its model first), no other; and Debian's
 * 7.x, a mainline kernel, has none (its pahole leaves the functions of
 * such names out of BTF: nm's names are there, no FUNC of them)
 */
START_TEST(t_same_name_kernels)
{
	const char *kp = getenv("BTFIDS_KBUILD_PATCHED");
	char *patched = NULL, *debian = kernel_path("amd64-7");
	struct shared_names sn = {};
	int nfunc, namb;

	if (kp)
		ck_assert_int_ge(asprintf(&patched, "%s/linux-source-7.3/vmlinux", kp), 0);
	else
		ck_assert_int_ge(asprintf(&patched, "%s/btfids/kbuild-patched/linux-source-7.3/vmlinux",
					  tl_cache_dir()), 0);
	if (access(patched, R_OK)) {
		printf("check_verdict: %s not built (kernel/build-tree), skipped\n", patched);
	} else {
		nm_shared(patched, &sn);
		judge_shared(patched, &sn, true, &nfunc, &namb);
		printf("check_verdict: the patched 7.3 tree: %zu names at two or more text addresses (nm), %d BTF functions of them, %d ambiguous-name\n",
		       sn.n, nfunc, namb);
		ck_assert_int_gt(namb, 100);
		shared_free(&sn);
		memset(&sn, 0, sizeof(sn));
	}
	if (debian) {
		nm_shared(debian, &sn);
		ck_assert_int_gt(sn.n, 100);
		judge_shared(debian, &sn, false, &nfunc, &namb);
		ck_assert_int_eq(namb, 0);
		shared_free(&sn);
	}
	free(patched);
	free(debian);
}
END_TEST

/*
 * Same-call-site (kernel/7.3-fixes 3/10: a tracing_multi link naming one
 * call site twice is refused, EINVAL): by nm's addresses (an independent
 * witness), of the BTF ids whose names are at one text address, at most
 * one is taken for fentry.multi (@patched: mainline takes them all), and
 * each one refused "same-call-site" has a lower id there that is taken.
 * The count of same-call-site refusals.
 */
struct site_fn {
	unsigned long long addr;
	unsigned int id;
	bool taken, same;
};

static int cmp_site_fn(const void *a, const void *b)
{
	const struct site_fn *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

#define FM_TAKEN	"\"fentry.multi\":{\"taken\":true}"
#define FM_SAME_SITE	"\"fentry.multi\":{\"taken\":false,\"reason\":\"same-call-site\",\"errno\":\"EINVAL\",\"step\":\"link\"}"

static int judge_same_site(const char *path, bool patched)
{
	char *out = NULL, *nmout = NULL, *line, *save = NULL, type, name[512];
	struct nm_sym *syms = NULL;
	struct site_fn *f = NULL;
	size_t nsyms = 0, cap = 0, nf = 0, fcap = 0, i, j;
	unsigned long long addr;
	int same = 0, wrong = 0;

	ck_assert_int_eq(tl_spawn(&nmout, NULL, (const char *const[]){ "nm", path, NULL }), 0);
	for (line = strtok_r(nmout, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%llx %c %511s", &addr, &type, name) == 3 && strchr("tT", type))
			nm_push(&syms, &nsyms, &cap, name, addr);
	}
	qsort(syms, nsyms, sizeof(*syms), cmp_nm_sym);
	ck_assert_int_eq(TL_RUN_OUT(&out, NULL, "models", "--all", "--verdicts", path), 0);
	save = NULL;
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *p = strstr(line, "\"name\":\""), *q = strstr(line, "\"id\":");
		struct nm_sym *hit;
		unsigned int id;

		ck_assert(p && q && sscanf(p + 8, "%511[^\"]", name) == 1 &&
			  sscanf(q + 5, "%u", &id) == 1);
		/* the name's first nm entry; a name at two addresses is left out */
		for (i = 0, j = nsyms; i < j;) {
			size_t mid = (i + j) / 2;

			if (strcmp(syms[mid].name, name) < 0)
				i = mid + 1;
			else
				j = mid;
		}
		hit = i < nsyms && !strcmp(syms[i].name, name) ? &syms[i] : NULL;
		if (!hit || (hit + 1 < syms + nsyms && !strcmp(hit[1].name, name) &&
			     hit[1].addr != hit->addr))
			continue;
		if (nf == fcap) {
			fcap = fcap ? 2 * fcap : 4096;
			f = realloc(f, fcap * sizeof(*f));
			ck_assert_ptr_nonnull(f);
		}
		f[nf++] = (struct site_fn){ hit->addr, id, strstr(line, FM_TAKEN) != NULL,
					    strstr(line, FM_SAME_SITE) != NULL };
	}
	qsort(f, nf, sizeof(*f), cmp_site_fn);
	for (i = 0; i < nf; i = j) {
		int taken = 0;
		bool lower_taken = false;

		for (j = i; j < nf && f[j].addr == f[i].addr; j++) {
			taken += f[j].taken;
			if (f[j].same && !lower_taken && !wrong++)
				printf("check_verdict: %s: id %u same-call-site, no lower id taken at %llx\n",
				       path, f[j].id, f[j].addr);
			same += f[j].same;
			lower_taken |= f[j].taken;
		}
		/* mainline takes both (and cannot detach them: fixes 3/10) */
		if (patched && taken > 1 && !wrong++)
			printf("check_verdict: %s: %d ids taken for fentry.multi at %llx\n", path,
			       taken, f[i].addr);
	}
	ck_assert_msg(!wrong, "%s: %d call sites' fentry.multi verdicts unlike nm's addresses",
		      path, wrong);
	for (i = 0; i < nsyms; i++)
		free(syms[i].name);
	free(syms);
	free(f);
	free(out);
	free(nmout);
	return same;
}

/*
 * The patched 7.3 tree: same-call-site refusals, each at an nm address a
 * lower taken id shares, and never two taken ids at one address; Debian's
 * 7.x, a mainline kernel, has none (mainline attaches such a link)
 */
START_TEST(t_same_site_kernels)
{
	const char *kp = getenv("BTFIDS_KBUILD_PATCHED");
	char *patched = NULL, *debian = kernel_path("amd64-7");
	int n;

	ck_assert_int_ge(asprintf(&patched, "%s/%slinux-source-7.3/vmlinux", kp ? kp : tl_cache_dir(),
				  kp ? "" : "btfids/kbuild-patched/"), 0);
	if (access(patched, R_OK)) {
		printf("check_verdict: %s not built (kernel/build-tree), skipped\n", patched);
	} else {
		n = judge_same_site(patched, true);
		printf("check_verdict: the patched 7.3 tree: %d same-call-site fentry.multi verdicts, each beside a lower taken id at its nm address\n",
		       n);
		ck_assert_int_gt(n, 0);
	}
	if (debian)
		ck_assert_int_eq(judge_same_site(debian, false), 0);
	free(patched);
	free(debian);
}
END_TEST

/* --verdicts reads a vmlinux's symbols: only with --all */
START_TEST(t_usage)
{
	char *err = NULL;

	ck_assert_int_eq(TL_RUN(&err, "models", "--verdicts", "/dev/null"), 2);
	ck_assert_ptr_nonnull(strstr(err, "--verdicts only with --all"));
	free(err);
}
END_TEST

static Suite *verdict_suite(void)
{
	Suite *s = suite_create("verdict");
	TCase *tc = tcase_create("kernels");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, t_debian_612);
	tcase_add_test(tc, t_debian_7);
	tcase_add_test(tc, t_every_func);
	tcase_add_test(tc, t_no_verdicts);
	tcase_add_test(tc, t_module);
	tcase_add_test(tc, t_usage);
	tcase_add_test(tc, t_same_name_fixture);
	tcase_add_test(tc, t_arm64_layouts);
	tcase_add_test(tc, t_same_name_kernels);
	tcase_add_test(tc, t_same_site_kernels);
	suite_add_tcase(s, tc);
	return s;
}

TL_MAIN(verdict_suite)
