/* SPDX-License-Identifier: GPL-2.0 */
/* boot.h - the parts of the boot test's /init (see init.c). */
#ifndef _BOOT_H
#define _BOOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/bpf.h>
#include <bpf/btf.h>

#define BOOT_MAX_ARGS	12

/* One line of /models.txt: btfids' model of one FUNC (tests/boot.sh writes it). */
struct boot_model {
	uint32_t id;
	char name[128];
	bool attachable;
	char reason[24];	/* "-" when attachable */
	int nr_args;		/* -1: not distilled */
	int slots;
	uint8_t size[BOOT_MAX_ARGS];
	uint8_t flags[BOOT_MAX_ARGS];
	/* btfids' fentry verdict: "taken", or its reason, errno and step */
	char verdict[24];
	char verr[16];		/* "EINVAL", "EADDRNOTAVAIL"...; "-" when taken */
	char vstep[8];		/* "load", "attach"; "-" when taken */
	/* another function of the list is at its address (nm): its link is not kept */
	bool alias;
	/* fexit's and fmod_ret's verdicts, judged too when @more */
	bool more;
	char xverdict[24], xerr[16], xstep[8];
	char mverdict[24], merr[16], mstep[8];
};

#define FMODEL_STRUCT_ARG	1
#define FMODEL_SIGNED_ARG	2

/* raw BPF instructions */
#define INSN(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) })
#define LDX_DW(d, s, o)	INSN(BPF_LDX | BPF_MEM | BPF_DW, d, s, o, 0)
#define STX_DW(d, s, o)	INSN(BPF_STX | BPF_MEM | BPF_DW, d, s, o, 0)
#define MOV_IMM(d, i)	INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define MOV_REG(d, s)	INSN(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define ADD_IMM(d, i)	INSN(BPF_ALU64 | BPF_ADD | BPF_K, d, 0, 0, i)
#define CALL(f)		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, f)
#define JNE32_IMM(d, i, o) INSN(BPF_JMP32 | BPF_JNE | BPF_K, d, 0, o, i)
#define EXIT()		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

extern char boot_release[];
extern char boot_log[1 << 16];

double now(void);
/* the emulator's slowness here, >= 1: btfids_scale= of /proc/cmdline (init.c) */
double boot_scale(void);
/* the guest's release (uname) is older than @major.@minor */
bool boot_release_before(int major, int minor);
/* "boot: <release> <fmt>\n" on the console */
void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Append one "; "-separated reason to @buf (@size bytes), cut to fit. */
void append(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
const char *last_log_line(void);
/*
 * Room for element @n of the array @v (@cap elements of @size bytes; 0 and
 * NULL at first): @v, or a larger copy of it (@cap updated); NULL when out
 * of memory (@v is then still valid, and the caller's to free).
 */
void *boot_grow(void *v, int *cap, int n, size_t size);
int load_fentry(uint32_t id, const struct bpf_insn *insns, size_t cnt, bool refusal);
int load_tracing(int type, uint32_t id, const struct bpf_insn *insns, size_t cnt, bool refusal);
/*
 * An empty TRACING program (it returns 0) of attach type @type on BTF FUNC
 * @id of BTF object @btf_fd (0: vmlinux; @id 0: a tracing_multi program),
 * by bpf(2) itself, for types the guest's libbpf may not know: its fd, or
 * -errno. init.c is built against the host's <linux/bpf.h> (bootlib.sh
 * build_guest()): the fields used are 5.11's, the type numbers the caller's.
 */
int load_empty(int type, int btf_fd, uint32_t id);

void boot_ids(struct btf *vmlinux);
/*
 * Whether the kernel has ftrace direct calls (models.c): probed once with
 * an empty fentry program on vfs_read (arm64 and s390x; x86_64: true),
 * said on a "boot: models: ftrace direct calls:" line
 */
bool boot_direct_calls(const struct btf *btf);
int boot_models_read(const char *path, const struct btf *vmlinux, struct boot_model **out);
/* @budget: seconds after which no more functions are tried (0: none) */
void boot_models(const struct btf *vmlinux, const struct boot_model *m, int n, int budget);
void boot_args(const struct boot_model *m, int n);
/*
 * The patched kernel's trampoline table (tramp.c): @path, the table as the
 * host read it (tests/boot/tramp_table.py list): a sample of its functions
 * attached alone and at once, tables on and off; with @probe, the altered
 * class's functions instead; @path NULL: the kernel's lines and the switch.
 */
void boot_tramp(const char *path, const char *probe) __attribute__((weak));	/* in tramp.c,
	linked by tests/boot-tramp.sh only: it needs a 7.2+ UAPI header */
/* Shared trampoline images (share.c, tests/boot-share.sh): @path lists the functions */
void boot_share(const char *path) __attribute__((weak));
/* tests/boot-modules.sh: module functions' verdicts (modules.c) */
void boot_modules(const char *list, const char *verdicts) __attribute__((weak));
/*
 * Upstream's test_progs (/selftests) once per configuration of the
 * trampoline switches (selftests.c, linked by tests/selftests-boot.sh only).
 */
void boot_selftests(void) __attribute__((weak));

#endif
