# SPDX-License-Identifier: Apache-2.0 OR MIT
# Install rules, pkg-config file, CMake package and Debian packages (CPack). Components:
#   runtime  libmldsa.so.<major>                     -> Debian package libmldsa0
#   dev      header, libmldsa.a, libmldsa.so, mldsa.pc, CMake package, libmldsa(3)
#                                                    -> libmldsa-dev
#   tools    the mldsa command and mldsa(1)          -> mldsa-tools
#   provider the OpenSSL provider module mldsa.so, mldsa-provider(7), an example
#            openssl.cnf                             -> openssl-provider-mldsa
include(CMakePackageConfigHelpers)

option(MLDSA_DEBIAN "Install in the layout of the Debian packages (make deb; cmake/MldsaDebian.cmake)"
  OFF)
set(MLDSA_HOMEPAGE "https://github.com/libmldsa/libmldsa" CACHE STRING
  "The project's home page (the packages' Homepage field)")
set(MLDSA_DEB_COMPONENTS runtime dev)
set(MLDSA_DEB_PACKAGES libmldsa${PROJECT_VERSION_MAJOR} libmldsa-dev)
if(MLDSA_BUILD_CLI)
  list(APPEND MLDSA_DEB_COMPONENTS tools)
  list(APPEND MLDSA_DEB_PACKAGES mldsa-tools)
endif()
if(TARGET mldsa_provider)
  list(APPEND MLDSA_DEB_COMPONENTS provider)
  list(APPEND MLDSA_DEB_PACKAGES openssl-provider-mldsa)
endif()

set(MLDSA_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/mldsa)
set(MLDSA_PKGCONFIG_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

install(TARGETS mldsa_shared EXPORT mldsaTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_SKIP)
install(TARGETS mldsa_shared EXPORT mldsaTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev NAMELINK_ONLY)
install(TARGETS mldsa_static EXPORT mldsaTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev)
install(FILES include/mldsa.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT dev)
if(MLDSA_BUILD_CLI)
  install(TARGETS mldsa_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT tools)
endif()
# one page per function, generated from include/mldsa.h (man/gen_man3.py) and committed
file(GLOB MLDSA_MAN3_PAGES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/man/man3/*.3)
list(SORT MLDSA_MAN3_PAGES)
if(MLDSA_DEBIAN)
  # the licence in each package's copyright file, gzipped man pages
  include(${CMAKE_CURRENT_LIST_DIR}/MldsaDebian.cmake)
else()
  install(FILES LICENSE LICENSE-APACHE LICENSE-MIT DESTINATION ${CMAKE_INSTALL_DOCDIR}
    COMPONENT runtime)
  install(FILES man/libmldsa.3 ${MLDSA_MAN3_PAGES} DESTINATION ${CMAKE_INSTALL_MANDIR}/man3
    COMPONENT dev)
  if(MLDSA_BUILD_CLI)
    install(FILES man/mldsa.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT tools)
  endif()
  if(TARGET mldsa_provider)
    install(FILES man/mldsa-provider.7 DESTINATION ${CMAKE_INSTALL_MANDIR}/man7
      COMPONENT provider)
    install(FILES provider/mldsa-provider.cnf DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples
      COMPONENT provider)
  endif()
endif()

# pkg-config: paths relative to the .pc file (${pcfiledir}), so that the package works
# wherever it is installed (cmake --install --prefix, DESTDIR, a .deb).
file(RELATIVE_PATH MLDSA_PC_TO_PREFIX "/prefix/${MLDSA_PKGCONFIG_DIR}" "/prefix")
string(REGEX REPLACE "/$" "" MLDSA_PC_TO_PREFIX "${MLDSA_PC_TO_PREFIX}")
configure_file(cmake/mldsa.pc.in mldsa.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/mldsa.pc DESTINATION ${MLDSA_PKGCONFIG_DIR}
  COMPONENT dev)

# CMake package: find_package(mldsa) gives mldsa::mldsa (shared) and mldsa::mldsa_static.
install(EXPORT mldsaTargets NAMESPACE mldsa:: DESTINATION ${MLDSA_CMAKE_DIR}
  COMPONENT dev)
configure_package_config_file(cmake/mldsaConfig.cmake.in
  ${PROJECT_BINARY_DIR}/mldsaConfig.cmake INSTALL_DESTINATION ${MLDSA_CMAKE_DIR})
# The ABI is stable within a major version (the SONAME carries the major version).
write_basic_package_version_file(${PROJECT_BINARY_DIR}/mldsaConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/mldsaConfig.cmake
  ${PROJECT_BINARY_DIR}/mldsaConfigVersion.cmake
  DESTINATION ${MLDSA_CMAKE_DIR} COMPONENT dev)

# Debian packages: `make deb` (cpack -G DEB in a build configured with prefix /usr).
set(CPACK_PACKAGE_NAME libmldsa)
set(CPACK_PACKAGE_VENDOR "The libmldsa authors")
set(CPACK_PACKAGE_CONTACT "libmldsa maintainers <libmldsa@users.noreply.github.com>")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
if(MLDSA_DEBIAN)
  set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${MLDSA_DEB_SUMMARY}")
else()
  set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
endif()
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_GENERATOR DEB)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL ${MLDSA_DEB_COMPONENTS})
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME libmldsa${PROJECT_VERSION_MAJOR})
# The first line is the package's summary; CPack indents the others.
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION
  "ML-DSA (FIPS 204) post-quantum signatures - shared library
libmldsa signs and verifies with ML-DSA-44, -65 and -87 (FIPS 204), with
SSE2, AVX2 and AVX-512 kernels chosen at run time and a portable fallback.")
set(CPACK_DEBIAN_DEV_PACKAGE_NAME libmldsa-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
if(MLDSA_DEBIAN)
  set(_mldsa_deb_version ${MLDSA_DEB_REVISION_VERSION}) # with the Debian revision
else()
  set(_mldsa_deb_version ${PROJECT_VERSION})
endif()
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS
  "libmldsa${PROJECT_VERSION_MAJOR} (= ${_mldsa_deb_version})")
set(CPACK_DEBIAN_DEV_DESCRIPTION
  "ML-DSA (FIPS 204) post-quantum signatures - development files
libmldsa signs and verifies with ML-DSA-44, -65 and -87 (FIPS 204).
This package holds what programs using it are built with: the header, the
static library, the pkg-config file, the CMake package (find_package(mldsa))
and the libmldsa(3) manual page.")
set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME mldsa-tools)
set(CPACK_DEBIAN_TOOLS_PACKAGE_SECTION utils)
if(MLDSA_CLI_SHARED)
  # mldsa links libmldsa.so.0 (a fixed libmldsa0 fixes it): dpkg-shlibdeps finds the
  # library in the build tree and, having no shlibs file for it there, leaves it to this
  # dependency (libc's and libcrypto's it derives itself)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${PROJECT_BINARY_DIR})
  set(CPACK_DEBIAN_TOOLS_PACKAGE_DEPENDS
    "libmldsa${PROJECT_VERSION_MAJOR} (>= ${PROJECT_VERSION})")
endif()
set(CPACK_DEBIAN_TOOLS_DESCRIPTION
  "ML-DSA (FIPS 204) post-quantum signatures - command-line tool
mldsa generates ML-DSA-44, -65 and -87 keys (PEM, DER as in RFC 9881, or raw),
signs files of any size with them (streamed, with an optional context string;
HashML-DSA or an external mu too) and verifies such signatures, one at a
time or many under one key in a batch. It describes and converts keys, and
reads and writes encrypted PKCS#8 keys (PBES2, by OpenSSL's libcrypto).")
set(CPACK_DEBIAN_PROVIDER_PACKAGE_NAME openssl-provider-mldsa)
set(CPACK_DEBIAN_PROVIDER_DESCRIPTION
  "ML-DSA (FIPS 204) post-quantum signatures - OpenSSL 3 provider
The OpenSSL provider module mldsa gives programs built on OpenSSL 3 (the
openssl command, X.509, CMS, TLS 1.3) ML-DSA-44, -65 and -87 computed by
libmldsa: on OpenSSL 3.0 to 3.4, which have none, and in place of OpenSSL
3.5's own where it is preferred. See mldsa-provider(7).")
include(CPack)
