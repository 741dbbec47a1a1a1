# SPDX-License-Identifier: Apache-2.0 OR MIT
# Build step of the Debian packages (cmake -P, from cmake/MldsaDebian.cmake), writing
# into OUT:
#   copyright, triggers          packaging/debian/<file> without its lines starting with #
#   changelog.Debian.gz          packaging/debian/changelog likewise, gzip -9n
#   man/<page>.gz                each of MAN_PAGES, gzip -9n
#   shlibs                       "<library> <major> PACKAGE (>= release of the newest node)"
#   symbols                      the dpkg symbols file of PACKAGE: for each version node of
#                                MAP (src/exports.map), the symbols that LIBRARY exports
#                                with that node, at the release that node names
#                                (MLDSA_0.1 -> 0.1.0). A symbol of LIBRARY without a node of
#                                MAP, or a node without symbols, is an error.
# Inputs: SRC (packaging/debian), OUT, MAN_PAGES, MAP, LIBRARY, SONAME, PACKAGE, DEV_PACKAGE,
# NM, GZIP.
cmake_minimum_required(VERSION 3.18)

function(strip_comments in out)
  file(STRINGS "${in}" lines)
  set(text "")
  foreach(line IN LISTS lines)
    if(NOT line MATCHES "^#")
      string(APPEND text "${line}\n")
    endif()
  endforeach()
  file(WRITE "${out}" "${text}")
endfunction()

function(gzip_to in out)
  execute_process(COMMAND "${GZIP}" -9n -c "${in}" OUTPUT_FILE "${out}"
    RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "gzip -9n ${in} failed")
  endif()
endfunction()

file(MAKE_DIRECTORY "${OUT}/man")
strip_comments("${SRC}/copyright" "${OUT}/copyright")
strip_comments("${SRC}/triggers" "${OUT}/triggers")
strip_comments("${SRC}/changelog" "${OUT}/changelog.Debian")
gzip_to("${OUT}/changelog.Debian" "${OUT}/changelog.Debian.gz")
file(REMOVE "${OUT}/changelog.Debian")
foreach(page IN LISTS MAN_PAGES)
  get_filename_component(name "${page}" NAME)
  gzip_to("${page}" "${OUT}/man/${name}.gz")
endforeach()

# ---- symbols ----
file(READ "${MAP}" map)
string(REGEX REPLACE "/\\*([^*]|\\*+[^*/])*\\*+/" "" map "${map}") # comments
string(REGEX MATCHALL "[A-Za-z_][A-Za-z0-9_.]*[ \t\r\n]*{" nodes "${map}")
list(TRANSFORM nodes REPLACE "[ \t\r\n]*{$" "")
if(NOT nodes)
  message(FATAL_ERROR "${MAP}: no version node")
endif()
execute_process(COMMAND "${NM}" -D --defined-only "${LIBRARY}"
  OUTPUT_VARIABLE nm_out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} -D ${LIBRARY} failed")
endif()
string(REPLACE "\n" ";" nm_lines "${nm_out}")
set(body "")
foreach(node IN LISTS nodes)
  if(NOT node MATCHES "_([0-9]+(\\.[0-9]+)*)$")
    message(FATAL_ERROR "${MAP}: version node ${node} names no release (NAME_X.Y)")
  endif()
  set(version ${CMAKE_MATCH_1})
  string(REGEX MATCHALL "\\." dots "${version}")
  list(LENGTH dots ndots)
  while(ndots LESS 2)
    string(APPEND version ".0")
    math(EXPR ndots "${ndots} + 1")
  endwhile()
  set(syms)
  foreach(line IN LISTS nm_lines)
    # "<value> <type> <name>@@<node>", and the node's own definition "<value> A <node>"
    if(line MATCHES "^[0-9a-f]* *[A-Za-z] ([^ @]+)@@?(.+)$" AND CMAKE_MATCH_2 STREQUAL node)
      list(APPEND syms "${CMAKE_MATCH_1}@${node}")
    elseif(line MATCHES "^[0-9a-f]* *A ([^ @]+)$" AND CMAKE_MATCH_1 STREQUAL node)
      list(APPEND syms "${node}@${node}")
    endif()
  endforeach()
  list(LENGTH syms n)
  if(n LESS 2) # the node's definition and at least one symbol
    message(FATAL_ERROR "${LIBRARY}: no symbol with version node ${node} of ${MAP}")
  endif()
  list(SORT syms)
  foreach(s IN LISTS syms)
    string(APPEND body " ${s} ${version}\n")
  endforeach()
endforeach()
foreach(line IN LISTS nm_lines)
  if(line MATCHES "^[0-9a-f]* *A ([^ @]+)$" AND CMAKE_MATCH_1 IN_LIST nodes)
    # a node's definition
  elseif(line MATCHES "^[0-9a-f]* *[A-Za-z] ([^ @]+)(@@?(.+))?$")
    if(NOT CMAKE_MATCH_3 OR NOT CMAKE_MATCH_3 IN_LIST nodes)
      message(FATAL_ERROR "${LIBRARY} exports ${CMAKE_MATCH_1} outside the nodes of ${MAP}")
    endif()
  endif()
endforeach()
# shlibs: for tools that read no symbols file, the release of the newest node
string(REGEX REPLACE "^(.*)\\.so\\.([0-9]+)$" "\\1 \\2" shlib "${SONAME}")
file(WRITE "${OUT}/shlibs" "${shlib} ${PACKAGE} (>= ${version})\n")
file(WRITE "${OUT}/symbols"
  "${SONAME} ${PACKAGE} #MINVER#\n* Build-Depends-Package: ${DEV_PACKAGE}\n${body}")
