// SPDX-License-Identifier: GPL-2.0
/*
 * ids.bpf.c - BPF programs the booted kernel accepts only if the BTF IDs
 * btfids wrote into its .BTF_ids are right (loaded by init.c):
 *  - fentry on a syscall (getpgid): the attach target is checked against the
 *    btf_id_deny set;
 *  - bpf_get_current_task_btf(): its return type is the task_struct ID of
 *    the btf_tracing_ids list;
 *  - kfuncs of the generic set (set8 with flags: KF_ACQUIRE, KF_RELEASE,
 *    KF_RET_NULL, KF_RCU) and of the common set (bpf_rcu_read_lock, the
 *    KF_ITER_* open-coded number iterator): a kfunc whose ID is not in the
 *    set, or paired with another's flags, is refused;
 *  - iter/task: the context's task and seq_file pointer types come from
 *    BTF_ID_LIST slots.
 * No vmlinux.h: the few kernel types are declared here and relocated by
 * CO-RE against the guest's /sys/kernel/btf/vmlinux.
 *
 * Built with -DIDS61 (ids61.bpf.o) for a 6.1 guest, which has none of those
 * kfuncs (bpf_task_acquire and bpf_rcu_read_lock came in 6.2, bpf_iter_num
 * in 6.4): the kfuncs 6.1 gives tracing programs instead, net/bpf/test_run.c's
 * test_sk_check_kfunc_ids set8 (bpf_kfunc_call_test_acquire KF_ACQUIRE |
 * KF_RET_NULL, bpf_kfunc_call_test_release KF_RELEASE), whose object
 * prog_test_struct has a = 42, b = 108 in the 6.1 tree.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

struct task_struct {
	int pid;
	int tgid;
} __attribute__((preserve_access_index));

struct seq_file;

struct bpf_iter_meta {
	struct seq_file *seq;
	__u64 session_id;
	__u64 seq_num;
} __attribute__((preserve_access_index));

struct bpf_iter__task {
	struct bpf_iter_meta *meta;
	struct task_struct *task;
} __attribute__((preserve_access_index));

#ifdef IDS61
struct prog_test_ref_kfunc {
	int a;
	int b;
} __attribute__((preserve_access_index));

extern struct prog_test_ref_kfunc *bpf_kfunc_call_test_acquire(unsigned long *sp) __ksym;
extern void bpf_kfunc_call_test_release(struct prog_test_ref_kfunc *p) __ksym;
#else
struct bpf_iter_num {
	__u64 __opaque[1];
} __attribute__((aligned(8)));

extern struct task_struct *bpf_task_acquire(struct task_struct *p) __ksym;
extern void bpf_task_release(struct task_struct *p) __ksym;
extern struct task_struct *bpf_task_from_pid(__s32 pid) __ksym;
extern void bpf_rcu_read_lock(void) __ksym;
extern void bpf_rcu_read_unlock(void) __ksym;
extern int bpf_iter_num_new(struct bpf_iter_num *it, int start, int end) __ksym;
extern int *bpf_iter_num_next(struct bpf_iter_num *it) __ksym;
extern void bpf_iter_num_destroy(struct bpf_iter_num *it) __ksym;
#endif

/* out[]: what the guest checks after calling getpgid(0) (IDS61: ids.c's 6.1 table) */
enum {
	OUT_HITS,	/* fentry runs in pid 1 */
	OUT_PID,	/* current->pid through bpf_get_current_task_btf() */
	OUT_ACQ_PID,	/* pid of bpf_task_acquire(current); IDS61: test kfunc ->a */
	OUT_FROM_PID,	/* pid of bpf_task_from_pid(1); IDS61: test kfunc ->b */
	OUT_RCU_TGID,	/* current->tgid read between bpf_rcu_read_lock/unlock */
	OUT_ITER_SUM,	/* 1 + 2 + ... + 10 by bpf_iter_num; IDS61: unused */
	OUT_NR,
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, OUT_NR);
	__type(key, __u32);
	__type(value, __u64);
} out SEC(".maps");

static void put(__u32 k, __u64 v)
{
	bpf_map_update_elem(&out, &k, &v, BPF_ANY);
}

#ifdef IDS61
static __always_inline void kfuncs(struct task_struct *t)
{
	struct prog_test_ref_kfunc *p;
	unsigned long scalar = 0;

	p = bpf_kfunc_call_test_acquire(&scalar);
	if (p) {
		put(OUT_ACQ_PID, p->a);
		put(OUT_FROM_PID, p->b);
		bpf_kfunc_call_test_release(p);
	}
	put(OUT_RCU_TGID, t->tgid);
}
#else
static __always_inline void kfuncs(struct task_struct *t)
{
	struct bpf_iter_num it;
	struct task_struct *a;
	__u64 sum = 0;
	int *v;

	a = bpf_task_acquire(t);
	if (a) {
		put(OUT_ACQ_PID, a->pid);
		bpf_task_release(a);
	}
	a = bpf_task_from_pid(1);
	if (a) {
		put(OUT_FROM_PID, a->pid);
		bpf_task_release(a);
	}
	bpf_rcu_read_lock();
	put(OUT_RCU_TGID, t->tgid);
	bpf_rcu_read_unlock();

	bpf_iter_num_new(&it, 1, 11);
	while ((v = bpf_iter_num_next(&it)))
		sum += *v;
	bpf_iter_num_destroy(&it);
	put(OUT_ITER_SUM, sum);
}
#endif

/* the syscall's wrapper, by the target's prefix (has_arch_syscall_prefix()) */
#if defined(__TARGET_ARCH_arm64)
#define SYS_GETPGID	"__arm64_sys_getpgid"
#elif defined(__TARGET_ARCH_s390)
#define SYS_GETPGID	"__s390x_sys_getpgid"
#else
#define SYS_GETPGID	"__x64_sys_getpgid"
#endif

SEC("fentry/" SYS_GETPGID)
int BPF_PROG(on_getpgid)
{
	struct task_struct *t = bpf_get_current_task_btf();
	__u32 k = OUT_HITS;
	__u64 *hits;

	if (t->pid != 1)
		return 0;
	hits = bpf_map_lookup_elem(&out, &k);
	if (hits)
		__sync_fetch_and_add(hits, 1);
	put(OUT_PID, t->pid);
	kfuncs(t);
	return 0;
}

/* one 8-byte record per task: pid, tgid */
SEC("iter/task")
int dump_task(struct bpf_iter__task *ctx)
{
	struct task_struct *t = ctx->task;
	int rec[2];

	if (!t)
		return 0;
	rec[0] = t->pid;
	rec[1] = t->tgid;
	bpf_seq_write(ctx->meta->seq, rec, sizeof(rec));
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
