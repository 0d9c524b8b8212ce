# SPDX-License-Identifier: GPL-2.0
# tests.mk - make check: the Check suites (tests/check_*.c, one binary each)
# on fixtures built for every installed target, then the real-kernel
# acceptance run (tests/acceptance.sh; skipped, with a message, when the
# Debian kernels are not fetched).

CHECK_LIBS := $(shell $(PKG_CONFIG) --libs check 2>/dev/null || echo -lcheck)
TEST_SRCS  := $(wildcard tests/check_*.c)
TEST_BINS  := $(TEST_SRCS:tests/%.c=tests/build/%)

tests/build/%: tests/%.c tests/testlib.c tests/testlib.h btfids/libbtfids.a $(HDRS) \
		$(STAMP_CC) $(STAMP_LD) $(LIBBPF_A)
	@mkdir -p tests/build
	$(CC) $(ALL_CFLAGS) -Itests -o $@ $< tests/testlib.c btfids/libbtfids.a $(CHECK_LIBS) $(LIBS)

# kfunc_tags: a host tool adding the decl tags pahole >= 1.27 would (build.sh)
tests/build/kfunc_tags: tests/fixtures/kfunc_tags.c $(STAMP_CC) $(STAMP_LD) $(LIBBPF_A) | btf-uapi-check
	@mkdir -p tests/build
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIBS)

fixtures: tests/build/kfunc_tags
	KFUNC_TAGS=$(CURDIR)/tests/build/kfunc_tags tests/fixtures/build-all.sh tests/build/fixtures

check: btfids/btfids $(TEST_BINS) fixtures
	tests/run $(TEST_BINS)

# check-full: make check with the exhaustive judges whole (every function,
# all four selftest configurations, every stress round: docs/testing.md,
# "Two suites"); before an issue that touches kernel/ or the boots is resolved
check-full: btfids/btfids $(TEST_BINS) fixtures
	BTFIDS_CHECK_FULL=1 tests/run $(TEST_BINS)

tests-clean:
	rm -rf tests/build

.PHONY: fixtures check check-full tests-clean
