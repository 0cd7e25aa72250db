# Finds CHOLMOD (SuiteSparse), which ships no CMake config or pkg-config file on Debian 12.
# Defines CHOLMOD_FOUND, CHOLMOD_VERSION and the imported target CHOLMOD::CHOLMOD.

find_path(CHOLMOD_INCLUDE_DIR cholmod.h PATH_SUFFIXES suitesparse)
find_library(CHOLMOD_LIBRARY cholmod)
find_library(SUITESPARSECONFIG_LIBRARY suitesparseconfig)

if(CHOLMOD_INCLUDE_DIR AND EXISTS "${CHOLMOD_INCLUDE_DIR}/cholmod_core.h")
  file(STRINGS "${CHOLMOD_INCLUDE_DIR}/cholmod_core.h" _v REGEX "#define CHOLMOD_(MAIN|SUB|SUBSUB)_VERSION[ \t]+[0-9]+")
  string(REGEX REPLACE ".*CHOLMOD_MAIN_VERSION[ \t]+([0-9]+).*" "\\1" _major "${_v}")
  string(REGEX REPLACE ".*CHOLMOD_SUB_VERSION[ \t]+([0-9]+).*" "\\1" _minor "${_v}")
  string(REGEX REPLACE ".*CHOLMOD_SUBSUB_VERSION[ \t]+([0-9]+).*" "\\1" _patch "${_v}")
  set(CHOLMOD_VERSION "${_major}.${_minor}.${_patch}")
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(CHOLMOD
  REQUIRED_VARS CHOLMOD_LIBRARY SUITESPARSECONFIG_LIBRARY CHOLMOD_INCLUDE_DIR
  VERSION_VAR CHOLMOD_VERSION)

if(CHOLMOD_FOUND AND NOT TARGET CHOLMOD::CHOLMOD)
  add_library(CHOLMOD::CHOLMOD UNKNOWN IMPORTED)
  set_target_properties(CHOLMOD::CHOLMOD PROPERTIES
    IMPORTED_LOCATION "${CHOLMOD_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${CHOLMOD_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "${SUITESPARSECONFIG_LIBRARY}")
endif()
mark_as_advanced(CHOLMOD_INCLUDE_DIR CHOLMOD_LIBRARY SUITESPARSECONFIG_LIBRARY)
