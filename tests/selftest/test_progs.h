/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_progs.h - a stand-in for the BPF selftests' harness header
 * (tools/testing/selftests/bpf/test_progs.h), enough to build and run
 * prog_tests/resolve_btfids.c of Linux 6.1 to 7.3 outside test_progs.
 *
 * Each check macro counts one check, and one failure when it fails, with
 * the harness' meaning: CHECK(cond, ...) fails when cond is true and
 * returns it; ASSERT_*() fail when the assertion does not hold and return
 * whether it held. PRINT_FAIL() fails the test without being a check.
 * tests/selftest/main.c runs the test and prints the counts.
 */
#ifndef _BTFIDS_SELFTEST_TEST_PROGS_H
#define _BTFIDS_SELFTEST_TEST_PROGS_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <bpf/libbpf.h>

extern unsigned int selftest_checks, selftest_failed;

#define PRINT_FAIL(format...) ({					\
	selftest_failed++;						\
	printf("%s:FAIL:%d ", __func__, __LINE__);			\
	printf(format);							\
})

/* the one check every macro below goes through */
#define _CHECK(condition, tag, duration, format...) ({			\
	int __ret = !!(condition);					\
	selftest_checks++;						\
	(void)(duration);						\
	if (__ret) {							\
		selftest_failed++;					\
		printf("%s:FAIL:%s ", __func__, tag);			\
		printf(format);						\
	}								\
	__ret;								\
})

#define CHECK(condition, tag, format...) \
	_CHECK(condition, tag, duration, format)

#define ASSERT_TRUE(actual, name) ({					\
	bool ___ok = (actual);						\
	_CHECK(!___ok, (name), 0, "unexpected %s: got FALSE\n", (name));	\
	___ok;								\
})

/* actual OP expected, both as long long in the message */
#define ASSERT_CMP(actual, op, expected, name) ({			\
	typeof(actual) ___act = (actual);				\
	typeof(expected) ___exp = (expected);				\
	bool ___ok = ___act op ___exp;					\
	_CHECK(!___ok, (name), 0, "unexpected %s: actual %lld, expected %s %lld\n", \
	       (name), (long long)___act, #op, (long long)___exp);	\
	___ok;								\
})
#define ASSERT_EQ(actual, expected, name) ASSERT_CMP(actual, ==, expected, name)
#define ASSERT_LE(actual, expected, name) ASSERT_CMP(actual, <=, expected, name)

#define ASSERT_OK_PTR(ptr, name) ({					\
	int ___err = libbpf_get_error(ptr);				\
	_CHECK(___err, (name), 0, "unexpected error: %d\n", ___err);	\
	!___err;							\
})

#endif
