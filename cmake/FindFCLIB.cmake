# Finds FCLIB (frictional contact problem files in HDF5; Debian libfclib-dev) and the HDF5 C and
# high-level libraries it is built on. Debian's fclib-config.cmake is not used: it pulls HDF5 in
# through find_dependency(HDF5 COMPONENTS C), which needs the C language enabled and does not
# expose HDF5's headers, while sinew's FCLIB reader and writer call the HDF5 API directly
# (libfclib exits the process on a malformed file). HDF5 is found the way FindCHOLMOD finds
# CHOLMOD, by file names: Debian keeps the serial build under hdf5/serial.
# Defines FCLIB_FOUND, FCLIB_VERSION and the imported target FCLIB::FCLIB, whose interface
# carries HDF5's include directory and libraries. The target is GLOBAL because it is found in
# libs/constraints but reaches the tests through sinew_constraints' link interface.

find_path(FCLIB_INCLUDE_DIR fclib.h)
find_library(FCLIB_LIBRARY fclib)
find_path(FCLIB_HDF5_INCLUDE_DIR hdf5_hl.h PATH_SUFFIXES hdf5/serial)
find_library(FCLIB_HDF5_LIBRARY NAMES hdf5_serial hdf5 PATH_SUFFIXES hdf5/serial)
find_library(FCLIB_HDF5_HL_LIBRARY NAMES hdf5_serial_hl hdf5_hl PATH_SUFFIXES hdf5/serial)

if(FCLIB_LIBRARY)
  get_filename_component(_fclib_libdir "${FCLIB_LIBRARY}" DIRECTORY)
  if(EXISTS "${_fclib_libdir}/pkgconfig/fclib.pc")
    file(STRINGS "${_fclib_libdir}/pkgconfig/fclib.pc" _v REGEX "^Version:")
    string(REGEX REPLACE "^Version:[ \t]*" "" FCLIB_VERSION "${_v}")
  endif()
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(FCLIB
  REQUIRED_VARS FCLIB_LIBRARY FCLIB_INCLUDE_DIR FCLIB_HDF5_INCLUDE_DIR FCLIB_HDF5_LIBRARY FCLIB_HDF5_HL_LIBRARY
  VERSION_VAR FCLIB_VERSION)

if(FCLIB_FOUND AND NOT TARGET FCLIB::FCLIB)
  add_library(FCLIB::FCLIB UNKNOWN IMPORTED GLOBAL)
  set_target_properties(FCLIB::FCLIB PROPERTIES
    IMPORTED_LOCATION "${FCLIB_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${FCLIB_INCLUDE_DIR};${FCLIB_HDF5_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "${FCLIB_HDF5_HL_LIBRARY};${FCLIB_HDF5_LIBRARY}")
endif()
mark_as_advanced(FCLIB_INCLUDE_DIR FCLIB_LIBRARY FCLIB_HDF5_INCLUDE_DIR FCLIB_HDF5_LIBRARY FCLIB_HDF5_HL_LIBRARY)
