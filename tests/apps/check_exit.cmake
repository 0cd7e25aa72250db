# Runs a command and checks its exit code exactly (WILL_FAIL only checks "non-zero").
#   cmake -DCMD="prog;arg;..." -DEXPECT=2 [-DNO_OUT=DIR] [-DMESSAGE=fragment] -P check_exit.cmake
# NO_OUT: a folder that must not exist afterwards (removed first): bad input leaves no output.
# MESSAGE: a fragment the command's stderr must contain.
if(NOT DEFINED CMD OR NOT DEFINED EXPECT)
  message(FATAL_ERROR "check_exit.cmake: CMD and EXPECT are required")
endif()
if(DEFINED NO_OUT)
  file(REMOVE_RECURSE "${NO_OUT}")
endif()
execute_process(COMMAND ${CMD} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT "${rc}" STREQUAL "${EXPECT}")
  message(FATAL_ERROR "exit code ${rc}, expected ${EXPECT}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(DEFINED NO_OUT AND EXISTS "${NO_OUT}")
  message(FATAL_ERROR "exit code ${rc} as expected, but it left ${NO_OUT} behind\nstderr:\n${err}")
endif()
if(DEFINED MESSAGE)
  string(FIND "${err}" "${MESSAGE}" at)
  if(at LESS 0)
    message(FATAL_ERROR "stderr lacks '${MESSAGE}':\n${err}")
  endif()
endif()
message(STATUS "exit code ${rc} as expected: ${err}")
