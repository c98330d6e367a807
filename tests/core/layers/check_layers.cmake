# The core's layering rule, checked by ctest (core_layers): a file in core/<layer>/ may include only
# its own layer and the layers listed before it, and only the facade may include JSON
# (nlohmann/json). Every source sits in a layer folder and names the layer of each core header it
# includes ("model/scenario.hpp", never a bare "scenario.hpp"), so the rule can be read off the text.
#   cmake -DCORE_DIR=<dir> -P tests/core/layers/check_layers.cmake
# exits non-zero and names each offending include. core/README.md explains the layers.
set(LAYERS util model refengine memory pipeline parallel solver facade)

if(NOT CORE_DIR)
  message(FATAL_ERROR "check_layers: pass -DCORE_DIR=<the core directory>")
endif()
file(GLOB_RECURSE sources RELATIVE ${CORE_DIR} ${CORE_DIR}/*.hpp ${CORE_DIR}/*.cpp)
if(NOT sources)
  message(FATAL_ERROR "check_layers: no .hpp or .cpp files under ${CORE_DIR}")
endif()

set(problems "")
foreach(src IN LISTS sources)
  string(REGEX MATCH "^[^/]+" own ${src})
  list(FIND LAYERS ${own} own_rank)
  if(own_rank EQUAL -1 OR src STREQUAL own)
    string(APPEND problems "  ${src} is in no layer folder\n")
    continue()
  endif()
  file(STRINGS ${CORE_DIR}/${src} includes REGEX "^[ \t]*#[ \t]*include")
  foreach(line IN LISTS includes)
    if(line MATCHES "<nlohmann/" AND NOT own STREQUAL "facade")
      string(APPEND problems "  ${src} includes JSON (nlohmann), which only the facade may do\n")
    elseif(line MATCHES "\"([^\"]+)\"")
      set(header ${CMAKE_MATCH_1})
      string(REGEX MATCH "^[^/]+" target ${header})
      list(FIND LAYERS ${target} target_rank)
      if(target_rank EQUAL -1 OR header STREQUAL target)
        string(APPEND problems "  ${src} includes \"${header}\", which names no layer\n")
      elseif(target_rank GREATER own_rank)
        string(APPEND problems "  ${src} includes \"${header}\": ${own} may not include ${target}, a higher layer\n")
      endif()
    endif()
  endforeach()
endforeach()

string(REPLACE ";" ", " order "${LAYERS}")
if(problems)
  message(FATAL_ERROR "core layering broken (layers, lowest first: ${order}):\n${problems}")
endif()
list(LENGTH sources count)
message(STATUS "core layering holds: ${count} files, no include points up a layer")
