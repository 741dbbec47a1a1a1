# SPDX-License-Identifier: Apache-2.0 OR MIT
# The Debian layout of the install (MLDSA_DEBIAN=ON, `make deb`), for CPack's DEB packages:
#   /usr/share/doc/<package>/copyright            packaging/debian/copyright (DEP-5)
#   /usr/share/doc/<package>/changelog.Debian.gz  packaging/debian/changelog, gzip -9n
#   man pages gzip -9n; libmldsa.a without debug sections
#   libmldsa0's control files: symbols and shlibs (generated from src/exports.map and the
#   library as built, cmake/MldsaDebFiles.cmake) and triggers (activate-noawait ldconfig)
#   <package>-dbgsym with the debug information of libmldsa.so.0, mldsa and the provider
#   module mldsa.so, which are
#   stripped in their packages (build with -g: `make deb` does)
# The packages' version is the first entry of packaging/debian/changelog, whose upstream
# part must be the project's version (include/mldsa.h).
find_program(MLDSA_GZIP gzip)
if(NOT MLDSA_GZIP)
  message(FATAL_ERROR "MLDSA_DEBIAN: gzip is needed for the man pages and the changelog")
endif()
set(MLDSA_DEB_SRC ${PROJECT_SOURCE_DIR}/packaging/debian)
set(MLDSA_DEB_DIR ${PROJECT_BINARY_DIR}/debian)
set(MLDSA_DEB_RUNTIME_PACKAGE libmldsa${PROJECT_VERSION_MAJOR})

file(STRINGS ${MLDSA_DEB_SRC}/changelog _mldsa_deb_entry REGEX "^[a-z0-9.+-]+ \\(" LIMIT_COUNT 1)
if(NOT _mldsa_deb_entry MATCHES "^libmldsa \\(([^)]+)-([^-)]+)\\) ")
  message(FATAL_ERROR "packaging/debian/changelog: the first entry is not "
    "\"libmldsa (<version>-<revision>) ...\": ${_mldsa_deb_entry}")
endif()
if(NOT CMAKE_MATCH_1 STREQUAL PROJECT_VERSION)
  message(FATAL_ERROR "packaging/debian/changelog: the first entry is for ${CMAKE_MATCH_1}, "
    "the project is ${PROJECT_VERSION} (include/mldsa.h): add an entry")
endif()
set(MLDSA_DEB_REVISION ${CMAKE_MATCH_2})

set(_mldsa_deb_man ${PROJECT_SOURCE_DIR}/man/libmldsa.3)
set(_mldsa_deb_man3 ${MLDSA_DEB_DIR}/man/libmldsa.3.gz)
foreach(page IN LISTS MLDSA_MAN3_PAGES)
  get_filename_component(_name ${page} NAME)
  list(APPEND _mldsa_deb_man ${page})
  list(APPEND _mldsa_deb_man3 ${MLDSA_DEB_DIR}/man/${_name}.gz)
endforeach()
set(_mldsa_deb_outputs ${MLDSA_DEB_DIR}/copyright ${MLDSA_DEB_DIR}/triggers
  ${MLDSA_DEB_DIR}/changelog.Debian.gz ${MLDSA_DEB_DIR}/shlibs ${MLDSA_DEB_DIR}/symbols
  ${_mldsa_deb_man3})
if(MLDSA_BUILD_CLI)
  list(APPEND _mldsa_deb_man ${PROJECT_SOURCE_DIR}/man/mldsa.1)
  list(APPEND _mldsa_deb_outputs ${MLDSA_DEB_DIR}/man/mldsa.1.gz)
endif()
if(TARGET mldsa_provider)
  list(APPEND _mldsa_deb_man ${PROJECT_SOURCE_DIR}/man/mldsa-provider.7)
  list(APPEND _mldsa_deb_outputs ${MLDSA_DEB_DIR}/man/mldsa-provider.7.gz)
endif()
add_custom_command(OUTPUT ${_mldsa_deb_outputs}
  COMMAND ${CMAKE_COMMAND} -DSRC=${MLDSA_DEB_SRC} -DOUT=${MLDSA_DEB_DIR}
    "-DMAN_PAGES=${_mldsa_deb_man}" -DMAP=${PROJECT_SOURCE_DIR}/src/exports.map
    -DLIBRARY=$<TARGET_FILE:mldsa_shared> -DSONAME=$<TARGET_SONAME_FILE_NAME:mldsa_shared>
    -DPACKAGE=${MLDSA_DEB_RUNTIME_PACKAGE} -DDEV_PACKAGE=libmldsa-dev -DNM=${CMAKE_NM}
    -DGZIP=${MLDSA_GZIP} -P ${PROJECT_SOURCE_DIR}/cmake/MldsaDebFiles.cmake
  DEPENDS mldsa_shared ${_mldsa_deb_man} ${PROJECT_SOURCE_DIR}/src/exports.map
    ${MLDSA_DEB_SRC}/copyright ${MLDSA_DEB_SRC}/changelog ${MLDSA_DEB_SRC}/triggers
    ${PROJECT_SOURCE_DIR}/cmake/MldsaDebFiles.cmake
  COMMENT "Debian control files, copyright, changelog.Debian.gz, man pages (gzip -9n)"
  VERBATIM)
add_custom_target(mldsa_deb_files ALL DEPENDS ${_mldsa_deb_outputs})

foreach(component package IN ZIP_LISTS
    MLDSA_DEB_COMPONENTS MLDSA_DEB_PACKAGES)
  install(FILES ${MLDSA_DEB_DIR}/copyright ${MLDSA_DEB_DIR}/changelog.Debian.gz
    DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/${package} COMPONENT ${component})
endforeach()
install(FILES ${_mldsa_deb_man3} DESTINATION ${CMAKE_INSTALL_MANDIR}/man3 COMPONENT dev)
if(MLDSA_BUILD_CLI)
  install(FILES ${MLDSA_DEB_DIR}/man/mldsa.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1
    COMPONENT tools)
endif()
if(TARGET mldsa_provider)
  install(FILES ${MLDSA_DEB_DIR}/man/mldsa-provider.7.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man7
    COMPONENT provider)
  install(FILES ${PROJECT_SOURCE_DIR}/provider/mldsa-provider.cnf
    DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/openssl-provider-mldsa/examples
    COMPONENT provider)
endif()
# Stripped objects, as dh_strip leaves them: the debug information of libmldsa.so.0 and
# mldsa in <package>-dbgsym (components <component>_dbgsym), the static library without
# debug sections.
set(MLDSA_DEB_REVISION_VERSION ${PROJECT_VERSION}-${MLDSA_DEB_REVISION})
function(mldsa_deb_strip component file)
  string(REPLACE ";" " " args "${ARGN}")
  install(CODE "set(MLDSA_MODE strip)
    set(MLDSA_FILE \"${file}\")
    set(MLDSA_STRIP \"${CMAKE_STRIP}\")
    set(MLDSA_STRIP_ARGS ${args})
    include(\"${PROJECT_SOURCE_DIR}/cmake/MldsaDebStrip.cmake\")" COMPONENT ${component})
endfunction()
function(mldsa_deb_dbgsym target component package)
  install(CODE "set(MLDSA_MODE debug)
    set(MLDSA_FILE \"$<TARGET_FILE:${target}>\")
    set(MLDSA_PACKAGE ${package})
    set(MLDSA_OBJCOPY \"${CMAKE_OBJCOPY}\")
    set(MLDSA_READELF \"${CMAKE_READELF}\")
    include(\"${PROJECT_SOURCE_DIR}/cmake/MldsaDebStrip.cmake\")" COMPONENT ${component}_dbgsym)
  string(TOUPPER ${component}_dbgsym c)
  set(CPACK_DEBIAN_${c}_PACKAGE_NAME ${package}-dbgsym PARENT_SCOPE)
  set(CPACK_DEBIAN_${c}_PACKAGE_SECTION debug PARENT_SCOPE)
  set(CPACK_DEBIAN_${c}_PACKAGE_DEPENDS "${package} (= ${MLDSA_DEB_REVISION_VERSION})" PARENT_SCOPE)
  set(CPACK_DEBIAN_${c}_PACKAGE_SHLIBDEPS OFF PARENT_SCOPE)
  set(CPACK_DEBIAN_${c}_DESCRIPTION "debug symbols for ${package}" PARENT_SCOPE)
  set(_mldsa_deb_dbgsym ${_mldsa_deb_dbgsym} ${component}_dbgsym PARENT_SCOPE)
endfunction()
set(_mldsa_deb_dbgsym)
mldsa_deb_strip(runtime ${CMAKE_INSTALL_LIBDIR}/$<TARGET_FILE_NAME:mldsa_shared>
  --remove-section=.comment --remove-section=.note --strip-unneeded)
mldsa_deb_dbgsym(mldsa_shared runtime ${MLDSA_DEB_RUNTIME_PACKAGE})
mldsa_deb_strip(dev ${CMAKE_INSTALL_LIBDIR}/$<TARGET_FILE_NAME:mldsa_static>
  --strip-debug --remove-section=.comment --remove-section=.note --enable-deterministic-archives)
if(MLDSA_BUILD_CLI)
  mldsa_deb_strip(tools ${CMAKE_INSTALL_BINDIR}/$<TARGET_FILE_NAME:mldsa_cli>
    --remove-section=.comment --remove-section=.note)
  mldsa_deb_dbgsym(mldsa_cli tools mldsa-tools)
endif()
if(TARGET mldsa_provider)
  mldsa_deb_strip(provider ${MLDSA_PROVIDER_INSTALL_DIR}/$<TARGET_FILE_NAME:mldsa_provider>
    --remove-section=.comment --remove-section=.note --strip-unneeded)
  mldsa_deb_dbgsym(mldsa_provider provider openssl-provider-mldsa)
endif()
list(APPEND MLDSA_DEB_COMPONENTS ${_mldsa_deb_dbgsym})

# CPack (3.25) puts CPACK_PACKAGE_DESCRIPTION_SUMMARY in front of each component's own
# description, whose first line is already that package's summary; the default summary
# is the one it leaves out.
set(MLDSA_DEB_SUMMARY "${PROJECT_NAME} built using CMake")
set(CPACK_DEBIAN_PACKAGE_RELEASE ${MLDSA_DEB_REVISION})
set(CPACK_DEBIAN_PACKAGE_SOURCE libmldsa)
# Maintainer: CPACK_PACKAGE_CONTACT (cmake/MldsaInstall.cmake)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${MLDSA_HOMEPAGE}")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_CONTROL_EXTRA ${MLDSA_DEB_DIR}/shlibs ${MLDSA_DEB_DIR}/symbols
  ${MLDSA_DEB_DIR}/triggers)
# ldconfig by the trigger, not by maintainer scripts: off where CPack has the switch,
# and taken out again after the build where it has not (cmake/MldsaDebPostBuild.cmake).
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_LDCONFIG OFF)
set(CPACK_POST_BUILD_SCRIPTS ${PROJECT_SOURCE_DIR}/cmake/MldsaDebPostBuild.cmake)
