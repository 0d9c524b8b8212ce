// SPDX-License-Identifier: GPL-2.0
/*
 * client.bpf.c - the program of tests/boot/client.c: fentry.multi doing
 * nothing, as upstream's attach bench (progs/tracing_multi_bench.c), so
 * that a link over every function costs only its trampolines
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("fentry.multi")
int client(void *ctx)
{
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
