# libauxtrace: one GNU make build for the library, its tools, tests and benchmarks.
#   make                 libauxtrace.a, libauxtrace.so and the tools, in build/
#   make test            every check suite, the README example, ABI and install checks
#   make test SANITIZE=1 the same under AddressSanitizer + UndefinedBehaviorSanitizer (build-san/)
#   make memcheck        every check suite under valgrind memcheck
#   make fuzz            each tests/fuzz/fuzz-<name>.c for FUZZ_SECONDS (60) under libFuzzer,
#                        clang, ASan + UBSan (build-fuzz/); FUZZ_TARGETS=<name> picks some
#   make bench           benchmarks: figures, never pass/fail
#   make soak            auxrec (perf + ftrace) and the AUX path under load for SOAK_SECONDS
#                        (600): RSS, fds and CPU flat, every loss counted, files valid
#   make run             auxrec info + a short recording on this machine
#   make man             the man pages, Documentation/<page>.<section>.adoc into
#                        build/man/man<section>/<page>.<section> (asciidoctor)
#   make install PREFIX=/usr/local DESTDIR=
# Dependencies are installed by scripts/install-deps (make test and make run call it).

VERSION      := 0.1.0
SONAME_MAJOR := 0
PREFIX       ?= /usr/local
LIBDIR       ?= $(PREFIX)/lib
INCLUDEDIR   ?= $(PREFIX)/include
BINDIR       ?= $(PREFIX)/bin
MANDIR       ?= $(PREFIX)/share/man
DESTDIR      ?=

CC       ?= cc
AR       ?= ar
PKG_DEPS := libtraceevent libelf libbpf libzstd
# Lazy (=) on purpose: evaluated only in recipes, after install-deps had its chance.
DEP_CFLAGS = $(shell pkg-config --cflags $(PKG_DEPS))
# libipt (Intel PT decoding) has no pkg-config file.
DEP_LIBS   = $(shell pkg-config --libs $(PKG_DEPS)) -lipt -lpthread

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

# libauxtrace: the perf side and the consumer core. libauxtrace-tracefs: the
# libtracefs-compatible layer, a library of its own built on libauxtrace, so that
# libauxtrace exports no tracefs_* name and can live beside the system's libtracefs.
LIB_DIRS     := lib cpumap evsel ring mmap auxtrace data decode
TRACEFS_DIRS := tracefs
LIB_SRCS     := $(sort $(foreach d,$(LIB_DIRS),$(wildcard $(d)/*.c)))
TRACEFS_SRCS := $(sort $(foreach d,$(TRACEFS_DIRS),$(wildcard $(d)/*.c)))
LIB_OBJS     := $(LIB_SRCS:%.c=$(B)/%.o)
TRACEFS_OBJS := $(TRACEFS_SRCS:%.c=$(B)/%.o)
PUB_HDRS := $(wildcard include/auxtrace/*.h include/tracefs/*.h)
ALL_HDRS  = $(PUB_HDRS) $(wildcard internal/*.h */*.h)

STATIC   := $(B)/libauxtrace.a
SHARED   := $(B)/libauxtrace.so.$(VERSION)
TRACEFS_STATIC := $(B)/libauxtrace-tracefs.a
TRACEFS_SHARED := $(B)/libauxtrace-tracefs.so.$(VERSION)
# Static link order: the tracefs layer before the core it builds on.
STATICS  := $(TRACEFS_STATIC) $(STATIC)

AUXREC_SRCS := $(wildcard tools/auxrec/*.c)
AUXREC_OBJS := $(AUXREC_SRCS:%.c=$(B)/%.o)
AUXREC      := $(B)/auxrec
# The report page's script and style sheet, compiled in as C strings.
REPORT_ASSETS := $(B)/tools/auxrec/report-html-assets.c
REPORT_SRCS   := tools/auxrec/report-model.c tools/auxrec/report-html.c $(REPORT_ASSETS) \
		 tools/auxrec/report-flame.c tools/auxrec/call-slices.c tools/auxrec/convert-json.c \
		 $(wildcard tools/auxrec/report-*.h)
BENCH_SRCS  := $(wildcard tools/bench/*.c)
BENCH_MAINS := $(filter tools/bench/bench-%.c,$(BENCH_SRCS))
BENCH_LIBS  := $(filter-out tools/bench/bench-%.c,$(BENCH_SRCS))
BENCHES     := $(BENCH_MAINS:tools/bench/%.c=$(B)/%)
# The soak's programs (make soak): the AUX half, and the load generator.
SOAKS       := $(B)/soak-aux $(B)/soak-load

TEST_SRCS   := $(wildcard tests/test-*.c)
# The test-support library: suite helpers, fake sysfs trees, and the AUX test producer that
# the suites and the benchmarks both link.
TESTSUPPORT_SRCS := $(wildcard tests/lib/*.c)
TESTSUPPORT      := $(B)/tests/libtestsupport.a
TESTS       := $(TEST_SRCS:tests/%.c=$(B)/tests/%)
TEST_PROGS  := $(wildcard tests/progs/*.c)
TEST_PROG_BINS := $(TEST_PROGS:tests/progs/%.c=$(B)/tests/progs/%)

FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= $(patsubst tests/fuzz/fuzz-%.c,%,$(wildcard tests/fuzz/fuzz-*.c))
FUZZ_BINS    := $(FUZZ_TARGETS:%=$(B)/fuzz/fuzz-%)

# Every suite under memcheck, in check's fork mode: valgrind follows each test's process,
# and an error there makes it exit 99, which fails that test. Leaks are LeakSanitizer's
# (make test SANITIZE=1): here every process a test forks would report the test's memory.
# AUXTRACE_TEST_MEMCHECK: sweeps over thousands of inputs take one in 16 (testlib_sweep_step).
MEMCHECK := valgrind --quiet --error-exitcode=99 --leak-check=no \
	    --suppressions=tests/valgrind.supp

.PHONY: all lib tools man test check-suites bench run install uninstall clean deps memcheck \
	memcheck-suites fuzz fuzz-targets soak
all: lib tools

lib: $(STATIC) $(SHARED) $(TRACEFS_STATIC) $(TRACEFS_SHARED)
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

$(TRACEFS_STATIC): $(TRACEFS_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(TRACEFS_SHARED): $(TRACEFS_OBJS) libauxtrace-tracefs.map $(SHARED)
	$(CC) -shared -o $@ $(TRACEFS_OBJS) $(LDFLAGS) \
		-Wl,-soname,libauxtrace-tracefs.so.$(SONAME_MAJOR) \
		-Wl,--version-script=libauxtrace-tracefs.map -Wl,--no-undefined \
		-L$(B) -lauxtrace $(shell pkg-config --libs libtraceevent libzstd)
	ln -sf libauxtrace-tracefs.so.$(VERSION) $(B)/libauxtrace-tracefs.so.$(SONAME_MAJOR)
	ln -sf libauxtrace-tracefs.so.$(SONAME_MAJOR) $(B)/libauxtrace-tracefs.so

# EMBED_TEXT: file $(1) as the C string constant $(2), a literal per line (sed: no xxd needed).
EMBED_TEXT = printf 'const char %s[] =\n' $(2) && \
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/  "/' -e 's/$$/\\n"/' $(1) && printf '  "";\n'

# Man pages: Documentation/auxrec-record.1.adoc is built to $(B)/man/man1/auxrec-record.1,
# one pattern rule per section the sources use. Version and manual come from here, not from
# each page; an AsciiDoc warning (a broken section, a dangling reference) fails the build,
# and the page is renamed into place only when whole, so a failed one is rebuilt next time.
# asciidoctor also writes a page per further name in NAME (evlist__mmap.3: ".so" to the
# page), so that `man evlist__mmap` works as `man tracefs_cpu_open` does; it is run in a
# directory of its own so those point at the page's real name, in the manN/ form that
# man-db and mandoc both resolve.
MAN_SRCS     := $(wildcard Documentation/*.adoc)
MAN_NAMES    := $(MAN_SRCS:Documentation/%.adoc=%)
# man_path: page name $(1) (auxrec.1) under directory $(2) as man lays it out (DIR/man1/auxrec.1)
man_path      = $(2)/man$(subst .,,$(suffix $(1)))/$(1)
MAN_SECTIONS := $(sort $(subst .,,$(suffix $(MAN_NAMES))))
MAN_PAGES    := $(foreach p,$(MAN_NAMES),$(call man_path,$(p),$(B)/man))
ASCIIDOCTOR  := asciidoctor -b manpage -d manpage --failure-level=WARN \
		-a 'mansource=libauxtrace $(VERSION)' -a 'manmanual=libauxtrace Manual'
define MAN_RULE
$(B)/man/man$(1)/%.$(1): Documentation/%.$(1).adoc Makefile
	@command -v asciidoctor >/dev/null || \
		{ echo "make man: asciidoctor is missing (scripts/install-deps installs it)" >&2; exit 1; }
	@rm -rf $$@.d && mkdir -p $$@.d
	$(ASCIIDOCTOR) -o $$@.d/$$(@F) $$<
	cd $$@.d && for f in *; do [ $$$$f = $$(@F) ] || \
		{ sed -i 's|^\.so \([^/]*\)$$$$|.so man$(1)/\1|' $$$$f && mv $$$$f .. || exit 1; }; done
	mv $$@.d/$$(@F) $$@ && rmdir $$@.d
endef
$(foreach s,$(MAN_SECTIONS),$(eval $(call MAN_RULE,$(s))))

man: $(MAN_PAGES)

$(REPORT_ASSETS): tools/auxrec/report-html.js tools/auxrec/report-html.css \
		tools/auxrec/report-html-flame.js Makefile
	@mkdir -p $(@D)
	{ $(call EMBED_TEXT,tools/auxrec/report-html.js,report_html_js) && \
	  $(call EMBED_TEXT,tools/auxrec/report-html.css,report_html_css) && \
	  $(call EMBED_TEXT,tools/auxrec/report-html-flame.js,report_html_flame_js); } > $@.tmp
	mv $@.tmp $@

# The tool sees only the public headers (-Iinclude): it is the API's first user. An object
# per file, so that the no-cycles check can read which file calls which.
$(B)/tools/auxrec/%.o: tools/auxrec/%.c $(wildcard tools/auxrec/*.h) $(PUB_HDRS) Makefile
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) $(CFLAGS) -c -o $@ $<

$(AUXREC): $(AUXREC_OBJS) $(REPORT_ASSETS) $(STATICS)
	$(CC) $(BASE_CFLAGS) $(CFLAGS) -o $@ $(AUXREC_OBJS) $(REPORT_ASSETS) $(STATICS) $(LDFLAGS) \
		$(DEP_LIBS)

# Tests may reach internals (-I.) and link the static libraries, where hidden symbols resolve.
# A test's .c prerequisites besides its own (the report sources) are linked too.
TEST_CFLAGS = $(BASE_CFLAGS) -I. -Itests $(CFLAGS) $(shell pkg-config --cflags check)

$(B)/tests/lib/%.o: tests/lib/%.c $(wildcard tests/lib/*.h) $(PUB_HDRS) Makefile
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -c -o $@ $<

$(TESTSUPPORT): $(TESTSUPPORT_SRCS:%.c=$(B)/%.o)
	@rm -f $@
	$(AR) rcs $@ $^

$(B)/tests/%: tests/%.c $(TESTSUPPORT) $(wildcard tests/lib/*.h) $(STATICS)
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -o $@ $(filter %.c,$^) $(TESTSUPPORT) $(STATICS) $(LDFLAGS) \
		$(shell pkg-config --libs check) $(DEP_LIBS) $(TEST_EXTRA_LIBS)

$(B)/tests/progs/%: tests/progs/%.c $(PUB_HDRS) $(STATICS)
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) $(CFLAGS) -o $@ $(filter %.c,$^) $(STATICS) $(LDFLAGS) $(DEP_LIBS)

# Workloads the tests count and compare with perf's view: plain programs even in a sanitizer
# build, so that no runtime of a sanitizer adds system calls or samples of its own.
$(B)/tests/progs/getppid-loop $(B)/tests/progs/marker-getppid: private SAN :=

# The report page: its model's suite, and the program that writes pages for the browser test.
$(B)/tests/test-report-model $(B)/tests/test-report-page: $(REPORT_SRCS)
$(B)/tests/test-report-agg: tools/auxrec/report-agg.c tools/auxrec/report-agg.h
$(B)/tests/progs/report-html-demo: $(REPORT_SRCS)
# auxrec script's ftrace formatter, called one record at a time as the merged stream will.
$(B)/tests/test-script-ftrace: tools/auxrec/script-ftrace.c tools/auxrec/script-ftrace-fmt.c \
	tools/auxrec/script-line.c tools/auxrec/error.c $(wildcard tools/auxrec/*.h)
$(B)/tests/progs/report-html-demo: BASE_CFLAGS += -Itools/auxrec

# The recording the report tests read: the AUX test producer of the test-support library
# stands in for AUX hardware.
# flame-recording: a PT or BTS recording of a program with a known call tree, the same way.
$(B)/tests/progs/report-recording $(B)/tests/progs/flame-recording: $(B)/tests/progs/%: \
		tests/progs/%.c $(TESTSUPPORT) $(PUB_HDRS) $(STATICS)
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -o $@ $< $(TESTSUPPORT) $(STATICS) $(LDFLAGS) \
		$(shell pkg-config --libs check) $(DEP_LIBS)

# Benchmarks see the public headers, the kernel ABI copies in internal/ (for their bare
# loops) and the test-support library (bench-aux drives the AUX test producer).
$(B)/bench-%: tools/bench/bench-%.c $(BENCH_LIBS) $(wildcard tools/bench/*.h) $(TESTSUPPORT) $(STATICS)
	$(CC) $(BASE_CFLAGS) -I. $(CFLAGS) -o $@ $(filter %.c,$^) $(TESTSUPPORT) $(STATICS) \
		$(LDFLAGS) $(shell pkg-config --libs libbpf) $(DEP_LIBS)

# bench-decode times auxrec script against perf script, bench-script-ftrace against trace-cmd
# report on what auxrec record wrote of a workload; bench-read auxrec records, reports and
# scripts a big recording against trace-cmd report and perf script.
$(B)/bench-decode $(B)/bench-read: $(AUXREC)
$(B)/bench-script-ftrace: $(AUXREC) $(B)/tests/progs/marker-getppid

# One live tracefs_cpu loop on the libtracefs API, against ours and against the system's
# libtracefs: the two export the same names, so each gets a binary; bench-tracefs runs both.
TRACEFS_LOOP := tools/bench/tracefs-loop/tracefs-loop.c tools/bench/bpf-getppid.c \
		tools/bench/util.c tools/bench/bpf-getppid.h tools/bench/util.h
$(B)/tracefs-loop-ours: $(TRACEFS_LOOP) $(STATICS)
	$(CC) $(BASE_CFLAGS) $(CFLAGS) -o $@ $(filter %.c,$^) $(STATICS) $(LDFLAGS) $(DEP_LIBS)
$(B)/tracefs-loop-sys: $(TRACEFS_LOOP) $(STATIC)
	$(CC) -std=gnu11 $(WARN) -D_GNU_SOURCE -Iinclude $(shell pkg-config --cflags libtracefs) \
		$(DEP_CFLAGS) $(CFLAGS) -o $@ $(filter %.c,$^) $(STATIC) $(LDFLAGS) \
		$(shell pkg-config --libs libtracefs) $(DEP_LIBS)
$(B)/bench-tracefs: $(B)/tracefs-loop-ours $(B)/tracefs-loop-sys
$(B)/bench-tracefs: private CFLAGS += -DSYS_LIBTRACEFS='"$(shell pkg-config --modversion libtracefs)"'

# soak-aux drives the AUX test producer and reaches the backend's time conversion (-I.).
$(B)/soak-aux: tools/soak/soak-aux.c tools/soak/soak-aux-check.c tools/soak/soak-aux.h \
	       $(TESTSUPPORT) $(wildcard tests/lib/*.h) $(STATICS)
	$(CC) $(BASE_CFLAGS) -I. $(CFLAGS) -o $@ $(filter %.c,$^) $(TESTSUPPORT) $(STATICS) \
		$(LDFLAGS) $(DEP_LIBS)

$(B)/soak-load: tools/soak/soak-load.c Makefile
	$(CC) $(BASE_CFLAGS) $(CFLAGS) -o $@ $< $(LDFLAGS)

# libtracecmd's reader (tracecmd_open, tracecmd_iterate_events) reads what the trace.dat writer
# wrote; only libtracecmd itself, so the test links no second tracefs_* of the system's.
$(B)/tests/test-trace-dat: TEST_EXTRA_LIBS += -ltracecmd

# A fuzz target links what a test links: the library (here instrumented) and test support.
$(B)/fuzz/fuzz-%: tests/fuzz/fuzz-%.c tests/fuzz/fuzz.h $(TESTSUPPORT) $(wildcard tests/lib/*.h) \
		  $(STATICS)
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -o $@ $< $(TESTSUPPORT) $(STATICS) $(LDFLAGS) -fsanitize=fuzzer \
		$(shell pkg-config --libs check) $(DEP_LIBS) $(TEST_EXTRA_LIBS)

deps:
	@scripts/install-deps

check-suites: $(TESTS) $(TEST_PROG_BINS) $(AUXREC) $(SHARED) $(TRACEFS_SHARED)
	@B=$(B) SANITIZE=$(SANITIZE) scripts/run-tests $(TESTS)

test: deps
	@$(MAKE) --no-print-directory check-suites

memcheck-suites: $(TESTS)
	@B=$(B) TEST_SCRIPTS= TEST_WRAPPER="$(MEMCHECK)" CK_TIMEOUT_MULTIPLIER=10 \
		AUXTRACE_TEST_MEMCHECK=1 scripts/run-tests $(TESTS)

memcheck:
	@scripts/install-deps valgrind
	@$(MAKE) --no-print-directory memcheck-suites

fuzz-targets: $(FUZZ_BINS)
	@B=$(B) FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/run-fuzz $(FUZZ_BINS)

fuzz:
	@scripts/install-deps clang
	@$(MAKE) --no-print-directory FUZZ=1 fuzz-targets

# The loaded variants (BENCH_LOAD=1, tools/bench/util.c): a CPU-bound process on each CPU
# beside the benchmark, with fewer rounds.
BENCH_LOADED := "bench-aux" "bench-perf-ring -n 3" "bench-tracefs -t live -r 2 -d 1"
bench: deps
	@$(MAKE) --no-print-directory $(BENCHES)
	@for b in $(BENCHES); do echo "== $$b"; $$b || exit 1; done
	@for b in $(BENCH_LOADED); do echo "== $(B)/$$b, loaded"; BENCH_LOAD=1 $(B)/$$b || exit 1; done

soak: deps
	@$(MAKE) --no-print-directory tools $(SOAKS)
	@B=$(B) scripts/soak

# This machine's default recording (the AUX PMU, or cpu-clock + sched events), read back.
RUN_DATA = $(B)/run.data
run: deps
	@$(MAKE) --no-print-directory tools
	$(AUXREC) info
	$(AUXREC) record -a -o $(RUN_DATA) -- sleep 1
	$(AUXREC) report $(RUN_DATA)
	@echo "== perf script -i $(RUN_DATA)/perf.data | head"
	@timeout 60 perf script -i $(RUN_DATA)/perf.data 2>/dev/null | head -8
	@if [ -e $(RUN_DATA)/trace.dat ]; then \
		echo "== trace-cmd report -i $(RUN_DATA)/trace.dat | head"; \
		timeout 60 trace-cmd report -i $(RUN_DATA)/trace.dat 2>/dev/null | head -8; fi

# PC_SUBST: a .pc.in file to stdout with the install paths filled in.
PC_SUBST = sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	       -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|'

install: lib tools man auxtrace.pc.in auxtrace-tracefs.pc.in
	install -d $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCLUDEDIR)/auxtrace/tracefs \
		$(DESTDIR)$(BINDIR) $(MAN_SECTIONS:%=$(DESTDIR)$(MANDIR)/man%)
	install -m 644 $(STATIC) $(TRACEFS_STATIC) $(DESTDIR)$(LIBDIR)/
	install -m 755 $(SHARED) $(TRACEFS_SHARED) $(DESTDIR)$(LIBDIR)/
	for l in libauxtrace libauxtrace-tracefs; do \
		ln -sf $$l.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$$l.so.$(SONAME_MAJOR) && \
		ln -sf $$l.so.$(SONAME_MAJOR) $(DESTDIR)$(LIBDIR)/$$l.so || exit 1; \
	done
	install -m 644 $(wildcard include/auxtrace/*.h) $(DESTDIR)$(INCLUDEDIR)/auxtrace/
	install -m 644 $(wildcard include/tracefs/*.h) $(DESTDIR)$(INCLUDEDIR)/auxtrace/tracefs/
	install -m 755 $(AUXREC) $(DESTDIR)$(BINDIR)/
	$(PC_SUBST) auxtrace.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/auxtrace.pc
	$(PC_SUBST) auxtrace-tracefs.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/auxtrace-tracefs.pc
	$(foreach s,$(MAN_SECTIONS),install -m 644 $(B)/man/man$(s)/*.$(s) \
		$(DESTDIR)$(MANDIR)/man$(s)/ &&) true

uninstall:
	rm -rf $(DESTDIR)$(INCLUDEDIR)/auxtrace $(DESTDIR)$(LIBDIR)/pkgconfig/auxtrace.pc \
		$(DESTDIR)$(LIBDIR)/pkgconfig/auxtrace-tracefs.pc \
		$(DESTDIR)$(LIBDIR)/libauxtrace.* $(DESTDIR)$(LIBDIR)/libauxtrace-tracefs.* \
		$(DESTDIR)$(BINDIR)/auxrec \
		$(foreach p,$(MAN_NAMES),$(call man_path,$(p),$(DESTDIR)$(MANDIR)))
	$(foreach s,$(MAN_SECTIONS),for f in $(B)/man/man$(s)/*.$(s); do \
		rm -f $(DESTDIR)$(MANDIR)/man$(s)/$${f##*/}; done &&) true

clean:
	rm -rf build build-san build-fuzz
