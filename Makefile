# SPDX-License-Identifier: Apache-2.0 OR MIT
# The front door: every command drives CMake in build/.
BUILD ?= build
CMAKE_FLAGS ?=
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
PYTHON := ci/python
PREFIX ?= /usr/local
DESTDIR ?=

.PHONY: all deps configure test run regen check-asm man3 check-man3 check-macos prove bench install size deb fresh peers bench-peers bench-kernels bench-isa-ext bench-chart count-aarch64 provider-speed cpu-matrix aarch64 portable cross windows test-windows python test-python bench-python node test-node bench-node clean

all: configure
	cmake --build $(BUILD) -j $(JOBS)

deps:
	@ci/install-deps

# The tests are required here (BUILD_TESTING=ON): a missing dependency is an error.
configure: deps
	@cmake -S . -B $(BUILD) -DBUILD_TESTING=ON \
	  -DPython3_EXECUTABLE=$$(ci/python -c 'import sys; print(sys.executable)') $(CMAKE_FLAGS) >/dev/null

test: all
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# Demonstration: keygen, sign a file, verify it, and show that a flipped bit fails.
run: all
	@ci/demo $(BUILD)

regen:
	$(PYTHON) -m gen

check-asm:
	$(PYTHON) -m gen --check

# One man 3 page per public function, from include/mldsa.h's comments (man/gen_man3.py).
man3:
	$(PYTHON) man/gen_man3.py

check-man3:
	$(PYTHON) man/gen_man3.py --check

# Every flavour runs the ELF bodies the prover proved: each kernel assembled for Windows
# (MinGW-w64) and for both Mach-O targets (clang: x86_64- and arm64-apple-macos11), its
# instructions compared with the ELF object's (ci/check_flavours; docs/ports.md).
check-macos:
	@ci/install-deps --only clang llvm gcc-mingw-w64-x86-64 gcc-aarch64-linux-gnu libc6-dev-arm64-cross
	ci/check_flavours --self-test
	ci/check_flavours

# Prove the kernels in asm_out/ against their contracts (Z3; docs/proofs.md).
prove:
	ci/prove --build $(BUILD)

bench: all
	$(BUILD)/mldsa-bench

# Header, libraries, CLI, man pages, pkg-config file and CMake package under PREFIX, from
# a build of its own without tests (no test dependency is needed or installed).
INSTALL_BUILD ?= build-install
install:
	cmake -S . -B $(INSTALL_BUILD) -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF \
	  -DMLDSA_BUILD_BENCH=OFF $(CMAKE_FLAGS) >/dev/null
	cmake --build $(INSTALL_BUILD) -j $(JOBS)
	DESTDIR=$(DESTDIR) cmake --install $(INSTALL_BUILD) --prefix $(PREFIX)

# .text and .rodata of the library per ISA and per parameter set.
size: all
	@ci/size $(BUILD)

# Debian packages libmldsa0, libmldsa-dev, mldsa-tools, openssl-provider-mldsa and the
# -dbgsym packages of the library, the CLI and the provider in build-deb/ (no test
# dependencies; ci/lintian checks them). The provider's package needs OpenSSL 3's headers
# (libssl-dev): built when they are there, or with DEB_PROVIDER=ON (which installs them).
DEB_PROVIDER ?= $(shell [ -e /usr/include/openssl/core_dispatch.h ] && echo ON || echo OFF)
# Built with -g (the debug information goes to the -dbgsym packages, the packaged objects
# are stripped), -fcf-protection=full (CET: every object IBT/SHSTK-marked as ci/cet checks;
# the linked library is marked only where libc's crti.o/crtn.o are too, not on Debian 12)
# and -z relro -z now for the CLI as for the library.
# -fcf-protection is x86's (an arm64 gcc refuses it): elsewhere the flags are the build's
# own (AArch64: -mbranch-protection=standard, CMakeLists.txt).
DEB_CFLAGS := -g $(if $(filter x86_64,$(shell uname -m)),-fcf-protection=full)
deb:
	@ci/install-deps --only cmake gcc libc6-dev make dpkg-dev file binutils gzip
	@[ "$(DEB_PROVIDER)" = OFF ] || ci/install-deps --only libssl-dev
	cmake -S . -B build-deb -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
	  -DBUILD_TESTING=OFF -DMLDSA_BUILD_BENCH=OFF -DMLDSA_DEBIAN=ON \
	  -DMLDSA_BUILD_PROVIDER=$(DEB_PROVIDER) \
	  "-DCMAKE_C_FLAGS=$(DEB_CFLAGS)" -DCMAKE_ASM_FLAGS=-g \
	  "-DCMAKE_EXE_LINKER_FLAGS=-Wl,-z,relro -Wl,-z,now" \
	  >/dev/null
	cmake --build build-deb -j $(JOBS)
	cd build-deb && cpack -G DEB
	@ls build-deb/*.deb

# make test and ci/prove (FRESH_FLAGS=--all: the whole of .ci/run) on the committed tree
# in a freshly bootstrapped Debian 12 root (ci/fresh; needs root).
FRESH_FLAGS ?=
fresh:
	ci/fresh $(FRESH_FLAGS)

# Side by side with peer implementations (bench/peers/, docs/performance.md). `make peers
# PQCRYSTALS=<dilithium snapshot> MLDSA_NATIVE=<mldsa-native snapshot>` (each SRC or
# SRC@REV) builds them into PEERS_DIR, outside the tree (add LIBMLDSA=<this repository>@<rev> for an earlier
# libmldsa's paths as more peers, LIBMLDSA_ISAS="scalar avx2 ..." (default scalar):
# before/after in one run); `make bench-peers` times them beside libmldsa's paths
# (writes PEERS_JSON); `make bench-chart` draws one SVG per set from PEERS_JSON;
# `make bench-kernels` times the hot kernels (Keccak, NTTs, products) beside pq-crystals'.
PEERS_DIR ?= /tmp/libmldsa-peers
# What the default build compiles (cmake/MldsaOptions.cmake): every set and ISA.
MLDSA_ALL_DEFINES := -DMLDSA_HAVE_44 -DMLDSA_HAVE_65 -DMLDSA_HAVE_87 -DMLDSA_HAVE_ASM \
  -DMLDSA_HAVE_SSE2 -DMLDSA_HAVE_AVX2 -DMLDSA_HAVE_AVX512
PEERS_JSON ?= bench/peers/results.json
CHART_PYTHON ?= /usr/bin/python3

peers:
	bench/peers/build-peers.sh $(if $(PQCRYSTALS),--pq-crystals $(PQCRYSTALS)) \
	  $(if $(MLDSA_NATIVE),--mldsa-native $(MLDSA_NATIVE)) \
	  $(if $(LIBMLDSA),--libmldsa $(LIBMLDSA)) \
	  $(if $(LIBMLDSA_ISAS),--libmldsa-isas "$(LIBMLDSA_ISAS)") $(PEERS_DIR)

bench-peers: all
	$(CC) -O2 -Wall -Wextra -Isrc -Iasm_out -Iinclude -Iapps $(MLDSA_ALL_DEFINES) \
	  bench/peers/peers-bench.c $(BUILD)/libmldsa.a -ldl -lpthread -o $(BUILD)/peers-bench
	$(BUILD)/peers-bench --json --peers $(PEERS_DIR)/peers.txt > $(PEERS_JSON).tmp
	mv $(PEERS_JSON).tmp $(PEERS_JSON)
	$(PYTHON) bench/peers/table.py $(PEERS_JSON)

bench-kernels: all
	$(CC) -O2 -Wall -Wextra -Isrc -Iasm_out -Iinclude -Iapps $(MLDSA_ALL_DEFINES) \
	  bench/peers/peers-kernels.c $(BUILD)/libmldsa.a -ldl -lpthread -o $(BUILD)/peers-kernels
	$(BUILD)/peers-kernels $(PEERS_DIR)

# `make bench-isa-ext`: AVX-512 IFMA and VBMI prototypes beside today's forms (docs/performance.md).
bench-isa-ext: all
	$(CC) -O2 -Wall -Wextra -mavx512f -mavx512bw -mavx512vl -mavx512dq -mavx512ifma \
	  -mavx512vbmi -Isrc -Iasm_out -Iinclude -Iapps $(MLDSA_ALL_DEFINES) \
	  bench/isa_ext/isa_ext.c $(BUILD)/libmldsa.a -lpthread -o $(BUILD)/isa_ext
	$(BUILD)/isa_ext

bench-chart:
	@ci/install-deps python3-matplotlib
	$(CHART_PYTHON) bench/peers/chart.py $(PEERS_JSON) bench/peers

# AArch64 instructions executed per operation and per kernel under qemu-aarch64 (docs/performance.md
# "AArch64: instructions executed under qemu"): libmldsa scalar and neon beside
# mldsa-native's AArch64 backends, built outside the tree from MLDSA_NATIVE (a snapshot
# with its AArch64 backends, SRC or SRC@REV); writes bench/aarch64/counts.txt.
count-aarch64:
	@test -n "$(MLDSA_NATIVE)" || { echo "make count-aarch64 MLDSA_NATIVE=<mldsa-native snapshot>" >&2; exit 2; }
	bench/aarch64/run.sh $(MLDSA_NATIVE) bench/aarch64/counts.txt

# The OpenSSL provider's figures (docs/provider.md): operations/s through EVP with OpenSSL 3.5's
# default provider and this one on the AVX-512 and AVX2 paths, beside libmldsa's API, and
# TLS 1.3 handshakes/s, into bench/provider/*.txt; then bench/provider/speed.svg.
provider-speed: configure
	cmake --build $(BUILD) -j $(JOBS) --target mldsa_provider_speed
	bench/provider/run.sh $(BUILD) bench/provider
	@ci/install-deps python3-matplotlib
	$(CHART_PYTHON) bench/provider/chart.py bench/provider

# The CPU-feature matrix (qemu-x86_64 -cpu Haswell and qemu64) and AArch64 (qemu-aarch64
# -cpu max and neoverse-n1), each suite whole under each CPU; CI runs them --sample.
cpu-matrix:
	ci/cpu_matrix

aarch64:
	ci/aarch64

# The portable builds whole (CI runs ci/portable --sample): scalar only, aarch64 without
# assembly, the reduced builds.
portable:
	ci/portable

# Portable C on another CPU (docs/ports.md): `make cross TARGET=<triplet>`, the triplet one
# of s390x-linux-gnu, i686-linux-gnu, arm-linux-gnueabihf, riscv64-linux-gnu: the library
# with the scalar backend alone and its tests in build-<triplet>/, cross-built and run
# under qemu-user (ci/cross; the whole suite, `ci/cross <triplet> --sample` is CI's part).
cross:
	@test -n "$(TARGET)" || { echo "make cross TARGET=<s390x-linux-gnu|i686-linux-gnu|arm-linux-gnueabihf|riscv64-linux-gnu>" >&2; exit 2; }
	JOBS=$(JOBS) ci/cross $(TARGET)

# Windows x64 (docs/windows.md): cross-built with MinGW-w64 into build-windows/ (the
# library, its DLL and import library, mldsa.exe, mldsa-bench.exe and the tests), and the
# whole test suite run under Wine (as CI does).
WINDOWS_BUILD ?= build-windows
windows:
	ci/windows --build-only $(WINDOWS_BUILD)

test-windows:
	ci/windows $(WINDOWS_BUILD)

# The Python binding (bindings/python/README.md): module mldsa, built with Debian's python3
# and cffi against this tree's libmldsa.a into $(BUILD)/python/lib (no install, nothing
# written into the source tree); test-python runs its pytest suite on that build, from
# inside it so that the sources in bindings/python are not imported instead. Their Debian
# packages come with the others (make deps).
PYTHON_BINDING ?= /usr/bin/python3
PYTHON_BUILD = $(abspath $(BUILD))/python
python: configure
	cmake --build $(BUILD) -j $(JOBS) --target mldsa_static
	cd bindings/python && PYTHONDONTWRITEBYTECODE=1 $(PYTHON_BINDING) setup.py -q build \
	  --build-base $(PYTHON_BUILD)/tmp --build-lib $(PYTHON_BUILD)/lib

test-python: python
	cd $(PYTHON_BUILD)/lib && PYTHONDONTWRITEBYTECODE=1 $(PYTHON_BINDING) -m pytest -q \
	  -p no:cacheprovider $(CURDIR)/bindings/python/tests

# The binding's call overhead over C for ML-DSA-65 verify (bindings/python/bench.py).
bench-python: python
	PYTHONPATH=$(PYTHON_BUILD)/lib $(PYTHON_BINDING) bindings/python/bench.py

# The Node.js binding (bindings/node/README.md): its N-API addon compiled with cc against
# the headers of the node on PATH (<bin>/../include/node: Debian's libnode-dev, or those a
# node distribution carries; NODE_INCLUDE=... overrides) and the static library of
# $(BUILD), into bindings/node/build/mldsa.node; no node-gyp, nothing downloaded. Node-API
# is ABI-stable: the addon, asking for Node-API 8, built with node 18's headers loads in
# node 20 and later.
# `make test-node` runs its tests (node --test), after `npm ci` has installed the pinned
# devDependency the interop tests need (@noble/post-quantum); `make bench-node` times it
# beside @noble/post-quantum.
NODE_DIR := bindings/node
NODE_ADDON := $(NODE_DIR)/build/mldsa.node
NODE_INCLUDE ?= $(shell d=$$(node -p "require('path').join(process.execPath, '..', '..', 'include', 'node')" 2>/dev/null); \
  if [ -e "$$d/node_api.h" ]; then echo "$$d"; else echo /usr/include/node; fi)
NODE_CFLAGS ?= -O2 -g
node:
	@ci/install-deps --only cmake gcc libc6-dev make
	@ci/install-deps --node
	@[ -f $(BUILD)/CMakeCache.txt ] || cmake -S . -B $(BUILD) -DBUILD_TESTING=OFF \
	  -DMLDSA_BUILD_BENCH=OFF $(CMAKE_FLAGS) >/dev/null
	cmake --build $(BUILD) -j $(JOBS) --target mldsa_static
	@mkdir -p $(NODE_DIR)/build
	$(CC) $(NODE_CFLAGS) -std=c11 -Wall -Wextra -Wshadow -fPIC -fvisibility=hidden -shared \
	  -DNAPI_VERSION=8 -I$(NODE_INCLUDE) -Iinclude $(NODE_DIR)/src/*.c $(BUILD)/libmldsa.a \
	  -Wl,--exclude-libs,ALL -Wl,-z,noexecstack -o $(NODE_ADDON)

$(NODE_DIR)/node_modules/.package-lock.json: $(NODE_DIR)/package.json $(NODE_DIR)/package-lock.json
	cd $(NODE_DIR) && npm ci --ignore-scripts --no-audit --no-fund

test-node: node $(NODE_DIR)/node_modules/.package-lock.json
	cd $(NODE_DIR) && node --test test/*.test.mjs

bench-node: node $(NODE_DIR)/node_modules/.package-lock.json
	cd $(NODE_DIR) && node bench.mjs

clean:
	rm -rf $(BUILD) $(INSTALL_BUILD) build-deb $(WINDOWS_BUILD) $(NODE_DIR)/build
