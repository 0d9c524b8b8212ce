# SPDX-License-Identifier: GPL-2.0
# btfids - build, test and install.
#   make                 build btfids/btfids (LINK=shared: against shared libbpf/libelf/zlib)
#   make check           unit tests (Check) + real-kernel acceptance when cached
#   make install PREFIX=/usr/local DESTDIR=
#                        bin/btfids, the consumer headers, the linker scripts,
#                        btfids.pc, the man pages (scdoc), the bash completion

CC	?= gcc
.DEFAULT_GOAL := all
PKG_CONFIG ?= pkg-config
PREFIX	?= /usr/local
BINDIR	?= $(PREFIX)/bin
INCDIR	?= $(PREFIX)/include
DATADIR	?= $(PREFIX)/share
MANDIR	?= $(DATADIR)/man
PCDIR	?= $(DATADIR)/pkgconfig
COMPLETIONDIR ?= $(DATADIR)/bash-completion/completions
SCDOC	?= scdoc

# CFLAGS is the user's (environment or command line: make CFLAGS=-O1),
# left as given, so that a make run from a recipe (tests/install.sh) sees
# the same; ALL_CFLAGS adds what btfids needs, and the recipes use it.
CFLAGS	?= -O2 -g
ALL_CFLAGS := $(CFLAGS) -Wall -Wextra -Werror -std=gnu11 -D_GNU_SOURCE -Iinclude -Ibtfids

# libbpf: the kernel's own (tools/lib/bpf of a 7.x tree: libbpf 1.8, with
# btf__permute, btf__distill_base, decl attrs and BTF layout), built here as
# a static library the way kbuild builds it for resolve_btfids, so that the
# 7.x flow writes the same .BTF bytes as the kernel's tool. .ci/libbpf-src
# puts the source in LIBBPF_SRC (from a local kernel tree or Debian's
# linux-source-7.x package). Every binary, tests included, links this one.
# A LIBBPF_SRC needs what make -C tools/lib/bpf reads besides it (the
# PARTS of .ci/libbpf-src): checked first, each missing one named.
#
# LIBBPF_SRC is made absolute here, once: a leading ~ (which dash, the
# /bin/sh of Debian, leaves as it is in make LIBBPF_SRC=~/linux-7.3) is
# expanded as the shell would, a relative path is taken from the directory
# of this Makefile; what make cannot use (~user, a space, nothing) is
# refused in one line. A -I~/... would have made the compiler quietly use
# /usr/include/linux/btf.h instead.
#
# Not given (environment or command line), LIBBPF_SRC is the one the last
# libbpf.a was built from (build/.libbpf-src, written when it was), while
# that folder is there: make install after make LIBBPF_SRC=... rebuilds
# nothing. Else the caller's cache, where .ci/libbpf-src puts it.
LIBBPF_LAST := build/.libbpf-src
ifeq ($(origin LIBBPF_SRC),undefined)
libbpf_last := $(strip $(file <$(LIBBPF_LAST)))
ifneq ($(and $(libbpf_last),$(wildcard $(libbpf_last)/tools/lib/bpf/libbpf.map)),)
LIBBPF_SRC := $(libbpf_last)
endif
endif
LIBBPF_SRC ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/btfids/libbpf-src
ifneq ($(filter ~ ~/%,$(LIBBPF_SRC)),)
override LIBBPF_SRC := $(HOME)$(patsubst ~%,%,$(LIBBPF_SRC))
endif
ifneq ($(filter ~%,$(LIBBPF_SRC)),)
$(error LIBBPF_SRC=$(LIBBPF_SRC): make does not expand ~user: give the path in full)
endif
ifneq ($(words $(LIBBPF_SRC)),1)
$(error LIBBPF_SRC='$(LIBBPF_SRC)': $(if $(LIBBPF_SRC),make cannot use a path with a space,empty): give the folder of a 7.x kernel tree or of .ci/libbpf-src)
endif
override LIBBPF_SRC := $(abspath $(LIBBPF_SRC))
LIBBPF_OUT := $(CURDIR)/build/libbpf
LIBBPF_A   := $(LIBBPF_OUT)/libbpf.a
LIBBPF_INC := $(LIBBPF_OUT)/include
LIBBPF_FROM := $(shell cat $(LIBBPF_SRC)/SOURCE 2>/dev/null || echo $(LIBBPF_SRC))
LIBBPF_CFLAGS := -g -O2 -fPIC
ALL_CFLAGS += -I$(LIBBPF_INC) -I$(LIBBPF_SRC)/tools/include/uapi \
	   -DBTFIDS_LIBBPF_FROM='"$(LIBBPF_FROM)"'

# libdw (elfutils, as libelf): the DWARF of an object without a release
# (btfids/srctree.c)
LIBS	:= $(LIBBPF_A) $(shell $(PKG_CONFIG) --libs libdw libelf zlib 2>/dev/null || echo -ldw -lelf -lz)
ALL_CFLAGS += $(shell $(PKG_CONFIG) --cflags libdw libelf zlib 2>/dev/null)

# The btfids binary links libdw, libelf and zlib statically too (their .a
# come with the same Debian -dev packages, libdw's with liblzma and libbz2
# for compressed sections): without the dynamic loader's
# relocations a vmlinux run is about 1 ms (10%) shorter (bench/run).
# LINK=shared links the shared libdw, libelf and zlib instead (distribution builds;
# the Debian package: Debian wants no embedded copy of zlib).
# Test binaries always link the shared ones.
# With -static in LDFLAGS everything is static already: no -Bdynamic then.
LINK	?= static
STATIC_LIBS := $(shell $(PKG_CONFIG) --static --libs libdw libelf zlib 2>/dev/null || \
		 echo -ldw -lelf -llzma -lbz2 -lz)
ifneq ($(filter -static,$(LDFLAGS)),)
BIN_LIBS := $(LIBBPF_A) $(STATIC_LIBS)
else ifeq ($(LINK),static)
BIN_LIBS := $(LIBBPF_A) -Wl,-Bstatic $(STATIC_LIBS) -Wl,-Bdynamic
else
BIN_LIBS := $(LIBS)
endif

# Stamps, as kbuild's .cmd files: each holds the command line its targets
# were built with and is rewritten (FORCE: checked on every make) only when
# that line changes, so a changed CC, CFLAGS, LDFLAGS or LIBBPF_SRC (its
# path, or the SOURCE in it) rebuilds everything it touches, not only what
# is older than its source. Every object, library and binary depends on
# the stamps of its compile and link lines.
#   build/.cflags   the compile line of btfids/*.o, the tests and tools
#   build/.ldflags  the link lines (LDFLAGS, LINK's libraries)
#   build/.libbpf   libbpf.a's source and compiler
# $(call stamp,TEXT) in a stamp's recipe: $@ holds TEXT, written if it
# differs. Never in a dry run (make -n expands recipes, and $(file) would
# write), nor when LIBBPF_SRC has no libbpf (the make stops at
# btf-uapi-check): else the next make on the source of the last build
# would rebuild everything (issue 54).
streq = $(if $(subst x$(1),,x$(2))$(subst x$(2),,x$(1)),,y)
dryrun = $(findstring n,$(firstword -$(MAKEFLAGS)))
nosrc = $(if $(wildcard $(LIBBPF_SRC)/tools/lib/bpf/libbpf.map),,y)
stamp = $(if $(dryrun)$(nosrc)$(call streq,$(file <$@),$(1)),,$(shell mkdir -p $(@D))$(file >$@,$(1)))

STAMP_CC := build/.cflags
STAMP_LD := build/.ldflags
STAMP_LIBBPF := build/.libbpf

$(STAMP_CC): FORCE
	@:$(call stamp,$(CC) $(ALL_CFLAGS))
$(STAMP_LD): FORCE
	@:$(call stamp,$(CC) $(LDFLAGS) | $(BIN_LIBS) | $(LIBS) | $(CHECK_LIBS))
$(STAMP_LIBBPF): FORCE
	@:$(call stamp,$(CC) $(LIBBPF_CFLAGS) $(LIBBPF_SRC) $(LIBBPF_FROM))

# The libbpf source checked, then the BTF uapi header the objects would
# compile against (btfids/btf_uapi.h): a wrong or old one stops the build
# here, in one line, before libbpf or any object is built. Run on every
# make (cheap), an order-only prerequisite: it rebuilds nothing itself.
btf-uapi-check:
	@test -f $(LIBBPF_SRC)/tools/lib/bpf/libbpf.map || { \
		echo "make: no libbpf source in $(LIBBPF_SRC): make LIBBPF_SRC=<a 7.x kernel tree>; or root runs BTFIDS_LIBBPF_SRC=/srv/libbpf-src .ci/libbpf-src, then make LIBBPF_SRC=/srv/libbpf-src (root for itself: .ci/libbpf-src, then make)" >&2; exit 1; }
	@for f in tools/build/Makefile.include tools/scripts/Makefile.include tools/include \
		  tools/arch scripts/bpf_doc.py include/uapi/linux/bpf.h; do \
		test -e $(LIBBPF_SRC)/$$f || { echo "make: $(LIBBPF_SRC) has tools/lib/bpf but no $$f, which libbpf's build needs: a whole kernel tree, or .ci/libbpf-src" >&2; exit 1; }; \
	done
	@$(CC) $(ALL_CFLAGS) -fsyntax-only -x c btfids/btf_uapi.h 2>/dev/null || { \
		h=$$($(CC) $(ALL_CFLAGS) -M -MT x -x c btfids/btf_uapi.h 2>/dev/null | \
		     tr -s ' \\' '\n\n' | grep -m1 '/linux/btf\.h$$'); \
		echo "make: $${h:-no linux/btf.h found} is older than the BTF btfids reads (7.x: 7-bit kinds, layout section): set LIBBPF_SRC to a 7.x kernel tree (now $(LIBBPF_SRC)), or run .ci/libbpf-src" >&2; \
		exit 1; }

# libbpf.a and its installed headers: rebuilt from nothing when its stamp
# changes (build/libbpf holds objects and headers of the old source).
# CFLAGS= keeps a CFLAGS of the command line out of it: libbpf is built
# with LIBBPF_CFLAGS, as kbuild builds it for resolve_btfids.
$(LIBBPF_A): $(STAMP_LIBBPF) | btf-uapi-check
	@rm -rf $(LIBBPF_OUT) && mkdir -p $(LIBBPF_OUT)
	$(MAKE) -s -C $(LIBBPF_SRC)/tools/lib/bpf OUTPUT=$(LIBBPF_OUT)/ DESTDIR=$(LIBBPF_OUT) \
		prefix= subdir= CC="$(CC)" CFLAGS= EXTRA_CFLAGS="$(LIBBPF_CFLAGS)" \
		$(LIBBPF_A) install_headers
	@echo '$(LIBBPF_SRC)' > $(LIBBPF_LAST)

LIB_SRCS := $(filter-out btfids/main.c,$(wildcard btfids/*.c))
LIB_OBJS := $(LIB_SRCS:.c=.o)
HDRS	 := $(wildcard include/btfids/*.h btfids/*.h)

VERSION	 := $(shell sed -n 's/^\#define BTFIDS_VERSION[^"]*"\(.*\)"/\1/p' btfids/btfids.h)
MAN_SRCS := $(wildcard man/*.scd)
MAN_PAGES := $(MAN_SRCS:.scd=)

all: btfids/btfids man btfids.pc

btfids/btfids: btfids/main.o btfids/libbtfids.a $(LIBBPF_A) $(STAMP_LD)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ btfids/main.o btfids/libbtfids.a $(BIN_LIBS)

btfids/libbtfids.a: $(LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

# libbpf.a a prerequisite: its new headers (build/libbpf/include) rebuild
# every object
btfids/%.o: btfids/%.c $(HDRS) $(STAMP_CC) $(LIBBPF_A) | btf-uapi-check
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# libbpf 1.8 with kernel/7.3-libbpf's patch (pattern attach keeps what the
# kernel's trampoline table takes), for its example and the boots
# (tests/boot-client.sh): build/libbpf-table/libbpf.a and include/
libbpf-table: | btf-uapi-check
	CC="$(CC)" kernel/7.3-libbpf/build-libbpf $(CURDIR)/build/libbpf-table $(LIBBPF_SRC)
.PHONY: libbpf-table

include tests/tests.mk

# Man pages: scdoc sources in man/ (NAME.SECTION.scd -> NAME.SECTION).
# Without scdoc, make builds the rest and says so; make install stops.
ifeq ($(shell command -v $(SCDOC) 2>/dev/null),)
man:
	@echo "make: man pages not built: $(SCDOC) is not installed (apt-get install scdoc, or .ci/deps)" >&2
else
man: $(MAN_PAGES)
endif

man/%: man/%.scd
	@command -v $(SCDOC) >/dev/null || \
		{ echo "make: $@ needs $(SCDOC): apt-get install scdoc (or .ci/deps)" >&2; exit 1; }
	$(SCDOC) < $< > $@

# pkg-config file with this build's paths; rewritten only when they change
btfids.pc: btfids.pc.in btfids/btfids.h FORCE
	@sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@INCDIR@|$(INCDIR)|' \
		 -e 's|@DATADIR@|$(DATADIR)|' -e 's|@VERSION@|$(VERSION)|' $< > $@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

install: btfids/btfids btfids.pc $(MAN_PAGES)
	install -D -m 0755 btfids/btfids $(DESTDIR)$(BINDIR)/btfids
	install -d $(DESTDIR)$(INCDIR)/btfids $(DESTDIR)$(DATADIR)/btfids
	install -m 0644 include/btfids/btf_ids.h include/btfids/tramp.h $(DESTDIR)$(INCDIR)/btfids/
	install -m 0644 linker-scripts/*.lds $(DESTDIR)$(DATADIR)/btfids/
	install -D -m 0644 btfids.pc $(DESTDIR)$(PCDIR)/btfids.pc
	install -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man7
	install -m 0644 $(filter %.1,$(MAN_PAGES)) $(DESTDIR)$(MANDIR)/man1/
	install -m 0644 $(filter %.7,$(MAN_PAGES)) $(DESTDIR)$(MANDIR)/man7/
	install -D -m 0644 completion/btfids $(DESTDIR)$(COMPLETIONDIR)/btfids

clean: tests-clean
	rm -f btfids/*.o btfids/libbtfids.a btfids/btfids btfids.pc $(MAN_PAGES)
	rm -rf build

.PHONY: all man install clean btf-uapi-check FORCE

# make sanitize: btfids and every Check suite built with ASan+UBSan under
# tests/build/san, then the whole make check run against them.
SAN_DIR	  := tests/build/san
SAN_FLAGS := -fno-omit-frame-pointer -fsanitize=address,undefined \
	     -fno-sanitize-recover=all
SAN_CFLAGS := $(ALL_CFLAGS) $(SAN_FLAGS)
SAN_OBJS  := $(LIB_SRCS:btfids/%.c=$(SAN_DIR)/%.o)
SAN_TESTS := $(TEST_SRCS:tests/%.c=$(SAN_DIR)/%)
SAN_STAMP := $(SAN_DIR)/.cflags

$(SAN_STAMP): FORCE
	@:$(call stamp,$(CC) $(SAN_CFLAGS))

$(SAN_DIR)/%.o: btfids/%.c $(HDRS) $(SAN_STAMP) $(LIBBPF_A) | btf-uapi-check
	@mkdir -p $(SAN_DIR)
	$(CC) $(SAN_CFLAGS) -c -o $@ $<

$(SAN_DIR)/libbtfids.a: $(SAN_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(SAN_DIR)/btfids: $(SAN_DIR)/main.o $(SAN_DIR)/libbtfids.a $(STAMP_LD)
	$(CC) $(SAN_CFLAGS) $(LDFLAGS) -o $@ $(SAN_DIR)/main.o $(SAN_DIR)/libbtfids.a $(LIBS)

$(SAN_DIR)/check_%: tests/check_%.c tests/testlib.c tests/testlib.h $(SAN_DIR)/libbtfids.a $(HDRS) \
		    $(SAN_STAMP) $(STAMP_LD)
	$(CC) $(SAN_CFLAGS) -Itests -o $@ $< tests/testlib.c $(SAN_DIR)/libbtfids.a $(CHECK_LIBS) $(LIBS)

sanitize: $(SAN_DIR)/btfids $(SAN_TESTS) fixtures
	BTFIDS=$(SAN_DIR)/btfids BTFIDS_NO_BOOT="make sanitize" UBSAN_OPTIONS=print_stacktrace=1 \
	ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0 LSAN_OPTIONS=suppressions=$(CURDIR)/tests/fuzz/lsan.supp \
	tests/run $(SAN_TESTS)

# make fuzz: libFuzzer (clang) with ASan and UBSan, every target in turn
# for FUZZ_SECONDS each (tests/fuzz/run.sh prints each one's runs and
# crashes): resolve (the 6.x pipeline in place, the tables, check's layout
# and findings), flow7 (the 7.x flow's --btf path to its output files),
# patch (--patch_btfids), tramp (the tables as models and dump read them).
# Seeds: the built fixtures, the bad objects of check_badinput and the
# real 7.x kernel's small modules (tests/fuzz/seeds.sh); crashes land in
# tests/build/fuzz, and a fixed one belongs in tests/fuzz/regress
# (tests/fuzzregress.sh replays them in make check).
FUZZ_CC	     ?= clang
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= resolve flow7 patch tramp
FUZZ_DIR     := tests/build/fuzz
FUZZ_HDRS    := $(HDRS) tests/fuzz/fuzzlib.h
FUZZ_FLAGS   := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS  := $(FUZZ_FLAGS) -Wall -Werror -std=gnu11 -D_GNU_SOURCE -Iinclude -Ibtfids \
		-Itests/fuzz -I$(LIBBPF_INC) -I$(LIBBPF_SRC)/tools/include/uapi
FUZZ_LIB_OBJS := $(LIB_SRCS:btfids/%.c=$(FUZZ_DIR)/obj/%.o)
FUZZ_OBJS    := $(FUZZ_LIB_OBJS) $(FUZZ_DIR)/obj/fuzzlib.o
FUZZ_STAMP   := $(FUZZ_DIR)/.cflags

$(FUZZ_STAMP): FORCE
	@:$(call stamp,$(FUZZ_CC) $(FUZZ_CFLAGS))

# the library once, instrumented for libFuzzer, for every target
$(FUZZ_LIB_OBJS): $(FUZZ_DIR)/obj/%.o: btfids/%.c $(FUZZ_HDRS) $(FUZZ_STAMP) $(LIBBPF_A) | btf-uapi-check
	@mkdir -p $(FUZZ_DIR)/obj
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_DIR)/obj/fuzzlib.o: tests/fuzz/fuzzlib.c $(FUZZ_HDRS) $(FUZZ_STAMP) $(LIBBPF_A) | btf-uapi-check
	@mkdir -p $(FUZZ_DIR)/obj
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

# static patterns: tests/build/% of tests.mk would match too
FUZZ_ALL     := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))

$(FUZZ_ALL:%=$(FUZZ_DIR)/fuzz_%): $(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_OBJS) $(FUZZ_HDRS) \
		$(FUZZ_STAMP) $(STAMP_LD) $(LIBBPF_A)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJS) $(LIBS)

fuzz: $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz_%) btfids/btfids fixtures
	tests/fuzz/seeds.sh $(FUZZ_DIR)
	FUZZ_SECONDS=$(FUZZ_SECONDS) tests/fuzz/run.sh $(FUZZ_DIR) $(FUZZ_TARGETS)

# The fuzz targets without libFuzzer, built with gcc, ASan and UBSan:
# replay_<target> FILE... (tests/fuzz/replay.c), for tests/fuzzregress.sh
REPLAY_DIR  := tests/build/replay
REPLAY_BINS := $(FUZZ_ALL:%=$(REPLAY_DIR)/replay_%)

$(REPLAY_BINS): $(REPLAY_DIR)/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c tests/fuzz/fuzzlib.c \
		$(SAN_DIR)/libbtfids.a $(FUZZ_HDRS) $(SAN_STAMP) $(STAMP_LD)
	@mkdir -p $(REPLAY_DIR)
	$(CC) $(SAN_CFLAGS) -Itests/fuzz -o $@ $< tests/fuzz/replay.c tests/fuzz/fuzzlib.c \
		$(SAN_DIR)/libbtfids.a $(LIBS)

replay: $(REPLAY_BINS)
check sanitize: $(REPLAY_BINS)

.PHONY: sanitize fuzz replay
