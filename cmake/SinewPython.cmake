# The Python bindings (python/): option SINEW_PYTHON, ON when Python's headers and pybind11 are
# found (apt-get install python3-dev pybind11-dev, or pip's pybind11 under scikit-build-core),
# OFF under the sanitizers (an instrumented module cannot be loaded by an uninstrumented python).
# SINEW_PYTHON_TESTS (ON: the test command) makes the pytest suite a ctest test and requires that
# the interpreter imports numpy, scipy, pytest and matplotlib (the example's plot is then checked);
# OFF: the suite is added only when it imports the first three.

find_package(Python3 3.8 COMPONENTS Interpreter Development.Module QUIET)
if(Python3_FOUND)
  find_package(pybind11 2.10 CONFIG QUIET)  # after Python3: pybind11 then uses FindPython3's result
endif()
if(Python3_FOUND AND pybind11_FOUND AND NOT SINEW_SANITIZE)
  set(_sinew_python_default ON)
else()
  set(_sinew_python_default OFF)
endif()
option(SINEW_PYTHON "Build the Python module sinew (python/; pybind11)" ${_sinew_python_default})
option(SINEW_PYTHON_TESTS "Run python/tests with pytest in ctest; fail to configure when numpy, scipy or pytest is missing" OFF)
if(SINEW_PYTHON)
  if(SINEW_SANITIZE)
    message(FATAL_ERROR "SINEW_PYTHON=ON with SINEW_SANITIZE=ON: a sanitized module cannot be loaded by python; configure with -DSINEW_PYTHON=OFF")
  endif()
  if(NOT Python3_FOUND)
    find_package(Python3 3.8 REQUIRED COMPONENTS Interpreter Development.Module)  # CMake's own message
  endif()
  if(NOT pybind11_FOUND)
    find_package(pybind11 2.10 CONFIG REQUIRED)  # apt-get install pybind11-dev
  endif()
  # Whether this interpreter can run the tests (numpy, scipy and pytest importable).
  execute_process(COMMAND ${Python3_EXECUTABLE} -c "import numpy, scipy.sparse, pytest"
                  RESULT_VARIABLE _sinew_py_rc OUTPUT_QUIET ERROR_VARIABLE _sinew_py_err)
  if(_sinew_py_rc EQUAL 0 AND SINEW_PYTHON_TESTS)
    execute_process(COMMAND ${Python3_EXECUTABLE} -c "import matplotlib"
                    RESULT_VARIABLE _sinew_py_rc OUTPUT_QUIET ERROR_VARIABLE _sinew_py_err)
  endif()
  if(_sinew_py_rc EQUAL 0)
    set(SINEW_PYTHON_CAN_TEST ON)
  else()
    set(SINEW_PYTHON_CAN_TEST OFF)
    if(SINEW_PYTHON_TESTS)
      message(FATAL_ERROR "SINEW_PYTHON_TESTS=ON but ${Python3_EXECUTABLE} cannot import numpy, scipy, pytest and "
                          "matplotlib (apt-get install python3-numpy python3-scipy python3-pytest python3-matplotlib, or pass "
                          "-DPython3_EXECUTABLE=/usr/bin/python3): ${_sinew_py_err}")
    endif()
  endif()
endif()
