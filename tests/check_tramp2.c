// SPDX-License-Identifier: GPL-2.0
/*
 * check_tramp2.c - the v2 trampoline table (include/btfids/tramp.h, "btf_tramp
 * format"): the bytes btfids_tramp2_build() writes, the consumer API's
 * checks and lookup, and btfids_tramp2_read().
 *
 * Every expected byte is written here from the format (issue 18's v2
 * specification: header fields at 0 magic, 4 version, 6 machine, 8 btf_crc32,
 * 12 nr_funcs, 16 nr_classes, 20 class_size, 22 max_slots, 24 size, 28
 * nr_verdicts (version 3), 30 verdict_size; a class: ret_size, ret_flags, nr_args, nr_slots, arg_size[12],
 * arg_flags[12], attachable, reason, distilled, reserved, loc[12][2]) and
 * the models from the kernel's rules (kernel/bpf/btf.c
 * btf_distill_func_proto(); SysV x86-64 registers rdi=0, rsi=1), never
 * from btfids' output.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <elf.h>

#include "testlib.h"
#include "btfids/patch.h"
#include "btfids/tramp2.h"
#include "btfids/tramp_fill.h"

static struct btf *btf;
static uint32_t f_a, f_b, f_u, f_v, f_w;

/*
 * f_a(int, long) -> long and f_b(int, long) -> long (each with its own
 * FUNC_PROTO record), f_u(unsigned int, long) -> long, f_v(int, ...) and
 * f_w(int, ...) -> int; a STRUCT between them is no function.
 */
static void setup(void)
{
	int t_int, t_long, t_uint, p;

	btf = btf__new_empty();
	ck_assert_ptr_nonnull(btf);
	t_int = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	t_long = btf__add_int(btf, "long", 8, BTF_INT_SIGNED);
	t_uint = btf__add_int(btf, "unsigned int", 4, 0);
	btf__add_ptr(btf, t_long);	/* 8-byte pointers */
	for (p = 0; p < 2; p++) {
		int proto = btf__add_func_proto(btf, t_long);

		btf__add_func_param(btf, "a", t_int);
		btf__add_func_param(btf, "b", t_long);
		if (p)
			f_b = btf__add_func(btf, "f_b", BTF_FUNC_STATIC, proto);
		else
			f_a = btf__add_func(btf, "f_a", BTF_FUNC_GLOBAL, proto);
	}
	btf__add_struct(btf, "not_a_func", 4);
	btf__add_field(btf, "x", t_int, 0, 0);
	p = btf__add_func_proto(btf, t_long);
	btf__add_func_param(btf, "a", t_uint);
	btf__add_func_param(btf, "b", t_long);
	f_u = btf__add_func(btf, "f_u", BTF_FUNC_GLOBAL, p);
	p = btf__add_func_proto(btf, t_int);
	btf__add_func_param(btf, "n", t_int);
	btf__add_func_param(btf, "", 0);
	f_v = btf__add_func(btf, "f_v", BTF_FUNC_GLOBAL, p);
	f_w = btf__add_func(btf, "f_w", BTF_FUNC_EXTERN, p);
	ck_assert_int_gt(f_w, 0);
}

static void teardown(void)
{
	btf__free(btf);
}

static void build(bool be, struct btfids_tramp2 *t)
{
	struct btfids_tramp_rules ru = {};
	struct btfids_report r = { .out = stderr };

	ck_assert_int_eq(btfids_arch_from_name("x86_64", &ru.a), 0);
	ck_assert_int_eq(btfids_tramp2_build(btf, &ru, NULL, be, "test", t, &r), 0);
}

static uint32_t rd32(const unsigned char *p, bool be)
{
	return be ? (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3] :
		    (uint32_t)p[3] << 24 | p[2] << 16 | p[1] << 8 | p[0];
}

static uint16_t rd16(const unsigned char *p, bool be)
{
	return be ? p[0] << 8 | p[1] : p[1] << 8 | p[0];
}

/* The bytes of the table, in both byte orders, against the format. */
START_TEST(t_build)
{
	/* class 0: f_a, f_b; 1: f_u; 2: f_v, f_w (variadic: int distilled before it) */
	static const unsigned char want[3][56] = {
		{ 8, 2, 2, 2, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		  1, 0, 1, 0, 0, 0xff, 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
		{ 8, 2, 2, 2, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		  1, 0, 1, 0, 0, 0xff, 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
		{ 4, 2, 0, 1, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		  0, 3, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
	};
	const uint32_t ids[5] = { f_a, f_b, f_u, f_v, f_w };
	const uint16_t cls[5] = { 0, 0, 1, 2, 2 };
	const void *raw;
	uint32_t raw_size;
	int be, i;

	raw = btf__raw_data(btf, &raw_size);
	ck_assert_ptr_nonnull(raw);
	for (be = 0; be < 2; be++) {
		struct btfids_tramp2 t;
		const unsigned char *p;

		build(be, &t);
		p = t.buf;
		ck_assert_int_eq(t.size, 232);	/* 32 + 3 * 56 + 5 * 6 = 230, to 4 */
		ck_assert(!memcmp(p, be ? "PRTB" : "BTRP", 4));
		ck_assert_int_eq(rd16(p + 4, be), 2);
		ck_assert_int_eq(rd16(p + 6, be), EM_X86_64);
		ck_assert_uint_eq(rd32(p + 8, be), crc32(0, raw, raw_size));
		ck_assert_int_eq(rd32(p + 12, be), 5);
		ck_assert_int_eq(rd32(p + 16, be), 3);
		ck_assert_int_eq(rd16(p + 20, be), 56);
		ck_assert_int_eq(rd16(p + 22, be), 2);
		ck_assert_int_eq(rd32(p + 24, be), 232);
		ck_assert_int_eq(rd32(p + 28, be), 0);	/* no verdicts: version 2 */
		for (i = 0; i < 3; i++)
			ck_assert_msg(!memcmp(p + 32 + 56 * i, want[i], 56), "class %d", i);
		for (i = 0; i < 5; i++) {
			ck_assert_int_eq(rd32(p + 200 + 4 * i, be), ids[i]);
			ck_assert_int_eq(rd16(p + 220 + 2 * i, be), cls[i]);
		}
		ck_assert_int_eq(p[230] | p[231], 0);
		btfids_tramp2_free(&t);
	}
}
END_TEST

/* A host-order table written by hand: 2 classes, functions 5, 9, 20. */
static unsigned char tab[164] __attribute__((aligned(4)));

static void hand_table(void)
{
	struct btf_tramp2_hdr *h = (struct btf_tramp2_hdr *)tab;
	struct btf_tramp_class *c = (struct btf_tramp_class *)(tab + 32);
	uint32_t *id = (uint32_t *)(tab + 32 + 2 * 56);
	uint16_t *cl = (uint16_t *)(id + 3);

	memset(tab, 0, sizeof(tab));
	*h = (struct btf_tramp2_hdr){ .magic = 0x50525442, .version = 2, .machine = EM_AARCH64,
		.btf_crc32 = 0xdeadbeef, .nr_funcs = 3, .nr_classes = 2, .class_size = 56,
		.max_slots = 1, .size = sizeof(tab) };
	c[0] = (struct btf_tramp_class){ .ret_size = 8, .nr_args = 1, .nr_slots = 1,
		.arg_size = { 8 }, .attachable = 1, .distilled = 1 };
	c[1] = (struct btf_tramp_class){ .reason = BTF_TRAMP_VARIADIC };
	id[0] = 5, id[1] = 9, id[2] = 20;
	cl[0] = 1, cl[1] = 0, cl[2] = 1;
}

static int check_tab(void)
{
	return btf_tramp2_check(tab, sizeof(tab), EM_AARCH64, 0xdeadbeef, NULL);
}

/* The consumer API's checks, each on its own, and the lookup. */
START_TEST(t_check)
{
	struct btf_tramp2_hdr *h = (struct btf_tramp2_hdr *)tab;
	struct btf_tramp_class *c = (struct btf_tramp_class *)(tab + 32);
	uint32_t *id = (uint32_t *)(tab + 144), where;
	uint16_t *cl = (uint16_t *)(tab + 156);
	static const struct {
		int what, want;
	} cases[] = {
		{ 0, BTF_TRAMP2_BAD_MAGIC }, { 1, BTF_TRAMP2_BAD_VERSION },
		{ 2, BTF_TRAMP2_BAD_MACHINE }, { 3, BTF_TRAMP2_BAD_CLASS_SIZE },
		{ 4, BTF_TRAMP2_BAD_SIZE }, { 5, BTF_TRAMP2_BAD_LAYOUT },
		{ 6, BTF_TRAMP2_BAD_FUNC_ID }, { 7, BTF_TRAMP2_BAD_FUNC_ID },
		{ 8, BTF_TRAMP2_BAD_FUNC_CLASS }, { 9, BTF_TRAMP2_BAD_CLASS },
		{ 10, BTF_TRAMP2_BAD_CLASS }, { 11, BTF_TRAMP2_BAD_CLASS },
		{ 12, BTF_TRAMP2_BAD_CLASS }, { 13, BTF_TRAMP2_BAD_CRC },
	};
	size_t i;

	hand_table();
	ck_assert_int_eq(check_tab(), BTF_TRAMP2_VALID);
	ck_assert_int_eq(btf_tramp2_check(tab, 31, EM_AARCH64, 0xdeadbeef, NULL), BTF_TRAMP2_SHORT);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		hand_table();
		switch (cases[i].what) {
		case 0: h->magic = 0x42545250; break;		/* the other byte order */
		case 1: h->version = 1; break;
		case 2: h->machine = EM_X86_64; break;
		case 3: h->class_size = 60; break;
		case 4: h->size = 160; break;
		case 5: h->nr_funcs = 2; break;			/* 32 + 112 + 12 = 156 != 164 */
		case 6: id[0] = 0; break;
		case 7: id[2] = 9; break;			/* not strictly ascending */
		case 8: cl[1] = 2; break;
		case 9: c[0].nr_args = 13; break;
		case 10: c[0].arg_size[11] = 17; break;
		case 11: c[1].reason = BTF_TRAMP_NR_REASONS; break;
		case 12: c[1].attachable = 1; break;		/* with a reason */
		case 13: h->btf_crc32 = 0xdeadbeee; break;
		}
		ck_assert_msg(check_tab() == cases[i].want, "case %d: %d (%s), want %d", cases[i].what,
			      check_tab(), btf_tramp2_status_str(check_tab()), cases[i].want);
	}
	hand_table();
	cl[2] = 7;
	ck_assert_int_eq(btf_tramp2_check(tab, sizeof(tab), EM_AARCH64, 0xdeadbeef, &where),
			 BTF_TRAMP2_BAD_FUNC_CLASS);
	ck_assert_int_eq(where, 2);
	hand_table();
	ck_assert_int_eq(btf_tramp2_class_index(h, 5), 1);
	ck_assert_int_eq(btf_tramp2_class_index(h, 9), 0);
	ck_assert_int_eq(btf_tramp2_class_index(h, 20), 1);
	ck_assert_int_eq(btf_tramp2_class_index(h, 4), -1);
	ck_assert_int_eq(btf_tramp2_class_index(h, 10), -1);
	ck_assert_int_eq(btf_tramp2_class_index(h, 21), -1);
	ck_assert_ptr_eq(btf_tramp2_find(h, 9), &c[0]);
	ck_assert_ptr_null(btf_tramp2_find(h, 6));
}
END_TEST

/*
 * A version 3 table by hand (host order): hand_table()'s classes and
 * functions, and 2 verdicts after the classes: 0 takes fentry and fexit,
 * refuses fmod_ret (not-modifiable, load, EINVAL) and judges no
 * tracing_multi type; 1 refuses everything as the model (ENOTSUPP at
 * attach, 524). Functions 5, 9, 20 have verdicts 1, 0, 1. 32 + 2 * 56 +
 * 2 * 20 + 3 * 8 = 208 bytes.
 */
static unsigned char tab3[208] __attribute__((aligned(4)));

static void hand_table3(void)
{
	struct btf_tramp2_hdr *h = (struct btf_tramp2_hdr *)tab3;
	struct btf_tramp_verdict *v = (struct btf_tramp_verdict *)(tab3 + 144);
	uint32_t *id = (uint32_t *)(tab3 + 184);
	uint16_t *cl = (uint16_t *)(id + 3), *fv = cl + 3;
	int a;

	hand_table();
	memset(tab3, 0, sizeof(tab3));
	memcpy(tab3, tab, 144);		/* header and classes */
	h->version = 3;
	h->size = sizeof(tab3);
	h->nr_verdicts = 2;
	h->verdict_size = 20;
	v[0].at[2].refusal = BTF_TRAMP_REF_NOT_MODIFIABLE;
	v[0].at[2].step = BTF_TRAMP_STEP_LOAD;
	v[0].at[2].err = EINVAL;
	v[0].at[3].refusal = v[0].at[4].refusal = BTF_TRAMP_NOT_JUDGED;
	for (a = 0; a < BTF_TRAMP_NR_ATTACH; a++) {
		v[1].at[a].refusal = BTF_TRAMP_REF_MODEL;
		v[1].at[a].step = BTF_TRAMP_STEP_ATTACH;
		v[1].at[a].err = 524;
	}
	id[0] = 5, id[1] = 9, id[2] = 20;
	cl[0] = 1, cl[1] = 0, cl[2] = 1;
	fv[0] = 1, fv[1] = 0, fv[2] = 1;
}

static int check_tab3(void)
{
	return btf_tramp2_check(tab3, sizeof(tab3), EM_AARCH64, 0xdeadbeef, NULL);
}

/* Version 3: the verdicts' checks, each on its own, and the lookup. */
START_TEST(t_check3)
{
	struct btf_tramp2_hdr *h = (struct btf_tramp2_hdr *)tab3;
	struct btf_tramp_verdict *v = (struct btf_tramp_verdict *)(tab3 + 144);
	uint16_t *fv = (uint16_t *)(tab3 + 184 + 12 + 6);
	static const struct {
		int what, want;
	} cases[] = {
		{ 0, BTF_TRAMP2_BAD_VERDICT_SIZE }, { 1, BTF_TRAMP2_BAD_VERDICT_SIZE },
		{ 2, BTF_TRAMP2_BAD_LAYOUT }, { 3, BTF_TRAMP2_BAD_FUNC_VERDICT },
		{ 4, BTF_TRAMP2_BAD_VERDICT }, { 5, BTF_TRAMP2_BAD_VERDICT },
		{ 6, BTF_TRAMP2_BAD_VERDICT }, { 7, BTF_TRAMP2_BAD_VERDICT },
		{ 8, BTF_TRAMP2_BAD_VERDICT }, { 9, BTF_TRAMP2_BAD_VERSION },
	};
	struct btf_tramp2_hdr *h2 = (struct btf_tramp2_hdr *)tab;
	size_t i;

	hand_table3();
	ck_assert_int_eq(check_tab3(), BTF_TRAMP2_VALID);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		hand_table3();
		switch (cases[i].what) {
		case 0: h->verdict_size = 24; break;
		case 1: h->version = 2; break;			/* verdicts in a v2 table */
		case 2: h->nr_verdicts = 1; break;		/* 188 bytes, not 208 */
		case 3: fv[2] = 2; break;
		case 4: v[0].at[0].refusal = BTF_TRAMP_NR_REFUSALS; break;
		case 5: v[0].at[0].err = EBUSY; break;		/* taken, with an errno */
		case 6: v[1].at[1].step = 0; break;		/* refused at no step */
		case 7: v[1].at[1].step = BTF_TRAMP_NR_STEPS; break;
		case 8: v[0].at[3].err = ENOENT; break;		/* not judged, with an errno */
		case 9: h->version = 4; break;
		}
		ck_assert_msg(check_tab3() == cases[i].want, "case %d: %d (%s), want %d",
			      cases[i].what, check_tab3(), btf_tramp2_status_str(check_tab3()),
			      cases[i].want);
	}
	/* a v2 table with a verdict count */
	hand_table();
	h2->nr_verdicts = 1;
	ck_assert_int_eq(check_tab(), BTF_TRAMP2_BAD_VERDICT_SIZE);
	hand_table();
	ck_assert_ptr_null(btf_tramp2_find_verdict(h2, 9));	/* v2: none */
	hand_table3();
	ck_assert_ptr_eq(btf_tramp2_find_verdict(h, 5), &v[1]);
	ck_assert_ptr_eq(btf_tramp2_find_verdict(h, 9), &v[0]);
	ck_assert_ptr_eq(btf_tramp2_find_verdict(h, 20), &v[1]);
	ck_assert_ptr_null(btf_tramp2_find_verdict(h, 10));
	ck_assert_int_eq(btf_tramp2_class_index(h, 9), 0);	/* classes past the verdicts */
	ck_assert_ptr_eq(btf_tramp2_find(h, 20), (struct btf_tramp_class *)(tab3 + 32) + 1);
}
END_TEST

/* A version 3 table in the other byte order reads back: errnos, indexes swapped. */
START_TEST(t_read3)
{
	struct btfids_report r = { .out = stderr };
	unsigned char be[sizeof(tab3)];
	const struct btf_tramp2_hdr *h;
	const struct btf_tramp_verdict *v;
	struct btfids_tramp2 back;
	size_t i;

	hand_table3();
	memcpy(be, tab3, sizeof(be));
	/* to big endian by hand: header fields, verdict errnos, the arrays */
	for (i = 0; i < 32; i += 4)
		if (i != 4 && i != 20 && i != 28) {
			uint32_t x;

			memcpy(&x, tab3 + i, 4);
			x = __builtin_bswap32(x);
			memcpy(be + i, &x, 4);
		}
	for (i = 4; i < 32; i += 2)
		if (i == 4 || i == 6 || i == 20 || i == 22 || i == 28 || i == 30) {
			uint16_t x;

			memcpy(&x, tab3 + i, 2);
			x = __builtin_bswap16(x);
			memcpy(be + i, &x, 2);
		}
	for (i = 144 + 2; i < 184; i += 4) {
		uint16_t x;

		memcpy(&x, tab3 + i, 2);
		x = __builtin_bswap16(x);
		memcpy(be + i, &x, 2);
	}
	for (i = 184; i < 196; i += 4) {
		uint32_t x;

		memcpy(&x, tab3 + i, 4);
		x = __builtin_bswap32(x);
		memcpy(be + i, &x, 4);
	}
	for (i = 196; i < 208; i += 2) {
		uint16_t x;

		memcpy(&x, tab3 + i, 2);
		x = __builtin_bswap16(x);
		memcpy(be + i, &x, 2);
	}
	ck_assert_int_eq(btfids_tramp2_read(be, sizeof(be), true, EM_AARCH64, 0xdeadbeef, "img",
					    "raw file", &back, &r), 0);
	ck_assert_int_eq(back.version, 3);
	ck_assert_int_eq(back.nr_verdicts, 2);
	h = (const struct btf_tramp2_hdr *)back.buf;
	v = btf_tramp2_find_verdict(h, 9);
	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(v->at[2].refusal, BTF_TRAMP_REF_NOT_MODIFIABLE);
	ck_assert_int_eq(v->at[2].err, EINVAL);
	ck_assert_int_eq(btf_tramp2_find_verdict(h, 20)->at[4].err, 524);
	ck_assert(!memcmp(back.buf, tab3, sizeof(tab3)));
	btfids_tramp2_free(&back);
}
END_TEST

/* Read back a big-endian table; a bad one is named with what failed. */
START_TEST(t_read)
{
	struct btfids_tramp2 t, back;
	const struct btf_tramp2_hdr *h;
	char *msg = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&msg, &len);
	struct btfids_report r = { .out = f };
	const void *raw;
	uint32_t raw_size, crc;

	raw = btf__raw_data(btf, &raw_size);
	crc = crc32(0, raw, raw_size);
	build(true, &t);
	ck_assert_int_eq(btfids_tramp2_read(t.buf, t.size, true, EM_X86_64, crc, "img", ".BTF_tramp",
					    &back, &r), 0);
	h = (const struct btf_tramp2_hdr *)back.buf;
	ck_assert_int_eq(h->nr_funcs, 5);
	ck_assert_int_eq(btf_tramp2_func_ids(h)[3], f_v);
	ck_assert_int_eq(btf_tramp2_class_index(h, f_w), 2);
	ck_assert_int_eq(btf_tramp2_find(h, f_u)->arg_flags[0], 0);
	btfids_tramp2_free(&back);
	/* the right bytes in the wrong order: not the magic */
	ck_assert_int_eq(btfids_tramp2_read(t.buf, t.size, false, EM_X86_64, crc, "img",
					    ".BTF_tramp", &back, &r), -EINVAL);
	ck_assert_ptr_null(back.buf);
	t.buf[t.size - 6] = 0xff;	/* the class of f_v (BE u16 at 226): 2 -> 0xff02 */
	ck_assert_int_eq(btfids_tramp2_read(t.buf, t.size, true, EM_X86_64, crc, "img", ".BTF_tramp",
					    &back, &r), -EINVAL);
	fclose(f);
	ck_assert_msg(strstr(msg, "FAILED img: .BTF_tramp: trampoline table: bad magic\n") &&
		      strstr(msg, "FAILED img: .BTF_tramp: trampoline table: a func_class is not a class index (function 3 of 5)\n"),
		      "%s", msg);
	free(msg);
	btfids_tramp2_free(&t);
}
END_TEST

static Suite *tramp2_suite(void)
{
	Suite *s = suite_create("tramp2");
	TCase *tc = tcase_create("v2");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, t_build);
	tcase_add_test(tc, t_check);
	tcase_add_test(tc, t_read);
	tcase_add_test(tc, t_check3);
	tcase_add_test(tc, t_read3);
	suite_add_tcase(s, tc);
	return s;
}

TL_MAIN(tramp2_suite)
