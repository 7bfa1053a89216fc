# libauxtrace: one GNU make build for the library, its tools, tests and benchmarks.
#   make                 libauxtrace.a, libauxtrace.so and the tools, in build/
#   make test            every check suite, the README example, ABI and install checks
#   make test SANITIZE=1 the same under AddressSanitizer + UndefinedBehaviorSanitizer (build-san/)
#   make memcheck        every check suite under valgrind memcheck
#   make fuzz            each tests/fuzz/fuzz-<name>.c for FUZZ_SECONDS (60) under libFuzzer,
#                        clang, ASan + UBSan (build-fuzz/); FUZZ_TARGETS=<name> picks some
#   make bench           benchmarks: figures, never pass/fail
#   make run             auxrec info + a short recording on this machine
#   make install PREFIX=/usr/local DESTDIR=
# Dependencies are installed by scripts/install-deps (make test and make run call it).

VERSION      := 0.1.0
SONAME_MAJOR := 0
PREFIX       ?= /usr/local
LIBDIR       ?= $(PREFIX)/lib
INCLUDEDIR   ?= $(PREFIX)/include
BINDIR       ?= $(PREFIX)/bin
DESTDIR      ?=

CC       ?= cc
AR       ?= ar
PKG_DEPS := libtraceevent libelf
# Lazy (=) on purpose: evaluated only in recipes, after install-deps had its chance.
DEP_CFLAGS = $(shell pkg-config --cflags $(PKG_DEPS))
DEP_LIBS   = $(shell pkg-config --libs $(PKG_DEPS)) -lpthread

FUZZ_CC  ?= clang
ifeq ($(FUZZ),1)
# Set by `make fuzz` for its own sub-make: the library instrumented for libFuzzer.
B        ?= build-fuzz
CC       := $(FUZZ_CC)
SAN      := -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all \
	    -fno-omit-frame-pointer
else ifeq ($(SANITIZE),1)
B        ?= build-san
SAN      := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
else
B        ?= build
SAN      :=
endif

WARN     := -Wall -Wextra -Werror -Wno-missing-field-initializers
CFLAGS   ?= -O2 -g
BASE_CFLAGS = -std=gnu11 $(WARN) $(SAN) -D_GNU_SOURCE -Iinclude -Iinclude/tracefs $(DEP_CFLAGS)
LIB_CFLAGS  = $(BASE_CFLAGS) -I. -fPIC -fvisibility=hidden -DLIBAUXTRACE_VERSION=\"$(VERSION)\"
LDFLAGS  += $(SAN)

LIB_DIRS := lib cpumap evsel mmap auxtrace data
LIB_SRCS := $(sort $(foreach d,$(LIB_DIRS),$(wildcard $(d)/*.c)))
LIB_OBJS := $(LIB_SRCS:%.c=$(B)/%.o)
PUB_HDRS := $(wildcard include/auxtrace/*.h include/tracefs/*.h)
ALL_HDRS  = $(PUB_HDRS) $(wildcard internal/*.h */*.h)

STATIC   := $(B)/libauxtrace.a
SHARED   := $(B)/libauxtrace.so.$(VERSION)

AUXREC_SRCS := $(wildcard tools/auxrec/*.c)
AUXREC      := $(B)/auxrec
BENCH_SRCS  := $(wildcard tools/bench/*.c)
BENCH_MAINS := $(filter tools/bench/bench-%.c,$(BENCH_SRCS))
BENCH_LIBS  := $(filter-out tools/bench/bench-%.c,$(BENCH_SRCS))
BENCHES     := $(BENCH_MAINS:tools/bench/%.c=$(B)/%)

TEST_SRCS   := $(wildcard tests/test-*.c)
TEST_LIB    := $(wildcard tests/lib/*.c)
TESTS       := $(TEST_SRCS:tests/%.c=$(B)/tests/%)
TEST_PROGS  := $(wildcard tests/progs/*.c)
TEST_PROG_BINS := $(TEST_PROGS:tests/progs/%.c=$(B)/tests/progs/%)

FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= $(patsubst tests/fuzz/fuzz-%.c,%,$(wildcard tests/fuzz/fuzz-*.c))
FUZZ_BINS    := $(FUZZ_TARGETS:%=$(B)/fuzz/fuzz-%)

# Every suite under memcheck, in check's fork mode: valgrind follows each test's process,
# and an error there makes it exit 99, which fails that test. Leaks are LeakSanitizer's
# (make test SANITIZE=1): here every process a test forks would report the test's memory.
MEMCHECK := valgrind --quiet --error-exitcode=99 --leak-check=no \
	    --suppressions=tests/valgrind.supp

.PHONY: all lib tools test check-suites bench run install uninstall clean deps memcheck \
	memcheck-suites fuzz fuzz-targets
all: lib tools

lib: $(STATIC) $(SHARED)
tools: $(AUXREC)

$(B)/%.o: %.c $(ALL_HDRS) Makefile
	@mkdir -p $(@D)
	$(CC) $(LIB_CFLAGS) $(CFLAGS) -c -o $@ $<

$(STATIC): $(LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(SHARED): $(LIB_OBJS) libauxtrace.map
	$(CC) -shared -o $@ $(LIB_OBJS) $(LDFLAGS) -Wl,-soname,libauxtrace.so.$(SONAME_MAJOR) \
		-Wl,--version-script=libauxtrace.map -Wl,--no-undefined $(DEP_LIBS)
	ln -sf libauxtrace.so.$(VERSION) $(B)/libauxtrace.so.$(SONAME_MAJOR)
	ln -sf libauxtrace.so.$(SONAME_MAJOR) $(B)/libauxtrace.so

# The tool sees only the public headers (-Iinclude): it is the API's first user.
$(AUXREC): $(AUXREC_SRCS) $(wildcard tools/auxrec/*.h) $(PUB_HDRS) $(STATIC)
	$(CC) $(BASE_CFLAGS) $(CFLAGS) -o $@ $(AUXREC_SRCS) $(STATIC) $(LDFLAGS) $(DEP_LIBS)

# Tests may reach internals (-I.) and link the static library, where hidden symbols resolve.
$(B)/tests/%: tests/%.c $(TEST_LIB) $(wildcard tests/lib/*.h) $(STATIC)
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) -I. -Itests $(CFLAGS) $(shell pkg-config --cflags check) -o $@ $< \
		$(TEST_LIB) $(STATIC) $(LDFLAGS) $(shell pkg-config --libs check) $(DEP_LIBS) \
		$(TEST_EXTRA_LIBS)

$(B)/tests/progs/%: tests/progs/%.c $(PUB_HDRS) $(STATIC)
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) $(CFLAGS) -o $@ $< $(STATIC) $(LDFLAGS) $(DEP_LIBS)

# bench-aux runs the AUX suites' test producer: a bench's .c prerequisites are all linked.
$(B)/bench-aux: tests/lib/aux-producer.c tests/lib/aux-producer.h
$(B)/bench-%: tools/bench/bench-%.c $(BENCH_LIBS) $(wildcard tools/bench/*.h) $(STATIC)
	$(CC) $(BASE_CFLAGS) -I. $(CFLAGS) -o $@ $(filter %.c,$^) $(STATIC) $(LDFLAGS) \
		$(shell pkg-config --libs libbpf) $(DEP_LIBS)

# A fuzz target links what a test links: the library (here instrumented) and tests/lib.
$(B)/fuzz/fuzz-%: tests/fuzz/fuzz-%.c tests/fuzz/fuzz.h $(TEST_LIB) $(wildcard tests/lib/*.h) \
		  $(STATIC)
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) -I. -Itests $(CFLAGS) $(shell pkg-config --cflags check) -o $@ $< \
		$(TEST_LIB) $(STATIC) $(LDFLAGS) -fsanitize=fuzzer $(shell pkg-config --libs check) \
		$(DEP_LIBS) $(TEST_EXTRA_LIBS)

# libipt's encoder makes real Intel PT payloads for the AUX tests (no pkg-config file).
TEST_EXTRA_LIBS = -lipt

deps:
	@scripts/install-deps

check-suites: $(TESTS) $(TEST_PROG_BINS) $(AUXREC) $(SHARED)
	@B=$(B) SANITIZE=$(SANITIZE) scripts/run-tests $(TESTS)

test: deps
	@$(MAKE) --no-print-directory check-suites

memcheck-suites: $(TESTS)
	@B=$(B) TEST_SCRIPTS= TEST_WRAPPER="$(MEMCHECK)" CK_TIMEOUT_MULTIPLIER=10 \
		scripts/run-tests $(TESTS)

memcheck:
	@scripts/install-deps valgrind
	@$(MAKE) --no-print-directory memcheck-suites

fuzz-targets: $(FUZZ_BINS)
	@B=$(B) FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/run-fuzz $(FUZZ_BINS)

fuzz:
	@scripts/install-deps clang
	@$(MAKE) --no-print-directory FUZZ=1 fuzz-targets

bench: deps
	@$(MAKE) --no-print-directory $(BENCHES)
	@for b in $(BENCHES); do echo "== $$b"; $$b || exit 1; done

run: deps
	@$(MAKE) --no-print-directory tools
	$(AUXREC) info
	$(AUXREC) record -a -e cpu-clock -e syscalls:sys_enter_getppid -- sleep 1

install: lib tools auxtrace.pc.in
	install -d $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCLUDEDIR)/auxtrace/tracefs \
		$(DESTDIR)$(BINDIR)
	install -m 644 $(STATIC) $(DESTDIR)$(LIBDIR)/
	install -m 755 $(SHARED) $(DESTDIR)$(LIBDIR)/
	ln -sf libauxtrace.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libauxtrace.so.$(SONAME_MAJOR)
	ln -sf libauxtrace.so.$(SONAME_MAJOR) $(DESTDIR)$(LIBDIR)/libauxtrace.so
	install -m 644 $(wildcard include/auxtrace/*.h) $(DESTDIR)$(INCLUDEDIR)/auxtrace/
	install -m 644 $(wildcard include/tracefs/*.h) $(DESTDIR)$(INCLUDEDIR)/auxtrace/tracefs/
	install -m 755 $(AUXREC) $(DESTDIR)$(BINDIR)/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|' \
	    auxtrace.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/auxtrace.pc

uninstall:
	rm -rf $(DESTDIR)$(INCLUDEDIR)/auxtrace $(DESTDIR)$(LIBDIR)/pkgconfig/auxtrace.pc \
		$(DESTDIR)$(LIBDIR)/libauxtrace.* $(DESTDIR)$(BINDIR)/auxrec

clean:
	rm -rf build build-san build-fuzz
