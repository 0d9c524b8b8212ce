// SPDX-License-Identifier: GPL-2.0
/*
 * check_verdict.c - `btfids models --all --verdicts` on Debian's real
 * kernels (../shared/realdata/fetch-kernels), against what the kernel's
 * sources say of named functions: each expectation below cites the rule
 * and the source line that makes it. The booted kernels judge every
 * verdict of the tiny trees (tests/boot.sh); these hold for the
 * distribution builds, whose .BTF_ids sets the kernel's own tool resolved.
 */
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
	const char *home = getenv("HOME");
	char *p;

	if (asprintf(&p, "%s/.cache/btfids/kernels/%s/vmlinux", home ? home : "/root", k) < 0)
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

/* A module gets no verdicts either, and a warning that says why */
START_TEST(t_module)
{
	const char *home = getenv("HOME");
	char *path = kernel_path("amd64-6.12"), *mod = NULL, *out = NULL, *err = NULL;

	if (!path)
		return;
	ck_assert_int_ge(asprintf(&mod, "%s/.cache/btfids/kernels/amd64-6.12/modules/nf_conntrack.ko",
				  home ? home : "/root"), 0);
	if (access(mod, R_OK)) {
		printf("check_verdict: %s not fetched, skipped\n", mod);
	} else {
		ck_assert_int_eq(TL_RUN_OUT(&out, &err, "models", "--all", "--verdicts", "-b", path,
					    mod), 0);
		ck_assert_ptr_null(strstr(out, "verdicts"));
		ck_assert_ptr_nonnull(strstr(err, "no attach verdicts: a module"));
	}
	free(out);
	free(err);
	free(mod);
	free(path);
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
	suite_add_tcase(s, tc);
	return s;
}

TL_MAIN(verdict_suite)
