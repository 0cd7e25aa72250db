# Finds Siconos numerics (the frictional contact solvers fc3d/gfc3d; Debian
# libsiconos-numerics-dev). Debian's siconos-config.cmake is not used: it describes the whole
# Siconos suite (kernel, mechanics, io, Boost), checks for /usr/bin/siconos, and sets
# CMAKE_CXX_STANDARD to 11 for its caller.
# Defines SiconosNumerics_FOUND (no version: the headers carry none) and the imported target
# SiconosNumerics::SiconosNumerics (GLOBAL, so that a find in bench/ serves every folder).

find_path(SiconosNumerics_INCLUDE_DIR NonSmoothDrivers.h PATH_SUFFIXES siconos/numerics)
find_path(SiconosNumerics_CONFIG_DIR SiconosConfig.h PATH_SUFFIXES siconos)
find_library(SiconosNumerics_LIBRARY siconos_numerics)
find_library(SiconosNumerics_EXTERNALS_LIBRARY siconos_externals)

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(SiconosNumerics
  REQUIRED_VARS SiconosNumerics_LIBRARY SiconosNumerics_EXTERNALS_LIBRARY SiconosNumerics_INCLUDE_DIR
    SiconosNumerics_CONFIG_DIR)

if(SiconosNumerics_FOUND AND NOT TARGET SiconosNumerics::SiconosNumerics)
  add_library(SiconosNumerics::SiconosNumerics UNKNOWN IMPORTED GLOBAL)
  # Its headers include each other by bare name ("NumericsMatrix.h") and SiconosConfig.h one
  # level up, so both folders are needed.
  set_target_properties(SiconosNumerics::SiconosNumerics PROPERTIES
    IMPORTED_LOCATION "${SiconosNumerics_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${SiconosNumerics_INCLUDE_DIR};${SiconosNumerics_CONFIG_DIR}"
    INTERFACE_LINK_LIBRARIES "${SiconosNumerics_EXTERNALS_LIBRARY}")
endif()
mark_as_advanced(SiconosNumerics_INCLUDE_DIR SiconosNumerics_CONFIG_DIR SiconosNumerics_LIBRARY
  SiconosNumerics_EXTERNALS_LIBRARY)
