// SPDX-License-Identifier: GPL-2.0
/*
 * init.c - /init of the boot test's initramfs (tests/boot.sh): a static
 * program that lets the booted kernel judge what btfids computed.
 *
 *   ids     load and run ids.bpf.o (fentry, kfuncs, a BTF-typed helper,
 *           iter/task): the verifier refuses them if a .BTF_ids slot is wrong
 *   models  for each function of /models.txt (btfids models --all on the
 *           host), load a fentry program and attach it: the kernel must
 *           accept exactly the attachable ones, refuse the others for the
 *           model's reason, and let the program read the model's slots and
 *           no more
 *   args    fentry on a few functions reached from syscalls with known
 *           arguments: each value must be in the ctx slot the model gives
 * With /selftests.txt (tests/selftests-boot.sh): after ids, upstream's
 * test_progs instead, once per configuration of the trampoline switches
 * (selftests.c).
 *
 * Output on the console, one "boot: ..." line per result, then a reboot
 * (qemu runs with -no-reboot, so it exits).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "boot.h"

char boot_release[65];
char boot_log[1 << 16];

void append(char *buf, size_t size, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	if (n && n < size - 2) {
		strcat(buf, "; ");
		n += 2;
	}
	va_start(ap, fmt);
	vsnprintf(buf + n, size - n, fmt, ap);
	va_end(ap);
}

void *boot_grow(void *v, int *cap, int n, size_t size)
{
	void *x;

	if (n < *cap)
		return v;
	x = realloc(v, (*cap ? 2 * *cap : 4096) * size);
	if (x)
		*cap = *cap ? 2 * *cap : 4096;
	return x;
}

double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * The emulator's slowness on this host (tests/emulib.sh): btfids_scale=S on
 * the kernel command line, at least 1; the guest's own waits are their
 * defaults times this. 1 when not given.
 */
double boot_scale(void)
{
	static double scale;
	char line[4096] = "", *p;
	FILE *f;

	if (scale)
		return scale;
	scale = 1;
	f = fopen("/proc/cmdline", "r");
	if (f && fgets(line, sizeof(line), f)) {
		p = strstr(line, "btfids_scale=");
		if (p && strtod(p + strlen("btfids_scale="), NULL) > 1)
			scale = strtod(p + strlen("btfids_scale="), NULL);
	}
	if (f)
		fclose(f);
	return scale;
}

void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("boot: %s ", boot_release);
	vprintf(fmt, ap);
	putchar('\n');
	fflush(stdout);
	va_end(ap);
}

/* The last non-empty line of the verifier log, for reports. */
const char *last_log_line(void)
{
	static char line[160];
	char *end = boot_log + strnlen(boot_log, sizeof(boot_log) - 1), *p;

	for (;;) {
		while (end > boot_log && (end[-1] == '\n' || end[-1] == ' '))
			end--;
		for (p = end; p > boot_log && p[-1] != '\n'; p--)
			;
		/* the verifier's statistics follow its verdict */
		if (p == boot_log || (strncmp(p, "processed ", 10) &&
				      strncmp(p, "verification time", 17)))
			break;
		end = p;
	}
	snprintf(line, sizeof(line), "%.*s", (int)(end - p), p);
	return line;
}

/*
 * Load a fentry program (load_tracing(): of attach type @type, fexit or
 * fmod_ret) on BTF FUNC @id; -errno on failure (boot_log then
 * holds the verifier's log). Without @refusal expected, the log is asked
 * for only when the first load fails: logs cost time under TCG.
 */
int load_fentry(uint32_t id, const struct bpf_insn *insns, size_t cnt, bool refusal)
{
	return load_tracing(BPF_TRACE_FENTRY, id, insns, cnt, refusal);
}

int load_tracing(int type, uint32_t id, const struct bpf_insn *insns, size_t cnt, bool refusal)
{
	LIBBPF_OPTS(bpf_prog_load_opts, o, .expected_attach_type = type, .attach_btf_id = id);
	int fd;

	boot_log[0] = 0;
	if (!refusal) {
		fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "boot", "GPL", insns, cnt, &o);
		if (fd >= 0)
			return fd;
	}
	o.log_buf = boot_log;
	o.log_size = sizeof(boot_log);
	o.log_level = 1;
	fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "boot", "GPL", insns, cnt, &o);
	if (fd >= 0 && !refusal) {
		close(fd);
		return -EAGAIN;	/* refused once, accepted once: report it */
	}
	return fd >= 0 ? fd : -errno;
}

int load_empty(int type, int btf_fd, uint32_t id)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr a = {
		.prog_type = BPF_PROG_TYPE_TRACING,
		.expected_attach_type = type,
		.insns = (uintptr_t)insns, .insn_cnt = 2,
		.license = (uintptr_t)"GPL",
		.attach_btf_obj_fd = btf_fd,
		.attach_btf_id = id,
	};
	int fd = syscall(__NR_bpf, BPF_PROG_LOAD, &a, sizeof(a));

	return fd < 0 ? -errno : fd;
}

static void setup(void)
{
	struct utsname u;

	struct rlimit fds = { 1 << 16, 1 << 16 };

	/* one link fd for each attached function (models.c) */
	setrlimit(RLIMIT_NOFILE, &fds);
	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	/* the kernel's list of ftrace records (models.c, arm64) */
	mount("tracefs", "/sys/kernel/tracing", "tracefs", 0, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!uname(&u))
		snprintf(boot_release, sizeof(boot_release), "%s", u.release);
	else
		snprintf(boot_release, sizeof(boot_release), "unknown");
}

bool boot_release_before(int major, int minor)
{
	int a = 0, b = 0;

	if (sscanf(boot_release, "%d.%d", &a, &b) != 2)
		return false;
	return a < major || (a == major && b < minor);
}

/* /budget.txt: seconds for the models (tests/boot.sh BTFIDS_BOOT_BUDGET) */
static int read_budget(void)
{
	FILE *f = fopen("/budget.txt", "r");
	int b = 0;

	if (f) {
		if (fscanf(f, "%d", &b) != 1)
			b = 0;
		fclose(f);
	}
	return b;
}

static void __attribute__((noreturn)) finish(void)
{
	printf("boot: end\n");
	fflush(stdout);
	sync();
	reboot(RB_AUTOBOOT);
	for (;;)
		pause();
}

int main(void)
{
	struct boot_model *models = NULL;
	struct btf *vmlinux;
	double t0 = now();
	int n;

	setup();
	printf("boot: %s init started\n", boot_release);
	vmlinux = btf__load_vmlinux_btf();
	if (!vmlinux) {
		say("ids FAILED (no /sys/kernel/btf/vmlinux: %s)", strerror(errno));
		finish();
	}
	boot_ids(vmlinux);
	if (boot_share && !access("/funcs.txt", R_OK)) {
		/* tests/boot-share.sh: shared trampoline images */
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
		mount("tracefs", "/sys/kernel/tracing", "tracefs", 0, NULL);
		boot_share("/funcs.txt");
		say("guest seconds %.1f", now() - t0);
		finish();
	}
	if (boot_modules && !access("/modules.txt", R_OK)) {
		/* tests/boot-modules.sh: the patched kernel with real modules */
		boot_modules("/modules.txt", "/modverdicts.txt");
		say("guest seconds %.1f", now() - t0);
		finish();
	}
	if (boot_selftests && !access("/selftests.txt", R_OK)) {
		/* tests/selftests-boot.sh: upstream's test_progs */
		boot_selftests();
		say("guest seconds %.1f", now() - t0);
		finish();
	}
	if (boot_tramp && (!access("/tramp.txt", R_OK) || !access("/tramp-probe", R_OK) ||
			   !access("/tramp-klog", R_OK))) {
		/* tests/boot-tramp.sh: the patched kernel */
		boot_tramp(access("/tramp.txt", R_OK) ? NULL : "/tramp.txt",
			   access("/tramp-probe", R_OK) ? NULL : "/tramp-probe");
		say("guest seconds %.1f", now() - t0);
		finish();
	}
	n = boot_models_read("/models.txt", vmlinux, &models);
	if (n < 0)
		say("models FAILED (/models.txt: %s)", strerror(-n));
	else
		boot_models(vmlinux, models, n, read_budget());
	free(models);
	models = NULL;
	n = boot_models_read("/args.txt", vmlinux, &models);
	if (n < 0)
		say("args FAILED (/args.txt: %s)", strerror(-n));
	else
		boot_args(models, n);
	free(models);
	say("guest seconds %.1f", now() - t0);
	finish();
}
