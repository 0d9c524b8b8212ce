// SPDX-License-Identifier: GPL-2.0
/*
 * count.c - count the calls of every kernel function matching a pattern:
 *
 *   count PATTERN [SECONDS]	(count.bpf.o in the working directory)
 *
 * One fentry.multi link by libbpf's pattern attach. With kernel/7.3-libbpf's
 * libbpf the link holds exactly the functions the kernel takes, at the
 * first try, and libbpf says what was left out and why: by the kernel's
 * own word (BPF_F_TRACING_MULTI_SKIP_REFUSED: a count a refusal's errno),
 * else by its exported trampoline table (a count a verdict). Built, from
 * the top folder:
 *
 *   make libbpf-table		# build/libbpf-table: libbpf 1.8 with the patch
 *   L=build/libbpf-table; E=kernel/7.3-libbpf/example
 *   clang -target bpf -O2 -g -I$L/include -I/usr/include/$(gcc -dumpmachine) \
 *         -c $E/count.bpf.c -o count.bpf.o
 *   cc -I$L/include -o count $E/count.c $L/libbpf.a -lelf -lz
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#define TOP 10

struct call {
	__u64 ip, n;
	char name[128];
};

static int by_count(const void *a, const void *b)
{
	const struct call *x = a, *y = b;

	return x->n < y->n ? 1 : x->n > y->n ? -1 : 0;
}

int main(int argc, char **argv)
{
	__u32 verdicts[__MAX_BPF_TRACING_MULTI_VERDICT], errs[134];
	LIBBPF_OPTS(bpf_tracing_multi_opts, opts, .verdict_cnt = verdicts,
		    .verdict_cnt_len = __MAX_BPF_TRACING_MULTI_VERDICT, .errno_cnt = errs,
		    .errno_cnt_len = 134);
	struct call *calls = NULL;
	struct bpf_object *obj;
	struct bpf_link *link;
	__u64 key, prev = 0;
	int i, n = 0, fd;
	char line[256];
	FILE *f;

	if (argc < 2) {
		fprintf(stderr, "usage: %s PATTERN [SECONDS]\n", argv[0]);
		return 2;
	}
	obj = bpf_object__open_file("count.bpf.o", NULL);
	if (!obj || bpf_object__load(obj)) {
		fprintf(stderr, "count.bpf.o: %s\n", strerror(errno));
		return 1;
	}
	link = bpf_program__attach_tracing_multi(bpf_object__find_program_by_name(obj, "count"),
						 argv[1], &opts);
	if (!link) {
		fprintf(stderr, "attach %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	/* without a trampoline table libbpf counts nothing: 1.8's matching */
	if (verdicts[BPF_TRACING_MULTI_TAKEN])
		printf("%s: %u functions attached", argv[1], verdicts[BPF_TRACING_MULTI_TAKEN]);
	else
		printf("%s: attached (no trampoline table: what libbpf deems traceable)", argv[1]);
	for (i = 1, n = 0; i < __MAX_BPF_TRACING_MULTI_VERDICT; i++)
		if (verdicts[i])
			printf("%s %u %s", n++ ? "," : "; left out:", verdicts[i],
			       libbpf_tracing_multi_verdict_str(i));
	for (i = 1; i < 134; i++)
		if (errs[i])
			printf("%s %u refused by the kernel (%s)", n++ ? "," : "; left out:",
			       errs[i], strerror(i));
	printf("\n");
	n = 0;
	sleep(argc > 2 ? atoi(argv[2]) : 1);

	fd = bpf_map__fd(bpf_object__find_map_by_name(obj, "calls"));
	while (!bpf_map_get_next_key(fd, n ? &prev : NULL, &key)) {
		calls = realloc(calls, (n + 1) * sizeof(*calls));
		if (!calls)
			return 1;
		calls[n].ip = key;
		calls[n].name[0] = 0;
		bpf_map_lookup_elem(fd, &key, &calls[n].n);
		prev = calls[n++].ip;
	}
	bpf_link__destroy(link);
	qsort(calls, n, sizeof(*calls), by_count);
	f = fopen("/proc/kallsyms", "r");
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char name[128];

		if (sscanf(line, "%llx %*s %127s", &addr, name) != 2)
			continue;
		for (i = 0; i < n && i < TOP; i++)
			if (calls[i].ip == addr && !calls[i].name[0])
				strcpy(calls[i].name, name);
	}
	printf("%d functions called; the most:\n", n);
	for (i = 0; i < n && i < TOP; i++)
		printf("  %10llu %s\n", (unsigned long long)calls[i].n, calls[i].name);
	bpf_object__close(obj);
	return 0;
}
