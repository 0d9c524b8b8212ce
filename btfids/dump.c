// SPDX-License-Identifier: GPL-2.0
/* dump.c - the dump verb (being written; see its issue). */
#include <stdio.h>

#include "btfids.h"

int do_dump(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "btfids dump: not implemented yet\n");
	return 2;
}
