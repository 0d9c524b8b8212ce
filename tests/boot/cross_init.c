// SPDX-License-Identifier: GPL-2.0
/*
 * cross_init.c - /init of a cross-built kernel's boot (tests/boot-cross.sh:
 * arm64 or s390x under its qemu-system, TCG). Static, libc only, built with
 * the target's cross gcc: it relays what the kernel said of btfids'
 * trampoline table and what it exports, then powers the machine off.
 *
 * Console lines, each "boot: <release> ...":
 *   init started
 *   klog: btf_tramp: ...      every kernel log line with "btf_tramp: "
 *                             (the table's boot check and its self-test,
 *                             kernel/7.3 patches 1, 4 and 12)
 *   export: PATH: N bytes, magic 0xM, version V
 *                             /sys/kernel/btf_tramp/vmlinux (patch 13), its
 *                             header read in the kernel's byte order; or
 *                             "export: PATH: <errno text>"
 *   btf: N bytes              /sys/kernel/btf/vmlinux
 *   end
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/utsname.h>

#define TABLE	"/sys/kernel/btf_tramp/vmlinux"
#define BTF	"/sys/kernel/btf/vmlinux"
#define KLOG_READ_ALL	3	/* SYSLOG_ACTION_READ_ALL, kernel/printk/printk.c */
#define KLOG_SIZE	10	/* SYSLOG_ACTION_SIZE_BUFFER */

static char rel[65];

/* The whole of @path into a malloc'd buffer; its length in *@len. */
static char *slurp(const char *path, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	ssize_t r;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0 || !buf) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while ((r = read(fd, buf + n, cap - n)) > 0) {
		n += r;
		if (n == cap) {
			char *more = realloc(buf, cap * 2);

			if (!more)
				break;
			buf = more;
			cap *= 2;
		}
	}
	close(fd);
	*len = n;
	return buf;
}

/* Each line of the kernel's log that names the table, as "klog: ..." */
static void klog_lines(void)
{
	int size = klogctl(KLOG_SIZE, NULL, 0);
	char *buf, *line, *save;
	int n;

	if (size <= 0 || !(buf = malloc(size + 1)))
		return;
	n = klogctl(KLOG_READ_ALL, buf, size);
	buf[n > 0 ? n : 0] = 0;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *p = strstr(line, "btf_tramp: ");

		if (p)
			printf("boot: %s klog: %s\n", rel, p);
	}
	free(buf);
}

/*
 * The exported table's size and header (struct btf_tramp2_hdr: magic u32,
 * version u16), read as little-endian: the kernel exports it so whatever
 * its own byte order (a big-endian kernel, s390x, converts a copy)
 */
static void exported(void)
{
	uint32_t magic;
	uint16_t version;
	size_t len = 0;
	char *t;

	t = slurp(TABLE, &len);
	if (!t) {
		printf("boot: %s export: %s: %s\n", rel, TABLE, strerror(errno));
	} else if (len < 6) {
		printf("boot: %s export: %s: %zu bytes, too short for a header\n", rel, TABLE, len);
	} else {
		memcpy(&magic, t, 4);
		memcpy(&version, t + 4, 2);
		magic = le32toh(magic);
		version = le16toh(version);
		printf("boot: %s export: %s: %zu bytes, magic 0x%08x, version %u\n", rel, TABLE, len,
		       magic, version);
	}
	free(t);
	t = slurp(BTF, &len);
	if (t)
		printf("boot: %s btf: %zu bytes\n", rel, len);
	else
		printf("boot: %s btf: %s: %s\n", rel, BTF, strerror(errno));
	free(t);
}

int main(void)
{
	struct utsname u;

	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!uname(&u))
		snprintf(rel, sizeof(rel), "%s", u.release);
	printf("boot: %s init started\n", rel);
	klog_lines();
	exported();
	printf("boot: %s end\n", rel);
	fflush(stdout);
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
