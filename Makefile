# The front door: every command drives CMake in build/.
BUILD ?= build
CMAKE_FLAGS ?=
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
PYTHON := ci/python

.PHONY: all deps configure test run regen check-asm prove bench clean

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

# Prove the kernels in asm_out/ against their contracts (Z3; README, What is proved).
prove:
	ci/prove

bench: all
	$(BUILD)/mldsa-bench

clean:
	rm -rf $(BUILD)
