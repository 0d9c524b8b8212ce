/* SPDX-License-Identifier: GPL-2.0 */
/*
 * share.h - the guest's side of the shared trampoline image test
 * (tests/boot-share.sh): share.c (the functions, the kernel's switch and
 * counts, links), share_proof.c (make check), share_bench.c (bench/tramp),
 * share_ksym.c (what perf hears of the images).
 * The patched 7.3 kernel's interface: /work/notes of the lead, in short:
 *   /sys/module/kernel/parameters/bpf_tramp_share  0 off, 1 on (cookies
 *                      looked up by call site), 2 stamped (an image per
 *                      function, each a copy of its class's one JIT with
 *                      its immediates patched; a kernel without it refuses 2)
 *   /sys/kernel/debug/bpf_tramp_stats  live images and bytes, shared ones,
 *                      stamped ones (their own line, with mode 2's kernel),
 *                      the stage times (TSC) of the last attach/detach
 */
#ifndef _SHARE_GUEST_H
#define _SHARE_GUEST_H

#include <stdbool.h>
#include <stdint.h>
#include <bpf/libbpf.h>

/* One line of /funcs.txt (tests/boot-share.sh, from btfids models --all) */
struct share_func {
	uint32_t id;		/* BTF FUNC id in vmlinux */
	char name[128];
	int slots;		/* argument registers of its model */
	int size[6];		/* bytes of the first 6 arguments (0: none) */
	int ret_size;		/* bytes of the return value (0: void) */
	char model[96];		/* the model as text: equal for one group */
	int fexit;		/* 0: left out of the fexit.multi link */
	uint64_t addr;		/* /proc/kallsyms */
	/*
	 * on the error injection list (/sys/kernel/debug/error_injection/list):
	 * the kernel never shares its image (an override may move its ip)
	 */
	int ei;
};

#define SHARE_STAGES	8
struct share_stages {
	int cnt;		/* functions of the last operation of this kind */
	int n;
	char name[SHARE_STAGES][16];
	uint64_t cycles[SHARE_STAGES];
};

/* the stages the kernel times: tracing_multi's (kprobe_multi's are not timed) */
enum { SHARE_ATTACH, SHARE_DETACH, SHARE_KINDS };

struct share_stats {
	long images, bytes;		/* live trampoline images, all kinds */
	long shared, shared_bytes;	/* of which shared */
	/*
	 * the stubs of shared images that call the original (one a function
	 * of such an image), the blocks they sit in (each a kallsyms symbol,
	 * "<image>_stubs") and the blocks' bytes
	 */
	long stubs, stub_blocks, stub_bytes;
	/*
	 * "stamped <copies> templates <n> alloc <C> build <C> write <C>
	 * blocks <B>": stamped images (counted in images too), the JITs they
	 * were copied from, the get_cycles() all copies took so far to be
	 * allocated and announced, built (copied, moved, patched) and written
	 * into executable memory, and the live blocks copies are carved out
	 * of (bpf_tramp_share=3, 4; a kernel of before has no cycles or
	 * blocks: 0);
	 * has_stamped: the line was there (a kernel with bpf_tramp_share=2)
	 */
	long stamped, templates;
	long long stamp_cycles[3];
	long stamp_blocks;	/* live blocks of copies (modes 3 and 4) */
	bool has_stamped;
	struct share_stages st[SHARE_KINDS];
};

/* What must be back after a detach. */
struct share_counts {
	struct share_stats s;
	int ksyms;		/* bpf_trampoline_* symbols in /proc/kallsyms */
	int ksyms_shared;	/* of which shared images' (share_shared_name()) */
	int direct;		/* functions in /sys/kernel/tracing/enabled_functions */
	int direct_shared;	/* of which call a shared image */
	long memfree_kb;	/* /proc/meminfo MemFree */
	long pcp_kb;		/* free pages on the per-CPU lists (share.c pcp_kb()) */
	long stack_kb;		/* KernelStack: the threads' stacks */
	long threads;		/* /proc/loadavg: threads in the system */
	long slab_kb, percpu_kb, vmalloc_kb;	/* Slab, Percpu, VmallocUsed */
};

/*
 * Free memory lost from base to end, in kB: the fall of MemFree and the
 * per-CPU lists' free pages (pcp_kb) less what
 * the threads started meanwhile hold (their stacks, KernelStack's rise, and
 * SHARE_THREAD_SLAB_KB of slab each). Mainline's per-function image frees
 * are work items that block, so the workqueue starts kworkers for them (a
 * sharing-off fexit detach of 22,822 images: 674 of them, KernelStack
 * +10.5 MB, Slab +5.6 MB) and reaps them only after 5 idle minutes
 * (IDLE_WORKER_TIMEOUT, kernel/workqueue.c).
 */
long share_mem_lost_kb(const struct share_counts *base, const struct share_counts *end);
/*
 * share_mem_lost_kb(), and while above @bound_kb, again each second for up
 * to 20 s (scaled by boot_scale()): slab freed after an RCU grace period
 * and the per-CPU lists' decay come back, a leak does not. Returns the
 * least seen, @end updated to the counts that gave it.
 */
long share_mem_settle(const struct share_counts *base, struct share_counts *end, long bound_kb);
/*
 * Whether the kernel is a KASAN one: its quarantine keeps freed objects
 * before giving them back, so free memory says nothing of a leak there.
 */
bool share_kasan(void);

struct share_ctx {
	struct bpf_object *obj;
	struct share_func *f;	/* the attached functions, in attach order */
	int n;			/* of them, taken by one fentry.multi link */
	uint32_t *ids;		/* their BTF ids */
	uint64_t *cookies;	/* their cookies */
	const char **syms;	/* their names (kprobe_multi) */
	uint32_t *xids;		/* those one fexit.multi link takes */
	uint64_t *xcookies;
	int xn;
	double hz;		/* TSC rate */
	bool no_plain;		/* the proof without its plain fentry (share_trust.c) */
};

/* btf_tramp= (writable with kernel/7.3-test 2/4): Y the table, N BTF */
#define BTF_TRAMP_PARAM	"/sys/module/kernel/parameters/btf_tramp"
/* The kernel's log buffer, NUL-terminated (free() it), or NULL */
char *share_klog_read(void);
/* Write @val to the file @path (a module parameter): 0 or -errno */
int share_write_param(const char *path, const char *val);
/* Write @mode to bpf_tramp_share and read it back: 0, or -1 (said) */
int share_set(int mode);
/* /sys/kernel/debug/bpf_tramp_stats into @s: 0, or -errno */
int share_stats(struct share_stats *s);
/* The stats, kallsyms, enabled_functions and meminfo counts, now */
void share_counts(struct share_counts *c);
/* Whether kallsyms name @name is a shared image's (else per function) */
bool share_shared_name(const char *name);
/* The first few bpf_trampoline_* symbols of /proc/kallsyms, appended to @buf */
void share_ksyms_list(char *buf, size_t size);
/* The tasks whose kernel stack is in a bpf_trampoline_* image, appended to @buf */
void share_holders(char *buf, size_t size);
/*
 * Wait (up to @secs, polling; images are freed after RCU-tasks grace
 * periods) until @done(@got, @arg): 0, or -1 when it never was (it says
 * which images are left and which tasks are in them). With @visit, a wait
 * for images to go: after 30 s it says the same and runs on every CPU it
 * may (an idle CPU's idle task can hold an fexit image: share.c,
 * visit_cpus()), and says how long after that they went.
 */
int share_wait(struct share_counts *got, double secs,
	       bool (*done)(const struct share_counts *got, const void *arg), const void *arg,
	       bool visit);
/* share_wait(), with @visit, for the counts (not the memory) of @want again */
int share_settle(const struct share_counts *want, struct share_counts *got, double secs);
/*
 * A tracing_multi link of @prog (fentry.multi or fexit.multi: its expected
 * attach type) over the BTF ids @ids[0..cnt), @cookies NULL or one each,
 * with @flags (link_create.tracing_multi.flags): its fd, or -errno
 */
int share_link_flags(struct bpf_program *prog, const uint32_t *ids, const uint64_t *cookies,
		     int cnt, uint32_t flags);
/*
 * share_link_flags() asking for shared images (BPF_F_TRACING_MULTI_SHARE,
 * kernel/7.3 22/24: a link of fexit or with cookies shares only then), as
 * every test of sharing does
 */
int share_link(struct bpf_program *prog, const uint32_t *ids, const uint64_t *cookies,
	       int cnt);
/* A kprobe_multi link of @prog over the functions @syms: its fd, or -errno */
int share_link_kprobe(struct bpf_program *prog, const char **syms, const uint64_t *cookies,
		      int cnt);
/* The counters map of share.bpf.c (enum share_counter) */
uint64_t share_counter(struct share_ctx *c, uint32_t k);
void share_counter_set(struct share_ctx *c, uint32_t k, uint64_t v);
/* The attached function @name, or NULL */
struct share_func *share_find(struct share_ctx *c, const char *name);
/* Whether @name is on the error injection list (/sys/kernel/debug/error_injection/list) */
bool share_ei(const char *name);
/* The cookie the links give the function of BTF id @id (distinct for each) */
uint64_t share_cookie(uint32_t id);

/*
 * PERF_RECORD_KSYMBOL of trampoline images, as a profiler hears them
 * (share_ksym.c): counts of "bpf_trampoline_*" records since the watch
 * began, and over the symbols live now (by address).
 */
struct share_ksym_counts {
	long add, del;			/* records of symbols added, removed */
	long add_shared, del_shared;	/* of which shared images' (share_shared_name()) */
	long lost;			/* records perf dropped (ring full), or kept none of */
	long live;			/* symbols added and not removed */
	long page_len;			/* of them, images announced a page long or longer */
	long overlap;			/* of them, starting inside another */
};
struct share_ksym;
/* A watch on every CPU: NULL (said) when perf_event_open() or mmap() fails */
struct share_ksym *share_ksym_open(void);
/* The records since the watch began (each ring drained) into @c */
void share_ksym_read(struct share_ksym *w, struct share_ksym_counts *c);
void share_ksym_close(struct share_ksym *w);

/* The proof with bpf_tramp_share = @mode (share_proof.c); the bench */
void share_proof(struct share_ctx *c, int mode);
/*
 * A livepatch on a function both proof links trace, before and after their
 * attach, with bpf_tramp_share = @mode (share_klp.c; /btfids_klp.ko)
 */
void share_klp(struct share_ctx *c, int mode);
/*
 * Overriding kprobes (bpf_override_return()) on functions a fentry.multi
 * link with cookies traces, sharing on (share_override.c)
 */
void share_override(struct share_ctx *c);
/*
 * Every entry of /sys/kernel/btf but vmlinux parsed as a module's split BTF,
 * as tools that list the folder do, and the table's own folder
 * (share_override.c): one "share: btf dir: " line
 */
void share_btf_dir(void);
/* /proc/kallsyms' address of @name, or 0 */
uint64_t share_kallsyms_addr(const char *name);
/*
 * bench/tramp's measurements (share_bench.c): @kprobe_n 0 for the table on
 * and off, then tracing_multi sharing off, on and stamped and the run-time
 * costs; -1 for the table's rounds alone, -2 for the run-time costs alone;
 * N for one kprobe_multi attach and
 * detach over the first N functions and nothing after it.
 */
void share_bench(struct share_ctx *c, int kprobe_n);
/*
 * Mass attach under load with bpf_tramp_share = @mode (share_stress.c):
 * fentry.multi, fexit.multi and kprobe_multi over the same functions at
 * once, rounds of attach and detach while another CPU runs traced calls.
 */
void share_stress(struct share_ctx *c, int mode);
/*
 * A wrong trampoline table (share_trust.c, tests/boot-trust.sh; linked by
 * that script only): the altered class's functions alone, the proof with
 * sharing on, the kernel's lines about what it dropped.
 */
void share_trust(struct share_ctx *c) __attribute__((weak));

/*
 * Call sites by their text (share_site.c): the symbols of /proc/kallsyms
 * by address (names kept for bpf_trampoline_* ones only), mmap()ed so that
 * glibc's heap does not keep them (the proof compares free memory)
 */
struct share_sym {
	uint64_t addr;
	char name[64];
};

struct share_syms {
	struct share_sym *t;
	int n;
	size_t len;	/* bytes mapped */
};

/* Load @s: 0 or -errno */
int share_syms_load(struct share_syms *s);
void share_syms_free(struct share_syms *s);

enum share_site_kind {
	SHARE_SITE_UNREAD,	/* the text could not be read */
	SHARE_SITE_NONE,	/* no call or jmp: not patched */
	SHARE_SITE_ELSEWHERE,	/* not an image's start, not a well-formed stub */
	SHARE_SITE_OWN,		/* a per-function image (bpf_trampoline_<key>) */
	SHARE_SITE_SHARED,	/* a shared image */
	SHARE_SITE_STUB,	/* jmp to a stub that pushes the site's own + 5 */
	SHARE_SITE_OTHER_STUB,	/* jmp to a stub that pushes another site's */
};

/* What share_site_read() found of one call site */
struct share_site {
	uint64_t site;		/* the call site: past an ENDBR or its seal */
	uint64_t target;	/* where its call or jmp goes */
	uint64_t pushed;	/* a stub's: the return address it pushes */
	bool jmp;		/* e9, else e8 */
	char image[64];		/* the symbol entered (a stub's: its image) */
	uint8_t head[12];	/* the function's first bytes */
};

/*
 * The call site of the function at @faddr, read through the peek program
 * @fd_peek (share.bpf.c) and judged against @s: an image entered at its
 * start, or a stub of a shared image, 32 bytes apart in a block of stubs,
 * jumped to, that moves stub + 20 into r11, enters a shared image at its
 * start and goes on to the body it pushed (arch_bpf_tramp_stub(),
 * kernel/7.3 14/24). x86-64 only.
 */
enum share_site_kind share_site_read(int fd_peek, const struct share_syms *s, uint64_t faddr,
				     struct share_site *out);
/*
 * Where ftrace's direct record sends the call site of the function
 * /proc/kallsyms names @name (enabled_functions lists it as @name or
 * @alias), judged as share_site_read() judges the text: for a site another
 * ftrace ops shares (a livepatch, a kprobe), whose text calls ftrace.
 * The record's "SYMBOL+OFF" is read by address, each symbol of that name
 * (blocks of stubs share one); two readings are SHARE_SITE_ELSEWHERE.
 */
enum share_site_kind share_site_record(struct share_ctx *c, const char *name, const char *alias,
				       struct share_site *out);
/* The peek program's fd in @c's object */
int share_peek_fd(struct share_ctx *c);
/* A kind in words: "an image of its own", ... */
const char *share_site_str(enum share_site_kind k);

#endif
