// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - run one BPF selftest (test_NAME(), NAME given with -DTEST=NAME)
 * built with the stand-in test_progs.h, and print "NAME: N checks, N
 * failed". Exit 0 when every check passed and there was at least one.
 */
#include <stdio.h>

#define STR_(x) #x
#define STR(x) STR_(x)
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)

unsigned int selftest_checks, selftest_failed;

void CAT(test_, TEST)(void);

int main(void)
{
	CAT(test_, TEST)();
	printf("%s: %u checks, %u failed\n", STR(TEST), selftest_checks, selftest_failed);
	return selftest_failed || !selftest_checks;
}
