// SPDX-License-Identifier: GPL-2.0
/*
 * args.c - "boot: <release> args ok|FAILED (...)": argument values where
 * the model puts them. A fentry program copies every ctx slot the model
 * gives into a map (for calls from pid 1, us); we make a syscall that
 * reaches the function with arguments we chose, and each one must be in
 * the slot the model's sizes place it at (arg i at the sum of the slots
 * of args 0..i-1). do_mmap() has 9 arguments: the 7th (pgoff) is on the
 * caller's stack on x86-64; before 6.6 x86-64 attaches nothing with more
 * than 6 slots, so a 6.1 guest leaves do_mmap() to the models check.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <bpf/bpf.h>

#include "boot.h"

#define HITS_SLOT	15	/* map value: 15 ctx slots, then a hit count */

struct want {
	int arg;
	uint64_t value;
};

static char failed[512];
static int nvalues, nskipped, nodirect;

#define ENOTSUPP_KERNEL	524	/* include/linux/errno.h: what register_fentry() returns */

/* fentry on @m: copy ctx[0..slots-1] to map value of @map_fd when pid == 1 */
static int copy_prog(const struct boot_model *m, int map_fd)
{
	struct bpf_insn insn[2 * BOOT_MAX_ARGS + 16];
	int n = 0, j, jmp;

	insn[n++] = MOV_REG(BPF_REG_6, BPF_REG_1);
	insn[n++] = CALL(BPF_FUNC_get_current_pid_tgid);
	jmp = n++;
	insn[n++] = INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_7, BPF_PSEUDO_MAP_VALUE, 0, map_fd);
	insn[n++] = INSN(0, 0, 0, 0, 0);	/* value offset 0 */
	for (j = 0; j < m->slots && j < HITS_SLOT; j++) {
		insn[n++] = LDX_DW(BPF_REG_2, BPF_REG_6, 8 * j);
		insn[n++] = STX_DW(BPF_REG_7, BPF_REG_2, 8 * j);
	}
	insn[n++] = LDX_DW(BPF_REG_2, BPF_REG_7, 8 * HITS_SLOT);
	insn[n++] = ADD_IMM(BPF_REG_2, 1);
	insn[n++] = STX_DW(BPF_REG_7, BPF_REG_2, 8 * HITS_SLOT);
	insn[jmp] = JNE32_IMM(BPF_REG_0, 1, n - jmp - 1);
	insn[n++] = MOV_IMM(BPF_REG_0, 0);
	insn[n++] = EXIT();
	return load_fentry(m->id, insn, n, false);
}

#define fail(...) append(failed, sizeof(failed), __VA_ARGS__)

static const struct boot_model *find(const struct boot_model *m, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(m[i].name, name))
			return &m[i];
	return NULL;
}

/*
 * Attach to @name, run @call, check @want. The value of an argument under
 * 8 bytes is compared in its own bytes only (the ABI leaves the rest).
 */
static void check(const struct boot_model *models, int n, const char *name,
		  void (*call)(struct want *w), struct want *w, int nw)
{
	const struct boot_model *m = find(models, n, name);
	uint64_t val[HITS_SLOT + 1] = {}, got, mask;
	int map_fd, fd, lfd, i, slot;
	uint32_t k = 0;

	if (m && !m->attachable && boot_release_before(6, 6) && m->slots > 6) {
		/* x86-64 before 6.6: no stack slots (the models check judges it) */
		nskipped++;
		return;
	}
	if (!m || !m->attachable) {
		fail("%s: %s", name, m ? "not attachable for btfids" : "not in /args.txt");
		return;
	}
	map_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "args", 4, sizeof(val), 1, NULL);
	if (map_fd < 0) {
		fail("%s: map: %s", name, strerror(errno));
		return;
	}
	fd = copy_prog(m, map_fd);
	if (fd < 0) {
		fail("%s: load: %s", name, last_log_line());
		goto out;
	}
	lfd = bpf_raw_tracepoint_open(NULL, fd);
	if (lfd < 0 && errno == ENOTSUPP_KERNEL && !strcmp(m->verdict, "no-direct-call")) {
		/* a kernel without ftrace direct calls: btfids said so, the models judge it */
		nskipped++;
		nodirect++;
		close(fd);
		goto out;
	}
	if (lfd < 0) {
		fail("%s: attach: %s", name, strerror(errno));
		close(fd);
		goto out;
	}
	call(w);
	close(lfd);
	close(fd);
	if (bpf_map_lookup_elem(map_fd, &k, val)) {
		fail("%s: lookup: %s", name, strerror(errno));
		goto out;
	}
	if (!val[HITS_SLOT]) {
		fail("%s: never called", name);
		goto out;
	}
	for (i = 0; i < nw; i++) {
		int a = w[i].arg, j;

		for (j = slot = 0; j < a; j++)
			slot += (m->size[j] + 7) / 8;
		mask = m->size[a] >= 8 ? ~0ULL : (1ULL << (8 * m->size[a])) - 1;
		got = slot < HITS_SLOT ? val[slot] & mask : ~0ULL;
		nvalues++;
		if (got != (w[i].value & mask))
			fail("%s arg%d (ctx[%d]): 0x%llx, called with 0x%llx", name, a, slot,
			     (unsigned long long)got, (unsigned long long)(w[i].value & mask));
	}
out:
	close(map_fd);
}

#define HINT	0x200000000000UL

/* mmap -> ksys_mmap_pgoff -> vm_mmap_pgoff -> do_mmap(file, addr, len, prot, flags, vm_flags, pgoff, ...) */
static void call_mmap(struct want *w)
{
	void *p = mmap((void *)HINT, 0x3000, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 7 * 4096);

	(void)w;
	if (p != MAP_FAILED)
		munmap(p, 0x3000);
}

static char wbuf[] = "hello";

/* write -> ksys_write -> vfs_write(file, buf, count, pos) */
static void call_write(struct want *w)
{
	int p[2];

	(void)w;
	if (pipe(p))
		return;
	if (write(p[1], wbuf, 5) < 0)
		return;
	close(p[0]);
	close(p[1]);
}

/* openat -> do_sys_openat2 -> do_filp_open/do_file_open(dfd, pathname, op): dfd chosen by us */
static void call_openat(struct want *w)
{
	int d = open("/", O_RDONLY | O_DIRECTORY), fd;

	if (d < 0)
		return;
	fd = dup2(d, 37);
	w[0].value = fd;
	fd = openat(fd, "init", O_RDONLY);
	if (fd >= 0)
		close(fd);
	close(37);
	close(d);
}

void boot_args(const struct boot_model *m, int n)
{
	struct want mmap_w[] = {
		{ 0, 0 }, { 1, HINT }, { 2, 0x3000 }, { 3, PROT_READ | PROT_WRITE },
		{ 4, MAP_PRIVATE | MAP_ANONYMOUS }, { 5, 0 }, { 6, 7 },
	};
	struct want write_w[] = { { 1, (uintptr_t)wbuf }, { 2, 5 } };
	struct want open_w[] = { { 0, 37 } };

	/* 6.1's do_mmap() has 8 args, no vm_flags: 8 slots, refused there (skipped) */
	check(m, n, "do_mmap", call_mmap, mmap_w, 7);
	check(m, n, "vfs_write", call_write, write_w, 2);
	/* do_file_open() since v7.0 */
	check(m, n, find(m, n, "do_file_open") ? "do_file_open" : "do_filp_open", call_openat,
	      open_w, 1);
	if (failed[0])
		say("args FAILED (%s)", failed);
	else if (nodirect == 3)
		say("args skipped (no function attaches: the kernel has no ftrace direct calls)");
	else if (nskipped == 3)
		say("args FAILED (no function left to check: %d skipped)", nskipped);
	else
		say("args ok (%d values in %d functions)", nvalues, 3 - nskipped);
}
