// SPDX-License-Identifier: GPL-2.0
/*
 * selftests.c - upstream's BPF selftests of the mass-attach path in the
 * booted patched 7.3 kernel (tests/selftests-boot.sh).
 *
 * /selftests/test_progs is the tree's own harness, built with only the
 * trampoline and multi-attach tests (tests/selftests/Makefile); it runs in
 * /selftests, where the BPF objects it opens by file name are, and where
 * bpf_testmod.ko is when the host built it (test_progs loads it itself).
 * /selftests.txt names the runs, one a line: a label, the program (a file in
 * /selftests: test_progs, or the selftests' benchmark runner, bench) and its
 * arguments, separated by spaces. Each runs once per configuration of the
 * kernel's switches, all configurations of a line before the next line:
 *   btf_tramp        Y/N  the trampoline tables (kernel/7.3)
 *   bpf_tramp_share  0/1  shared trampoline images, only when the kernel
 *                         has that parameter
 * A kernel without btf_tramp (mainline, or kernel/7.3-fixes alone) runs
 * each line once, as it is: "tables=- share=-".
 * /selftests-configs, when there, keeps to the configurations it names, a
 * word each ("Y1": tables on, sharing on; "N-": tables off, on a kernel
 * without the switch): make check runs two of the four (tests/selftests-boot.sh).
 * Each run framed by "boot: <release> selftests <label> config tables=Y
 * share=0" (share=- when the kernel has no such switch) and "boot:
 * <release> selftests <label> exit <status>"; the program's own output, its
 * "Summary:" line last, is between them on the console.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "boot.h"

#define PARAMS		"/sys/module/kernel/parameters/"
#define MAX_ARGS	32
#define SELFTESTS_DIR	"/selftests/"

/* Write @val to kernel parameter @name and read it back: 0, or -errno. */
static int set_param(const char *name, const char *val)
{
	char path[128], got[8] = "";
	int fd, n, err = 0;

	snprintf(path, sizeof(path), PARAMS "%s", name);
	fd = open(path, O_RDWR);
	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0 || lseek(fd, 0, SEEK_SET) < 0)
		err = -errno;
	n = err ? 0 : read(fd, got, sizeof(got) - 1);
	close(fd);
	if (!err && (n <= 0 || got[0] != val[0]))
		err = -EIO;
	return err;
}

/*
 * One line of /selftests.txt (@line, changed in place) into its @label
 * and @argv (argv[0]: the program's path in /selftests, in @prog, which
 * has room for PATH_MAX bytes); the count of arguments, -ENODATA for an
 * empty line, or -EINVAL.
 */
static int split_run(char *line, char **label, char *argv[], char *prog)
{
	char *save, *w;
	int n = 1;

	*label = strtok_r(line, " \n", &save);
	if (!*label)
		return -ENODATA;
	w = strtok_r(NULL, " \n", &save);
	if (!w || strchr(w, '/'))
		return -EINVAL;
	snprintf(prog, PATH_MAX, SELFTESTS_DIR "%s", w);
	argv[0] = prog;
	while (n < MAX_ARGS - 1 && (w = strtok_r(NULL, " \n", &save)))
		argv[n++] = w;
	argv[n] = NULL;
	return n;
}

/* One run in /selftests; its wait status, or -errno. */
static int run(char *argv[])
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		if (!chdir(SELFTESTS_DIR))
			execv(argv[0], argv);
		printf("selftests: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	return status;
}

/* The trampoline images: "[bpf]" kallsyms lines named bpf_trampoline_* */
static int tramp_images(void)
{
	char line[512];
	int n = 0;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		n += strstr(line, " bpf_trampoline_") && strstr(line, "[bpf]");
	fclose(f);
	return n;
}

/*
 * Before a benchmark: wait until the images the last run left for RCU
 * Tasks to free are gone (their kallsyms lines go last), at most
 * SETTLE_MAX_MS, so that each run builds its image into the same free prog
 * pack space (under TCG, where code sits moves a traced call's cost by up
 * to a fifth). The benchmarks run first, when nothing else has images.
 */
#define SETTLE_MAX_MS		30000

static void settle(void)
{
	for (int ms = 0; ms < SETTLE_MAX_MS && tramp_images(); ms += 100)
		usleep(100 * 1000);
}

static void configure_and_run(const char *label, char *argv[], char tables,
			      const char *share)
{
	int err, st;

	err = tables == '-' ? 0 : set_param("btf_tramp", tables == 'Y' ? "Y" : "N");
	if (!err && *share != '-')
		err = set_param("bpf_tramp_share", share);
	say("selftests %s config tables=%c share=%s", label, tables, share);
	if (err) {
		say("selftests %s exit setup (%s)", label, strerror(-err));
		return;
	}
	if (!strcmp(argv[0], SELFTESTS_DIR "bench"))
		settle();
	st = run(argv);
	if (st < 0)
		say("selftests %s exit setup (%s)", label, strerror(-st));
	else if (WIFEXITED(st))
		say("selftests %s exit %d", label, WEXITSTATUS(st));
	else
		say("selftests %s exit signal %d", label, WTERMSIG(st));
}

#define CONFIGS		"/selftests-configs"

/*
 * Is configuration @tables (Y/N) with @share ("0", "1", "-") one that
 * CONFIGS names (every one when there is no such file)?
 */
static bool config_wanted(char tables, const char *share)
{
	static char want[256];
	static int read_once;
	char word[3] = { tables, *share, 0 };
	FILE *f;

	if (!read_once) {
		read_once = 1;
		f = fopen(CONFIGS, "r");
		if (f) {
			want[0] = ' ';
			if (!fgets(want + 1, sizeof(want) - 2, f))
				want[1] = 0;
			want[strcspn(want, "\n")] = 0;
			strcat(want, " ");
			fclose(f);
		}
	}
	if (!want[0])
		return true;
	for (char *p = strstr(want, word); p; p = strstr(p + 1, word))
		if (p[-1] == ' ' && p[2] == ' ')
			return true;
	return false;
}

/* One line of /selftests.txt in every configuration of the kernel's switches */
static void run_line(char *line, bool tables, bool share)
{
	static const char *shares[] = { "0", "1" };
	char *argv[MAX_ARGS], *label, prog[PATH_MAX];
	int i, j, n;

	n = split_run(line, &label, argv, prog);
	if (n == -ENODATA)
		return;
	if (n < 0) {
		say("selftests FAILED (/selftests.txt: no program after '%s')", line);
		return;
	}
	if (!tables) {
		configure_and_run(label, argv, '-', "-");
		return;
	}
	for (i = 0; i < 2; i++) {
		if (!share) {
			if (config_wanted("YN"[i], "-"))
				configure_and_run(label, argv, "YN"[i], "-");
			continue;
		}
		for (j = 0; j < 2; j++)
			if (config_wanted("YN"[i], shares[j]))
				configure_and_run(label, argv, "YN"[i], shares[j]);
	}
}

void boot_selftests(void)
{
	bool tables = !access(PARAMS "btf_tramp", F_OK);
	bool share = !access(PARAMS "bpf_tramp_share", F_OK);
	char line[4096];
	FILE *f;

	/* what test_progs and its helpers look for */
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	mount("tracefs", "/sys/kernel/tracing", "tracefs", 0, NULL);
	mkdir("/tmp", 01777);
	f = fopen("/selftests.txt", "r");
	if (!f) {
		say("selftests FAILED (/selftests.txt: %s)", strerror(errno));
		return;
	}
	if (!tables)
		say("selftests: no trampoline tables in this kernel (no " PARAMS
		    "btf_tramp): one configuration, the kernel as it is");
	else if (!share)
		say("selftests: shared images are not in this kernel (no " PARAMS
		    "bpf_tramp_share): the tables' configurations only");
	while (fgets(line, sizeof(line), f))
		run_line(line, tables, share);
	fclose(f);
}
