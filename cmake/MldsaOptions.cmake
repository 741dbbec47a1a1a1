# SPDX-License-Identifier: Apache-2.0 OR MIT
# The build options of libmldsa, and the compile definitions they imply
# (MLDSA_BUILD_DEFINITIONS: MLDSA_HAVE_<set>, MLDSA_HAVE_<ISA>, MLDSA_HAVE_ASM).

# ---- what is compiled into the library: parameter sets and ISAs ----

set(MLDSA_ALL_PARAMS 44 65 87)
set(MLDSA_PARAMS "${MLDSA_ALL_PARAMS}" CACHE STRING
  "Parameter sets to compile (a subset of 44;65;87); the others return MLDSA_ERR_PARAM")

# The generated assembly exists for x86-64 (sse2, avx2, avx512) and AArch64 (neon), in one
# directory per object format and calling convention (gen/flavour.py). MLDSA_ASM_DIR is the
# one place that says which a target takes: asm_out/<isa>/*.S (ELF, System V ABI;
# Linux), asm_out/win64/<isa>/*.S on Windows x64 (COFF, Microsoft x64 ABI; same file and
# symbol names; without that directory a Windows build is the portable C alone, since the
# System V kernels would break the Windows callee-saved registers), asm_out/macos/<isa>/*.S
# on macOS (Mach-O). macOS builds are the portable C unless -DMLDSA_ASM=ON: no macOS build
# has been made or run here (no SDK; docs/windows.md), only its kernels assembled.
set(MLDSA_ASM_DIR ${CMAKE_CURRENT_LIST_DIR}/../asm_out)
get_filename_component(MLDSA_ASM_DIR ${MLDSA_ASM_DIR} ABSOLUTE)
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$" AND WIN32)
  set(MLDSA_ASM_DIR ${MLDSA_ASM_DIR}/win64)
  if(IS_DIRECTORY ${MLDSA_ASM_DIR})
    set(MLDSA_ASM_DEFAULT ON)
  else()
    set(MLDSA_ASM_DEFAULT OFF)
  endif()
  set(_asm_isas sse2 avx2 avx512)
elseif(APPLE AND CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  set(MLDSA_ASM_DIR ${MLDSA_ASM_DIR}/macos)
  set(MLDSA_ASM_DEFAULT OFF)
  set(_asm_isas sse2 avx2 avx512)
elseif(APPLE AND CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64|ARM64)$")
  set(MLDSA_ASM_DIR ${MLDSA_ASM_DIR}/macos)
  set(MLDSA_ASM_DEFAULT OFF)
  set(_asm_isas neon)
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  set(MLDSA_ASM_DEFAULT ON)
  set(_asm_isas sse2 avx2 avx512)
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64|ARM64)$" AND CMAKE_SYSTEM_NAME STREQUAL "Linux")
  set(MLDSA_ASM_DEFAULT ON)
  set(_asm_isas neon)
else()
  set(MLDSA_ASM_DEFAULT OFF)
  set(_asm_isas)
endif()
option(MLDSA_ASM "Use the generated assembly kernels (OFF: portable C only)"
  ${MLDSA_ASM_DEFAULT})
if(MLDSA_ASM AND _asm_isas AND NOT IS_DIRECTORY ${MLDSA_ASM_DIR})
  message(FATAL_ERROR "MLDSA_ASM=ON: no kernels for this target in ${MLDSA_ASM_DIR} "
    "(python3 -m gen writes them; -DMLDSA_ASM=OFF builds the portable C alone)")
endif()
if(MLDSA_ASM)
  set(MLDSA_ALL_ISAS scalar ${_asm_isas})
else()
  set(MLDSA_ALL_ISAS scalar)
endif()
set(MLDSA_ISAS "${MLDSA_ALL_ISAS}" CACHE STRING
  "Arithmetic backends to compile: scalar and a subset of sse2;avx2;avx512 (x86-64) or neon (AArch64)")

foreach(p IN LISTS MLDSA_PARAMS)
  if(NOT p IN_LIST MLDSA_ALL_PARAMS)
    message(FATAL_ERROR "MLDSA_PARAMS: unknown parameter set '${p}' (use 44, 65, 87)")
  endif()
endforeach()
if(NOT MLDSA_PARAMS)
  message(FATAL_ERROR "MLDSA_PARAMS: at least one parameter set")
endif()
# The portable backend is the fallback of the run-time dispatch: always compiled.
if(NOT "scalar" IN_LIST MLDSA_ISAS)
  message(FATAL_ERROR "MLDSA_ISAS must contain scalar (the fallback on every CPU)")
endif()
foreach(isa IN LISTS MLDSA_ISAS)
  if(NOT isa IN_LIST MLDSA_ALL_ISAS)
    message(FATAL_ERROR "MLDSA_ISAS: '${isa}' is not available in this build "
      "(available: ${MLDSA_ALL_ISAS})")
  endif()
endforeach()
# Kept in the dispatcher's order, whatever order the user wrote.
set(_isas)
foreach(isa IN LISTS MLDSA_ALL_ISAS)
  if(isa IN_LIST MLDSA_ISAS)
    list(APPEND _isas ${isa})
  endif()
endforeach()
set(MLDSA_ISAS ${_isas})
set(_params)
foreach(p IN LISTS MLDSA_ALL_PARAMS)
  if(p IN_LIST MLDSA_PARAMS)
    list(APPEND _params ${p})
  endif()
endforeach()
set(MLDSA_PARAMS ${_params})

set(MLDSA_BUILD_DEFINITIONS)
foreach(p IN LISTS MLDSA_PARAMS)
  list(APPEND MLDSA_BUILD_DEFINITIONS MLDSA_HAVE_${p})
endforeach()
foreach(isa IN LISTS MLDSA_ISAS)
  if(NOT isa STREQUAL "scalar")
    string(TOUPPER ${isa} ISA)
    list(APPEND MLDSA_BUILD_DEFINITIONS MLDSA_HAVE_${ISA})
    set(_mldsa_some_asm ON)
  endif()
endforeach()
if(_mldsa_some_asm)
  enable_language(ASM)
  list(APPEND MLDSA_BUILD_DEFINITIONS MLDSA_HAVE_ASM)
endif()
if(MLDSA_PARAMS STREQUAL MLDSA_ALL_PARAMS AND MLDSA_ISAS STREQUAL MLDSA_ALL_ISAS)
  set(MLDSA_COMPLETE_BUILD ON)
else()
  set(MLDSA_COMPLETE_BUILD OFF)
endif()

# ---- what else is built: programs, tests, install rules ----

option(MLDSA_BUILD_CLI "Build the command-line tool mldsa" ${MLDSA_TOP_LEVEL})
option(MLDSA_INSTALL "Generate install rules (cmake --install, packages)" ${MLDSA_TOP_LEVEL})
# BUILD_TESTING (top level): ON builds the tests and requires their dependencies, OFF
# looks for none of them; not given, the tests are built when every dependency is found
# and left out with a one-line message otherwise (cmake/MldsaTestDeps.cmake), so that a
# machine with only a compiler, CMake and GNU as builds and installs the library.
if(MLDSA_TOP_LEVEL)
  if(DEFINED CACHE{BUILD_TESTING})
    set(MLDSA_BUILD_TESTS ${BUILD_TESTING})
    set(MLDSA_TESTS_REQUIRED ${BUILD_TESTING})
  else()
    set(MLDSA_BUILD_TESTS ON)
    set(MLDSA_TESTS_REQUIRED OFF)
  endif()
else()
  # Inside a parent project the parent's BUILD_TESTING does not build our tests.
  option(MLDSA_BUILD_TESTS "Build libmldsa's tests inside a parent project" OFF)
  set(MLDSA_TESTS_REQUIRED ${MLDSA_BUILD_TESTS})
endif()
# Static test programs, for qemu-user: a dynamically linked AArch64 guest hangs in fork()
# under qemu-aarch64 on this project's CI hosts (the child never reaches its first
# instruction; static guests fork normally), and Check forks for every test.
option(MLDSA_STATIC_TESTS "Link the test programs statically (cross builds run under qemu-user)" OFF)
option(MLDSA_FULL_TESTS
  "Build the Check test suites (need check, cJSON, OpenSSL, zlib, Python 3)" ON)
# The benchmark and most tests drive every parameter set and ISA: they are built for the
# complete library; a reduced build (MLDSA_PARAMS, MLDSA_ISAS) gets test_build_config.
if(NOT MLDSA_COMPLETE_BUILD)
  set(MLDSA_FULL_TESTS OFF)
endif()
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$" AND MLDSA_COMPLETE_BUILD)
  set(_mldsa_bench_default ${MLDSA_TOP_LEVEL})
else()
  set(_mldsa_bench_default OFF)
endif()
option(MLDSA_BUILD_BENCH "Build the benchmark mldsa-bench (x86-64)" ${_mldsa_bench_default})

# Constant-time validation build (ci/ct): the declassification points of src/ct.h call
# valgrind's client requests. For tests under valgrind only, never for production.
option(MLDSA_CT_TESTING "Constant-time validation build (needs valgrind/memcheck.h)" OFF)
if(MLDSA_CT_TESTING)
  add_compile_definitions(MLDSA_CT_TESTING)
endif()

# Fault countermeasure: every signature is verified (against the public key recomputed
# from sk) before it is returned; one that does not verify gives MLDSA_ERR_VERIFY.
option(MLDSA_SIGN_CHECK "Verify every signature before returning it" OFF)
if(MLDSA_SIGN_CHECK)
  add_compile_definitions(MLDSA_SIGN_CHECK) # the library, and the tests' expectations
endif()

# FIPS 140-3 style self-tests (src/selftest.c). mldsa_selftest() is always there; with
# this option the first call of the library runs it once per process, every keygen runs a
# pairwise consistency test, and a failure is sticky (MLDSA_ERR_SELFTEST from then on).
option(MLDSA_SELFTEST "Power-on known-answer tests, keygen pairwise tests, sticky failure" OFF)
if(MLDSA_SELFTEST)
  list(APPEND MLDSA_BUILD_DEFINITIONS MLDSA_SELFTEST) # the library, and the tests' expectations
endif()

# 32-bit Unix targets (i686, armhf: ci/cross): the large-file interfaces (64-bit off_t,
# ino_t) in every program of the project. Without them stat() and readdir() fail with
# EOVERFLOW where a file system hands out 64-bit inode numbers or directory offsets (under
# qemu-i386 on the CI host readdir() found none of tests/fuzz/regressions' inputs), and the
# CLI could not read a message of 2 GiB or more. The API has no off_t: the library's ABI
# is the same either way.
if(CMAKE_SIZEOF_VOID_P EQUAL 4 AND NOT WIN32)
  add_compile_definitions(_FILE_OFFSET_BITS=64)
endif()
