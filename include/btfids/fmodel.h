/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fmodel.h - function models for BPF trampolines, computed from BTF.
 *
 * Two steps, as the kernel does them:
 *  1. btfids_fmodel_distill(): a FUNC's FUNC_PROTO -> struct btf_func_model
 *     fields (kernel/bpf/btf.c btf_distill_func_proto(), __get_type_size(),
 *     __get_type_fmodel_flags(); v6.18 rules, see
 *     docs btf-ids-contract.md "Function models").
 *  2. btfids_fmodel_place(): the arch's arch_prepare_bpf_trampoline()
 *     checks and argument placement (arch/<arch>/net/bpf_jit_comp*.c).
 * The arch and pointer size come from the ELF (e_machine and class), or
 * from --arch for raw BTF; never from the host.
 */
#ifndef _BTFIDS_FMODEL_H
#define _BTFIDS_FMODEL_H

#include <stdbool.h>
#include <stdint.h>
#include <bpf/btf.h>

#include "btfids/elf.h"
#include "btfids/syms.h"
#include "btfids/tramp.h"

enum btfids_arch {
	BTFIDS_ARCH_NONE,	/* no BPF trampoline (32-bit and unknown machines) */
	BTFIDS_ARCH_X86_64,
	BTFIDS_ARCH_ARM64,
	BTFIDS_ARCH_S390X,
	BTFIDS_ARCH_RISCV64,
	BTFIDS_ARCH_LOONGARCH64,
	BTFIDS_ARCH_POWERPC64,	/* ELFv1 (BE) and ELFv2 (LE) place args alike */
};

struct btfids_target_arch {
	enum btfids_arch arch;
	uint16_t machine;	/* e_machine */
	uint8_t ptr_size;	/* 4 or 8 */
	const char *name;
	unsigned int kernel;	/* BTFIDS_KERNEL(x, y) whose distill rules apply; 0: the newest */
};

/* A kernel version for struct btfids_target_arch.kernel. */
#define BTFIDS_KERNEL(major, minor)	((major) << 8 | (minor))

/*
 * "6.12" (or "6.12.57", "7.3-rc7": the rest is ignored) -> BTFIDS_KERNEL(6, 12).
 * Returns 0 or -EINVAL.
 */
int btfids_kernel_from_str(const char *s, unsigned int *kernel);

/* From an ELF header's e_machine and EI_CLASS. */
void btfids_arch_from_elf(uint16_t machine, unsigned char elf_class,
			  struct btfids_target_arch *a);
/*
 * From a name: x86_64, arm64 (aarch64), s390x, riscv64, loongarch64,
 * powerpc64, powerpc64le, and the trampoline-less i386, arm, mips,
 * powerpc, riscv32. Returns 0 or -EINVAL.
 */
int btfids_arch_from_name(const char *name, struct btfids_target_arch *a);

/* The model of one function: struct btf_tramp_class in host order, and more. */
struct btfids_fmodel {
	uint8_t ret_size;
	uint8_t ret_flags;
	uint8_t nr_args;
	uint8_t nr_slots;
	uint8_t arg_size[BTF_TRAMP_MAX_ARGS];
	uint8_t arg_flags[BTF_TRAMP_MAX_ARGS];
	uint8_t reason;		/* enum btf_tramp_reason; BTF_TRAMP_OK: attachable */
	bool distilled;		/* model fields valid (step 1 succeeded) */
	uint16_t struct_args;	/* bit i: arg i is a struct/union by value (any version) */
	uint8_t loc[BTF_TRAMP_MAX_ARGS][2];	/* BTF_TRAMP_LOC_*, when attachable */
};

/*
 * Step 1 for BTF FUNC (or FUNC_PROTO) @id of @btf, with pointers of
 * @ptr_size bytes, by the rules of @kernel (0: no release known, the v6.18
 * rules, whose flags the table format carries; before 6.3 no SIGNED_ARG
 * and ret_flags 0, 49f67f393ff2; before 6.18 a union argument
 * is refused as arg-unsupported; from 7.3 arg_flags has no STRUCT_ARG but
 * ARENA_ARG/NULLABLE_ARG from the param's name, v7.3 kernel/bpf/btf.c
 * __get_arg_fmodel_flags()). Sets m->reason to a distill reason or
 * BTF_TRAMP_OK. Returns 0, or -EINVAL if @id is not a FUNC/FUNC_PROTO.
 */
int btfids_fmodel_distill(const struct btf *btf, uint32_t id, unsigned int ptr_size,
			  unsigned int kernel, struct btfids_fmodel *m);
/*
 * Step 2: arch refusals and locations for @a (its arch, and its kernel,
 * down to 6.1: x86_64 takes at most 6 slots before v6.6; arm64 at most 8
 * args and no struct before v6.5, 8 registers before v6.16, no struct on
 * the stack in v6.16; s390x and riscv64 have a trampoline from v6.3,
 * riscv64 8 registers before v6.11; v6.12 and older have no
 * loongarch64/powerpc64 one; loongarch64 takes 12 args and structs from
 * v7.2; fmodel.c cites each commit). Only acts on a distilled model.
 */
void btfids_fmodel_place(const struct btfids_target_arch *a, struct btfids_fmodel *m);

/* Both steps. */
int btfids_fmodel_compute(const struct btf *btf, uint32_t id,
			  const struct btfids_target_arch *a, struct btfids_fmodel *m);

/*
 * Whether @reason (enum btf_tramp_reason) is step 1's: a refusal of
 * btf_distill_func_proto() (kernel/bpf/btf.c), which the verifier meets
 * when the program loads; the others are step 2's, the arch trampoline's
 * (arch_prepare_bpf_trampoline()), met at attach.
 */
bool btfids_fmodel_reason_is_distill(unsigned int reason);

/* "too-many-args", ... as in `btfids models`; NULL for BTF_TRAMP_OK. */
const char *btfids_fmodel_reason_str(unsigned int reason);

/* Room for any location string, NUL included. */
#define BTFIDS_FMODEL_LOC_LEN	16

/*
 * Write "r:0", "r:1+s:0", "ref:r:3" for argument @i into @buf; "" when the
 * argument has no location or @len < BTFIDS_FMODEL_LOC_LEN.
 */
void btfids_fmodel_loc_str(const struct btfids_fmodel *m, unsigned int i, char *buf,
			   size_t len);

/*
 * The rules a table's models follow, and `models --all`'s: the target
 * and the release (a.kernel; 0: the newest rules) and, from 7.3, the
 * KF_IMPLICIT_ARGS kfuncs, modelled on <name>_impl (v7.3
 * kernel/bpf/verifier.c btf_attach_func_proto(): a tracing program
 * attached to such a kfunc gets the proto with the implicit args).
 */
struct btfids_tramp_rules {
	struct btfids_target_arch a;
	uint32_t *implicit;		/* sorted BTF IDs; NULL: none */
	size_t nr_implicit;
};
/*
 * For ELF @e built from release @kernel: its arch, and the kfuncs from @s
 * and the resolved .BTF_ids bytes @ids (either NULL: none). 0 or -ENOMEM.
 */
int btfids_tramp_rules_init(struct btfids_tramp_rules *ru, const struct btfids_elf *e,
			    const struct btfids_syms *s, const unsigned char *ids,
			    unsigned int kernel);
/*
 * The same from @e alone, its .BTF_ids as stored (a resolved ELF: `models
 * --all`): its symbols collected only when the release can have implicit
 * args. 0, or a negative errno after an error line (through @r).
 */
int btfids_tramp_rules_of_elf(struct btfids_tramp_rules *ru, const struct btfids_elf *e,
			      unsigned int kernel, struct btfids_report *r);
void btfids_tramp_rules_free(struct btfids_tramp_rules *ru);
/*
 * The model of BTF FUNC @id of @btf by @ru, as every table and `models
 * --all` store it: @id 0 is "unresolved" (v1), a FUNC without a FUNC_PROTO
 * "arg-unsupported".
 */
void btfids_tramp_model(const struct btfids_tramp_rules *ru, const struct btf *btf,
			uint32_t id, struct btfids_fmodel *m);
/*
 * btfids_implicit_kfuncs(): the KF_IMPLICIT_ARGS kfuncs, the pairs with
 * that flag of the BTF_SET8_KFUNCS sets of @s in the resolved .BTF_ids
 * bytes @ids (byte order @be): *out, sorted, *n of them (NULL when none);
 * 0 or -ENOMEM. btfids_attach_func(): the FUNC whose proto an attach to
 * @id reads: <name>_impl's for those.
 */
int btfids_implicit_kfuncs(const struct btfids_syms *s, const unsigned char *ids, bool be,
			   uint32_t **out, size_t *n);
uint32_t btfids_attach_func(const struct btf *btf, uint32_t id, const uint32_t *implicit,
			    size_t n);

#endif /* _BTFIDS_FMODEL_H */
