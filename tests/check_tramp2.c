// SPDX-License-Identifier: GPL-2.0
/*
 * check_tramp2.c - the v2 trampoline table (include/btfids/tramp.h, "btf_tramp
 * format"): the bytes btfids_tramp2_build() writes, the consumer API's
 * checks and lookup, and btfids_tramp2_read().
 *
 * Every expected byte is written here from the format (issue 18's v2
 * specification: header fields at 0 magic, 4 version, 6 machine, 8 btf_crc32,
 * 12 nr_funcs, 16 nr_classes, 20 class_size, 22 max_slots, 24 size, 28
 * reserved; a class: ret_size, ret_flags, nr_args, nr_slots, arg_size[12],
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
	ck_assert_int_eq(btfids_tramp2_build(btf, &ru, be, "test", t, &r), 0);
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
		ck_assert_int_eq(rd32(p + 28, be), 0);
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
	ck_assert_msg(strstr(msg, "FAILED img: .BTF_tramp: v2 trampoline table: bad magic\n") &&
		      strstr(msg, "FAILED img: .BTF_tramp: v2 trampoline table: a func_class is not a class index (function 3 of 5)\n"),
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
	suite_add_tcase(s, tc);
	return s;
}

TL_MAIN(tramp2_suite)
