// SPDX-License-Identifier: GPL-2.0
/* check.c - the check verb (being written; see its issue). */
#include <stdio.h>

#include "btfids.h"

int do_check(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "btfids check: not implemented yet\n");
	return 2;
}
