// SPDX-License-Identifier: GPL-2.0
/* tramp.c - fill and read back trampoline tables (see tramp_fill.h). */
#include <errno.h>

#include "btfids/tramp_fill.h"

int btfids_tramp_print(const char *path, FILE *out, struct btfids_report *r)
{
	(void)out;
	btfids_err(r, path, "reading stored tables is not implemented yet");
	return -ENOSYS;
}
