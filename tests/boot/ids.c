// SPDX-License-Identifier: GPL-2.0
/*
 * ids.c - "boot: <release> ids ok|FAILED (<which>)": load ids.bpf.o (a
 * 6.1 guest: ids61.bpf.o, the same source built with -DIDS61) with
 * libbpf (kfunc externs and CO-RE resolved against the guest's BTF), run
 * its fentry program through getpgid() and its task iterator, and check
 * what they saw against what the guest knows (it is pid 1, tgid 1).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "boot.h"

static char failed[512];
static const char *not_run;	/* why the fentry program did not run, when it could not */
static char libbpf_last[200];

#define fail(...) append(failed, sizeof(failed), __VA_ARGS__)

/*
 * Keep libbpf's verdict for the report: the verifier log's last line when
 * libbpf prints a log, else its last warning.
 */
static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	static char buf[1 << 16];
	char *end;

	if (level == LIBBPF_DEBUG)
		return 0;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	end = strstr(buf, "-- END PROG LOAD LOG");
	if (end) {
		snprintf(boot_log, sizeof(boot_log), "%.*s", (int)(end - buf), buf);
		snprintf(libbpf_last, sizeof(libbpf_last), "verifier: %s", last_log_line());
	} else if (!strstr(libbpf_last, "verifier:")) {
		snprintf(boot_log, sizeof(boot_log), "%s", buf);
		snprintf(libbpf_last, sizeof(libbpf_last), "%s", last_log_line());
	}
	return 0;
}

enum { OUT_HITS, OUT_PID, OUT_ACQ_PID, OUT_FROM_PID, OUT_RCU_TGID, OUT_ITER_SUM, OUT_NR };

struct expect {
	const char *what;
	unsigned long long want;
};

static const struct expect expect_new[OUT_NR] = {
	[OUT_PID] = { "bpf_get_current_task_btf()->pid", 1 },
	[OUT_ACQ_PID] = { "bpf_task_acquire", 1 },
	[OUT_FROM_PID] = { "bpf_task_from_pid", 1 },
	[OUT_RCU_TGID] = { "bpf_rcu_read_lock", 1 },
	[OUT_ITER_SUM] = { "bpf_iter_num", 55 },
};

/* ids.bpf.c -DIDS61: the test kfunc's object (net/bpf/test_run.c prog_test_struct) */
static const struct expect expect_61[OUT_NR] = {
	[OUT_PID] = { "bpf_get_current_task_btf()->pid", 1 },
	[OUT_ACQ_PID] = { "bpf_kfunc_call_test_acquire()->a", 42 },
	[OUT_FROM_PID] = { "bpf_kfunc_call_test_acquire()->b", 108 },
	[OUT_RCU_TGID] = { "bpf_get_current_task_btf()->tgid", 1 },
	[OUT_ITER_SUM] = { "nothing", 0 },
};

static const struct expect *expect = expect_new;

static void check_fentry(struct bpf_object *obj, const struct btf *vmlinux)
{
	struct bpf_program *p = bpf_object__find_program_by_name(obj, "on_getpgid");
	struct bpf_map *out = bpf_object__find_map_by_name(obj, "out");
	unsigned long long v;
	struct bpf_link *l;
	unsigned int k;
	int i;

	l = bpf_program__attach(p);
#if defined(__aarch64__)
	/* ENOTSUPP where the kernel has no ftrace direct calls (arm64 before 6.4): it loaded */
	if (!l && errno == 524 && !boot_direct_calls(vmlinux)) {
		not_run = "its fentry program loaded, not run: the kernel has no ftrace direct calls";
		return;
	}
#else
	(void)vmlinux;
#endif
	if (!l) {
		fail("attach fentry on getpgid's wrapper: %s", strerror(errno));
		return;
	}
	for (i = 0; i < 3; i++)
		syscall(SYS_getpgid, 0);
	bpf_link__destroy(l);
	for (k = 0; k < OUT_NR; k++) {
		if (bpf_map_lookup_elem(bpf_map__fd(out), &k, &v)) {
			fail("map lookup: %s", strerror(errno));
			return;
		}
		if (k == OUT_HITS) {
			if (v != 3)
				fail("fentry ran %llu times for 3 getpgid()", v);
			if (!v)
				return;
		} else if (v != expect[k].want) {
			fail("%s gave %llu, not %llu", expect[k].what, v, expect[k].want);
		}
	}
}

/* iter/task: one (pid, tgid) record per task; pid 1 (us) and 2 (kthreadd) */
static void check_iter(struct bpf_object *obj)
{
	struct bpf_program *p = bpf_object__find_program_by_name(obj, "dump_task");
	int rec[2], fd, n = 0;
	bool init = false, kthreadd = false;
	struct bpf_link *l;
	ssize_t r;

	l = bpf_program__attach_iter(p, NULL);
	if (!l) {
		fail("attach iter/task: %s", strerror(errno));
		return;
	}
	fd = bpf_iter_create(bpf_link__fd(l));
	if (fd < 0) {
		fail("bpf_iter_create: %s", strerror(errno));
		goto out;
	}
	while ((r = read(fd, rec, sizeof(rec))) == sizeof(rec)) {
		n++;
		init |= rec[0] == 1 && rec[1] == 1;
		kthreadd |= rec[0] == 2;
	}
	if (r < 0)
		fail("read iter/task: %s", strerror(errno));
	if (!init || !kthreadd || n < 3)
		fail("iter/task: %d tasks, %s pid 1, %s pid 2", n, init ? "with" : "without",
		     kthreadd ? "with" : "without");
	close(fd);
out:
	bpf_link__destroy(l);
}

void boot_ids(struct btf *vmlinux)
{
	struct bpf_object *obj;

	const char *path = "/ids.bpf.o";

	(void)vmlinux;
	libbpf_set_print(libbpf_print);
	/* the kfuncs of ids.bpf.c came in 6.2 to 6.4: a 6.1 guest gets its IDS61 build */
	if (boot_release_before(6, 2)) {
		path = "/ids61.bpf.o";
		expect = expect_61;
	}
	obj = bpf_object__open_file(path, NULL);
	if (!obj) {
		fail("open %s: %s", path, strerror(errno));
		goto out;
	}
	if (bpf_object__load(obj)) {
		fail("load: %s", libbpf_last);
		goto out;
	}
	check_fentry(obj, vmlinux);
	check_iter(obj);
out:
	bpf_object__close(obj);
	if (failed[0])
		say("ids FAILED (%s)", failed);
	else if (not_run)
		say("ids ok (%s)", not_run);
	else
		say("ids ok");
}
