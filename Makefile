# SPDX-License-Identifier: GPL-2.0
# btfids - build, test and install.
#   make                 build btfids/btfids
#   make check           unit tests (Check) + real-kernel acceptance when cached
#   make install PREFIX=/usr/local DESTDIR=

CC	?= gcc
PKG_CONFIG ?= pkg-config
PREFIX	?= /usr/local
BINDIR	?= $(PREFIX)/bin
INCDIR	?= $(PREFIX)/include

CFLAGS	?= -O2 -g
CFLAGS	+= -Wall -Wextra -Werror -std=gnu11 -D_GNU_SOURCE -Iinclude -Ibtfids
LIBS	:= $(shell $(PKG_CONFIG) --libs libbpf libelf zlib 2>/dev/null || echo -lbpf -lelf -lz)
CFLAGS	+= $(shell $(PKG_CONFIG) --cflags libbpf libelf zlib 2>/dev/null)

LIB_SRCS := $(filter-out btfids/main.c,$(wildcard btfids/*.c))
LIB_OBJS := $(LIB_SRCS:.c=.o)
HDRS	 := $(wildcard include/btfids/*.h btfids/*.h)

all: btfids/btfids

btfids/btfids: btfids/main.o btfids/libbtfids.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

btfids/libbtfids.a: $(LIB_OBJS)
	$(AR) rcs $@ $^

btfids/%.o: btfids/%.c $(HDRS)
	$(CC) $(CFLAGS) -c -o $@ $<

include tests/tests.mk

install: btfids/btfids
	install -D -m 0755 btfids/btfids $(DESTDIR)$(BINDIR)/btfids
	install -d $(DESTDIR)$(INCDIR)/btfids
	install -m 0644 include/btfids/btf_ids.h $(DESTDIR)$(INCDIR)/btfids/

clean: tests-clean
	rm -f btfids/*.o btfids/libbtfids.a btfids/btfids

.PHONY: all install clean
