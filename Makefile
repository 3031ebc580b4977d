# snarkpipe build. Plain make, no generator step.
#   make            library, CLI and tools          (build/)
#   make test       scripts/deps.sh, every test program, then a summary line
#   make demo       build and run the main job on a built-in example
#   make bench      benchmarks (prints tables)
#   make SAN=1 ...  AddressSanitizer + UBSan build  (build-san/)
#   make fuzz       libFuzzer targets, clang         (build-fuzz/; scripts/fuzz.sh runs them)
#   make test-arith the arithmetic layers' unit tests (with CURVE=bn254: build-bn254/)
#   BUILD=dir       build directory (lets several builds coexist)
#   CURVE=bn254     the whole tree for BN254 instead of BLS12-381 (build-bn254/,
#                   build-bn254-san/; every object gets -DSP_CURVE_BN254=1). The
#                   default build makes that one too and links both into one
#                   $(BUILD)/snarkpipe (ARCHITECTURE.md, "Curves").
#   make curve-names  rewrites src/names_bn254.h, the BN254 names of the per-curve
#                   globals, from a BN254 build's objects (the build checks it, never
#                   writes it: "two curves" below)
#   CUDA_BN254=0    with CUDA=1: leave the BN254 instance CPU-only (by default it gets
#                   its own CUDA backend too, the kernels compiled a second time)
#   make clean      removes $(BUILD) (and its BN254 instance's) only; make clean-all
#                   also build-san/, build-fuzz/ (and their -bn254 twins)

CC      ?= gcc
SAN     ?= 0
# One curve per build of the tree (ARCHITECTURE.md, "Curves").
CURVE   ?= bls12-381
ifeq ($(CURVE),bls12-381)
CURVE_TAG   :=
CURVE_FLAGS :=
GPU_CURVE_FLAGS :=
else ifeq ($(CURVE),bn254)
CURVE_TAG   := -bn254
# the BN254 names of the per-curve globals ("two curves in one binary" below)
CURVE_FLAGS := -DSP_CURVE_BN254=1 -include src/names_bn254.h
# and those of the CUDA backend's C functions, for gpu/ and its tests
GPU_CURVE_FLAGS := -include gpu/names_bn254.h
GPU_CURVE_DEPS  := src/names_bn254.h gpu/names_bn254.h
else
$(error CURVE must be bls12-381 or bn254, not '$(CURVE)')
endif
ifeq ($(SAN),1)
BUILD   ?= build$(CURVE_TAG)-san
OPT     ?= -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
else
BUILD   ?= build$(CURVE_TAG)
OPT     ?= -O2 -g
endif
WARN    ?= -Wall -Wextra -Wno-unused-parameter -Wshadow -Wstrict-prototypes
ifeq ($(WERROR),1)
WARN    += -Werror
endif
# A BLS12-381 build links the BN254 instance built here ("two curves" below).
ifeq ($(CURVE),bls12-381)
BN_BUILD    := $(if $(filter %-san,$(BUILD)),$(patsubst %-san,%-bn254-san,$(BUILD)),$(BUILD)-bn254)
BN_INSTANCE := $(BN_BUILD)/instance.a
# the sub-make's arguments: CUDA for BN254 as for BLS12-381 unless CUDA_BN254=0
CUDA_BN254  ?= 1
BN_MAKE     := CURVE=bn254 BUILD=$(BN_BUILD) CUDA=$(if $(filter 0,$(CUDA_BN254)),0,$(CUDA))
endif
CFLAGS  += -std=c11 -D_GNU_SOURCE $(CURVE_FLAGS) $(OPT) $(WARN) -Iinclude -Isrc -pthread
LDFLAGS += $(if $(filter 1,$(SAN)),-fsanitize=address$(comma)undefined) -pthread
LDLIBS  += -lm
comma   := ,
# What this build was configured with (compiler, flags, the optional
# libraries found, CUDA), recorded in $(BUILD)/features; every object
# depends on it, and the file is rewritten only when that changes, so a
# build made before a library was installed is rebuilt with it once it is
# (the line is written at the end of this file, once all of it is known).
FEATURES_FILE := $(BUILD)/features

# The core layers, bottom up. Every .c file under them goes into the library.
LAYERS  := util field curve pairing msm ntt r1cs wasm groth16 circuit synth engine
LIB_SRC := $(foreach d,$(LAYERS),$(wildcard src/$(d)/*.c))
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
# The layers compiled once for both curves (curve-neutral: "two curves" below).
SHARED_LAYERS := util wasm engine
SHARED_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(foreach d,$(SHARED_LAYERS),$(wildcard src/$(d)/*.c)))
LIB     := $(BUILD)/libsnarkpipe.a

# Test programs per curve: every tests/test_*.c is built and run for both
# curves except those that exist for one curve only, by nature (ARCHITECTURE.md,
# "Curves"): bellperson .params, the Filecoin porep-like circuit and
# Poseidon with neptune's vectors are BLS12-381's, and so is the native
# circuits' layer under them (src/circuit: constants of BLS12-381's Fr,
# values packed in its 255 bits, .sprec recordings; refused on BN254).
TESTS_ONLY_BLS12_381 := test_params test_porep test_post test_post_engine test_poseidon test_circuit test_bits test_sha_gadget
TESTS_ONLY_BN254     :=
# The unit tests of the arithmetic layers (field, curve, pairing, msm, ntt),
# for `make test-arith`.
TESTS_ARITH := test_field test_tower test_curve test_encode test_pairing test_msm test_ntt \
               test_noble test_fixed_base
ifeq ($(CURVE),bn254)
TESTS_OTHER_CURVE := $(TESTS_ONLY_BLS12_381)
else
TESTS_OTHER_CURVE := $(TESTS_ONLY_BN254)
endif
TEST_SRC  := $(filter-out $(TESTS_OTHER_CURVE:%=tests/%.c),$(wildcard tests/test_*.c))
TEST_NAMES := $(TEST_SRC:tests/%.c=%)
# the BN254 instance's test programs (run beside this build's by `make test`)
TEST_NAMES_BN254 := $(filter-out $(TESTS_ONLY_BLS12_381),$(patsubst tests/%.c,%,$(wildcard tests/test_*.c)))
TEST_BIN  := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
# Helpers the test scripts run (not tests themselves: run.sh runs test_* only).
TOOL_SRC  := $(wildcard tests/tool_*.c)
TOOL_BIN  := $(TOOL_SRC:tests/%.c=$(BUILD)/tests/%)
# Benchmarks per curve, as the tests: the native-circuit ones (Poseidon with
# neptune's constants, the SHA-256 gadget) measure the Filecoin workload on
# BLS12-381.
BENCH_ONLY_BLS12_381 := bench_poseidon bench_sha_gadget bench_mixed bench_engine_synth
BENCH_SRC := $(filter-out $(if $(filter bn254,$(CURVE)),$(BENCH_ONLY_BLS12_381:%=bench/%.c)),$(wildcard bench/bench_*.c))
BENCH_BIN := $(BENCH_SRC:bench/%.c=$(BUILD)/bench/%)
# The command-line tool (not part of the library): src/cli plus the
# benchmark bodies it runs (`snarkpipe bench field`). dispatch.c holds the
# one main and is not part of a curve's instance (see "two curves" below).
CLI_SRC   := $(filter-out src/cli/dispatch.c,$(wildcard src/cli/*.c))
CLI_OBJ   := $(CLI_SRC:%.c=$(BUILD)/%.o)
DISPATCH_OBJ := $(BUILD)/src/cli/dispatch.o
CLI       := $(BUILD)/snarkpipe

# The proving daemon (src/daemon; not part of the library): needs
# libmicrohttpd and libinih, found with pkg-config. It is its own
# executable, $(BUILD)/snarkpipe-daemon (the whole CLI with the daemon and
# its libraries linked in), which `snarkpipe daemon` runs (exec, next to
# itself), so that every other command starts without loading the daemon's
# ~28 shared libraries.
# src/daemon/wire.c (the HTTP client of `snarkpipe client`) is in both.
# The daemon is compiled once for both curves, driving its curve through
# the table that `daemon` of the curve's instance hands it (daemon/ops.h);
# that table (src/daemon/ops.c) and the .wasm circuits it reaches
# (src/daemon/wasmcirc.c) are compiled per curve, with the CLI
# (DAEMON_CURVE_OBJ, in CLI_OBJ: in each instance, libc and the library
# below them only).
# Without the libraries there is no snarkpipe-daemon, `snarkpipe daemon`
# says what is missing and tests/test_daemon is skipped.
DAEMON_PKGS := libmicrohttpd inih
DAEMON_OK   := $(shell pkg-config --exists $(DAEMON_PKGS) 2>/dev/null && echo 1)
WIRE_OBJ    := $(BUILD)/src/daemon/wire.o
DAEMON_CURVE_OBJ := $(BUILD)/src/daemon/ops.o $(BUILD)/src/daemon/wasmcirc.o
CLI_OBJ     += $(WIRE_OBJ) $(DAEMON_CURVE_OBJ)
ifeq ($(DAEMON_OK),1)
DAEMON_SRC  := $(filter-out src/daemon/wire.c $(DAEMON_CURVE_OBJ:$(BUILD)/%.o=%.c),$(wildcard src/daemon/*.c src/daemon/farm/*.c))
DAEMON_LIBS := $(shell pkg-config --libs $(DAEMON_PKGS))
DAEMON_BIN  := $(BUILD)/snarkpipe-daemon
# the one main twice: snarkpipe's runs snarkpipe-daemon for `daemon`
DISPATCH_DAEMON_OBJ := $(BUILD)/src/cli/dispatch_daemon.o
$(DISPATCH_OBJ): CFLAGS += -DSP_DAEMON_EXEC=1
$(DAEMON_SRC:%.c=$(BUILD)/%.o): CFLAGS += -DSP_WITH_DAEMON $(shell pkg-config --cflags $(DAEMON_PKGS))
else
DAEMON_SRC  :=
TEST_BIN    := $(filter-out $(BUILD)/tests/test_daemon $(BUILD)/tests/test_daemon_attack $(BUILD)/tests/test_daemon_guard,$(TEST_BIN))
endif
# The farm's queue (src/daemon/farm/queue_pg.c, `daemon --queue postgresql://...`)
# needs libpq, found with pkg-config; without it the daemon still builds,
# single-host only, and says so when --queue is given.
PQ_OK       := $(shell pkg-config --exists libpq 2>/dev/null && echo 1)
ifeq ($(DAEMON_OK)$(PQ_OK),11)
$(BUILD)/src/daemon/farm/queue_pg.o $(BUILD)/src/daemon/farm/queue_pg_jobs.o $(BUILD)/src/daemon/farm/queue_none.o: \
	CFLAGS += -DSP_WITH_PQ $(shell pkg-config --cflags libpq)
DAEMON_LIBS += $(shell pkg-config --libs libpq)
endif
DAEMON_OBJ  := $(DAEMON_SRC:%.c=$(BUILD)/%.o)
# The daemon is curve-neutral: a two-curve build's BN254 test programs and
# one-curve BN254 snarkpipe-daemon link the objects the BLS12-381 build
# compiled (DAEMON_ONCE, which bn254-tests below passes), with the BN254
# library and CLI; a BN254 build of its own compiles them itself.
DAEMON_OWN_OBJ := $(DAEMON_OBJ)
ifneq ($(DAEMON_ONCE),)
DAEMON_OBJ     := $(DAEMON_ONCE)
DAEMON_OWN_OBJ :=
endif
$(DAEMON_BIN): LDLIBS += $(DAEMON_LIBS)

.PHONY: all lib tests test test-run test-arith bench demo demo-run clean clean-all check-layers bn254-tests
all: lib tests $(BENCH_BIN) $(CLI) $(DAEMON_BIN) $(if $(BN_BUILD),bn254-tests)
lib: $(LIB)

$(BUILD)/%.o: %.c $(FEATURES_FILE)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(LIB): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

# Tests may use GMP (test-only dependency) and reach internals through src/.
$(BUILD)/tests/%: tests/%.c $(wildcard tests/*.h) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $< -o $@ $(LIB) $(LDFLAGS) $(LDLIBS) -lgmp

# The daemon's tests link the daemon's objects (they come before the library).
$(BUILD)/tests/test_daemon $(BUILD)/tests/test_daemon_attack $(BUILD)/tests/test_daemon_guard: $(BUILD)/tests/%: tests/%.c $(wildcard tests/*.h) $(DAEMON_OBJ) $(WIRE_OBJ) $(DAEMON_CURVE_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $< $(DAEMON_OBJ) $(WIRE_OBJ) $(DAEMON_CURVE_OBJ) -o $@ $(LIB) $(LDFLAGS) $(LDLIBS) $(DAEMON_LIBS) -lgmp

$(BUILD)/bench/%: bench/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $< $(BENCH_CUDA_OBJ) -o $@ $(LIB) $(LDFLAGS) $(LDLIBS) $(BENCH_CUDA_LIBS)

# bench_field runs the table of `snarkpipe bench field` (src/cli/cmd_bench_field.c).
$(BUILD)/bench/bench_field: bench/bench_field.c $(BUILD)/src/cli/cmd_bench_field.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $< $(BUILD)/src/cli/cmd_bench_field.o -o $@ $(LIB) $(LDFLAGS) $(LDLIBS)

# CLI_CUDA_OBJ and CLI_CUDA_LIBS are empty unless CUDA=1 (see below);
# BN_INSTANCE is the BN254 instance of a BLS12-381 build (an archive, after
# its CUDA backend's object BN_CUDA_OBJ with CUDA=1; "two curves" below).
$(CLI): $(DISPATCH_OBJ) $(CLI_OBJ) $(LIB) $(BN_INSTANCE)
	$(CC) $(CFLAGS) $(DISPATCH_OBJ) $(CLI_OBJ) $(BN_CUDA_OBJ) $(BN_INSTANCE) $(CLI_CUDA_OBJ) -o $@ $(LIB) $(LDFLAGS) $(LDLIBS) $(CLI_CUDA_LIBS)

# snarkpipe-daemon: the same CLI (with the same BN254 instance) plus the one
# daemon. Only `snarkpipe daemon` runs it.
$(DISPATCH_DAEMON_OBJ): src/cli/dispatch.c $(FEATURES_FILE)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@
$(DAEMON_BIN): $(DISPATCH_DAEMON_OBJ) $(CLI_OBJ) $(DAEMON_OBJ) $(LIB) $(BN_INSTANCE)
	$(CC) $(CFLAGS) $(DISPATCH_DAEMON_OBJ) $(CLI_OBJ) $(DAEMON_OBJ) $(BN_CUDA_OBJ) $(BN_INSTANCE) $(CLI_CUDA_OBJ) -o $@ $(LIB) $(LDFLAGS) $(LDLIBS) $(CLI_CUDA_LIBS)

# test_noble links the CLI's known-answer checker (src/cli/kat.h).
$(BUILD)/tests/test_noble: tests/test_noble.c $(wildcard tests/*.h) $(BUILD)/src/cli/kat.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $< $(BUILD)/src/cli/kat.o -o $@ $(LIB) $(LDFLAGS) $(LDLIBS) -lgmp

tests: $(TEST_BIN) $(TOOL_BIN)

# scripts/deps.sh first: it installs what is missing (as root on Debian)
# or names it; then a fresh make, which sees the daemon's libraries if they
# were just installed. tests/test_*.sh drive the CLI (run.sh passes them
# $(BUILD)); run.sh ends with "N passed, N failed, N skipped".
test:
	@scripts/deps.sh
	@$(MAKE) --no-print-directory test-run
test-run: tests $(CLI) $(DAEMON_BIN) check-layers $(if $(BN_BUILD),bn254-tests)
	@SP_TEST_PROGRAMS="$(TEST_NAMES)" SP_TEST_PROGRAMS_BN254="$(TEST_NAMES_BN254)" \
		tests/run.sh $(BUILD)/tests $(if $(BN_BUILD),--bn254 $(BN_BUILD)/tests)
# The arithmetic layers' unit tests only (no CLI, no scripts).
test-arith: $(TESTS_ARITH:%=$(BUILD)/tests/%)
	@SP_TEST_PROGRAMS="$(TESTS_ARITH)" SP_TEST_SCRIPTS= tests/run.sh $(BUILD)/tests

# The BN254 instance's test programs (the same sources but TESTS_ONLY_BLS12_381)
# and the one-curve BN254 snarkpipe that those driving a daemon run, with
# this build's daemon (DAEMON_ONCE above). After the instance's sub-make
# (a BLS12-381 build): two sub-makes in one build folder at once compiled
# main.o twice while one linked it half-written.
bn254-tests: FORCE $(BN_INSTANCE) $(DAEMON_OBJ)
	@$(MAKE) --no-print-directory $(BN_MAKE) $(if $(DAEMON_OBJ),DAEMON_ONCE="$(DAEMON_OBJ)") tests \
		$(BN_BUILD)/snarkpipe $(if $(DAEMON_BIN),$(BN_BUILD)/snarkpipe-daemon)

# A file may include only its own layer or lower ones (ARCHITECTURE.md);
# with the daemon built, its objects' calls are checked too.
check-layers: $(DAEMON_OBJ)
	@tools/check-layers.sh . $(if $(DAEMON_OBJ),$(BUILD))

bench: $(BENCH_BIN)
	@for b in $(BENCH_BIN); do $$b || exit 1; done

# demo checks (and installs, as root on Debian) what the build needs first,
# as test does, so that the build it makes is the one test then uses.
demo:
	@scripts/deps.sh
	@$(MAKE) --no-print-directory demo-run
demo-run: all
	@scripts/demo.sh $(BUILD)

# Optional CUDA backend (gpu/, needs nvcc; see gpu/sp_cuda.h). Built only by
# `make gpu`, or as part of `all` with CUDA=1; `make test` never needs it.
#   make gpu [CUDA_ARCH=90] -> $(BUILD)/libsnarkpipe_cuda.a, $(BUILD)/tests/gpu/gpu_check
#              (the GPU-against-CPU checks) and $(BUILD)/bench/gpu/gpu_bench (the timings)
#   CUDA=1     also links the CLI with the CUDA backend (prove --backend cuda,
#              engine backends=cuda:N); the library and the tests stay CPU-only
#   CUDA=auto  CUDA=1 when nvcc is found, else 0 (the default is 0)
NVCC      ?= $(or $(shell command -v nvcc 2>/dev/null),$(wildcard /usr/local/cuda/bin/nvcc))
CUDA      ?= 0
ifeq ($(CUDA),auto)
override CUDA := $(if $(NVCC),1,0)
endif
CUDA_ARCH ?= 90
NVCCFLAGS ?= -O3 -std=c++17 -gencode arch=compute_$(CUDA_ARCH),code=sm_$(CUDA_ARCH)
# the G2 instantiations (the longest compilations) first, so that a
# parallel build does not end waiting on one of them
CUDA_SRC  := $(wildcard gpu/*/*_g2.cu)
CUDA_SRC  += $(filter-out $(CUDA_SRC),$(wildcard gpu/*/*.cu))
# gpu/backend/*.c: plain C over the CUDA core (the backend), compiled by $(CC)
CUDA_C_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(wildcard gpu/*/*.c))
CUDA_OBJ  := $(CUDA_SRC:%.cu=$(BUILD)/%.o) $(CUDA_C_OBJ)
CUDA_LIB  := $(BUILD)/libsnarkpipe_cuda.a
CUDA_DEPS := $(filter-out gpu/names_%,$(wildcard gpu/*.h gpu/*/*.cuh gpu/*/*.h)) src/field/consts.h $(GPU_CURVE_DEPS)
# The GPU checks (tests/gpu/) and timings (bench/gpu/); gpu_bench links the
# harness they share, tests/gpu/common.o.
GPU_CHECK_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(wildcard tests/gpu/*.c))
GPU_CHECK := $(BUILD)/tests/gpu/gpu_check
GPU_BENCH_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(wildcard bench/gpu/*.c)) $(BUILD)/tests/gpu/common.o
GPU_BENCH := $(BUILD)/bench/gpu/gpu_bench

.PHONY: gpu
gpu: $(CUDA_LIB) $(GPU_CHECK) $(GPU_BENCH)
# a BLS12-381 build makes the BN254 twin's as well (unless CUDA_BN254=0)
ifeq ($(CURVE)$(filter 0,$(CUDA_BN254)),bls12-381)
gpu: bn254-gpu
.PHONY: bn254-gpu
# after the instance's sub-make when a goal needs both (one sub-make per
# build folder at a time: both would compile the same objects)
bn254-gpu: $(if $(filter-out gpu bn254-gpu,$(or $(MAKECMDGOALS),all)),$(BN_INSTANCE))
	@$(MAKE) --no-print-directory $(BN_MAKE) gpu
endif
ifeq ($(CUDA),1)
all: gpu
# The CLI links the CUDA backend's object itself (not only from the
# archive, where nothing would pull it in): it registers its provider when
# the program starts, so sp_backend_open knows "cuda:N".
CLI_CUDA_OBJ  := $(BUILD)/gpu/backend/backend_cuda.o $(CUDA_LIB)
CLI_CUDA_LIBS := -L$(dir $(NVCC))../lib64 -lcudart_static -ldl -lrt -lstdc++
$(CLI) $(DAEMON_BIN): $(CLI_CUDA_OBJ)
# bench_mixed runs the engine on --backends cuda:N too
$(BUILD)/bench/bench_mixed: BENCH_CUDA_OBJ = $(CLI_CUDA_OBJ)
$(BUILD)/bench/bench_mixed: BENCH_CUDA_LIBS = $(CLI_CUDA_LIBS)
$(BUILD)/bench/bench_mixed: $(CLI_CUDA_OBJ)
endif

# gpu/ files include the backend's headers as "gpu/dir/file.h" (from the
# repository root) and their own folder's by name
$(CUDA_C_OBJ): CFLAGS += -I. $(GPU_CURVE_FLAGS)
$(CUDA_C_OBJ): $(CUDA_DEPS)

$(BUILD)/gpu/%.o: gpu/%.cu $(CUDA_DEPS) $(FEATURES_FILE)
	@test -n "$(NVCC)" || { echo "make gpu: nvcc not found (set NVCC=/path/to/nvcc)"; exit 1; }
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) $(CURVE_FLAGS) $(GPU_CURVE_FLAGS) -I. -Iinclude -Isrc -c $< -o $@

$(CUDA_LIB): $(CUDA_OBJ)
	@rm -f $@
	ar rcs $@ $^

# They include the backend's headers as "gpu/...", gpu_bench the harness as
# "tests/gpu/gpu_check.h" (from the repository root), and "test.h" (tests/).
$(sort $(GPU_CHECK_OBJ) $(GPU_BENCH_OBJ)): CFLAGS += -I. -Itests $(GPU_CURVE_FLAGS)
$(GPU_CHECK_OBJ) $(GPU_BENCH_OBJ): $(CUDA_DEPS)
$(GPU_CHECK): $(GPU_CHECK_OBJ) $(CUDA_LIB) $(LIB)
	$(NVCC) $(NVCCFLAGS) $(GPU_CHECK_OBJ) -o $@ $(CUDA_LIB) $(LIB) -lpthread -lm -lstdc++
$(GPU_BENCH): $(GPU_BENCH_OBJ) $(CUDA_LIB) $(LIB)
	$(NVCC) $(NVCCFLAGS) $(GPU_BENCH_OBJ) -o $@ $(CUDA_LIB) $(LIB) -lpthread -lm -lstdc++

# ---- two curves in one binary (ARCHITECTURE.md, "Curves") ----
# A BLS12-381 build also builds the BN254 instance: the whole tree with
# CURVE=bn254 in BN_BUILD (build-bn254/, build-bn254-san/ with SAN=1,
# BUILD-bn254/ for another BUILD), made by a sub-make, whose per-curve
# objects (CURVE_OBJ: the library's and the CLI's but the layers compiled
# once, below) go into an archive, instance.a, linked beside this build's
# library. Its objects are born with names of their own: every BN254
# compile force-includes src/names_bn254.h, one #define per global that the
# per-curve objects define (sp_x -> sp_bn254_x, any other x ->
# sp_bn254__x), so the two curves' globals (the field path choice, the
# backend providers, the CLI's options) never meet and no object is
# rewritten after the compiler. Its main.c's sp_cli_main is
# sp_bn254_cli_main, which dispatch.c (compiled here with
# SP_WITH_BN254_INSTANCE=1) calls. The header is committed, generated by
# tools/gen-curve-names.sh from nm of the BN254 objects (`make
# curve-names`); a build only checks it: before linking, every global the
# BN254 objects define must be renamed (or in the CUDA backend's BN254
# namespace) and defined by no BLS12-381 object, else the check names the
# symbol and says to run `make curve-names`.
# With CUDA=1 the BN254 instance gets its own CUDA backend (the kernels
# compiled a second time, for BN254, into BN_BUILD, and archived with the
# rest; its backend_cuda.o is linked as an object, BN_CUDA_OBJ, for its
# constructor registers the provider); CUDA_BN254=0 leaves it out (the
# BN254 prover then runs on the CPU and says so for --backend cuda). Its C
# functions are renamed by a second header, gpu/names_bn254.h (from the
# gpu/ objects: `make CUDA=1 curve-names`); its C++ (kernels, template
# instantiations, inline functions) lives in a namespace per curve,
# SP_CURVE_NS (field/consts.h), so its mangled names differ too; the weak
# instantiations of CUB and the standard library on plain integers may be
# the same in both curves, and are the same code.
# Compiled once: util/, wasm/ and the engine (SHARED_OBJ) are
# curve-neutral (the engine drives a curve through the table its caller
# passes, synth/ops.h; util/ and wasm/ know no field), so they are left
# out of the instance and out of the header: the instance's calls into
# them keep their names and reach the one copy in this build's library.
# So does the HTTP client (WIRE_OBJ) of the CLI. tools/check-layers.sh
# keeps them neutral. The daemon (DAEMON_OBJ) likewise: never in the
# instance, whose `daemon` (src/cli/cmd_daemon.c) calls the one
# sp_dmn_main of snarkpipe-daemon with its curve's table (daemon/ops.h,
# DAEMON_CURVE_OBJ above). The BN254-only build (CURVE=bn254) still has
# the engine in its own library and its own daemon, for its tests.
CURVE_OBJ := $(filter-out $(SHARED_OBJ),$(LIB_OBJ)) $(filter-out $(WIRE_OBJ),$(CLI_OBJ))
CURVE_CUDA_OBJ := $(if $(filter 1,$(CUDA)),$(filter-out $(BUILD)/gpu/backend/backend_cuda.o,$(CUDA_OBJ)))
.PHONY: FORCE instance curve-names
ifeq ($(CURVE),bls12-381)
$(DISPATCH_OBJ) $(DISPATCH_DAEMON_OBJ): CFLAGS += -DSP_WITH_BN254_INSTANCE=1
BN_CUDA_OBJ := $(if $(filter 1,$(if $(filter 0,$(CUDA_BN254)),0,$(CUDA))),$(BN_BUILD)/gpu/backend/backend_cuda.o)
BN_CHECKED  := $(BN_BUILD)/instance.checked
$(BN_INSTANCE): FORCE
	@$(MAKE) --no-print-directory $(BN_MAKE) instance
$(BN_CHECKED): $(BN_INSTANCE) $(LIB_OBJ) $(CLI_OBJ) $(CLI_CUDA_OBJ) tools/gen-curve-names.sh
	@echo "check the BN254 instance's names ($(BN_CUDA_OBJ) $(BN_INSTANCE))"
	@tools/gen-curve-names.sh --check $(BN_CUDA_OBJ) $(BN_INSTANCE) -- $(LIB_OBJ) $(CLI_OBJ) $(CLI_CUDA_OBJ)
	@touch $@
$(CLI) $(DAEMON_BIN): $(BN_CHECKED)
curve-names:
	@$(MAKE) --no-print-directory $(BN_MAKE) curve-names
else
instance: $(BUILD)/instance.a $(if $(CURVE_CUDA_OBJ),$(BUILD)/gpu/backend/backend_cuda.o)
curve-names: $(CURVE_OBJ) $(CURVE_CUDA_OBJ)
	tools/gen-curve-names.sh src/names_bn254.h $(CURVE_OBJ)
	$(if $(CURVE_CUDA_OBJ),tools/gen-curve-names.sh gpu/names_bn254.h $(CUDA_OBJ))
endif
$(BUILD)/instance.a: $(CURVE_OBJ) $(CURVE_CUDA_OBJ)
	@rm -f $@
	ar rcs $@ $^

# libFuzzer targets for the file and string readers (tests/fuzz; needs
# clang and its fuzzer runtime, Debian: clang libclang-rt-14-dev). Not part
# of `all`; scripts/fuzz.sh builds and runs them.
#   make fuzz -> $(FUZZ_BUILD)/fuzz/fuzz_*  (library built with the same sanitizers)
FUZZ_BUILD ?= build-fuzz$(CURVE_TAG)
FUZZ_CC    ?= clang
FUZZ_OPT   := -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
# Fuzz targets per curve, as the tests: the zcash point form and bellperson
# files are BLS12-381's, the EVM and arkworks point forms BN254's.
FUZZ_ONLY_BLS12_381 := fuzz_point fuzz_bp_params fuzz_bp_proof fuzz_bp_vk
FUZZ_ONLY_BN254     := fuzz_point_bn254
FUZZ_OTHER_CURVE    := $(if $(filter bn254,$(CURVE)),$(FUZZ_ONLY_BLS12_381),$(FUZZ_ONLY_BN254))
FUZZ_SRC   := $(filter-out $(FUZZ_OTHER_CURVE:%=tests/fuzz/%.c),$(wildcard tests/fuzz/fuzz_*.c))

.PHONY: fuzz fuzz-targets fuzz-list
fuzz:
	@$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CC=$(FUZZ_CC) SAN=0 OPT="$(FUZZ_OPT)" fuzz-targets
# The targets of this curve's fuzz build, one name a line (scripts/fuzz.sh).
fuzz-list:
	@for f in $(FUZZ_SRC:tests/fuzz/fuzz_%.c=%); do echo $$f; done
fuzz-targets: $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/fuzz/%) $(BUILD)/fuzz/make_seeds

$(BUILD)/fuzz/%: tests/fuzz/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fsanitize=fuzzer -MMD -MP $< -o $@ $(LIB) $(LDFLAGS) $(LDLIBS) -lgmp

# The daemon's decoders (multipart, base64, addresses and Host/Origin
# values) live in src/daemon/form.c and wire.c, which need libc only.
FUZZ_WIRE_OBJ := $(BUILD)/src/daemon/form.o $(BUILD)/src/daemon/wire.o
FUZZ_WIRE_BIN := $(patsubst tests/fuzz/%.c,$(BUILD)/fuzz/%,$(wildcard tests/fuzz/fuzz_form.c tests/fuzz/fuzz_base64.c tests/fuzz/fuzz_addr.c))
$(FUZZ_WIRE_BIN): $(BUILD)/fuzz/%: tests/fuzz/%.c $(FUZZ_WIRE_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fsanitize=fuzzer -MMD -MP $< $(FUZZ_WIRE_OBJ) -o $@ $(LIB) $(LDFLAGS) $(LDLIBS)

# Writes the seed corpora (tests/fuzz/make_seeds.c says how to run it; a
# BN254 build's writes the BN254-only target's, make_seeds_bn254.c).
$(BUILD)/fuzz/make_seeds: tests/fuzz/make_seeds$(if $(filter bn254,$(CURVE)),_bn254).c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP $< -o $@ $(LIB) $(LDFLAGS) $(LDLIBS)

# Installation, as operators run it (README.md, "Running the daemon as a
# service"): the CLI, the example configuration, a service configuration
# (kept when one is there) and the systemd unit. PREFIX and DESTDIR as usual:
#   make install PREFIX=/usr/local          (the default)
#   make install PREFIX=/usr DESTDIR=pkg/   (a package's tree)
PREFIX     ?= /usr/local
BINDIR     ?= $(PREFIX)/bin
SYSCONFDIR ?= $(if $(filter /usr,$(PREFIX)),/etc,$(PREFIX)/etc)
DOCDIR     ?= $(PREFIX)/share/doc/snarkpipe
UNITDIR    ?= $(if $(filter /usr,$(PREFIX)),/usr/lib/systemd/system,$(PREFIX)/lib/systemd/system)

.PHONY: install uninstall
install: $(CLI) $(DAEMON_BIN)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DOCDIR) $(DESTDIR)$(UNITDIR) $(DESTDIR)$(SYSCONFDIR)/snarkpipe
	install -m 0755 $(CLI) $(DESTDIR)$(BINDIR)/snarkpipe
	$(if $(DAEMON_BIN),install -m 0755 $(DAEMON_BIN) $(DESTDIR)$(BINDIR)/snarkpipe-daemon)
	install -m 0644 snarkpipe.conf.example README.md $(DESTDIR)$(DOCDIR)/
	test -e $(DESTDIR)$(SYSCONFDIR)/snarkpipe/snarkpipe.conf || \
		install -m 0644 dist/snarkpipe.conf $(DESTDIR)$(SYSCONFDIR)/snarkpipe/snarkpipe.conf
	sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' dist/snarkpipe.service.in \
		>$(DESTDIR)$(UNITDIR)/snarkpipe.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/snarkpipe.service

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/snarkpipe $(DESTDIR)$(BINDIR)/snarkpipe-daemon $(DESTDIR)$(UNITDIR)/snarkpipe.service
	rm -rf $(DESTDIR)$(DOCDIR)

# clean removes this build's directories only: $(BUILD) (build/, build-san/
# with SAN=1, or BUILD=dir) and its BN254 instance's. clean-all also removes
# the default sanitizer, BN254 and fuzz directories.
clean:
	@case "$(BUILD)" in ""|.|./|/|..|../*) echo "make clean: refusing BUILD=$(BUILD)"; exit 1;; esac
	rm -rf $(BUILD) $(BN_BUILD)
clean-all: clean
	rm -rf build-san build-fuzz build-bn254 build-bn254-san build-fuzz-bn254

FEATURES := cc=$(CC) cflags=$(CFLAGS) daemon=$(DAEMON_OK) pq=$(PQ_OK) cuda=$(CUDA) nvcc=$(NVCCFLAGS)
$(shell mkdir -p $(BUILD) && { [ "$$(cat $(FEATURES_FILE) 2>/dev/null)" = '$(FEATURES)' ] || \
	printf '%s\n' '$(FEATURES)' >$(FEATURES_FILE); })

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(DAEMON_OWN_OBJ:.o=.d) $(DISPATCH_DAEMON_OBJ:.o=.d) $(wildcard $(BUILD)/fuzz/*.d $(BUILD)/gpu/*/*.d $(BUILD)/tests/gpu/*.d $(BUILD)/bench/gpu/*.d)
