// SPDX-License-Identifier: GPL-2.0
/* count.bpf.c - count the calls of every function a fentry.multi link holds */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, __u64);	/* the function's address */
	__type(value, __u64);	/* its calls */
} calls SEC(".maps");

SEC("fentry.multi")
int count(void *ctx)
{
	__u64 ip = bpf_get_func_ip(ctx), one = 1, *n;

	n = bpf_map_lookup_elem(&calls, &ip);
	if (n)
		__sync_fetch_and_add(n, 1);
	else
		bpf_map_update_elem(&calls, &ip, &one, BPF_NOEXIST);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
