# flamekit — see README.md. `make` builds build/flamekit and its personality
# links; `make check` runs the tests; `make check SANITIZE=1` under ASan+UBSan;
# `make fuzz` builds the libFuzzer targets; V=1 shows full commands.

VERSION     := 0.1.0
PREFIX      ?= /usr/local
BUILD       := build
CC          ?= cc
CLANG       ?= clang
CFLAGS      ?= -O2 -g
STRICT      := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -DFLAMEKIT_VERSION='"$(VERSION)"'
LIBS        := -lbpf -ldw -lelf -lz -ldeflate -lisal -lxxhash -liberty -lm -pthread
BPFTOOL     ?= $(or $(shell command -v bpftool),/usr/sbin/bpftool)
# The BPF side of `record` (src/bpf/): clang -target bpf needs the
# architecture's name and the UAPI headers' multiarch directory.
BPF_ARCH    := $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/' -e 's/ppc64le/powerpc/' -e 's/s390x/s390/' -e 's/riscv64/riscv/')
MULTIARCH   := $(shell $(CC) -print-multiarch 2>/dev/null)
BPF_CFLAGS  := -g -O2 -target bpf -D__TARGET_ARCH_$(BPF_ARCH) -I/usr/include/$(MULTIARCH) -Wall -Werror
SANITIZE    ?=
ifeq ($(SANITIZE),1)
SANFLAGS    := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
endif

# Names the binary answers to when called through a link (see src/main.c).
PERSONALITIES := stackcollapse-perf stackcollapse-perf.pl stackcollapse-stap stackcollapse-stap.pl \
	stackcollapse stackcollapse.pl stackcollapse-bpftrace stackcollapse-bpftrace.pl \
	flamegraph flamegraph.pl difffolded difffolded.pl

# libFuzzer targets: one per reader and one for the SVG writer
# (tests/fuzz/NAME.c; replay.c is the replay binaries' main).
FUZZ_TARGETS := $(filter-out replay,$(basename $(notdir $(wildcard tests/fuzz/*.c))))
# The SVG target checks its output with libxml2: only its fuzz and replay
# binaries link it, never flamekit.
XML_CFLAGS  := $(shell pkg-config --cflags libxml-2.0 2>/dev/null || echo -I/usr/include/libxml2)
XML_LIBS    := $(shell pkg-config --libs libxml-2.0 2>/dev/null || echo -lxml2)

SRCS := $(filter-out %.bpf.c,$(wildcard src/*.c src/*/*.c))
OBJS := $(patsubst src/%.c,$(BUILD)/obj/%.o,$(SRCS))
# What the fuzz targets link: no command line, no BPF sampler.
LIB_SRCS := $(filter-out src/main.c src/cli/% src/sampler/% src/interp/% src/push/%,$(SRCS))
LIB_OBJS := $(patsubst src/%.c,$(BUILD)/obj/%.o,$(LIB_SRCS))
# record.bpf.o needs no kernel BTF to load; record_task.bpf.o reads task
# fields through CO-RE (see src/bpf/record.bpf.c).
# record_lookup.bpf.o reads record's stacks in bulk at the end.
BPF_OBJS := $(BUILD)/bpf/record.bpf.o $(BUILD)/bpf/record_task.bpf.o \
	$(BUILD)/bpf/record_lookup.bpf.o
SKELETONS := $(BPF_OBJS:.bpf.o=.skel.h)
# Shell completions: one candidate function (completions/candidates.sh) and
# a shim per shell, joined into the files `make install` puts where bash and
# zsh look for them.
COMPLETIONS := $(BUILD)/completions/flamekit.bash $(BUILD)/completions/_flamekit

ifeq ($(V),1)
Q :=
else
Q := @
endif

.DELETE_ON_ERROR:
.PHONY: all check fuzz fuzz-smoke install clean bench FORCE

all: $(BUILD)/flamekit $(addprefix $(BUILD)/,$(PERSONALITIES)) $(BUILD)/fk-7030 $(COMPLETIONS)

# The README's example workload: 70% of its time in seventy(), 30% in
# thirty(), with frame pointers so that every profiler can walk its stacks.
$(BUILD)/fk-7030: tests/workload/fk-7030.c tests/workload/workload.h
	@mkdir -p $(dir $@)
	$(Q)$(CC) -O0 -g -fno-omit-frame-pointer -fno-inline -o $@ $<

# Rebuild everything when the flags change (e.g. SANITIZE=1 and back).
$(BUILD)/flags: FORCE
	@mkdir -p $(BUILD)
	@echo '$(CC) $(CFLAGS) $(STRICT) $(SANFLAGS) $(LIBS)' | cmp -s - $@ || \
		echo '$(CC) $(CFLAGS) $(STRICT) $(SANFLAGS) $(LIBS)' > $@

$(BUILD)/obj/%.o: src/%.c $(BUILD)/flags
	@mkdir -p $(dir $@)
	@$(if $(Q),echo '  CC      $<')
	$(Q)$(CC) $(CFLAGS) $(STRICT) $(SANFLAGS) $(INCLUDES) -MMD -MP -c -o $@ $<

$(BUILD)/bpf/record.bpf.o: src/bpf/record.bpf.c $(wildcard src/bpf/*.h) $(BUILD)/flags
	@mkdir -p $(dir $@)
	@$(if $(Q),echo '  BPF     $@')
	$(Q)$(CLANG) $(BPF_CFLAGS) -c -o $@ $<

$(BUILD)/bpf/record_task.bpf.o: src/bpf/record.bpf.c $(wildcard src/bpf/*.h) $(BUILD)/flags
	@mkdir -p $(dir $@)
	@$(if $(Q),echo '  BPF     $@')
	$(Q)$(CLANG) $(BPF_CFLAGS) -DRECORD_TASK_ACCESS -c -o $@ $<

$(BUILD)/bpf/record_lookup.bpf.o: src/bpf/record_lookup.bpf.c src/bpf/record.h $(BUILD)/flags
	@mkdir -p $(dir $@)
	@$(if $(Q),echo '  BPF     $@')
	$(Q)$(CLANG) $(BPF_CFLAGS) -c -o $@ $<

$(BUILD)/bpf/%.skel.h: $(BUILD)/bpf/%.bpf.o
	@$(if $(Q),echo '  SKEL    $@')
	$(Q)$(BPFTOOL) gen skeleton $< > $@

$(BUILD)/obj/sampler/%.o: INCLUDES := -I$(BUILD)/bpf

# The scripts and styles of the SVG (svg_*) and of the viewer's page
# (html_*), embedded as C strings (NAME_assets.h). Neither may hold what
# ends its container early: "]]>" ends the SVG's CDATA, "</script" and
# "</style" the page's elements.
$(BUILD)/gen/%_assets.h: src/writers/%_script.js src/writers/%_style.css
	@mkdir -p $(dir $@)
	@$(if $(Q),echo '  GEN     $@')
	$(Q)! grep -in ']]>\|</script\|</style' $^ || { echo "$@: ']]>', '</script' or '</style' would end the script's container" >&2; exit 1; }
	$(Q)for f in $^; do \
		echo "static const char $$(basename $$f | tr . _)[] ="; \
		sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/?/\\?/g' -e 's/^/\t"/' -e 's/$$/\\n"/' $$f; \
		echo '	"";'; \
	done > $@
$(BUILD)/obj/writers/svg.o $(BUILD)/obj/writers/html.o: INCLUDES := -I$(BUILD)/gen
$(BUILD)/obj/writers/svg.o: $(BUILD)/gen/svg_assets.h
$(BUILD)/obj/writers/html.o: $(BUILD)/gen/html_assets.h
$(BUILD)/obj/sampler/bpf_sampler.o $(BUILD)/obj/sampler/stack_fetch.o: $(SKELETONS)

$(BUILD)/flamekit: $(OBJS)
	@$(if $(Q),echo '  LINK    $@')
	$(Q)$(CC) $(CFLAGS) $(SANFLAGS) -o $@ $(OBJS) $(LIBS)

$(addprefix $(BUILD)/,$(PERSONALITIES)): $(BUILD)/flamekit
	$(Q)ln -sf flamekit $@

$(BUILD)/completions/flamekit.bash: completions/candidates.sh completions/bash.sh
	@mkdir -p $(dir $@)
	$(Q)cat $^ > $@
$(BUILD)/completions/_flamekit: completions/candidates.sh completions/zsh.sh
	@mkdir -p $(dir $@)
	$(Q){ echo '#compdef flamekit $(PERSONALITIES)'; cat $^; } > $@

# The fuzz targets as replay binaries (tests/fuzz/replay.c) that `make check`
# runs on tests/fuzz/regressions/ and tests/fuzz/seeds/: built with ASan and
# UBSan whatever SANITIZE says, from their own objects, compiled once and
# kept apart from the build's, so that switching SANITIZE rebuilds neither.
REPLAY_DIR    := $(BUILD)/replay-asan
REPLAY_CFLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
REPLAY_OBJS   := $(patsubst src/%.c,$(REPLAY_DIR)/obj/%.o,$(LIB_SRCS))
REPLAYS       := $(addprefix $(REPLAY_DIR)/,$(FUZZ_TARGETS))

# only the replays use them: kept, or make would delete them as intermediates
.SECONDARY: $(REPLAY_OBJS)

$(REPLAY_DIR)/flags: FORCE
	@mkdir -p $(REPLAY_DIR)
	@echo '$(CC) $(REPLAY_CFLAGS) $(STRICT) $(LIBS)' | cmp -s - $@ || \
		echo '$(CC) $(REPLAY_CFLAGS) $(STRICT) $(LIBS)' > $@

$(REPLAY_DIR)/obj/%.o: src/%.c $(REPLAY_DIR)/flags
	@mkdir -p $(dir $@)
	@$(if $(Q),echo '  CC      $@')
	$(Q)$(CC) $(REPLAY_CFLAGS) $(STRICT) $(INCLUDES) -MMD -MP -c -o $@ $<
$(REPLAY_DIR)/obj/writers/svg.o: INCLUDES := -I$(BUILD)/gen
$(REPLAY_DIR)/obj/writers/svg.o: $(BUILD)/gen/svg_assets.h
$(REPLAY_DIR)/obj/writers/html.o: INCLUDES := -I$(BUILD)/gen
$(REPLAY_DIR)/obj/writers/html.o: $(BUILD)/gen/html_assets.h

$(REPLAY_DIR)/%: tests/fuzz/%.c tests/fuzz/replay.c tests/fuzz/reader_harness.h $(REPLAY_OBJS) $(REPLAY_DIR)/flags
	@$(if $(Q),echo '  LINK    $@')
	$(Q)$(CC) $(REPLAY_CFLAGS) $(STRICT) $(FUZZ_CFLAGS) -o $@ $< tests/fuzz/replay.c $(REPLAY_OBJS) $(LIBS) $(FUZZ_LIBS)

check: all $(REPLAYS)
	$(Q)tests/run.sh $(BUILD)

FUZZFLAGS := -g -O1 -fsanitize=fuzzer,address,undefined
fuzz: $(addprefix $(BUILD)/fuzz/,$(FUZZ_TARGETS))

# Every fuzz target for FUZZ_SECONDS (default 60) from its seeds, one after
# the other; fails on the first crash (tests/fuzz/smoke.sh). Run before
# closing anything that touches a reader or writer.
FUZZ_SECONDS ?= 60
fuzz-smoke: fuzz
	$(Q)tests/fuzz/smoke.sh $(BUILD) $(FUZZ_SECONDS)

$(BUILD)/fuzz/%: tests/fuzz/%.c $(LIB_OBJS) $(BUILD)/gen/svg_assets.h $(BUILD)/gen/html_assets.h FORCE
	@mkdir -p $(dir $@)
	@$(if $(Q),echo '  FUZZ    $@')
	$(Q)$(CLANG) $(FUZZFLAGS) $(STRICT) $(FUZZ_CFLAGS) -I$(BUILD)/gen -o $@ $< $(LIB_SRCS) $(LIBS) $(FUZZ_LIBS)
$(BUILD)/fuzz/svg $(REPLAY_DIR)/svg: FUZZ_CFLAGS := $(XML_CFLAGS)
$(BUILD)/fuzz/svg $(REPLAY_DIR)/svg: FUZZ_LIBS := $(XML_LIBS)

bench: all
	bench/collapse.sh
	bench/flamegraph.sh
	bench/view.sh

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions
	install -m 755 $(BUILD)/flamekit $(DESTDIR)$(PREFIX)/bin/flamekit
	for p in $(PERSONALITIES); do ln -sf flamekit $(DESTDIR)$(PREFIX)/bin/$$p; done
	install -m 644 doc/flamekit.1 $(DESTDIR)$(PREFIX)/share/man/man1/flamekit.1
	install -m 644 $(BUILD)/completions/flamekit.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/flamekit
	for p in $(PERSONALITIES); do ln -sf flamekit $(DESTDIR)$(PREFIX)/share/bash-completion/completions/$$p; done
	install -m 644 $(BUILD)/completions/_flamekit $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_flamekit

clean:
	rm -rf $(BUILD)

-include $(OBJS:.o=.d) $(REPLAY_OBJS:.o=.d)
