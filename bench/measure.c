// SPDX-License-Identifier: GPL-2.0
/*
 * measure - run a command, print its wall time, CPU time and peak RSS.
 *
 *   measure [-q] CMD [ARG...]
 *
 * Prints one line on stdout: "WALL_US USER_US SYS_US MAXRSS_KB STATUS"
 * (STATUS: the exit code, or 128+signal). Timing covers fork..wait4 of the
 * one child; the rusage is that child's own (wait4), so nothing of this
 * wrapper is counted. /usr/bin/time rounds to 10 ms, too coarse here.
 * -q sends the child's stdout and stderr to /dev/null.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long us(struct timeval tv)
{
	return tv.tv_sec * 1000000LL + tv.tv_usec;
}

int main(int argc, char **argv)
{
	struct timespec t0, t1;
	struct rusage ru;
	int quiet = 0, status, code;
	pid_t pid;

	if (argc > 1 && !strcmp(argv[1], "-q")) {
		quiet = 1;
		argv++;
		argc--;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: measure [-q] CMD [ARG...]\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 2;
	}
	if (!pid) {
		if (quiet) {
			int fd = open("/dev/null", O_WRONLY);

			dup2(fd, 1);
			dup2(fd, 2);
		}
		execvp(argv[1], argv + 1);
		perror(argv[1]);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) != pid) {
		perror("wait4");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	printf("%lld %lld %lld %ld %d\n",
	       (t1.tv_sec - t0.tv_sec) * 1000000LL + (t1.tv_nsec - t0.tv_nsec) / 1000,
	       us(ru.ru_utime), us(ru.ru_stime), ru.ru_maxrss, code);
	return 0;
}
