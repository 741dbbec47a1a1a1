# SPDX-License-Identifier: Apache-2.0 OR MIT
# Cross build for Windows x64 with MinGW-w64 GCC (Debian gcc-mingw-w64-x86-64-win32:
# the win32 thread model, so nothing in the toolchain pulls in libwinpthread; the library
# uses Windows' own one-time initialisation and locks, src/once.h).
#   cmake -S . -B build-windows -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/mingw-w64-x86_64.cmake
# MLDSA_MINGW_PREFIX names another triplet's tools (default x86_64-w64-mingw32); the
# compiler is <prefix>-gcc-win32 when present (Debian's alternatives may point <prefix>-gcc
# at the posix variant), else <prefix>-gcc.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR AMD64)

if(NOT MLDSA_MINGW_PREFIX)
  set(MLDSA_MINGW_PREFIX x86_64-w64-mingw32)
endif()
find_program(_mldsa_mingw_cc NAMES ${MLDSA_MINGW_PREFIX}-gcc-win32 ${MLDSA_MINGW_PREFIX}-gcc
  REQUIRED)
set(CMAKE_C_COMPILER ${_mldsa_mingw_cc})
set(CMAKE_ASM_COMPILER ${_mldsa_mingw_cc})
set(CMAKE_RC_COMPILER ${MLDSA_MINGW_PREFIX}-windres)
set(CMAKE_AR ${MLDSA_MINGW_PREFIX}-ar CACHE FILEPATH "")
set(CMAKE_RANLIB ${MLDSA_MINGW_PREFIX}-ranlib CACHE FILEPATH "")

# Headers and libraries of the target only: the MinGW sysroot, and the test dependencies
# built into CMAKE_FIND_ROOT_PATH by ci/windows (build-windows/deps).
list(APPEND CMAKE_FIND_ROOT_PATH /usr/${MLDSA_MINGW_PREFIX})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
