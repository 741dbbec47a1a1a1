# SPDX-License-Identifier: Apache-2.0 OR MIT
# Install-time step of the Debian layout (install(CODE) from cmake/MldsaDebian.cmake), the
# work dh_strip does for a Debian package:
#   MLDSA_MODE debug  MLDSA_FILE (the object as built) -> its debug information, compressed,
#                     as /usr/lib/debug/.build-id/<xx>/<rest of the build ID>.debug, and
#                     /usr/share/doc/MLDSA_PACKAGE-dbgsym a link to MLDSA_PACKAGE's
#   MLDSA_MODE strip  MLDSA_FILE (the object as installed) stripped with MLDSA_STRIP_ARGS
# Also MLDSA_OBJCOPY, MLDSA_READELF, MLDSA_STRIP (the binutils CMake found).
set(_root "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}")
if(MLDSA_MODE STREQUAL "debug")
  execute_process(COMMAND "${MLDSA_READELF}" -n "${MLDSA_FILE}" OUTPUT_VARIABLE _notes
    RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0 OR NOT _notes MATCHES "Build ID: ([0-9a-f][0-9a-f])([0-9a-f]+)")
    message(FATAL_ERROR "${MLDSA_FILE}: no build ID (the -dbgsym packages need one)")
  endif()
  set(_dir "${_root}/lib/debug/.build-id/${CMAKE_MATCH_1}")
  set(_debug "${_dir}/${CMAKE_MATCH_2}.debug")
  file(MAKE_DIRECTORY "${_dir}")
  message(STATUS "Debug information: ${_debug}")
  execute_process(COMMAND "${MLDSA_OBJCOPY}" --only-keep-debug --compress-debug-sections
    "${MLDSA_FILE}" "${_debug}" RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "objcopy --only-keep-debug ${MLDSA_FILE} failed")
  endif()
  execute_process(COMMAND chmod 0644 "${_debug}")
  file(MAKE_DIRECTORY "${_root}/share/doc")
  file(CREATE_LINK "${MLDSA_PACKAGE}" "${_root}/share/doc/${MLDSA_PACKAGE}-dbgsym" SYMBOLIC)
elseif(MLDSA_MODE STREQUAL "strip")
  set(_file "${_root}/${MLDSA_FILE}")
  execute_process(COMMAND "${MLDSA_STRIP}" ${MLDSA_STRIP_ARGS} "${_file}" RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "strip ${_file} failed")
  endif()
else()
  message(FATAL_ERROR "MldsaDebStrip.cmake: MLDSA_MODE debug or strip")
endif()
