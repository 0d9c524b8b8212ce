// SPDX-License-Identifier: GPL-2.0
/*
 * fmodel.c - function models for BPF trampolines (see fmodel.h).
 *
 * Step 1 follows kernel/bpf/btf.c (v6.18; v7.3's arg_flags when the kernel
 * is known to be 7.3 or later): btf_distill_func_proto(),
 * __get_type_size(), __get_type_fmodel_flags(), with unions as STRUCT_ARG
 * and refused as a return (btf_type_is_struct(), "bpf: Allow union
 * argument in trampoline based programs", v6.18). Step 2 follows each
 * arch's arch_prepare_bpf_trampoline(); the function for each arch cites
 * its source. Where the psABI and the kernel's trampoline disagree we
 * describe the trampoline, since it is what reads the table; where the
 * contract doc and the kernel disagree we follow the kernel and say so.
 *
 * Last, the rules of a table (struct btfids_tramp_rules): which FUNC's
 * proto a model is of (7.3's implicit-args kfuncs), and the one model of
 * a BTF ID every table and `models --all` store (btfids_tramp_model()).
 * The rules live here alone: tramp.c (v1), tramp2.c (v2) and models.c
 * only call them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <elf.h>

#include "btfids/fmodel.h"
#include "btfids/kfunc.h"
#include "btfids/patch.h"
#include "btfids/release.h"

#ifndef EM_LOONGARCH
#define EM_LOONGARCH	258
#endif

static const struct {
	const char *name;
	enum btfids_arch arch;
	uint16_t machine;
	uint8_t ptr_size;
} arch_names[] = {
	{ "x86_64", BTFIDS_ARCH_X86_64, EM_X86_64, 8 },
	{ "arm64", BTFIDS_ARCH_ARM64, EM_AARCH64, 8 },
	{ "aarch64", BTFIDS_ARCH_ARM64, EM_AARCH64, 8 },
	{ "s390x", BTFIDS_ARCH_S390X, EM_S390, 8 },
	{ "riscv64", BTFIDS_ARCH_RISCV64, EM_RISCV, 8 },
	{ "loongarch64", BTFIDS_ARCH_LOONGARCH64, EM_LOONGARCH, 8 },
	{ "powerpc64", BTFIDS_ARCH_POWERPC64, EM_PPC64, 8 },
	{ "powerpc64le", BTFIDS_ARCH_POWERPC64, EM_PPC64, 8 },
	{ "i386", BTFIDS_ARCH_NONE, EM_386, 4 },
	{ "arm", BTFIDS_ARCH_NONE, EM_ARM, 4 },
	{ "mips", BTFIDS_ARCH_NONE, EM_MIPS, 4 },
	{ "powerpc", BTFIDS_ARCH_NONE, EM_PPC, 4 },
	{ "riscv32", BTFIDS_ARCH_NONE, EM_RISCV, 4 },
};

void btfids_arch_from_elf(uint16_t machine, unsigned char elf_class,
			  struct btfids_target_arch *a)
{
	bool is64 = elf_class == ELFCLASS64;
	size_t i;

	a->arch = BTFIDS_ARCH_NONE;
	a->machine = machine;
	a->ptr_size = is64 ? 8 : 4;
	a->name = "none";
	a->kernel = 0;
	if (!is64)
		return;		/* no 32-bit kernel has a BPF trampoline */
	for (i = 0; i < sizeof(arch_names) / sizeof(arch_names[0]); i++) {
		if (arch_names[i].machine == machine && arch_names[i].ptr_size == 8) {
			a->arch = arch_names[i].arch;
			a->name = arch_names[i].name;
			return;
		}
	}
}

int btfids_arch_from_name(const char *name, struct btfids_target_arch *a)
{
	size_t i;

	for (i = 0; i < sizeof(arch_names) / sizeof(arch_names[0]); i++) {
		if (strcmp(arch_names[i].name, name))
			continue;
		a->arch = arch_names[i].arch;
		a->machine = arch_names[i].machine;
		a->ptr_size = arch_names[i].ptr_size;
		a->name = arch_names[i].name;
		a->kernel = 0;
		return 0;
	}
	return -EINVAL;
}

static const char *const reasons[BTF_TRAMP_NR_REASONS] = {
	[BTF_TRAMP_TOO_MANY_ARGS] = "too-many-args",
	[BTF_TRAMP_RET_UNSUPPORTED] = "ret-unsupported",
	[BTF_TRAMP_VARIADIC] = "variadic",
	[BTF_TRAMP_ARG_UNSUPPORTED] = "arg-unsupported",
	[BTF_TRAMP_VOID_ARG] = "void-arg",
	[BTF_TRAMP_NO_TRAMPOLINE] = "no-trampoline",
	[BTF_TRAMP_TOO_MANY_SLOTS] = "too-many-slots",
	[BTF_TRAMP_STRUCT_ON_STACK] = "struct-on-stack",
	[BTF_TRAMP_ARCH_TOO_MANY_ARGS] = "arch-too-many-args",
	[BTF_TRAMP_STRUCT_ARG] = "struct-arg",
	[BTF_TRAMP_UNRESOLVED] = "unresolved",
};

const char *btfids_fmodel_reason_str(unsigned int reason)
{
	if (reason >= BTF_TRAMP_NR_REASONS)
		return "unknown";
	return reasons[reason];
}

bool btfids_fmodel_reason_is_distill(unsigned int reason)
{
	switch (reason) {
	case BTF_TRAMP_TOO_MANY_ARGS:
	case BTF_TRAMP_RET_UNSUPPORTED:
	case BTF_TRAMP_VARIADIC:
	case BTF_TRAMP_ARG_UNSUPPORTED:
	case BTF_TRAMP_VOID_ARG:
	case BTF_TRAMP_UNRESOLVED:
		return true;
	default:
		return false;
	}
}

/* ---- Step 1: kernel/bpf/btf.c ---- */

/* @kernel (0: none known, the newest rules) is @major.@minor or later */
static bool since(unsigned int kernel, unsigned int major, unsigned int minor)
{
	return !kernel || kernel >= BTFIDS_KERNEL(major, minor);
}

enum { SZ_UNSUPPORTED = -1 };

static bool is_modifier(const struct btf_type *t)
{
	switch (btf_kind(t)) {
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		return true;
	default:
		return false;
	}
}

int btfids_kernel_from_str(const char *s, unsigned int *kernel)
{
	struct btfids_release rel;

	/* one parser of releases: release.h; the rest must look like one */
	if (btfids_release_parse(s, &rel) || !rel.major || rel.major > 255 ||
	    rel.minor > 255 || !strchr(".-", s[strspn(s, "0123456789.")] ?: '.'))
		return -EINVAL;
	*kernel = BTFIDS_KERNEL(rel.major, rel.minor);
	return 0;
}

/*
 * __get_type_size(): the size of type @id and, in *flags, its
 * __get_type_fmodel_flags(). ID 0 is void (0 bytes); a modifier chain that
 * ends at 0 lands on the kernel's unsized btf_void and is unsupported.
 * *aggr tells a STRUCT/UNION (refused as a return). Before 6.18 the kernel
 * knew no union here (__btf_type_is_struct(): STRUCT only; v6.12
 * kernel/bpf/btf.c __get_type_size(), and a booted 6.12 says "arg0 type
 * UNION is unsupported"): @unions false.
 */
static int type_size(const struct btf *btf, uint32_t id, unsigned int ptr_size,
		     bool unions, uint8_t *flags, bool *aggr)
{
	const struct btf_type *t;
	int depth = 0;

	*flags = 0;
	*aggr = false;
	if (!id)
		return 0;
	t = btf__type_by_id(btf, id);
	while (t && is_modifier(t) && depth++ < 64) {
		if (!t->type)
			return SZ_UNSUPPORTED;
		t = btf__type_by_id(btf, t->type);
	}
	if (!t || is_modifier(t))
		return SZ_UNSUPPORTED;
	switch (btf_kind(t)) {
	case BTF_KIND_PTR:
		return ptr_size;	/* the target's, not the host's */
	case BTF_KIND_INT:
		if (btf_int_encoding(t) & BTF_INT_SIGNED)
			*flags = BTF_FMODEL_SIGNED_ARG;
		return t->size;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		return t->size;		/* never SIGNED: the kernel only flags INTs */
	case BTF_KIND_UNION:
		if (!unions)
			return SZ_UNSUPPORTED;
		__attribute__((fallthrough));
	case BTF_KIND_STRUCT:
		/* unions are STRUCT_ARG since 6.18 (btf_type_is_struct()) */
		*flags = BTF_FMODEL_STRUCT_ARG;
		*aggr = true;
		return t->size;
	default:
		return SZ_UNSUPPORTED;	/* FLOAT, ARRAY, FWD, FUNC_PROTO, ... */
	}
}

/* @name ends in @suffix (kernel/bpf/btf.c btf_param_match_suffix()) */
static bool has_suffix(const char *name, const char *suffix)
{
	size_t n = name ? strlen(name) : 0, k = strlen(suffix);

	return n >= k && !strcmp(name + n - k, suffix);
}

/*
 * The flags of arg @p (@flags: its type's) in @kernel's arg_flags: v7.3
 * __get_arg_fmodel_flags() drops STRUCT_ARG and reads the param's name.
 */
static uint8_t arg_flags(const struct btf *btf, const struct btf_param *p,
			 uint8_t flags, unsigned int kernel)
{
	const char *name;

	if (!since(kernel, 6, 3))
		return flags & BTF_FMODEL_STRUCT_ARG;	/* no SIGNED_ARG: see distill */
	if (!kernel || kernel < BTFIDS_KERNEL(7, 3))
		return flags;
	flags &= ~BTF_FMODEL_STRUCT_ARG;
	name = btf__name_by_offset(btf, p->name_off);
	if (has_suffix(name, "__arena__nullable"))
		return flags | BTF_FMODEL_ARENA_ARG | BTF_FMODEL_NULLABLE_ARG;
	if (has_suffix(name, "__arena"))
		return flags | BTF_FMODEL_ARENA_ARG;
	if (has_suffix(name, "__nullable"))
		return flags | BTF_FMODEL_NULLABLE_ARG;
	return flags;
}

int btfids_fmodel_distill(const struct btf *btf, uint32_t id, unsigned int ptr_size,
			  unsigned int kernel, struct btfids_fmodel *m)
{
	bool unions = since(kernel, 6, 18);
	const struct btf_type *t = btf__type_by_id(btf, id);
	const struct btf_param *p;
	unsigned int i, n;
	bool aggr;
	int sz;

	memset(m, 0, sizeof(*m));
	memset(m->loc, BTF_TRAMP_LOC_NONE, sizeof(m->loc));
	if (t && btf_is_func(t))
		t = btf__type_by_id(btf, t->type);
	if (!t || !btf_is_func_proto(t))
		return -EINVAL;
	n = btf_vlen(t);
	p = btf_params(t);
	if (n > BTF_TRAMP_MAX_ARGS) {
		m->reason = BTF_TRAMP_TOO_MANY_ARGS;
		return 0;
	}
	sz = type_size(btf, t->type, ptr_size, unions, &m->ret_flags, &aggr);
	if (sz < 0 || aggr) {
		m->ret_flags = 0;
		m->reason = BTF_TRAMP_RET_UNSUPPORTED;
		return 0;
	}
	/*
	 * ret_flags and BTF_FMODEL_SIGNED_ARG came with 49f67f393ff2 ("bpf:
	 * btf: Add BTF_FMODEL_SIGNED_ARG flag", v6.3); the 6.1 struct
	 * btf_func_model has no ret_flags (include/linux/bpf.h): 0 there.
	 */
	if (!since(kernel, 6, 3))
		m->ret_flags = 0;
	m->ret_size = sz;
	for (i = 0; i < n; i++) {
		if (i == n - 1 && !p[i].type) {
			m->reason = BTF_TRAMP_VARIADIC;
			return 0;
		}
		sz = type_size(btf, p[i].type, ptr_size, unions, &m->arg_flags[i], &aggr);
		if (sz < 0 || sz > 16) {
			m->reason = BTF_TRAMP_ARG_UNSUPPORTED;
			return 0;
		}
		if (!sz) {
			m->reason = BTF_TRAMP_VOID_ARG;
			return 0;
		}
		m->arg_size[i] = sz;
		m->arg_flags[i] = arg_flags(btf, &p[i], m->arg_flags[i], kernel);
		m->struct_args |= aggr << i;
		m->nr_slots += (sz + 7) / 8;
	}
	m->nr_args = n;
	m->distilled = true;
	return 0;
}

/* ---- Step 2: arch_prepare_bpf_trampoline() of each arch ---- */

static uint8_t reg(unsigned int n)
{
	return n;
}

static uint8_t stk(unsigned int k)
{
	return BTF_TRAMP_LOC_STACK | k;
}

static unsigned int arg_slots(const struct btfids_fmodel *m, unsigned int i)
{
	return (m->arg_size[i] + 7) / 8;
}

static bool is_struct(const struct btfids_fmodel *m, unsigned int i)
{
	return m->struct_args & (1u << i);
}

/*
 * Each arch below was checked against its v6.18-era JIT (table in
 * docs/design.md, "Trampoline models"); the function named is the one whose
 * refusals and loads the code follows.
 *
 * x86_64: arch/x86/net/bpf_jit_comp.c, __arch_prepare_bpf_trampoline():
 * nr_regs = nr_args plus the extra 8-byte slots of every arg over 8 bytes
 * (a 16-byte int counts 2, as a 16-byte struct does: the loop has no
 * STRUCT_ARG test in the Debian 6.1.192 and 6.12 trees nor in v7.3;
 * upstream counted the struct args only from a9c5ad31fbdc, v6.1, into
 * 2025, a test later dropped, in the stable trees too: we follow the
 * trees Debian ships), refused when above MAX_BPF_FUNC_ARGS (12).
 * save_args(): an arg whose slots all fit in the registers left (rdi rsi
 * rdx rcx r8 r9) is in them, else it is copied whole from the caller's
 * stack (slot after slot from rbp + 0x18), and later args may still use
 * registers (SysV psABI 3.2.3: an aggregate is all in registers or all in
 * memory).
 */
static void place_x86_64(struct btfids_fmodel *m, unsigned int kernel)
{
	unsigned int i, j, n, nr = m->nr_args, r = 0, s = 0;

	for (i = 0; i < m->nr_args; i++)
		nr += arg_slots(m, i) - 1;
	/*
	 * Before 473e3150e30a ("bpf, x86: allow function arguments up to 12
	 * for TRACING", v6.6) the limit was 6 (v6.1 arch_prepare_bpf_trampoline():
	 * "if (nr_regs > 6) return -ENOTSUPP", the same count), and save_regs()
	 * stored rdi..r9 in order: what fits in 6 is placed alike below.
	 */
	if (nr > (since(kernel, 6, 6) ? BTF_TRAMP_MAX_ARGS : 6)) {
		m->reason = BTF_TRAMP_TOO_MANY_SLOTS;
		return;
	}
	for (i = 0; i < m->nr_args; i++) {
		n = arg_slots(m, i);
		for (j = 0; j < n; j++)
			m->loc[i][j] = r + n <= 6 ? reg(r + j) : stk(s + j);
		if (r + n <= 6)
			r += n;
		else
			s += n;
	}
}

/* The extra 8-byte slots of the STRUCT_ARG args (the arm64 and riscv64 count of old). */
static unsigned int struct_extra_slots(const struct btfids_fmodel *m)
{
	unsigned int i, n = 0;

	for (i = 0; i < m->nr_args; i++)
		n += is_struct(m, i) ? arg_slots(m, i) - 1 : 0;
	return n;
}

/*
 * arm64 before v6.16: only x0..x7, saved one after the other.
 *  - v6.0 (efc9909fdce0, the first arm64 trampoline) to v6.4,
 *    arch_prepare_bpf_trampoline() of the 6.1 tree: nr_args > 8, then any
 *    STRUCT_ARG, is -ENOTSUPP; save_args() stores x0..x(nr_args - 1)
 *    (a 16-byte int is placed by its registers below all the same);
 *  - 90564f1e3dd6 ("arm64,bpf: Support struct arguments in the BPF
 *    trampoline", v6.5) to v6.15: nregs = nr_args plus the extra slots
 *    of the STRUCT_ARG args (not of a 16-byte int), > 8 is -ENOTSUPP.
 * From 9014cf56f13d ("bpf, arm64: Support up to 12 function arguments",
 * v6.16) the stack too (below). Returns true when @m is refused.
 */
static bool arm64_refuses(struct btfids_fmodel *m, unsigned int kernel)
{
	if (since(kernel, 6, 16))
		return false;
	if (!since(kernel, 6, 5)) {
		if (m->nr_args > 8)
			m->reason = BTF_TRAMP_ARCH_TOO_MANY_ARGS;
		else if (m->struct_args)
			m->reason = BTF_TRAMP_STRUCT_ARG;
	} else if (m->nr_args + struct_extra_slots(m) > 8) {
		m->reason = BTF_TRAMP_TOO_MANY_SLOTS;
	}
	return m->reason != BTF_TRAMP_OK;
}

/*
 * arm64: arch/arm64/net/bpf_jit_comp.c, calc_arg_aux() and save_args():
 * args fill x0..x7 in order until one does not fit; it and every later
 * arg are read from the stack, slot after slot from FP + 32. Nothing is
 * refused: calc_arg_aux() refused a struct on the stack until commit
 * dc704d0cfa43 ("bpf, arm64: remove structs on stack constraint", v6.17),
 * which left the packed/aligned cases to pahole (such functions get no
 * BTF): struct-on-stack for a v6.16 kernel only. The contract doc still
 * lists that refusal; we follow the kernel.
 * AAPCS64 puts a 16-byte-aligned arg in an even register pair and aligns
 * it on the stack; the trampoline does neither (nregs += slots), so
 * neither do we.
 */
static void place_arm64(struct btfids_fmodel *m, unsigned int kernel)
{
	unsigned int i, j, n, r = 0, s = 0;
	bool spilled = false;

	if (arm64_refuses(m, kernel))
		return;
	for (i = 0; i < m->nr_args; i++) {
		n = arg_slots(m, i);
		if (!spilled && r + n <= 8) {
			for (j = 0; j < n; j++)
				m->loc[i][j] = reg(r + j);
			r += n;
			continue;
		}
		/* 9014cf56f13d (v6.16) calc_arg_aux(): no struct on the stack */
		if (is_struct(m, i) && !since(kernel, 6, 17)) {
			m->reason = BTF_TRAMP_STRUCT_ON_STACK;
			return;
		}
		spilled = true;
		for (j = 0; j < n; j++)
			m->loc[i][j] = stk(s + j);
		s += n;
	}
}

/*
 * riscv64: arch/riscv/net/bpf_jit_comp64.c, __arch_prepare_bpf_trampoline()
 * refuses only nr_args > MAX_BPF_FUNC_ARGS, counts nr_arg_slots and
 * treats the args as one run of 8-byte slots: the first RV_MAX_REG_ARGS
 * (8) in a0..a7 (store_args()), the rest from the caller's stack at
 * FP + 16 on; an arg may straddle a7 and the stack.
 * powerpc64: arch/powerpc/net/bpf_jit_comp.c, __arch_prepare_bpf_trampoline()
 * counts nr_regs = nr_args plus the extra slots of every arg over 8 bytes
 * (ints too), refuses more than MAX_BPF_FUNC_ARGS, and
 * bpf_trampoline_save_args() reads slot i < 8 from r3 + i, later ones
 * from the caller's parameter save area (doubleword i); ELFv2's
 * quadword alignment is not applied, so not here either.
 */
static void place_linear(struct btfids_fmodel *m, bool limit_slots)
{
	unsigned int i, j, slot = 0;

	if (limit_slots && m->nr_slots > BTF_TRAMP_MAX_ARGS) {
		m->reason = BTF_TRAMP_TOO_MANY_SLOTS;
		return;
	}
	for (i = 0; i < m->nr_args; i++)
		for (j = 0; j < arg_slots(m, i); j++, slot++)
			m->loc[i][j] = slot < 8 ? reg(slot) : stk(slot - 8);
}

/*
 * riscv64 from 49b5e77ae3e2 ("riscv, bpf: Add bpf trampoline support for
 * RV64", v6.3) to v6.10: nregs = nr_args plus the extra slots of the
 * STRUCT_ARG args, > 8 is -ENOTSUPP, and store_args() saves a0..a(nregs-1).
 * 6801b0aef79d ("riscv, bpf: Add 12-argument support for RV64 bpf
 * trampoline", v6.11) gave the rule above.
 */
static void place_riscv64(struct btfids_fmodel *m, unsigned int kernel)
{
	if (!since(kernel, 6, 11) && m->nr_args + struct_extra_slots(m) > 8) {
		m->reason = BTF_TRAMP_TOO_MANY_SLOTS;
		return;
	}
	place_linear(m, false);
}

/*
 * loongarch64: arch/loongarch/net/bpf_jit.c, __arch_prepare_bpf_trampoline()
 * of v6.18 (the rule for a kernel not known to be v7.2 or later; 7.0 and
 * 7.1 were not read) refuses more than LOONGARCH_MAX_REG_ARGS (8) args, then any STRUCT_ARG
 * arg; store_args() saves one register per arg (a 16-byte int included,
 * whose second half the trampoline does not see). Struct and 9..12-arg
 * support were RFC patches in 2025, not in v6.18. v6.18 also refused
 * functions in module text (677e6123e3d2), a lockup workaround that
 * 26138762d9a2 removed as a fix (in 6.18-stable): not modelled.
 */
static void place_loongarch64(struct btfids_fmodel *m, unsigned int kernel)
{
	unsigned int i;

	/*
	 * v7.2 and v7.3 __arch_prepare_bpf_trampoline(): only nr_args >
	 * MAX_BPF_FUNC_ARGS is refused (distill did), structs too, and
	 * store_args() saves the args as one run of 8-byte slots, a0..a7 then
	 * the caller's stack from FP + 16: riscv64's placement.
	 */
	if (kernel >= BTFIDS_KERNEL(7, 2)) {
		place_linear(m, false);
		return;
	}
	if (m->nr_args > 8) {
		m->reason = BTF_TRAMP_ARCH_TOO_MANY_ARGS;
		return;
	}
	for (i = 0; i < m->nr_args; i++) {
		if (is_struct(m, i)) {
			m->reason = BTF_TRAMP_STRUCT_ARG;
			return;
		}
	}
	for (i = 0; i < m->nr_args; i++)
		m->loc[i][0] = reg(i);
}

/*
 * s390x: arch/s390/net/bpf_jit_comp.c, __arch_prepare_bpf_trampoline():
 * arg i < MAX_NR_REG_ARGS (5) is in r2+i, later ones in 8-byte stack slots
 * (up to MAX_NR_STACK_ARGS, 32, more than 12 args ever allow); args of
 * 9..16 bytes are passed by reference (the kernel does so for every such
 * arg; the psABI also passes 3/5/6/7-byte aggregates by reference, which
 * the trampoline ignores).
 */
static void place_s390x(struct btfids_fmodel *m)
{
	unsigned int i;

	for (i = 0; i < m->nr_args; i++) {
		m->loc[i][0] = i < 5 ? reg(i) : stk(i - 5);
		if (m->arg_size[i] > 8)
			m->loc[i][0] |= BTF_TRAMP_LOC_REF;
	}
}

/*
 * The first release with a BPF trampoline on each arch: x86_64 (v5.5) and
 * arm64 (efc9909fdce0, v6.0) before any release btfids models; s390x
 * (528eb2cb87bc "s390/bpf: Implement arch_prepare_bpf_trampoline()") and
 * riscv64 (49b5e77ae3e2) in v6.3: in the 6.1 tree only the x86 and arm64
 * JITs define arch_prepare_bpf_trampoline(); v6.12 has no loongarch64 or
 * powerpc64 one (both came later; the release of each is not pinned
 * down here: after 6.12 they get the rules above). With @kernel unknown,
 * every arch has one.
 */
static bool no_trampoline(enum btfids_arch arch, unsigned int kernel)
{
	switch (arch) {
	case BTFIDS_ARCH_X86_64:
	case BTFIDS_ARCH_ARM64:
		return false;
	case BTFIDS_ARCH_S390X:
	case BTFIDS_ARCH_RISCV64:
		return !since(kernel, 6, 3);
	case BTFIDS_ARCH_LOONGARCH64:
	case BTFIDS_ARCH_POWERPC64:
		return !since(kernel, 6, 13);
	default:
		return true;
	}
}

void btfids_fmodel_place(const struct btfids_target_arch *a, struct btfids_fmodel *m)
{
	if (!m->distilled || m->reason != BTF_TRAMP_OK)
		return;
	switch (no_trampoline(a->arch, a->kernel) ? BTFIDS_ARCH_NONE : a->arch) {
	case BTFIDS_ARCH_X86_64:
		place_x86_64(m, a->kernel);
		break;
	case BTFIDS_ARCH_ARM64:
		place_arm64(m, a->kernel);
		break;
	case BTFIDS_ARCH_RISCV64:
		place_riscv64(m, a->kernel);
		break;
	case BTFIDS_ARCH_POWERPC64:
		place_linear(m, true);
		break;
	case BTFIDS_ARCH_LOONGARCH64:
		place_loongarch64(m, a->kernel);
		break;
	case BTFIDS_ARCH_S390X:
		place_s390x(m);
		break;
	default:
		m->reason = BTF_TRAMP_NO_TRAMPOLINE;
		break;
	}
	if (m->reason != BTF_TRAMP_OK)
		memset(m->loc, BTF_TRAMP_LOC_NONE, sizeof(m->loc));
}

int btfids_fmodel_compute(const struct btf *btf, uint32_t id,
			  const struct btfids_target_arch *a, struct btfids_fmodel *m)
{
	int err = btfids_fmodel_distill(btf, id, a->ptr_size, a->kernel, m);

	if (!err)
		btfids_fmodel_place(a, m);
	return err;
}

/* Append "r:N" or "s:K" for location part @b at @p; returns the end. */
static char *part_str(char *p, uint8_t b)
{
	unsigned int idx = BTF_TRAMP_LOC_IDX(b);

	*p++ = b & BTF_TRAMP_LOC_STACK ? 's' : 'r';
	*p++ = ':';
	if (idx >= 10)
		*p++ = '0' + idx / 10;
	*p++ = '0' + idx % 10;
	return p;
}

/*
 * No snprintf: `btfids models --all` formats a location for every argument
 * of every kernel function. The longest string, "ref:s:63+s:63", takes 14
 * bytes with its NUL: a shorter @buf gets "".
 */
void btfids_fmodel_loc_str(const struct btfids_fmodel *m, unsigned int i, char *buf,
			   size_t len)
{
	uint8_t p0 = m->loc[i][0], p1 = m->loc[i][1];
	char *p = buf;

	if (!len)
		return;
	buf[0] = 0;
	if (p0 == BTF_TRAMP_LOC_NONE || len < BTFIDS_FMODEL_LOC_LEN)
		return;
	if (p0 & BTF_TRAMP_LOC_REF) {
		memcpy(p, "ref:", 4);
		p += 4;
	}
	p = part_str(p, p0 & ~BTF_TRAMP_LOC_REF);
	if (p1 != BTF_TRAMP_LOC_NONE) {
		*p++ = '+';
		p = part_str(p, p1);
	}
	*p = 0;
}

/* ---- The rules of a table: which FUNC a model is of (7.3 implicit args) ---- */

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

int btfids_implicit_kfuncs(const struct btfids_syms *s, const unsigned char *ids, bool be,
			   uint32_t **out, size_t *n)
{
	size_t i, j;

	*out = NULL;
	*n = 0;
	for (i = 0; i < s->nr_sets; i++) {
		const unsigned char *set = ids + s->sets[i].off;

		if (s->sets[i].kind != BTFIDS_SET8 ||
		    !(btfids_get32(set + 4, be) & BTFIDS_SET8_KFUNCS))
			continue;
		for (j = 0; j < s->sets[i].cnt; j++) {
			uint32_t id = btfids_get32(set + 8 + 8 * j, be), *p;

			if (!id || !(btfids_get32(set + 12 + 8 * j, be) & BTFIDS_KF_IMPLICIT_ARGS))
				continue;
			p = reallocarray(*out, *n + 1, sizeof(*p));
			if (!p) {
				free(*out);
				*out = NULL;
				*n = 0;
				return -ENOMEM;
			}
			(*out = p)[(*n)++] = id;
		}
	}
	if (*n)
		qsort(*out, *n, sizeof(**out), cmp_u32);
	return 0;
}

uint32_t btfids_attach_func(const struct btf *btf, uint32_t id, const uint32_t *implicit,
			    size_t n)
{
	char impl[512];
	__s32 impl_id;

	if (!n || !bsearch(&id, implicit, n, sizeof(id), cmp_u32))
		return id;
	snprintf(impl, sizeof(impl), "%s_impl",
		 btf__name_by_offset(btf, btf__type_by_id(btf, id)->name_off));
	impl_id = btf__find_by_name_kind(btf, impl, BTF_KIND_FUNC);
	return impl_id > 0 ? (uint32_t)impl_id : id;
}

void btfids_tramp_model(const struct btfids_tramp_rules *ru, const struct btf *btf,
			uint32_t id, struct btfids_fmodel *m)
{
	if (!id) {
		memset(m, 0, sizeof(*m));
		memset(m->loc, BTF_TRAMP_LOC_NONE, sizeof(m->loc));
		m->reason = BTF_TRAMP_UNRESOLVED;
		return;
	}
	id = btfids_attach_func(btf, id, ru->implicit, ru->nr_implicit);
	/* a FUNC whose type is not a FUNC_PROTO: malformed BTF */
	if (btfids_fmodel_compute(btf, id, &ru->a, m))
		*m = (struct btfids_fmodel){ .reason = BTF_TRAMP_ARG_UNSUPPORTED };
}

int btfids_tramp_rules_init(struct btfids_tramp_rules *ru, const struct btfids_elf *e,
			    const struct btfids_syms *s, const unsigned char *ids,
			    unsigned int kernel)
{
	memset(ru, 0, sizeof(*ru));
	btfids_arch_from_elf(e->machine, e->elf_class, &ru->a);
	ru->a.kernel = kernel;
	if (!s || !ids || (kernel && kernel < BTFIDS_KERNEL(7, 3)))
		return 0;
	return btfids_implicit_kfuncs(s, ids, btfids_elf_big_endian(e), &ru->implicit,
				      &ru->nr_implicit);
}

int btfids_tramp_rules_of_elf(struct btfids_tramp_rules *ru, const struct btfids_elf *e,
			      unsigned int kernel, struct btfids_report *r)
{
	struct btfids_syms s = {};
	int err = 0;

	memset(ru, 0, sizeof(*ru));
	btfids_arch_from_elf(e->machine, e->elf_class, &ru->a);
	ru->a.kernel = kernel;
	if ((kernel && kernel < BTFIDS_KERNEL(7, 3)) || !e->ids.size || !e->symtab_index)
		return 0;
	err = btfids_syms_collect(e, &s, r);
	if (!err)
		err = btfids_implicit_kfuncs(&s, e->ids.data, btfids_elf_big_endian(e),
					     &ru->implicit, &ru->nr_implicit);
	btfids_syms_free(&s);
	return err;
}

void btfids_tramp_rules_free(struct btfids_tramp_rules *ru)
{
	free(ru->implicit);
	ru->implicit = NULL;
	ru->nr_implicit = 0;
}
