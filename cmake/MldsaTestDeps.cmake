# SPDX-License-Identifier: Apache-2.0 OR MIT
# The test suites' dependencies (only when tests are built; the library needs none of
# them): Check and cJSON through pkg-config, OpenSSL's libcrypto, zlib, Python 3.
# MLDSA_TESTS_REQUIRED (BUILD_TESTING=ON given): a missing one is a configure error.
# Otherwise (BUILD_TESTING not given): the tests are left out with one line saying why.
if(MLDSA_BUILD_TESTS AND MLDSA_FULL_TESTS)
  set(_mldsa_missing)
  find_package(PkgConfig QUIET)
  if(PKG_CONFIG_FOUND)
    pkg_check_modules(CHECK QUIET IMPORTED_TARGET check)
    pkg_check_modules(CJSON QUIET IMPORTED_TARGET libcjson)
  else()
    list(APPEND _mldsa_missing "pkg-config (pkg-config)")
  endif()
  if(NOT CHECK_FOUND)
    list(APPEND _mldsa_missing "Check (check)")
  endif()
  if(NOT CJSON_FOUND)
    list(APPEND _mldsa_missing "cJSON (libcjson-dev)")
  endif()
  find_package(OpenSSL QUIET)
  if(NOT OPENSSL_FOUND)
    list(APPEND _mldsa_missing "OpenSSL (libssl-dev)")
  endif()
  find_package(ZLIB QUIET)
  if(NOT ZLIB_FOUND)
    list(APPEND _mldsa_missing "zlib (zlib1g-dev)")
  endif()
  find_package(Python3 QUIET COMPONENTS Interpreter)
  if(NOT Python3_Interpreter_FOUND)
    list(APPEND _mldsa_missing "Python 3 (python3)")
  endif()
  if(_mldsa_missing)
    list(JOIN _mldsa_missing ", " _mldsa_missing)
    if(MLDSA_TESTS_REQUIRED)
      message(FATAL_ERROR "BUILD_TESTING=ON, but the tests need what is not found: "
        "${_mldsa_missing} (Debian packages in parentheses; ci/install-deps installs them). "
        "-DBUILD_TESTING=OFF builds the library and the CLI without tests.")
    endif()
    message(STATUS "libmldsa: tests left out, not found: ${_mldsa_missing} "
      "(-DBUILD_TESTING=ON requires them)")
    set(MLDSA_BUILD_TESTS OFF)
  endif()
endif()
