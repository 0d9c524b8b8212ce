# SPDX-License-Identifier: GPL-2.0
# selftest.mk - read after a kernel tree's tools/testing/selftests/bpf/Makefile
# by tests/selftest.sh:
#   make -C TREE/tools/testing/selftests/bpf -f Makefile -f selftest.mk \
#        OUTPUT=DIR TARGET...
# so that the resolve_btfids selftest's objects are built by that tree's own
# rules and flags, into OUTPUT only (the tree is only read).

# progs/btf_data.c, as test_progs' BPF objects are built:
# $(TRUNNER_BPF_BUILD_RULE) = CLANG_BPF_BUILD_RULE with
# TRUNNER_BPF_CFLAGS = $(BPF_CFLAGS) $(CLANG_CFLAGS) -DENABLE_ATOMICS_TESTS
btfids-bpf-obj:
	$(call CLANG_BPF_BUILD_RULE,$(CURDIR)/progs/btf_data.c,$(OUTPUT)/btf_data.bpf.o,$(BPF_CFLAGS) $(CLANG_CFLAGS) -DENABLE_ATOMICS_TESTS,test_progs)

# prog_tests/resolve_btfids.c, as $(TRUNNER_TEST_OBJS) are: from inside
# OUTPUT, -I. first (where the stand-in test_progs.h is), $(CFLAGS)
btfids-test-obj:
	cd $(OUTPUT) && $(CC) -I. $(CFLAGS) -c $(CURDIR)/prog_tests/resolve_btfids.c $(LDLIBS) -o resolve_btfids.test.o

# one variable of the tree's Makefile into OUTPUT/NAME.var, e.g. btfids-var-LDLIBS
btfids-var-%:
	@echo '$($*)' > $(OUTPUT)/$*.var

.PHONY: btfids-bpf-obj btfids-test-obj
