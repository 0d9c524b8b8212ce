// SPDX-License-Identifier: GPL-2.0
/* models.c - the models verb (being written; see its issue). */
#include <stdio.h>

#include "btfids.h"

int do_models(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "btfids models: not implemented yet\n");
	return 2;
}
