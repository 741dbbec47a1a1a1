# SPDX-License-Identifier: Apache-2.0 OR MIT
# The front door: every command drives CMake in build/.
BUILD ?= build
CMAKE_FLAGS ?=
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
PYTHON := ci/python
PREFIX ?= /usr/local
DESTDIR ?=

.PHONY: all deps configure test run regen check-asm bench install size deb clean

all: configure
	cmake --build $(BUILD) -j $(JOBS)

deps:
	@ci/install-deps

configure: deps
	@cmake -S . -B $(BUILD) -DPython3_EXECUTABLE=$$(ci/python -c 'import sys; print(sys.executable)') $(CMAKE_FLAGS) >/dev/null

test: all
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# Demonstration: keygen, sign a file, verify it, and show that a flipped bit fails.
run: all
	@ci/demo $(BUILD)

regen:
	$(PYTHON) -m gen

check-asm:
	$(PYTHON) -m gen --check

bench: all
	$(BUILD)/mldsa-bench

# Header, libraries, CLI, man pages, pkg-config file and CMake package under PREFIX.
install: all
	DESTDIR=$(DESTDIR) cmake --install $(BUILD) --prefix $(PREFIX)

# .text and .rodata of the library per ISA and per parameter set.
size: all
	@ci/size $(BUILD)

# Debian packages libmldsa0, libmldsa-dev and mldsa-tools in build-deb/ (library and CLI
# only: no test dependencies).
deb:
	@ci/install-deps dpkg-dev
	cmake -S . -B build-deb -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
	  -DBUILD_TESTING=OFF >/dev/null
	cmake --build build-deb -j $(JOBS)
	cd build-deb && cpack -G DEB
	@ls build-deb/*.deb

clean:
	rm -rf $(BUILD) build-deb
