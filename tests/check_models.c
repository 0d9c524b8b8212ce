// SPDX-License-Identifier: GPL-2.0
/*
 * check_models.c - function models (btfids/fmodel.c) and `btfids models`.
 *
 * Each test builds BTF with libbpf's writer (btf__add_*), so the C
 * signature of every function is stated here, and the expected model is
 * written by hand from the rules, never taken from btfids' output:
 *  - sizes/flags/refusals: kernel/bpf/btf.c btf_distill_func_proto(),
 *    __get_type_size(), __get_type_fmodel_flags() (v6.18: unions are
 *    STRUCT_ARG; ENUMs are never SIGNED);
 *  - locations: SysV x86-64 psABI 3.2.3 + arch/x86/net/bpf_jit_comp.c
 *    save_args(); AAPCS64 + arch/arm64/net/bpf_jit_comp.c calc_arg_aux()
 *    (v6.18: structs on the stack allowed, no even-register pairs);
 *    RISC-V psABI + arch/riscv/net/bpf_jit_comp64.c store_args() and
 *    restore_stack_args(); ELFv2 + arch/powerpc/net/bpf_jit_comp.c
 *    __arch_prepare_bpf_trampoline(); s390x ELF ABI + arch/s390/net/
 *    bpf_jit_comp.c __arch_prepare_bpf_trampoline() (5 reg args, 9..16
 *    bytes by reference); arch/loongarch/net/bpf_jit.c (<= 8 args, no
 *    struct args, one register per arg).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <gelf.h>
#include <zlib.h>

#include "testlib.h"
#include "btfids/fmodel.h"
#include "btfids/json.h"
#include "btfids/tramp_class.h"
#include "btfids/tramp_fill.h"

/* expectation tables leave the fields a refusal does not check unset */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

/* type IDs of the test BTF */
static struct btf *btf;
static int t_schar, t_ushort, t_int, t_long, t_ulonglong, t_i128, t_u128;
static int t_ptr, t_enum, t_enum64, t_s8, t_s16, t_s24, t_u8, t_u16;
static int t_float, t_double, t_tdint, t_cvoid;

static int add_struct(const char *name, int kind_union, int nr_longs)
{
	int id = kind_union ? btf__add_union(btf, name, 8 * (kind_union == 2 ? 2 : 1))
			    : btf__add_struct(btf, name, 8 * nr_longs);
	int i;

	if (kind_union) {
		/* union u8 { long a; int b; }; union u16 { long a[2]-ish; } modelled
		 * as members a (8 bytes) and b (struct s16) */
		btf__add_field(btf, "a", t_long, 0, 0);
		btf__add_field(btf, "b", kind_union == 2 ? t_s16 : t_int, 0, 0);
		return id;
	}
	for (i = 0; i < nr_longs; i++) {
		char f[8];

		snprintf(f, sizeof(f), "m%d", i);
		btf__add_field(btf, f, t_long, i * 64, 0);
	}
	return id;
}

static void build_types(void)
{
	btf = btf__new_empty();
	ck_assert_ptr_nonnull(btf);
	t_schar = btf__add_int(btf, "signed char", 1, BTF_INT_SIGNED);
	t_ushort = btf__add_int(btf, "unsigned short", 2, 0);
	t_int = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	t_long = btf__add_int(btf, "long", 8, BTF_INT_SIGNED);
	t_ulonglong = btf__add_int(btf, "unsigned long long", 8, 0);
	t_i128 = btf__add_int(btf, "__int128", 16, BTF_INT_SIGNED);
	t_u128 = btf__add_int(btf, "unsigned __int128", 16, 0);
	t_ptr = btf__add_ptr(btf, t_int);
	t_enum = btf__add_enum(btf, "e32", 4);
	btf__add_enum_value(btf, "E_NEG", -1);	/* signed enum: still flags 0 */
	t_enum64 = btf__add_enum64(btf, "e64", 8, false);
	btf__add_enum64_value(btf, "E_BIG", 1ULL << 40);
	t_s8 = add_struct("s8", 0, 1);
	t_s16 = add_struct("s16", 0, 2);
	t_s24 = add_struct("s24", 0, 3);
	t_u8 = add_struct("u8", 1, 0);
	t_u16 = add_struct("u16", 2, 0);
	t_float = btf__add_float(btf, "float", 4);
	t_double = btf__add_float(btf, "double", 8);
	t_tdint = btf__add_typedef(btf, "s32_t", t_int);
	t_cvoid = btf__add_const(btf, 0);
	ck_assert_int_gt(t_cvoid, 0);
}

/* Add FUNC @name returning @ret with @n params of types @params; its ID. */
static int add_func(const char *name, int ret, int n, const int *params)
{
	int proto = btf__add_func_proto(btf, ret), i;

	for (i = 0; i < n; i++)
		btf__add_func_param(btf, i < n - 1 || params[i] ? "p" : "", params[i]);
	return btf__add_func(btf, name, BTF_FUNC_GLOBAL, proto);
}

#define FN(name, ret, ...) add_func(name, ret, \
	sizeof((int[]){ __VA_ARGS__ }) / sizeof(int), (int[]){ __VA_ARGS__ })

/* Expected model: reason "" = attachable; loc strings as printed. */
struct exp {
	const char *reason;
	int nr_args, ret_size, ret_flags, slots;	/* -1: model not distilled */
	const char *loc[13];
};

static void check(int id, const char *arch, const struct exp *x)
{
	struct btfids_target_arch a;
	struct btfids_fmodel m;
	const char *why;
	char buf[32];
	int i;

	ck_assert_int_eq(btfids_arch_from_name(arch, &a), 0);
	ck_assert_int_eq(btfids_fmodel_compute(btf, id, &a, &m), 0);
	why = m.reason ? btfids_fmodel_reason_str(m.reason) : "";
	ck_assert_msg(!strcmp(why, x->reason), "%s id %d: reason '%s', expected '%s'",
		      arch, id, why, x->reason);
	if (x->nr_args < 0) {
		ck_assert_msg(!m.distilled, "%s id %d: should not be distilled", arch, id);
		return;
	}
	ck_assert(m.distilled);
	ck_assert_int_eq(m.nr_args, x->nr_args);
	ck_assert_int_eq(m.ret_size, x->ret_size);
	ck_assert_int_eq(m.ret_flags, x->ret_flags);
	ck_assert_int_eq(m.nr_slots, x->slots);
	if (*x->reason)
		return;
	for (i = 0; i < x->nr_args; i++) {
		btfids_fmodel_loc_str(&m, i, buf, sizeof(buf));
		ck_assert_msg(x->loc[i] && !strcmp(buf, x->loc[i]),
			      "%s id %d arg %d: loc %s, expected %s", arch, id, i, buf,
			      x->loc[i] ? x->loc[i] : "(none)");
	}
}

static void setup(void)
{
	build_types();
}

static void teardown(void)
{
	btf__free(btf);
}

/* Distilling: sizes, flags and the checks in the kernel's order. */
START_TEST(t_distill)
{
	struct btfids_target_arch a;
	struct btfids_fmodel m;
	/* long f(signed char, unsigned short, s32_t, unsigned long long, int *,
	 *        enum e32, enum e64, unsigned __int128, __int128) */
	int f = FN("ints", t_long, t_schar, t_ushort, t_tdint, t_ulonglong, t_ptr,
		   t_enum, t_enum64, t_u128, t_i128);
	static const uint8_t size[] = { 1, 2, 4, 8, 8, 4, 8, 16, 16 };
	static const uint8_t flags[] = { 2, 0, 2, 0, 0, 0, 0, 0, 2 };
	int i;

	ck_assert_int_eq(btfids_arch_from_name("riscv64", &a), 0);
	ck_assert_int_eq(btfids_fmodel_compute(btf, f, &a, &m), 0);
	ck_assert_int_eq(m.reason, BTF_TRAMP_OK);
	ck_assert_int_eq(m.nr_args, 9);
	ck_assert_int_eq(m.ret_size, 8);
	ck_assert_int_eq(m.ret_flags, BTF_FMODEL_SIGNED_ARG);
	for (i = 0; i < 9; i++) {
		ck_assert_int_eq(m.arg_size[i], size[i]);
		ck_assert_int_eq(m.arg_flags[i], flags[i]);
	}
	ck_assert_int_eq(m.nr_slots, 11);	/* 7 x 1 + 2 x 2 */

	/* unions are STRUCT_ARG since 6.18; void return is size 0 */
	f = FN("aggr", 0, t_s8, t_u8, t_u16);
	ck_assert_int_eq(btfids_fmodel_compute(btf, f, &a, &m), 0);
	ck_assert_int_eq(m.ret_size, 0);
	ck_assert_int_eq(m.arg_flags[0], 1);
	ck_assert_int_eq(m.arg_flags[1], 1);
	ck_assert_int_eq(m.arg_flags[2], 1);
	ck_assert_int_eq(m.arg_size[2], 16);

	/* refusals in order: > 12 args beats everything */
	f = FN("many", t_double, t_int, t_int, t_int, t_int, t_int, t_int, t_int,
	       t_int, t_int, t_int, t_int, t_int, 0);
	check(f, "x86_64", &(struct exp){ "too-many-args", -1 });
	/* the return before the args */
	f = FN("retfloat", t_double, 0);
	check(f, "x86_64", &(struct exp){ "ret-unsupported", -1 });
	check(FN("retstruct", t_s8, t_int), "x86_64", &(struct exp){ "ret-unsupported", -1 });
	check(FN("retunion", t_u8, t_int), "arm64", &(struct exp){ "ret-unsupported", -1 });
	check(FN("retcvoid", t_cvoid, t_int), "arm64", &(struct exp){ "ret-unsupported", -1 });
	/* args in order */
	check(FN("varargs", t_int, t_int, 0), "x86_64", &(struct exp){ "variadic", -1 });
	check(FN("dbl", 0, t_double), "x86_64", &(struct exp){ "arg-unsupported", -1 });
	check(FN("flt_then_var", 0, t_float, 0), "x86_64", &(struct exp){ "arg-unsupported", -1 });
	check(FN("big", 0, t_s24), "x86_64", &(struct exp){ "arg-unsupported", -1 });
	check(FN("cvoid", 0, t_cvoid), "x86_64", &(struct exp){ "arg-unsupported", -1 });
	check(FN("voidmid", 0, 0, t_int), "x86_64", &(struct exp){ "void-arg", -1 });
	/* no args at all */
	check(FN("noargs", t_int), "x86_64",
	      &(struct exp){ "", 0, 4, 2, 0, { NULL } });
}
END_TEST

/* 7 longs: the 7th is past x86_64's 6 regs and s390x's 5. */
START_TEST(t_seven)
{
	int f = FN("seven", t_long, t_long, t_long, t_long, t_long, t_long, t_long, t_long);

	check(f, "x86_64", &(struct exp){ "", 7, 8, 2, 7,
		{ "r:0", "r:1", "r:2", "r:3", "r:4", "r:5", "s:0" } });
	check(f, "arm64", &(struct exp){ "", 7, 8, 2, 7,
		{ "r:0", "r:1", "r:2", "r:3", "r:4", "r:5", "r:6" } });
	check(f, "riscv64", &(struct exp){ "", 7, 8, 2, 7,
		{ "r:0", "r:1", "r:2", "r:3", "r:4", "r:5", "r:6" } });
	check(f, "powerpc64le", &(struct exp){ "", 7, 8, 2, 7,
		{ "r:0", "r:1", "r:2", "r:3", "r:4", "r:5", "r:6" } });
	check(f, "loongarch64", &(struct exp){ "", 7, 8, 2, 7,
		{ "r:0", "r:1", "r:2", "r:3", "r:4", "r:5", "r:6" } });
	check(f, "s390x", &(struct exp){ "", 7, 8, 2, 7,
		{ "r:0", "r:1", "r:2", "r:3", "r:4", "s:0", "s:1" } });
	check(f, "i386", &(struct exp){ "no-trampoline", 7, 8, 2, 7 });
	check(f, "riscv32", &(struct exp){ "no-trampoline", 7, 8, 2, 7 });
}
END_TEST

/* 12 unsigned long longs: the most the kernel models. */
START_TEST(t_twelve)
{
	int l = t_ulonglong;
	int f = FN("twelve", 0, l, l, l, l, l, l, l, l, l, l, l, l);

	check(f, "x86_64", &(struct exp){ "", 12, 0, 0, 12,
		{ "r:0", "r:1", "r:2", "r:3", "r:4", "r:5",
		  "s:0", "s:1", "s:2", "s:3", "s:4", "s:5" } });
	check(f, "arm64", &(struct exp){ "", 12, 0, 0, 12,
		{ "r:0", "r:1", "r:2", "r:3", "r:4", "r:5", "r:6", "r:7",
		  "s:0", "s:1", "s:2", "s:3" } });
	check(f, "powerpc64", &(struct exp){ "", 12, 0, 0, 12,
		{ "r:0", "r:1", "r:2", "r:3", "r:4", "r:5", "r:6", "r:7",
		  "s:0", "s:1", "s:2", "s:3" } });
	check(f, "s390x", &(struct exp){ "", 12, 0, 0, 12,
		{ "r:0", "r:1", "r:2", "r:3", "r:4",
		  "s:0", "s:1", "s:2", "s:3", "s:4", "s:5", "s:6" } });
	check(f, "loongarch64", &(struct exp){ "arch-too-many-args", 12, 0, 0, 12 });
}
END_TEST

/* void f(struct s16, union u8, long): aggregates by value. */
START_TEST(t_aggregates)
{
	int f = FN("aggr3", t_int, t_s16, t_u8, t_long);

	check(f, "x86_64", &(struct exp){ "", 3, 4, 2, 4, { "r:0+r:1", "r:2", "r:3" } });
	check(f, "arm64", &(struct exp){ "", 3, 4, 2, 4, { "r:0+r:1", "r:2", "r:3" } });
	check(f, "riscv64", &(struct exp){ "", 3, 4, 2, 4, { "r:0+r:1", "r:2", "r:3" } });
	check(f, "powerpc64le", &(struct exp){ "", 3, 4, 2, 4, { "r:0+r:1", "r:2", "r:3" } });
	/* s390x: > 8 bytes by reference, the pointer in r2 */
	check(f, "s390x", &(struct exp){ "", 3, 4, 2, 4, { "ref:r:0", "r:1", "r:2" } });
	check(f, "loongarch64", &(struct exp){ "struct-arg", 3, 4, 2, 4 });
}
END_TEST

/* A 16-byte struct that no longer fits in the registers left. */
START_TEST(t_spill)
{
	int L = t_long;
	/* f(long x5, struct s16, long): x86_64 has r5 left, the struct needs 2 */
	int f5 = FN("spill5", 0, L, L, L, L, L, t_s16, L);
	/* f(long x7, struct s16, long): arm64/riscv/ppc have only a7/x7/r10 left */
	int f7 = FN("spill7", 0, L, L, L, L, L, L, L, t_s16, L);
	/* f(long x7, __int128, long): not a struct, arm64 puts it on the stack */
	int i7 = FN("spill7i", 0, L, L, L, L, L, L, L, t_i128, L);

	/* x86_64: the struct goes on the stack whole, the next long takes r9 */
	check(f5, "x86_64", &(struct exp){ "", 7, 0, 0, 8,
		{ "r:0", "r:1", "r:2", "r:3", "r:4", "s:0+s:1", "r:5" } });
	check(f5, "arm64", &(struct exp){ "", 7, 0, 0, 8,
		{ "r:0", "r:1", "r:2", "r:3", "r:4", "r:5+r:6", "r:7" } });
	check(f5, "s390x", &(struct exp){ "", 7, 0, 0, 8,
		{ "r:0", "r:1", "r:2", "r:3", "r:4", "ref:s:0", "s:1" } });

	check(f7, "x86_64", &(struct exp){ "", 9, 0, 0, 10,
		{ "r:0", "r:1", "r:2", "r:3", "r:4", "r:5", "s:0", "s:1+s:2", "s:3" } });
	/*
	 * arm64 (v6.18): x7 is left, the struct needs 2 slots, so it and the
	 * long after it are read from the stack and x7 stays unused
	 * (arch/arm64/net/bpf_jit_comp.c calc_arg_aux(); the struct-on-stack
	 * refusal went in dc704d0cfa43, v6.17)
	 */
	check(f7, "arm64", &(struct exp){ "", 9, 0, 0, 10,
		{ "r:0", "r:1", "r:2", "r:3", "r:4", "r:5", "r:6", "s:0+s:1", "s:2" } });
	/* riscv64/powerpc64: linear slots, the struct straddles a7 and the stack */
	check(f7, "riscv64", &(struct exp){ "", 9, 0, 0, 10,
		{ "r:0", "r:1", "r:2", "r:3", "r:4", "r:5", "r:6", "r:7+s:0", "s:1" } });
	check(f7, "powerpc64le", &(struct exp){ "", 9, 0, 0, 10,
		{ "r:0", "r:1", "r:2", "r:3", "r:4", "r:5", "r:6", "r:7+s:0", "s:1" } });
	check(f7, "loongarch64", &(struct exp){ "arch-too-many-args", 9, 0, 0, 10 });

	/* arm64: once an arg spilled, x7 stays unused by later args */
	check(i7, "arm64", &(struct exp){ "", 9, 0, 0, 10,
		{ "r:0", "r:1", "r:2", "r:3", "r:4", "r:5", "r:6", "s:0+s:1", "s:2" } });
}
END_TEST

/* Seven 16-byte args: 14 slots. */
START_TEST(t_slots)
{
	int S = t_s16, I = t_i128;
	int fs = FN("s16x7", 0, S, S, S, S, S, S, S);
	int fi = FN("i128x7", 0, I, I, I, I, I, I, I);

	/* x86_64: 7 args + 7 extra struct slots = 14 > 12 */
	check(fs, "x86_64", &(struct exp){ "too-many-slots", 7, 0, 0, 14 });
	/* ... and so do 16-byte ints: 14 > 12 (no STRUCT_ARG test in the loop) */
	check(fi, "x86_64", &(struct exp){ "too-many-slots", 7, 0, 0, 14 });
	check(fs, "powerpc64", &(struct exp){ "too-many-slots", 7, 0, 0, 14 });
	check(fi, "powerpc64le", &(struct exp){ "too-many-slots", 7, 0, 0, 14 });
	/* arm64: four structs in x0..x7, three on the stack, no slot limit */
	check(fs, "arm64", &(struct exp){ "", 7, 0, 0, 14,
		{ "r:0+r:1", "r:2+r:3", "r:4+r:5", "r:6+r:7", "s:0+s:1", "s:2+s:3",
		  "s:4+s:5" } });
	check(fs, "riscv64", &(struct exp){ "", 7, 0, 0, 14,
		{ "r:0+r:1", "r:2+r:3", "r:4+r:5", "r:6+r:7", "s:0+s:1", "s:2+s:3",
		  "s:4+s:5" } });
	check(fs, "s390x", &(struct exp){ "", 7, 0, 0, 14,
		{ "ref:r:0", "ref:r:1", "ref:r:2", "ref:r:3", "ref:r:4", "ref:s:0",
		  "ref:s:1" } });
	check(fs, "loongarch64", &(struct exp){ "struct-arg", 7, 0, 0, 14 });
}
END_TEST

/*
 * Rules checked against the v6.18-era JITs where btfids once differed
 * or where the kernel departs from the psABI (models written by hand):
 *  - arm64, arch/arm64/net/bpf_jit_comp.c calc_arg_aux() + save_args():
 *    a struct or union on the stack is read like any arg since
 *    dc704d0cfa43 ("bpf, arm64: remove structs on stack constraint",
 *    v6.17), and a 16-byte int takes the next register, odd or even (no
 *    AAPCS64 pair alignment: nregs += slots);
 *  - powerpc64, arch/powerpc/net/bpf_jit_comp.c
 *    __arch_prepare_bpf_trampoline(): nr_regs counts the extra slots of
 *    every arg over 8 bytes, ints too, and refuses more than 12;
 *  - x86_64, arch/x86/net/bpf_jit_comp.c __arch_prepare_bpf_trampoline():
 *    every arg over 8 bytes adds its extra slot to nr_regs, ints too (read
 *    in the v6.12 and v7.3 trees: "nr_regs += (m->arg_size[i] + 7) / 8 - 1"
 *    for each arg); btfids counted STRUCT_ARG args only until the boot
 *    test's review (tests/boot.sh);
 *  - loongarch64, arch/loongarch/net/bpf_jit.c
 *    __arch_prepare_bpf_trampoline(): > 8 args is checked before struct
 *    args; a union is a struct arg (STRUCT_ARG since v6.18).
 */
START_TEST(t_kernel_rules)
{
	int L = t_long, I = t_i128;
	/* void f(long x7, union u16, long) */
	int u7 = FN("ustk", 0, L, L, L, L, L, L, L, t_u16, L);
	/* void f(long, __int128, long): __int128 in x1+x2, not x2+x3 */
	int odd = FN("odd", 0, L, I, L);
	/* void f(struct s8 x9): 9 one-slot structs, 8 in x0..x7 */
	int S = t_s8;
	int s9 = FN("s8x9", 0, S, S, S, S, S, S, S, S, S);
	/* void f(__int128 x6, long): 13 slots, 7 args */
	int i13 = FN("i128x6l", 0, I, I, I, I, I, I, L);
	/* void f(__int128 x6): 12 slots */
	int i12 = FN("i128x6", 0, I, I, I, I, I, I);
	/* void f(union u8 x9) */
	int u9 = FN("u8x9", 0, t_u8, t_u8, t_u8, t_u8, t_u8, t_u8, t_u8, t_u8, t_u8);

	check(u7, "arm64", &(struct exp){ "", 9, 0, 0, 10,
		{ "r:0", "r:1", "r:2", "r:3", "r:4", "r:5", "r:6", "s:0+s:1", "s:2" } });
	check(odd, "arm64", &(struct exp){ "", 3, 0, 0, 4, { "r:0", "r:1+r:2", "r:3" } });
	check(s9, "arm64", &(struct exp){ "", 9, 0, 0, 9,
		{ "r:0", "r:1", "r:2", "r:3", "r:4", "r:5", "r:6", "r:7", "s:0" } });
	/* x86_64: structs of one slot add nothing: 9 <= 12 */
	check(s9, "x86_64", &(struct exp){ "", 9, 0, 0, 9,
		{ "r:0", "r:1", "r:2", "r:3", "r:4", "r:5", "s:0", "s:1", "s:2" } });
	/* powerpc64 and x86_64: 13 slots > 12 even with no struct */
	check(i13, "powerpc64", &(struct exp){ "too-many-slots", 7, 0, 0, 13 });
	check(i13, "x86_64", &(struct exp){ "too-many-slots", 7, 0, 0, 13 });
	/* x86_64: 12 slots of 16-byte ints are the most that attach */
	check(i12, "x86_64", &(struct exp){ "", 6, 0, 0, 12,
		{ "r:0+r:1", "r:2+r:3", "r:4+r:5", "s:0+s:1", "s:2+s:3", "s:4+s:5" } });
	/* riscv64: no slot limit, a0..a7 then the stack */
	check(i13, "riscv64", &(struct exp){ "", 7, 0, 0, 13,
		{ "r:0+r:1", "r:2+r:3", "r:4+r:5", "r:6+r:7", "s:0+s:1", "s:2+s:3",
		  "s:4" } });
	/* loongarch64: 9 args is refused before looking at the unions */
	check(u9, "loongarch64", &(struct exp){ "arch-too-many-args", 9, 0, 0, 9 });
	check(FN("u1", 0, t_u8), "loongarch64", &(struct exp){ "struct-arg", 1, 0, 0, 1 });
	check(u9, "arm64", &(struct exp){ "", 9, 0, 0, 9,
		{ "r:0", "r:1", "r:2", "r:3", "r:4", "r:5", "r:6", "r:7", "s:0" } });
}
END_TEST

/* Pointer size and arch come from the target, not the host. */
START_TEST(t_arch)
{
	struct btfids_target_arch a;
	int f = FN("ptr", t_ptr, t_ptr);

	check(f, "i386", &(struct exp){ "no-trampoline", 1, 4, 0, 1 });
	check(f, "arm", &(struct exp){ "no-trampoline", 1, 4, 0, 1 });
	check(f, "mips", &(struct exp){ "no-trampoline", 1, 4, 0, 1 });
	check(f, "powerpc", &(struct exp){ "no-trampoline", 1, 4, 0, 1 });
	check(f, "s390x", &(struct exp){ "", 1, 8, 0, 1, { "r:0" } });
	ck_assert_int_eq(btfids_arch_from_name("sparc64", &a), -EINVAL);
	btfids_arch_from_elf(62 /* EM_X86_64 */, 2 /* ELFCLASS64 */, &a);
	ck_assert_int_eq(a.arch, BTFIDS_ARCH_X86_64);
	btfids_arch_from_elf(243 /* EM_RISCV */, 1 /* ELFCLASS32 */, &a);
	ck_assert_int_eq(a.arch, BTFIDS_ARCH_NONE);
	ck_assert_int_eq(a.ptr_size, 4);
	btfids_arch_from_elf(21 /* EM_PPC64 */, 2, &a);
	ck_assert_int_eq(a.arch, BTFIDS_ARCH_POWERPC64);
	btfids_arch_from_elf(258 /* EM_LOONGARCH */, 2, &a);
	ck_assert_int_eq(a.arch, BTFIDS_ARCH_LOONGARCH64);
	btfids_arch_from_elf(2 /* EM_SPARC */, 2, &a);
	ck_assert_int_eq(a.arch, BTFIDS_ARCH_NONE);
}
END_TEST

/*
 * --kernel X.Y: the distill rules of an older kernel. v6.12's
 * __get_type_size() knows no union (__btf_type_is_struct(): STRUCT only),
 * and a booted 6.12 refuses "arg0 type UNION is unsupported" for
 * release_pages() (tests/boot.sh); from 6.18 a union is a STRUCT_ARG.
 */
START_TEST(t_kernel_version)
{
	char path[] = "/tmp/btfids-models-XXXXXX";
	int fu = FN("takes_union", 0, t_long, t_u8);
	int fs = FN("takes_struct", 0, t_long, t_s16);
	struct btfids_target_arch a;
	struct btfids_fmodel m;
	unsigned int k = 1;
	char *err = NULL, cmd[256], line[512], want[256];
	bool seen = false;
	const void *raw;
	FILE *p;
	uint32_t size;
	int fd, rc;

	ck_assert_int_eq(btfids_kernel_from_str("6.12", &k), 0);
	ck_assert_uint_eq(k, BTFIDS_KERNEL(6, 12));
	ck_assert_int_eq(btfids_kernel_from_str("7.3-rc7", &k), 0);
	ck_assert_uint_eq(k, BTFIDS_KERNEL(7, 3));
	ck_assert_int_eq(btfids_kernel_from_str("6.12.117", &k), 0);
	ck_assert_uint_eq(k, BTFIDS_KERNEL(6, 12));
	ck_assert_int_eq(btfids_kernel_from_str("6", &k), -EINVAL);
	ck_assert_int_eq(btfids_kernel_from_str("6.x", &k), -EINVAL);
	ck_assert_int_eq(btfids_kernel_from_str("v6.12", &k), -EINVAL);
	ck_assert_int_eq(btfids_kernel_from_str("6.12x", &k), -EINVAL);

	btfids_arch_from_name("x86_64", &a);
	ck_assert_uint_eq(a.kernel, 0);		/* the newest rules */
	ck_assert_int_eq(btfids_fmodel_compute(btf, fu, &a, &m), 0);
	ck_assert_int_eq(m.reason, BTF_TRAMP_OK);
	ck_assert_int_eq(m.arg_flags[1], BTF_FMODEL_STRUCT_ARG);
	a.kernel = BTFIDS_KERNEL(6, 18);
	ck_assert_int_eq(btfids_fmodel_compute(btf, fu, &a, &m), 0);
	ck_assert_int_eq(m.reason, BTF_TRAMP_OK);
	a.kernel = BTFIDS_KERNEL(6, 17);
	ck_assert_int_eq(btfids_fmodel_compute(btf, fu, &a, &m), 0);
	ck_assert_int_eq(m.reason, BTF_TRAMP_ARG_UNSUPPORTED);
	ck_assert(!m.distilled);
	a.kernel = BTFIDS_KERNEL(6, 12);
	ck_assert_int_eq(btfids_fmodel_compute(btf, fs, &a, &m), 0);
	ck_assert_int_eq(m.reason, BTF_TRAMP_OK);	/* structs: the same in 6.12 */
	ck_assert_int_eq(m.nr_slots, 3);

	raw = btf__raw_data(btf, &size);
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, raw, size), (ssize_t)size);
	close(fd);
	snprintf(cmd, sizeof(cmd), "%s models --all --arch x86_64 --kernel 6.12 %s", tl_btfids(),
		 path);
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	while (fgets(line, sizeof(line), p)) {
		if (!strstr(line, "\"takes_union\""))
			continue;
		snprintf(want, sizeof(want), "{\"name\":\"takes_union\",\"id\":%d,"
			 "\"attachable\":false,\"reason\":\"arg-unsupported\"}\n", fu);
		ck_assert_str_eq(line, want);
		seen = true;
	}
	ck_assert_int_eq(pclose(p), 0);
	ck_assert(seen);
	/* a version that is none, or --kernel for the stored tables: usage errors */
	rc = TL_RUN(&err, "models", "--all", "--arch", "x86_64", "--kernel", "six", path);
	ck_assert_int_eq(rc, 2);
	ck_assert_ptr_nonnull(strstr(err, "--kernel takes a version"));
	free(err);
	rc = TL_RUN(&err, "models", "--kernel", "6.12", path);
	ck_assert_int_eq(rc, 2);
	ck_assert_ptr_nonnull(strstr(err, "--kernel only with --all"));
	free(err);
	unlink(path);
}
END_TEST

/* `btfids models --all` on raw BTF: exact JSON Lines. */
START_TEST(t_verb)
{
	char path[] = "/tmp/btfids-models-XXXXXX";
	int f1 = FN("vfs_read", t_long, t_ptr, t_ptr, t_ulonglong, t_ptr);
	int f2 = FN("foo", t_int, t_int, 0);
	const void *raw;
	char *err = NULL, cmd[256], line[512];
	uint32_t size;
	FILE *p;
	int fd, rc, n = 0;

	raw = btf__raw_data(btf, &size);
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, raw, size), (ssize_t)size);
	close(fd);
	/* raw BTF needs --arch */
	rc = TL_RUN(&err, "models", "--all", path);
	ck_assert_int_eq(rc, 2);
	ck_assert_ptr_nonnull(strstr(err, "--arch"));
	free(err);

	snprintf(cmd, sizeof(cmd), "%s models --all --arch x86_64 %s", tl_btfids(), path);
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	while (fgets(line, sizeof(line), p)) {
		char want[512];

		n++;
		if (strstr(line, "\"vfs_read\"")) {
			snprintf(want, sizeof(want), "{\"name\":\"vfs_read\",\"id\":%d,\"attachable\":true,"
				 "\"nr_args\":4,\"ret_size\":8,\"ret_flags\":2,\"arg_size\":[8,8,8,8],"
				 "\"arg_flags\":[0,0,0,0],\"slots\":4,\"loc\":[\"r:0\",\"r:1\",\"r:2\",\"r:3\"]}\n",
				 f1);
			ck_assert_str_eq(line, want);
		}
		if (strstr(line, "\"foo\"")) {
			snprintf(want, sizeof(want),
				 "{\"name\":\"foo\",\"id\":%d,\"attachable\":false,\"reason\":\"variadic\"}\n", f2);
			ck_assert_str_eq(line, want);
		}
	}
	ck_assert_int_eq(pclose(p), 0);
	/* one line per FUNC of the BTF */
	{
		int id, funcs = 0;

		for (id = 1; id < (int)btf__type_cnt(btf); id++)
			funcs += btf_is_func(btf__type_by_id(btf, id));
		ck_assert_int_eq(n, funcs);
	}

	/* an unknown --arch is a usage error that names it */
	rc = TL_RUN(&err, "models", "--all", "--arch", "vax", path);
	ck_assert_int_eq(rc, 2);
	ck_assert_ptr_nonnull(strstr(err, "unknown --arch vax"));
	free(err);
	/* a file that is no BTF at all is said to be so, named */
	fd = open(path, O_WRONLY | O_TRUNC);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "hello\n", 6), 6);
	close(fd);
	rc = TL_RUN(&err, "models", "--all", "--arch", "x86_64", path);
	ck_assert_int_eq(rc, 2);
	ck_assert_msg(strstr(err, path) && strstr(err, "neither an ELF file nor raw BTF"), "%s", err);
	free(err);
	unlink(path);
}
END_TEST

/*
 * The one JSON writer (json.c), which `models` shares with check and dump:
 * integers without printf (0, one digit, 2^64 - 1), strings in runs with
 * each escape of RFC 8259, commas placed by the writer; then one
 * btfids_tramp_class_print() line written out by hand.
 */
START_TEST(t_json)
{
	static const uint32_t ids[] = { 0, 7, 4294967295u };
	static const uint8_t u8s[] = { 16, 255 };
	struct btfids_fmodel m = {};
	struct btfids_json j;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	btfids_json_init(&j, f);
	btfids_json_start_object(&j);
	btfids_json_uint_field(&j, "zero", 0);
	btfids_json_uint_field(&j, "nine", 9);
	btfids_json_uint_field(&j, "ten", 10);
	btfids_json_uint_field(&j, "max", UINT64_MAX);
	btfids_json_string_field(&j, "esc", "a\"b\\c\nd\te\x01" "f\x7fg");
	btfids_json_string_field(&j, "utf8", "caf\xc3\xa9 \xff\xc3 \xe2\x82\xac");
	btfids_json_string_field(&j, "long", "a_name_well_past_the_short_run_limit");
	btfids_json_string_field(&j, "null", NULL);
	btfids_json_bool_field(&j, "t", true);
	btfids_json_uint_array_field(&j, "ids", ids, 3);
	btfids_json_u8_array_field(&j, "u8", u8s, 2);
	btfids_json_u8_array_field(&j, "none", u8s, 0);
	btfids_json_name(&j, "nest");
	btfids_json_start_array(&j);
	btfids_json_start_array(&j);
	btfids_json_end_array(&j);
	btfids_json_start_object(&j);
	btfids_json_bool_field(&j, "f", false);
	btfids_json_end_object(&j);
	btfids_json_end_array(&j);
	btfids_json_end_object(&j);
	btfids_json_newline(&j);

	/* int f(long, struct s16) on x86_64, written as the models verb does */
	m.nr_args = 2;
	m.ret_size = 4;
	m.ret_flags = 2;
	m.nr_slots = 3;
	m.arg_size[0] = 8;
	m.arg_size[1] = 16;
	m.arg_flags[0] = 2;
	m.arg_flags[1] = 1;
	m.distilled = true;
	memset(m.loc, BTF_TRAMP_LOC_NONE, sizeof(m.loc));
	m.loc[0][0] = 0;
	m.loc[1][0] = BTF_TRAMP_LOC_STACK | 0;
	m.loc[1][1] = BTF_TRAMP_LOC_STACK | 11;
	btfids_tramp_class_print(&j, "f", 4000000000u, -1, &m);
	m.reason = BTF_TRAMP_STRUCT_ON_STACK;
	btfids_tramp_class_print(&j, "g", 1, -1, &m);
	m = (struct btfids_fmodel){ .reason = BTF_TRAMP_UNRESOLVED };
	btfids_tramp_class_print(&j, "h", 0, -1, &m);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_str_eq(buf,
		"{\"zero\":0,\"nine\":9,\"ten\":10,\"max\":18446744073709551615,"
		"\"esc\":\"a\\\"b\\\\c\\nd\\te\\u0001f\\u007fg\","
		"\"utf8\":\"caf\xc3\xa9 \\ufffd\\ufffd \xe2\x82\xac\","
		"\"long\":\"a_name_well_past_the_short_run_limit\",\"null\":null,\"t\":true,"
		"\"ids\":[0,7,4294967295],\"u8\":[16,255],\"none\":[],"
		"\"nest\":[[],{\"f\":false}]}\n"
		"{\"name\":\"f\",\"id\":4000000000,\"attachable\":true,\"nr_args\":2,"
		"\"ret_size\":4,\"ret_flags\":2,\"arg_size\":[8,16],\"arg_flags\":[2,1],"
		"\"slots\":3,\"loc\":[\"r:0\",\"s:0+s:11\"]}\n"
		"{\"name\":\"g\",\"id\":1,\"attachable\":false,\"reason\":\"struct-on-stack\","
		"\"nr_args\":2,\"ret_size\":4,\"ret_flags\":2,\"arg_size\":[8,16],"
		"\"arg_flags\":[2,1],\"slots\":3}\n"
		"{\"name\":\"h\",\"id\":0,\"attachable\":false,\"reason\":\"unresolved\"}\n");
	free(buf);

	/*
	 * Staging: a string longer than the writer's buffer, many values
	 * across its end, and the caller writing to the stream between two
	 * top-level values (order kept).
	 */
	{
		static char big[3 * BTFIDS_JSON_BUF];
		size_t i;

		memset(big, 'x', sizeof(big) - 1);
		f = open_memstream(&buf, &len);
		ck_assert_ptr_nonnull(f);
		btfids_json_init(&j, f);
		btfids_json_start_array(&j);
		for (i = 0; i < BTFIDS_JSON_BUF; i++)
			btfids_json_uint(&j, i % 10);
		btfids_json_string(&j, big);
		btfids_json_end_array(&j);
		fputs(" raw ", f);
		btfids_json_newline(&j);
		btfids_json_uint(&j, 42);
		fputs(" raw2", f);
		ck_assert_int_eq(fclose(f), 0);
		/* [ + "d," x BUF + "big" + ] + " raw " + \n + 42 + " raw2" */
		ck_assert_uint_eq(len, 1 + 2 * BTFIDS_JSON_BUF + sizeof(big) + 1 + 1 + 5 + 1 + 2 + 5);
		for (i = 0; i < BTFIDS_JSON_BUF; i++)
			ck_assert_int_eq(buf[1 + 2 * i], '0' + i % 10);
		ck_assert_int_eq(buf[2 * BTFIDS_JSON_BUF + 1], '"');
		ck_assert_int_eq(buf[2 * BTFIDS_JSON_BUF + 1 + sizeof(big)], '"');
		ck_assert_str_eq(buf + len - 15, "\"] raw \n42 raw2");
		free(buf);
	}
}
END_TEST

/* Real kernels, when fetched: one line per FUNC, no error. */
START_TEST(t_kernels)
{
	static const char *const ks[] = { "amd64-6.12", "s390x-6.12" };
	char path[4608], cmd[5120], line[1024];
	int k;

	for (k = 0; k < 2; k++) {
		struct btf *kb;
		long n = 0, funcs = 0;
		uint32_t id;
		FILE *p;

		snprintf(path, sizeof(path), "%s/btfids/kernels/%s/vmlinux", tl_cache_dir(), ks[k]);
		if (access(path, R_OK)) {
			printf("check_models: %s not fetched, skipped\n", ks[k]);
			continue;
		}
		kb = btf__parse(path, NULL);
		ck_assert_ptr_nonnull(kb);
		for (id = 1; id < btf__type_cnt(kb); id++)
			funcs += btf_is_func(btf__type_by_id(kb, id));
		btf__free(kb);
		snprintf(cmd, sizeof(cmd), "%s models --all %s", tl_btfids(), path);
		p = popen(cmd, "r");
		ck_assert_ptr_nonnull(p);
		while (fgets(line, sizeof(line), p))
			n += line[0] == '{';
		ck_assert_int_eq(pclose(p), 0);
		ck_assert_int_eq(n, funcs);
	}
}
END_TEST

/*
 * End to end (tests/fixtures/models/run.sh): the fixture declares sets
 * over its own functions, btfids fills the tables, the program checks
 * them at run time; natively and under qemu-user. Then `btfids models ELF`
 * reads the stored table back.
 */
/* The fx_m_seven line of `btfids models ELF` (the stored tables) in @line. */
static void seven_line(const char *elf, char *line, size_t len)
{
	char cmd[1024];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "%s models %s | grep '\"fx_m_seven\"'", tl_btfids(), elf);
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_nonnull(fgets(line, len, p));
	pclose(p);
}

/*
 * The tables resolve writes follow the ELF's release: the native image
 * resolved again as a 6.1 kernel (--kernel 6.1) stores fx_m_seven (7 args,
 * 7 slots) as not attachable, as the 6.1 x86 trampoline refuses more than
 * 6 (v6.1 arch_prepare_bpf_trampoline(), "nr_regs > 6"), and without
 * SIGNED_ARG on its longs (49f67f393ff2, v6.3); with no release, the
 * newest rules attach it.
 */
static void e2e_release(const char *dir)
{
	char cmd[2048], elf[512], line[1024];

	snprintf(elf, sizeof(elf), "%s/models/native/tramp", dir);
	seven_line(elf, line, sizeof(line));
	ck_assert_msg(strstr(line, "\"attachable\":true") &&
		      strstr(line, "\"arg_flags\":[2,2,2,2,2,2,2]"), "newest rules: %s", line);
	snprintf(cmd, sizeof(cmd), "cp %s %s61 && %s --kernel 6.1 %s61 2>/dev/null", elf, elf,
		 tl_btfids(), elf);
	ck_assert_int_eq(system(cmd), 0);
	strcat(elf, "61");
	seven_line(elf, line, sizeof(line));
	ck_assert_msg(strstr(line, "\"attachable\":false,\"reason\":\"too-many-slots\""),
		      "6.1 rules: %s", line);
	/* its signed longs: SIGNED_ARG since 6.3 only */
	ck_assert_msg(strstr(line, "\"arg_flags\":[0,0,0,0,0,0,0]"), "6.1 flags: %s", line);
}

START_TEST(t_e2e)
{
	static const char *const triples[] = { "", "aarch64-linux-gnu", "s390x-linux-gnu",
					       "riscv64-linux-gnu", "powerpc64le-linux-gnu" };
	char cmd[1024], line[1024];
	unsigned int i, n = 0, missing = 0;
	FILE *p;
	int rc;

	for (i = 0; i < sizeof(triples) / sizeof(triples[0]); i++) {
		snprintf(cmd, sizeof(cmd), "BTFIDS=%s tests/fixtures/models/run.sh %s/models/%s %s >/dev/null",
			 tl_btfids(), tl_build_dir(), *triples[i] ? triples[i] : "native", triples[i]);
		rc = system(cmd);
		if (WIFEXITED(rc) && WEXITSTATUS(rc) == 77) {
			printf("check_models: e2e %s skipped (no compiler or qemu)\n", triples[i]);
			continue;
		}
		ck_assert_msg(WIFEXITED(rc) && !WEXITSTATUS(rc), "e2e %s failed", triples[i]);
	}
	snprintf(cmd, sizeof(cmd), "%s models %s/models/native/tramp", tl_btfids(), tl_build_dir());
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	while (fgets(line, sizeof(line), p)) {
		n++;
		missing += !strcmp(line, "{\"name\":\"fx_m_missing\",\"id\":0,\"attachable\":false,\"reason\":\"unresolved\"}\n");
	}
	ck_assert_int_eq(pclose(p), 0);
	ck_assert_int_eq(n, 7);		/* 4 + 3 functions in two sets */
	ck_assert_int_eq(missing, 1);
	e2e_release(tl_build_dir());
}
END_TEST

/* ---- A module: ET_REL, split BTF, resolved with -b ---- */

struct mod_sec {
	Elf_Data *d;
	size_t index;
};

/* Section @name of @elf, its bytes and index; NULL data if absent. */
static struct mod_sec mod_section(Elf *elf, const char *name)
{
	struct mod_sec r = {};
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;

	ck_assert_int_eq(elf_getshdrstrndx(elf, &shstrndx), 0);
	while ((scn = elf_nextscn(elf, scn))) {
		const char *n;

		if (!gelf_getshdr(scn, &sh))
			continue;
		n = elf_strptr(elf, shstrndx, sh.sh_name);
		if (n && !strcmp(n, name)) {
			r.d = elf_rawdata(scn, NULL);
			r.index = elf_ndxscn(scn);
		}
	}
	return r;
}

/* st_value/st_size of symbol @name: section offsets in an ET_REL. */
static bool mod_symbol(Elf *elf, const char *name, GElf_Sym *out)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t i;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
			continue;
		d = elf_getdata(scn, NULL);
		for (i = 0; d && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *n;

			if (!gelf_getsym(d, i, &sym))
				continue;
			n = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (n && !strcmp(n, name)) {
				*out = sym;
				return true;
			}
		}
	}
	return false;
}

static uint32_t rd(const unsigned char *p, int len, bool be)
{
	uint32_t v = 0;
	int i;

	for (i = 0; i < len; i++)
		v |= (uint32_t)p[be ? len - 1 - i : i] << (8 * i);
	return v;
}

/* One expected entry, written from module.c's signatures. */
struct mod_want {
	const char *name;
	uint8_t reason, ret_size, ret_flags, nr_args, slots;
	uint8_t size[3], flags[3];
	uint8_t loc[3][2];	/* x86_64, arm64, riscv64, powerpc64 */
	uint8_t loc_s390[3][2];
};

#define NL	0xff
static const struct mod_want mod_want[] = {
	{ "fx_mod_ptr", 0, 8, 2, 2, 2, { 8, 8 }, { 0, 2 },
	  { { 0, NL }, { 1, NL }, { NL, NL } }, { { 0, NL }, { 1, NL }, { NL, NL } } },
	/* 16-byte struct in two registers; s390x: by reference in r2 */
	{ "fx_mod_aggr", 0, 4, 2, 3, 4, { 16, 8, 4 }, { 1, 1, 2 },
	  { { 0, 1 }, { 2, NL }, { 3, NL } }, { { 0x40, NL }, { 1, NL }, { 2, NL } } },
	{ "fx_mod_var", BTF_TRAMP_VARIADIC },
};

/* The resolved module of @dir: its table against the split BTF. */
static void check_module(const char *dir, const char *triple)
{
	char base_path[600], mod_path[600], cmd[1400], line[512];
	const unsigned char *tab, *en;
	struct btf *base, *split;
	struct mod_sec btf_sec, tramp;
	uint32_t base_cnt, prev = 0, crc;
	unsigned int i, k, lines = 0;
	GElf_Ehdr eh;
	GElf_Sym sym;
	Elf *elf;
	bool be;
	FILE *p;
	int fd;

	snprintf(base_path, sizeof(base_path), "%s/base.o", dir);
	snprintf(mod_path, sizeof(mod_path), "%s/module.o", dir);
	base = btf__parse(base_path, NULL);
	ck_assert_ptr_nonnull(base);
	base_cnt = btf__type_cnt(base);
	split = btf__parse_split(mod_path, base);
	ck_assert_ptr_nonnull(split);
	ck_assert_uint_gt(btf__type_cnt(split), base_cnt);

	fd = open(mod_path, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	ck_assert_ptr_nonnull(elf);
	ck_assert_ptr_nonnull(gelf_getehdr(elf, &eh));
	ck_assert_int_eq(eh.e_type, ET_REL);
	be = eh.e_ident[EI_DATA] == ELFDATA2MSB;
	btf_sec = mod_section(elf, ".BTF");
	tramp = mod_section(elf, ".BTF_tramp");
	ck_assert_ptr_nonnull(btf_sec.d);
	ck_assert_ptr_nonnull(tramp.d);
	ck_assert(mod_symbol(elf, "__BTF_TRAMP__fx_mod_set", &sym));
	ck_assert_uint_eq(sym.st_shndx, tramp.index);
	ck_assert_uint_eq(sym.st_size, 24 + 4 * 60);
	ck_assert_uint_le(sym.st_value + sym.st_size, tramp.d->d_size);
	tab = (const unsigned char *)tramp.d->d_buf + sym.st_value;

	/* header: filled, this machine, 4 entries, crc of the module's own .BTF */
	crc = crc32(0, btf_sec.d->d_buf, btf_sec.d->d_size);
	ck_assert_uint_eq(rd(tab, 4, be), BTF_TRAMP_MAGIC);
	ck_assert_uint_eq(rd(tab + 4, 2, be), BTF_TRAMP_VERSION);
	ck_assert_uint_eq(rd(tab + 6, 2, be), eh.e_machine);
	ck_assert_uint_eq(rd(tab + 8, 4, be), 4);
	ck_assert_uint_eq(rd(tab + 12, 2, be), 60);
	ck_assert_uint_eq(rd(tab + 14, 2, be), 4);	/* fx_mod_aggr: 2 + 1 + 1 */
	ck_assert_msg(rd(tab + 16, 4, be) == crc, "%s: crc %#x, the module's .BTF has %#x",
		      triple, rd(tab + 16, 4, be), crc);
	ck_assert_uint_eq(rd(tab + 20, 4, be), 0);

	/* fx_mod_missing: unresolved, sorted first */
	en = tab + 24;
	ck_assert_uint_eq(rd(en, 4, be), 0);
	ck_assert_uint_eq(en[32], 0);
	ck_assert_uint_eq(en[33], BTF_TRAMP_UNRESOLVED);
	ck_assert_uint_eq(en[34], 0);
	for (k = 1; k < 4; k++) {
		uint32_t id = rd(tab + 24 + 60 * k, 4, be);

		ck_assert_uint_gt(id, prev);	/* sorted by ID */
		prev = id;
	}
	for (i = 0; i < sizeof(mod_want) / sizeof(mod_want[0]); i++) {
		const struct mod_want *w = &mod_want[i];
		const struct btf_type *t;
		int id = btf__find_by_name_kind(split, w->name, BTF_KIND_FUNC);
		const uint8_t (*loc)[2] = eh.e_machine == EM_S390 ? w->loc_s390 : w->loc;
		unsigned int a;

		/* the module's own FUNC: past every type of the base */
		ck_assert_msg(id > 0 && (uint32_t)id >= base_cnt, "%s %s: id %d, base has %u types",
			      triple, w->name, id, base_cnt);
		t = btf__type_by_id(split, id);
		ck_assert_uint_ge(t->type, base_cnt);	/* its FUNC_PROTO too */
		for (k = 1; k < 4 && rd(tab + 24 + 60 * k, 4, be) != (uint32_t)id; k++)
			;
		ck_assert_msg(k < 4, "%s %s: id %d not in the table", triple, w->name, id);
		en = tab + 24 + 60 * k;
		ck_assert_uint_eq(en[33], w->reason);
		ck_assert_uint_eq(en[32], !w->reason);
		if (w->reason) {
			ck_assert_uint_eq(en[34], 0);
			continue;
		}
		ck_assert_uint_eq(en[34], 1);
		ck_assert_uint_eq(en[4], w->ret_size);
		ck_assert_uint_eq(en[5], w->ret_flags);
		ck_assert_uint_eq(en[6], w->nr_args);
		ck_assert_uint_eq(en[7], w->slots);
		for (a = 0; a < w->nr_args; a++) {
			ck_assert_uint_eq(en[8 + a], w->size[a]);
			ck_assert_uint_eq(en[20 + a], w->flags[a]);
			ck_assert_msg(en[36 + 2 * a] == loc[a][0] && en[37 + 2 * a] == loc[a][1],
				      "%s %s arg %u: loc %#x %#x", triple, w->name, a,
				      en[36 + 2 * a], en[37 + 2 * a]);
		}
	}
	/* the struct argument is the base's type: the model walked into the base */
	{
		int s16 = btf__find_by_name_kind(split, "fx_s16", BTF_KIND_STRUCT);

		ck_assert_int_gt(s16, 0);
		ck_assert_uint_lt(s16, base_cnt);
	}
	elf_end(elf);
	close(fd);

	/* read back by `btfids models`: with -b, and without (named by the slots) */
	for (k = 0; k < 2; k++) {
		snprintf(cmd, sizeof(cmd), "%s models %s%s %s", tl_btfids(), k ? "" : "-b ",
			 k ? "" : base_path, mod_path);
		p = popen(cmd, "r");
		ck_assert_ptr_nonnull(p);
		lines = 0;
		while (fgets(line, sizeof(line), p)) {
			char want[128];

			lines++;
			if (lines == 1) {
				ck_assert_ptr_nonnull(strstr(line, "\"name\":\"fx_mod_missing\",\"id\":0,"));
				continue;
			}
			for (i = 0; i < sizeof(mod_want) / sizeof(mod_want[0]); i++) {
				snprintf(want, sizeof(want), "\"name\":\"%s\",\"id\":%d,",
					 mod_want[i].name,
					 btf__find_by_name_kind(split, mod_want[i].name, BTF_KIND_FUNC));
				if (strstr(line, want))
					break;
			}
			ck_assert_msg(i < 3, "%s: unexpected line %s", cmd, line);
		}
		ck_assert_int_eq(pclose(p), 0);
		ck_assert_int_eq(lines, 4);
	}
	btf__free(split);
	btf__free(base);
}

/*
 * A module (tests/fixtures/models/module.sh): ET_REL with split BTF on
 * a base object, resolved with btfids -b, for every target whose compiler
 * is installed (big-endian s390x and powerpc64 included). Its table must
 * hold the split IDs (at or above the base's type count), the crc of the
 * module's own .BTF, and the hand-written models.
 */
START_TEST(t_module)
{
	static const char *const triples[] = { "", "aarch64-linux-gnu", "s390x-linux-gnu",
					       "riscv64-linux-gnu", "powerpc64le-linux-gnu",
					       "powerpc64-linux-gnu" };
	char dir[512], cmd[1100];
	unsigned int i;
	int rc;

	ck_assert_uint_ne(elf_version(EV_CURRENT), EV_NONE);
	for (i = 0; i < sizeof(triples) / sizeof(triples[0]); i++) {
		snprintf(dir, sizeof(dir), "%s/models/module-%s", tl_build_dir(),
			 *triples[i] ? triples[i] : "native");
		snprintf(cmd, sizeof(cmd), "BTFIDS=%s tests/fixtures/models/module.sh %s %s",
			 tl_btfids(), dir, triples[i]);
		rc = system(cmd);
		if (WIFEXITED(rc) && WEXITSTATUS(rc) == 77) {
			printf("check_models: module %s skipped (no compiler)\n", triples[i]);
			continue;
		}
		ck_assert_msg(WIFEXITED(rc) && !WEXITSTATUS(rc), "module.sh %s failed", triples[i]);
		check_module(dir, *triples[i] ? triples[i] : "native");
	}
}
END_TEST

static unsigned int count_lines(const char *s, const char *must)
{
	unsigned int n = 0;
	const char *nl;

	for (; *s; s = nl + 1) {
		nl = strchr(s, '\n');
		ck_assert_ptr_nonnull(nl);
		ck_assert_msg(!must || (strstr(s, must) && strstr(s, must) < nl),
			      "a line without %s: %.*s", must, (int)(nl - s), s);
		n++;
	}
	return n;
}

/*
 * models' error paths and options (issue 29): each bad FILE named with what
 * it is (missing, a directory, text, raw BTF), a --btf that is not there
 * named before anything else, a module without -b told to name its base;
 * -b naming FILE itself reads FILE's own BTF (IDs not shifted by the base's
 * count: the ID libbpf gives the name in FILE alone); --func picks by glob
 * (module.c defines three fx_mod_ functions); -v names the rules used;
 * usage errors exit 2 and name the value an option needs.
 */
START_TEST(t_verb_errors)
{
	char dir[512], base[600], mod[600], cmd[1400], want[128];
	char *out = NULL, *out2 = NULL, *err = NULL, *txt;
	struct btf *b;
	int rc;

	snprintf(dir, sizeof(dir), "%s/models/errors", tl_build_dir());
	snprintf(base, sizeof(base), "%s/base.o", dir);
	snprintf(mod, sizeof(mod), "%s/module.o", dir);
	snprintf(cmd, sizeof(cmd), "BTFIDS=%s tests/fixtures/models/module.sh %s >/dev/null",
		 tl_btfids(), dir);
	rc = system(cmd);
	ck_assert_msg(WIFEXITED(rc) && !WEXITSTATUS(rc), "module.sh failed");

	rc = TL_RUN(&err, "models", "/nonexistent/btfids-models");
	ck_assert_int_eq(rc, 2);
	ck_assert_msg(strstr(err, "FAILED /nonexistent/btfids-models: cannot read it: No such file or directory"),
		      "%s", err);
	ck_assert_msg(!strstr(err, "--btf"), "%s", err);
	free(err);
	rc = TL_RUN(&err, "models", "--all", "/nonexistent/btfids-models");
	ck_assert_int_eq(rc, 2);
	ck_assert_msg(strstr(err, "/nonexistent/btfids-models: cannot read it: No such file"), "%s", err);
	free(err);
	rc = TL_RUN(&err, "models", dir);
	ck_assert_int_eq(rc, 2);
	ck_assert_msg(strstr(err, dir) && strstr(err, "a directory"), "%s", err);
	free(err);
	txt = tl_tmpfile("hello\n", 6);
	rc = TL_RUN(&err, "models", txt);
	ck_assert_int_eq(rc, 2);
	ck_assert_msg(strstr(err, txt) && strstr(err, "neither an ELF file nor a raw trampoline table") &&
		      !strstr(err, "--btf FILE is needed"), "%s", err);
	free(err);
	unlink(txt);
	free(txt);

	/* --btf naming no file: that file, not FILE's .BTF_tramp */
	rc = TL_RUN(&err, "models", "--btf", "/nonexistent/x.BTF", base);
	ck_assert_int_eq(rc, 2);
	ck_assert_msg(strstr(err, "FAILED /nonexistent/x.BTF: --btf: cannot read it") &&
		      !strstr(err, ".BTF_tramp"), "%s", err);
	free(err);

	/* a module's split BTF without its base: the hint */
	rc = TL_RUN(&err, "models", "--all", mod);
	ck_assert_int_eq(rc, 2);
	ck_assert_msg(strstr(err, mod) && strstr(err, "needs its base: -b vmlinux"), "%s", err);
	free(err);

	/* -b naming FILE itself: FILE's own IDs */
	ck_assert_int_eq(TL_RUN_OUT(&out, &err, "models", "--all", base), 0);
	free(err);
	ck_assert_int_eq(TL_RUN_OUT(&out2, &err, "models", "-b", base, "--all", base), 0);
	ck_assert_str_eq(out2, out);
	b = btf__parse(base, NULL);
	ck_assert_ptr_nonnull(b);
	snprintf(want, sizeof(want), "{\"name\":\"fx_base_id\",\"id\":%u,",
		 tl_id(b, "fx_base_id", BTF_KIND_FUNC));
	ck_assert_msg(strstr(out, want), "no %s in %s", want, out);
	btf__free(b);
	free(out);
	free(out2);
	free(err);

	/* --func: by glob, --all and the stored tables alike */
	ck_assert_int_eq(TL_RUN_OUT(&out, &err, "models", "-b", base, "--all", "--func", "fx_mod_*", mod), 0);
	ck_assert_uint_eq(count_lines(out, "\"name\":\"fx_mod_"), 3);
	free(out);
	free(err);
	ck_assert_int_eq(TL_RUN_OUT(&out, &err, "models", "-b", base, "-f", "fx_mod_a?gr", mod), 0);
	ck_assert_uint_eq(count_lines(out, "\"name\":\"fx_mod_aggr\""), 1);
	free(out);
	free(err);
	ck_assert_int_eq(TL_RUN_OUT(&out, &err, "models", "--all", "--func", "no_such_*", base), 0);
	ck_assert_str_eq(out, "");
	free(out);
	free(err);

	/* -v: the rules, on stderr */
	ck_assert_int_eq(TL_RUN_OUT(&out, &err, "models", "-v", "--all", "--kernel", "6.12", base), 0);
	ck_assert_msg(strstr(err, "rules (its e_machine) of Linux 6.12's (--kernel)"), "%s", err);
	free(out);
	free(err);
	/* a release older than the oldest rules: says whose rules apply (man page) */
	ck_assert_int_eq(TL_RUN_OUT(&out, &err, "models", "-v", "--all", "--kernel", "5.10", base), 0);
	ck_assert_msg(strstr(err, "of Linux 5.10's (--kernel), which are 6.1's"), "%s", err);
	free(out);
	free(err);

	/* usage: exit 2, the value named; help VERB */
	rc = TL_RUN(&err, "models", "--all", base, "--kernel");
	ck_assert_int_eq(rc, 2);
	ck_assert_msg(strstr(err, "--kernel needs a RELEASE"), "%s", err);
	free(err);
	ck_assert_int_eq(TL_RUN_OUT(&out, &err, "help", "models"), 0);
	ck_assert_msg(strstr(out, "Usage: btfids models") && strstr(out, "--func PATTERN"), "%s", out);
	free(out);
	free(err);
}
END_TEST

/*
 * 7.3's arg_flags (v7.3 include/linux/bpf.h, kernel/bpf/btf.c
 * __get_arg_fmodel_flags()): no BTF_FMODEL_STRUCT_ARG, ARENA_ARG (bit 2)
 * and NULLABLE_ARG (bit 3) from the param's name suffix, SIGNED_ARG kept;
 * up to 7.2 the v6.18 flags. The x86_64 placement of a struct is the same
 * either way (it follows the type, not the flag).
 */
START_TEST(t_flags_73)
{
	static const char *const names[] = {
		"p__arena", "q__arena__nullable", "r__nullable", "s", "n",
	};
	int types[] = { t_ptr, t_ptr, t_ptr, t_s16, t_int };
	int proto = btf__add_func_proto(btf, t_int), fn, i;
	static const uint8_t want73[] = { 4, 12, 8, 0, BTF_FMODEL_SIGNED_ARG };
	static const uint8_t want72[] = { 0, 0, 0, BTF_FMODEL_STRUCT_ARG, BTF_FMODEL_SIGNED_ARG };
	struct btfids_target_arch a;
	struct btfids_fmodel m73, m72;

	for (i = 0; i < 5; i++)
		ck_assert_int_eq(btf__add_func_param(btf, names[i], types[i]), 0);
	fn = btf__add_func(btf, "fx_flags73", BTF_FUNC_GLOBAL, proto);
	ck_assert_int_gt(fn, 0);
	btfids_arch_from_name("x86_64", &a);
	a.kernel = BTFIDS_KERNEL(7, 3);
	ck_assert_int_eq(btfids_fmodel_compute(btf, fn, &a, &m73), 0);
	a.kernel = BTFIDS_KERNEL(7, 2);
	ck_assert_int_eq(btfids_fmodel_compute(btf, fn, &a, &m72), 0);
	ck_assert_int_eq(m73.reason, BTF_TRAMP_OK);
	ck_assert_int_eq(m72.reason, BTF_TRAMP_OK);
	for (i = 0; i < 5; i++) {
		ck_assert_msg(m73.arg_flags[i] == want73[i], "7.3 arg %d: %u", i, m73.arg_flags[i]);
		ck_assert_msg(m72.arg_flags[i] == want72[i], "7.2 arg %d: %u", i, m72.arg_flags[i]);
	}
	/* the 16-byte struct takes 2 slots and the same places in both */
	ck_assert_int_eq(m73.nr_slots, 6);
	ck_assert_int_eq(memcmp(m73.loc, m72.loc, sizeof(m73.loc)), 0);
}
END_TEST

/*
 * Trampolines by kernel version: v6.12's arch/ has none for loongarch64
 * and powerpc64; v7.2/v7.3 arch/loongarch/net/bpf_jit.c takes up to 12
 * args and structs as one run of 8-byte slots (a0..a7, then the stack);
 * the v6.18 rule (no release known) refuses more than 8 args and structs.
 */
/* The reason @arch's trampoline gives FUNC @id by the rules of @kernel; *m filled. */
static int reason_on(const char *arch, unsigned int kernel, int id, struct btfids_fmodel *m)
{
	struct btfids_target_arch a;

	btfids_arch_from_name(arch, &a);
	a.kernel = kernel;
	ck_assert_int_eq(btfids_fmodel_compute(btf, id, &a, m), 0);
	return m->reason;
}

START_TEST(t_arch_versions)
{
	int p10[10], f10, fs, i;
	struct btfids_fmodel m;
	char loc[BTFIDS_FMODEL_LOC_LEN];

	for (i = 0; i < 10; i++)
		p10[i] = t_long;
	f10 = add_func("fx_ten", t_int, 10, p10);
	fs = add_func("fx_struct", t_int, 1, (int[]){ t_s16 });
	ck_assert_int_eq(reason_on("loongarch64", 0, f10, &m), BTF_TRAMP_ARCH_TOO_MANY_ARGS);
	ck_assert_int_eq(reason_on("loongarch64", 0, fs, &m), BTF_TRAMP_STRUCT_ARG);
	ck_assert_int_eq(reason_on("loongarch64", BTFIDS_KERNEL(7, 3), f10, &m), BTF_TRAMP_OK);
	btfids_fmodel_loc_str(&m, 7, loc, sizeof(loc));
	ck_assert_str_eq(loc, "r:7");
	btfids_fmodel_loc_str(&m, 9, loc, sizeof(loc));
	ck_assert_str_eq(loc, "s:1");
	ck_assert_int_eq(reason_on("loongarch64", BTFIDS_KERNEL(7, 3), fs, &m), BTF_TRAMP_OK);
	btfids_fmodel_loc_str(&m, 0, loc, sizeof(loc));
	ck_assert_str_eq(loc, "r:0+r:1");
	ck_assert_int_eq(reason_on("loongarch64", BTFIDS_KERNEL(6, 12), fs, &m),
			 BTF_TRAMP_NO_TRAMPOLINE);
	ck_assert_int_eq(reason_on("powerpc64", BTFIDS_KERNEL(6, 12), fs, &m),
			 BTF_TRAMP_NO_TRAMPOLINE);
	ck_assert_int_eq(reason_on("powerpc64", BTFIDS_KERNEL(7, 3), fs, &m), BTF_TRAMP_OK);
	ck_assert_int_eq(reason_on("x86_64", BTFIDS_KERNEL(6, 12), f10, &m), BTF_TRAMP_OK);
}
END_TEST

/*
 * The rules of each release from 6.1 to 6.18, hand-written from the
 * sources fmodel.c cites (the 6.1 tree, Debian 6.1.192, and the upstream
 * commits): one case on each side of every change.
 *  - v6.1 arch/x86/net/bpf_jit_comp.c arch_prepare_bpf_trampoline():
 *    "if (nr_regs > 6) return -ENOTSUPP", regs rdi..r9 in order;
 *    473e3150e30a (v6.6): up to 12, the 7th slot from the stack;
 *  - v6.1 arch/arm64/net/bpf_jit_comp.c: nargs > 8, then any STRUCT_ARG,
 *    -ENOTSUPP; 90564f1e3dd6 (v6.5): structs in x0..x7, nregs > 8
 *    refused; 9014cf56f13d (v6.16): the stack, but no struct there;
 *    dc704d0cfa43 (v6.17): structs there too;
 *  - riscv64 and s390x: no trampoline in 6.1; 49b5e77ae3e2 and
 *    528eb2cb87bc (v6.3); riscv64 nregs > 8 refused until 6801b0aef79d
 *    (v6.11);
 *  - v6.1 kernel/bpf/btf.c btf_distill_func_proto(): arg_flags STRUCT_ARG
 *    only, and include/linux/bpf.h struct btf_func_model has no ret_flags;
 *    49f67f393ff2 (v6.3) added ret_flags and SIGNED_ARG.
 */
START_TEST(t_releases)
{
	int L = t_long, S = t_s16;
	const int l6 = FN("r_l6", 0, L, L, L, L, L, L);
	const int l7 = FN("r_l7", 0, L, L, L, L, L, L, L);
	const int l8 = FN("r_l8", 0, L, L, L, L, L, L, L, L);
	const int l9 = FN("r_l9", 0, L, L, L, L, L, L, L, L, L);
	const int s1 = FN("r_s1", 0, S);
	const int s5 = FN("r_s5", 0, S, L, L, L, L);		/* 6 slots, 5 args */
	const int s7 = FN("r_s7", 0, S, L, L, L, L, L, L);	/* 8 slots, 7 args */
	const int s8 = FN("r_s8", 0, S, L, L, L, L, L, L, L);	/* 9 slots, 8 args */
	const int l7s = FN("r_l7s", 0, L, L, L, L, L, L, L, S);	/* the struct spills */
	const int sg = FN("r_signed", t_int, t_int, t_ulonglong, S);
	/* arch, kernel X.Y, FUNC, reason; for an attachable one: arg and its loc */
	const struct {
		const char *arch;
		int major, minor, fn, reason, arg;
		const char *loc;
	} c[] = {
		/* x86_64: 6 slots in 6.1, 12 from 6.6 */
		{ "x86_64", 6, 1, l6, BTF_TRAMP_OK, 5, "r:5" },
		{ "x86_64", 6, 1, l7, BTF_TRAMP_TOO_MANY_SLOTS },
		{ "x86_64", 6, 5, l7, BTF_TRAMP_TOO_MANY_SLOTS },
		{ "x86_64", 6, 1, s5, BTF_TRAMP_OK, 0, "r:0+r:1" },
		{ "x86_64", 6, 5, s7, BTF_TRAMP_TOO_MANY_SLOTS },
		{ "x86_64", 6, 6, l7, BTF_TRAMP_OK, 6, "s:0" },
		/* arm64 6.1: 8 args, no struct; 6.5: 8 registers, structs in them */
		{ "arm64", 6, 1, l8, BTF_TRAMP_OK, 7, "r:7" },
		{ "arm64", 6, 1, l9, BTF_TRAMP_ARCH_TOO_MANY_ARGS },
		{ "arm64", 6, 1, s1, BTF_TRAMP_STRUCT_ARG },
		{ "arm64", 6, 4, s1, BTF_TRAMP_STRUCT_ARG },
		{ "arm64", 6, 5, s1, BTF_TRAMP_OK, 0, "r:0+r:1" },
		{ "arm64", 6, 5, s7, BTF_TRAMP_OK, 6, "r:7" },
		{ "arm64", 6, 5, s8, BTF_TRAMP_TOO_MANY_SLOTS },
		{ "arm64", 6, 12, l9, BTF_TRAMP_TOO_MANY_SLOTS },
		{ "arm64", 6, 12, l7s, BTF_TRAMP_TOO_MANY_SLOTS },
		/* 6.16: the stack, a struct not; 6.17: a struct too */
		{ "arm64", 6, 16, l9, BTF_TRAMP_OK, 8, "s:0" },
		{ "arm64", 6, 16, l7s, BTF_TRAMP_STRUCT_ON_STACK },
		{ "arm64", 6, 17, l7s, BTF_TRAMP_OK, 7, "s:0+s:1" },
		/* riscv64 and s390x: none in 6.1; riscv64 8 registers until 6.11 */
		{ "riscv64", 6, 1, l6, BTF_TRAMP_NO_TRAMPOLINE },
		{ "s390x", 6, 1, l6, BTF_TRAMP_NO_TRAMPOLINE },
		{ "s390x", 6, 3, l9, BTF_TRAMP_OK, 8, "s:3" },
		{ "riscv64", 6, 3, l8, BTF_TRAMP_OK, 7, "r:7" },
		{ "riscv64", 6, 3, l9, BTF_TRAMP_TOO_MANY_SLOTS },
		{ "riscv64", 6, 10, s8, BTF_TRAMP_TOO_MANY_SLOTS },
		{ "riscv64", 6, 11, l9, BTF_TRAMP_OK, 8, "s:0" },
		{ "loongarch64", 6, 1, l6, BTF_TRAMP_NO_TRAMPOLINE },
		{ "powerpc64", 6, 1, l6, BTF_TRAMP_NO_TRAMPOLINE },
	};
	/* int f(int, unsigned long long, struct s16): ret, then arg flags */
	const struct {
		int major, minor;
		uint8_t flags[4];
	} f[] = {
		{ 6, 1, { 0, 0, 0, BTF_FMODEL_STRUCT_ARG } },
		{ 6, 2, { 0, 0, 0, BTF_FMODEL_STRUCT_ARG } },
		{ 6, 3, { BTF_FMODEL_SIGNED_ARG, BTF_FMODEL_SIGNED_ARG, 0, BTF_FMODEL_STRUCT_ARG } },
	};
	struct btfids_fmodel m;
	char loc[BTFIDS_FMODEL_LOC_LEN];
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		int r = reason_on(c[i].arch, BTFIDS_KERNEL(c[i].major, c[i].minor), c[i].fn, &m);

		ck_assert_msg(r == c[i].reason, "case %zu (%s %d.%d): reason %s, expected %s", i,
			      c[i].arch, c[i].major, c[i].minor, btfids_fmodel_reason_str(r) ?: "ok",
			      btfids_fmodel_reason_str(c[i].reason) ?: "ok");
		if (!c[i].loc)
			continue;
		btfids_fmodel_loc_str(&m, c[i].arg, loc, sizeof(loc));
		ck_assert_msg(!strcmp(loc, c[i].loc), "case %zu: arg %d at %s, expected %s", i,
			      c[i].arg, loc, c[i].loc);
	}
	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		ck_assert_int_eq(reason_on("x86_64", BTFIDS_KERNEL(f[i].major, f[i].minor), sg, &m),
				 BTF_TRAMP_OK);
		ck_assert_int_eq(m.ret_flags, f[i].flags[0]);
		ck_assert_int_eq(memcmp(m.arg_flags, f[i].flags + 1, 3), 0);
	}
}
END_TEST

static Suite *models_suite(void)
{
	Suite *s = suite_create("models");
	TCase *tc = tcase_create("fmodel");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, t_distill);
	tcase_add_test(tc, t_seven);
	tcase_add_test(tc, t_twelve);
	tcase_add_test(tc, t_aggregates);
	tcase_add_test(tc, t_spill);
	tcase_add_test(tc, t_slots);
	tcase_add_test(tc, t_kernel_rules);
	tcase_add_test(tc, t_arch);
	tcase_add_test(tc, t_verb);
	tcase_add_test(tc, t_kernel_version);
	tcase_add_test(tc, t_flags_73);
	tcase_add_test(tc, t_arch_versions);
	tcase_add_test(tc, t_releases);
	tcase_add_test(tc, t_json);
	suite_add_tcase(s, tc);
	tc = tcase_create("kernels");
	tcase_set_timeout(tc, 240);
	tcase_add_test(tc, t_kernels);
	tcase_add_test(tc, t_e2e);
	tcase_add_test(tc, t_module);
	tcase_add_test(tc, t_verb_errors);
	suite_add_tcase(s, tc);
	return s;
}

TL_MAIN(models_suite)
