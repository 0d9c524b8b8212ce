/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verdict.h - per-function attach verdicts: will the kernel the ELF is take
 * a fentry, fexit or fmod_ret program on this function, and if not, at
 * which step and with which errno.
 *
 * A verdict follows the kernel's own order of checks for one program on
 * one vmlinux function (x86_64, arm64 and s390x; other machines get no verdict yet),
 * or one x86_64 module function (from the module's own facts:
 * btfids_attach_info_read_module() below):
 *
 *  load (BPF_PROG_LOAD, kernel/bpf/verifier.c bpf_check_attach_target(),
 *  then check_attach_btf_id()):
 *   1. the func model (btf_distill_func_proto()): its reason, EINVAL;
 *   2. fexit/fmod_ret, a return wider than 8 bytes: EOPNOTSUPP (in
 *      Debian's 6.12.y and 7.3; taken as from 6.12 on);
 *   3. kallsyms_lookup_name() of the name finds nothing: ENOENT; in the
 *      patched kernel (the image places .BTF_tramp: kernel/7.3, which
 *      carries the fix), kallsyms holds the name at two or more distinct
 *      addresses of kernel text (is_kernel_text(), is_kernel_inittext();
 *      two names of one address are one): EADDRNOTAVAIL, "ambiguous-name"
 *      (mainline takes the lowest address, whichever function the BTF id
 *      describes);
 *   4. fmod_ret only: the function is neither on the error-injection list
 *      (lib/error-inject.c: the kallsyms function around each entry of
 *      _error_injection_whitelist; without CONFIG_FUNCTION_ERROR_INJECTION,
 *      7.x takes the syscall wrappers, __x64_*, instead) nor named
 *      security_*, nor in a kfunc set registered for fmod_ret
 *      (register_btf_fmodret_id_set()): EINVAL;
 *   5. the .BTF_ids set btf_id_deny: EINVAL;
 *   6. fexit/fmod_ret: the set noreturn_deny (6.15 on): EINVAL;
 *  attach (BPF_RAW_TRACEPOINT_OPEN / BPF_LINK_CREATE, kernel/bpf/
 *  trampoline.c bpf_trampoline_update()):
 *   7. the arch's trampoline refuses the model (arch_prepare_bpf_trampoline()):
 *      the model's reason, ENOTSUPP (524, the kernel-internal errno);
 *   8. register_fentry(): with no ftrace site in the function
 *      (ftrace_location(): a __mcount_loc entry within the kallsyms
 *      function at the name's address, none left in [__init_begin,
 *      __init_end) once init memory is freed: ftrace_free_init_mem()),
 *      bpf_arch_text_poke() pokes the entry itself (arch/x86/net/
 *      bpf_jit_comp.c): EINVAL outside [_stext, _etext) (is_kernel_text():
 *      init and exit text, freed after boot), else EBUSY (not a 5-byte
 *      nop). Unless the poked instruction is one the kernel's alternatives
 *      patch at boot (.altinstructions, 5 bytes or more: a static_cpu_has()
 *      jump): a CPU with the feature gets a 5-byte nop there, which the
 *      poke takes ("cpu-alternative": EBUSY, or taken on such a CPU; the
 *      only verdict the build cannot settle).
 *      arm64 (arch/arm64/net/bpf_jit_comp.c): bpf_arch_text_poke() pokes
 *      BPF text only, so a function with no ftrace record (none, or freed
 *      with init memory) is ENOTSUPP, "no-ftrace-site"; a function with
 *      one, in a kernel without ftrace direct calls (tr->fops NULL:
 *      HAVE_DYNAMIC_FTRACE_WITH_DIRECT_CALLS came to arm64 in 6.4, with
 *      DYNAMIC_FTRACE_WITH_CALL_OPS only, 6.12 still; 7.3 has it with
 *      DYNAMIC_FTRACE_WITH_ARGS alone), is ENOTSUPP too, "no-direct-call". The record is ftrace_call_adjust() of its
 *      __mcount_loc entry, by release and by the layout the image shows
 *      (verdict.c, arm64_layout()); a relocatable image's entries are
 *      its .rela.dyn RELATIVE addends. No alternatives to poke;
 *      the syscall wrappers of step 4 are __arm64_*. s390x
 *      (arch/s390/net/bpf_jit_comp.c): the poke wants the mcount nop
 *      ("brcl 0,0") at the entry, EINVAL without it (no record, or init
 *      text freed); records sit at the function (ftrace_call_adjust() is
 *      the identity); wrappers __s390x_*. Neither has
 *      HAVE_SINGLE_FTRACE_DIRECT_OPS (x86_64 only), so no tracing_multi:
 *      their multi verdicts are not given.
 *
 * A tracing_multi link (fentry.multi, fexit.multi; 7.2 on) checks each of
 * its functions when it is created (bpf_check_attach_btf_id_multi(), 7.3),
 * all at BPF_LINK_CREATE ("link"), in this order: fexit.multi and
 * noreturn_deny, EINVAL; btf_id_deny, EINVAL; the model
 * (btf_distill_func_proto()), EINVAL; a return over 8 bytes for
 * fexit.multi, EOPNOTSUPP; no kallsyms address or no ftrace site there
 * (init text included), ENOENT, or (the patched kernel) a name at two or
 * more text addresses, EADDRNOTAVAIL; then the arch trampoline's refusal of the
 * model, ENOTSUPP. (The patched kernel with its trampoline table on gives
 * the arch's refusal, ENOTSUPP, with the model's, before the return and
 * address checks: it differs only for a function refused both ways, of
 * which x86_64 has none.) A link fails when any of its functions does,
 * and (the patched kernel: kernel/7.3-fixes 3/11) when two of its ids
 * name one call site, EINVAL: two names of one function (gcc folds
 * __do_sys_munlockall into __x64_sys_munlockall) or one name twice in
 * BTF. So of the ids at one kallsyms address that a link would take, the
 * lowest keeps its verdict and every other is refused, "same-call-site"
 * at the link, EINVAL (btfids_verdicts_one_site()): each is taken alone,
 * but a link of the lowest and it is not, and a link over every function
 * a type takes attaches at the first try. Mainline attaches such a link
 * and cannot detach it: its verdicts keep them taken.
 *
 * Names come from kallsyms as the kernel builds it: every symbol of the
 * ELF's symbol table in an executable section; a name held more than once
 * resolves to its lowest address (kallsyms_lookup_name(); the patched
 * kernel refuses it, step 3), and a symbol's
 * size runs to the next higher symbol address (kallsyms_lookup_size_offset()).
 */
#ifndef _BTFIDS_VERDICT_H
#define _BTFIDS_VERDICT_H

#include <stdbool.h>
#include <stdint.h>

#include "btfids/elf.h"
#include "btfids/fmodel.h"
#include "btfids/report.h"

/* The attach types a verdict is given for (enum bpf_attach_type's tracing ones) */
enum btfids_attach {
	BTFIDS_FENTRY,
	BTFIDS_FEXIT,
	BTFIDS_FMOD_RET,
	BTFIDS_FENTRY_MULTI,	/* tracing_multi, 7.2 on: one link, many functions */
	BTFIDS_FEXIT_MULTI,
	BTFIDS_NR_ATTACH,
};

/* Why an attach type is refused; names in btfids_verdict_str() */
enum btfids_refusal {
	BTFIDS_TAKEN,			/* "taken" */
	BTFIDS_REF_MODEL,		/* the model's reason (fmodel.h) */
	BTFIDS_REF_RET_OVER_8,		/* "ret-over-8" */
	BTFIDS_REF_NO_ADDRESS,		/* "no-address" */
	BTFIDS_REF_NOT_MODIFIABLE,	/* "not-modifiable" */
	BTFIDS_REF_DENY,		/* "deny" */
	BTFIDS_REF_NORETURN,		/* "noreturn" */
	BTFIDS_REF_INIT_TEXT,		/* "init-text": not kernel text after boot */
	BTFIDS_REF_NO_SITE,		/* "no-ftrace-site" */
	BTFIDS_REF_CPU_ALT,		/* "cpu-alternative": EBUSY, or taken (below) */
	BTFIDS_REF_AMBIGUOUS,		/* "ambiguous-name": EADDRNOTAVAIL, the patched kernel */
	BTFIDS_REF_SAME_SITE,		/* "same-call-site": tracing_multi, EINVAL (below) */
	BTFIDS_NR_TABLE_REFUSALS,	/* those above are the table's (tramp.h) */
	/*
	 * "no-direct-call": the site is there, but the kernel has no ftrace
	 * direct calls (arm64 before 6.4, or 6.4 to 6.12 without CALL_OPS),
	 * ENOTSUPP. Not one of the table's codes (tramp.h): a table written
	 * for such a kernel (--tramp_table) stores BTF_TRAMP_NOT_JUDGED.
	 */
	BTFIDS_REF_NO_DIRECT = BTFIDS_NR_TABLE_REFUSALS,
	BTFIDS_NR_REFUSALS,
};

/* The step that refuses: BPF_PROG_LOAD or the attach */
enum btfids_step {
	BTFIDS_STEP_NONE,
	BTFIDS_STEP_LOAD,
	BTFIDS_STEP_ATTACH,
	BTFIDS_STEP_LINK,	/* BPF_LINK_CREATE of a tracing_multi link */
};

struct btfids_verdict {
	bool given;		/* the release has this attach type */
	enum btfids_refusal refusal;
	enum btfids_step step;
	int err;		/* the refusal's errno, positive; 0 when taken */
	int model_reason;	/* enum btf_tramp_reason, for BTFIDS_REF_MODEL */
};

/* What the verdicts need of one vmlinux, read once (verdict.c) */
struct btfids_attach_info;

/*
 * Read @e's symbol table, ftrace sites (__start_mcount_loc ..
 * __stop_mcount_loc), error-injection list, init text bounds and the
 * resolved .BTF_ids sets the rules name (from @ids, the section's bytes
 * as resolved in memory, when not NULL: the 7.x flow), for the rules of
 * @kernel (BTFIDS_KERNEL(); 0: the newest). Returns 0 with *@out set, 1 with
 * *@out NULL when @e gets no verdicts (not an x86_64, arm64 or s390x vmlinux, or no
 * symbol table or __mcount_loc: said on @r as a warning), or a negative
 * errno after a "FAILED <file>: ..." line.
 */
int btfids_attach_info_read(const struct btfids_elf *e, const unsigned char *ids,
			    unsigned int kernel, struct btfids_attach_info **out,
			    struct btfids_report *r);
void btfids_attach_info_free(struct btfids_attach_info *ai);

/*
 * The same for module @e (an x86_64 .ko as kbuild links it,
 * ET_REL) on vmlinux @base (its ELF, or NULL: then taken as a kernel with
 * CONFIG_FUNCTION_ERROR_INJECTION and without the patched kernel's link
 * checks): the module's core symbols in symbol table order (the first of
 * a name is the kernel's address), its __mcount_loc and
 * _error_injection_whitelist relocated, init text freed (verdict.c says
 * from where in kernel/module/). Returns as btfids_attach_info_read().
 */
int btfids_attach_info_read_module(const struct btfids_elf *e, const struct btfids_elf *base,
				   unsigned int kernel, struct btfids_attach_info **out,
				   struct btfids_report *r);

/*
 * The verdicts of FUNC @id named @name with the model @m (its reason
 * BTF_TRAMP_OK or why not), one per enum btfids_attach, into @v; those of
 * attach types the release has not are not given.
 */
void btfids_verdicts(const struct btfids_attach_info *ai, const char *name, uint32_t id,
		     const struct btfids_fmodel *m, struct btfids_verdict v[BTFIDS_NR_ATTACH]);

/*
 * The tracing_multi verdicts of @n functions (@ids, @names; @v[i] from
 * btfids_verdicts()) made exact for one link over all those a type takes:
 * of the ids at one kallsyms address that a type takes, all but the lowest
 * are refused "same-call-site" at the link, EINVAL (the header comment;
 * the patched kernel only). Every FUNC of the vmlinux must be given for a
 * verdict that holds in any link. Returns the refusals made, or -ENOMEM.
 */
long btfids_verdicts_one_site(const struct btfids_attach_info *ai, const uint32_t *ids,
			      const char *const *names, size_t n,
			      struct btfids_verdict (*v)[BTFIDS_NR_ATTACH]);

/*
 * One function's verdicts @v as a table record (include/btfids/tramp.h,
 * struct btf_tramp_verdict, host byte order): refusal, step and errno per
 * attach type; BTF_TRAMP_NOT_JUDGED for the types the release has not.
 * btfids_verdict_get() turns one back, @model_reason the function's class
 * reason (for BTF_TRAMP_REF_MODEL).
 */
struct btf_tramp_verdict;
void btfids_verdict_put(const struct btfids_verdict v[BTFIDS_NR_ATTACH],
			struct btf_tramp_verdict *out);
void btfids_verdict_get(const struct btf_tramp_verdict *in, int model_reason,
			struct btfids_verdict v[BTFIDS_NR_ATTACH]);

/* "fentry", "fexit", "fmod_ret", "fentry.multi", "fexit.multi" */
const char *btfids_attach_str(enum btfids_attach a);
/* "taken", "no-address", ...; for BTFIDS_REF_MODEL the model's reason */
const char *btfids_verdict_str(const struct btfids_verdict *v);
/* "EINVAL", "ENOENT", "EBUSY", "EOPNOTSUPP", "ENOTSUPP", "EADDRNOTAVAIL"; "" when taken */
const char *btfids_errno_str(int err);
/* "load", "attach", "link"; "" when taken */
const char *btfids_step_str(enum btfids_step s);

#endif /* _BTFIDS_VERDICT_H */
