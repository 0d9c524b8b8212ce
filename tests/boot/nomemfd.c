// SPDX-License-Identifier: GPL-2.0
/*
 * nomemfd.c - libbpf 1.8 on a kernel without memfd_create(2): the tiny
 * kernel has CONFIG_MEMFD_CREATE off (no SHMEM), and libbpf (since 1.4,
 * create_placeholder_fd() in libbpf.c) reserves each map's fd at open
 * time with memfd_create(), later dup'ed over by the real map fd. Linked
 * with -Wl,--wrap=syscall (tests/boot-share.sh): libbpf's syscall() calls
 * come here; memfd_create gets an fd of "/" (the initramfs has no /dev/null), which serves the same
 * (any fd does), and every other call goes to the C library's syscall().
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/syscall.h>

long __real_syscall(long nr, ...);
long __wrap_syscall(long nr, ...);

long __wrap_syscall(long nr, ...)
{
	long a[6];
	va_list ap;

	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);	/* x86-64: six register arguments */
	va_end(ap);
	if (nr == SYS_memfd_create)
		return open("/", O_RDONLY | O_CLOEXEC);
	return __real_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}
