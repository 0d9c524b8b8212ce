// SPDX-License-Identifier: GPL-2.0
/*
 * btfids_klp.c - a livepatch for the shared image test (tests/boot/
 * share_klp.c, tests/boot-share.sh): munlockall(2) and four more
 * syscalls patched to return BTFIDS_KLP_RET.
 *
 * Why munlockall: in the x86-64 build of kernel/build-tree its syscall
 * wrapper and body, __x64_sys_munlockall and __do_sys_munlockall, are one
 * function at one address: two BTF FUNCs of one call site, which a
 * tracing_multi link attaches once (patch 2/11: the linked id and its
 * alias). The livepatch registers an IPMODIFY ftrace_ops on that call
 * site (kernel/livepatch/patch.c), what the series' review findings on
 * aliases and shared images are about. Four more syscalls no test calls
 * otherwise return BTFIDS_KLP_RET too: ftrace asks for one trampoline's
 * rebuild at a time (patch 3/11), so a link over five live-patched call
 * sites takes six tries.
 *
 * Built as an external module against the tree (M=, needs CONFIG_LIVEPATCH).
 */
#include <linux/kernel.h>
#include <linux/livepatch.h>
#include <linux/module.h>
#include <linux/ptrace.h>

#define BTFIDS_KLP_RET	4242	/* tests/boot/share_klp.c */

static long btfids_klp_syscall(const struct pt_regs *regs)
{
	return BTFIDS_KLP_RET;
}

/* the same order as share_klp.c's klp_syscalls[] */
static struct klp_func btfids_klp_funcs[] = {
	{ .old_name = "__x64_sys_munlockall", .new_func = btfids_klp_syscall },
	{ .old_name = "__x64_sys_mlockall", .new_func = btfids_klp_syscall },
	{ .old_name = "__x64_sys_munlock", .new_func = btfids_klp_syscall },
	{ .old_name = "__x64_sys_mlock", .new_func = btfids_klp_syscall },
	{ .old_name = "__x64_sys_syncfs", .new_func = btfids_klp_syscall },
	{ }
};

static struct klp_object btfids_klp_objs[] = {
	{ .funcs = btfids_klp_funcs },	/* no name: vmlinux */
	{ }
};

static struct klp_patch btfids_klp_patch = {
	.mod = THIS_MODULE,
	.objs = btfids_klp_objs,
};

static int __init btfids_klp_init(void)
{
	return klp_enable_patch(&btfids_klp_patch);
}

static void __exit btfids_klp_exit(void)
{
}

module_init(btfids_klp_init);
module_exit(btfids_klp_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("btfids test: munlockall(2) live patched");
MODULE_INFO(livepatch, "Y");
