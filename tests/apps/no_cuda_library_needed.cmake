# The cuda backend does not need cuBLAS or cuSPARSE to load: it opens them (dlopen) when a cuda
# backend is made, so that programs that never use the GPU do not load them (~250 MB resident).
#   cmake -DFILE=backend.so|backend.a -DOBJDUMP=objdump -DSTATIC=0|1 -P no_cuda_library_needed.cmake
# A shared plugin: its NEEDED entries. A static library: its undefined symbols (cublas*, cusparse*
# would make every program that links it need those libraries).
foreach(v FILE OBJDUMP STATIC)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "no_cuda_library_needed.cmake: ${v} is required")
  endif()
endforeach()
if(STATIC)
  execute_process(COMMAND "${OBJDUMP}" -t "${FILE}" OUTPUT_VARIABLE dump RESULT_VARIABLE rc)
  string(REGEX MATCHALL "\\*UND\\*[^\n]*(cublas|cusparse)[A-Za-z_0-9]*" found "${dump}")
else()
  execute_process(COMMAND "${OBJDUMP}" -p "${FILE}" OUTPUT_VARIABLE dump RESULT_VARIABLE rc)
  string(REGEX MATCHALL "NEEDED +lib(cublas|cusparse)[^\n]*" found "${dump}")
endif()
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${OBJDUMP} failed on ${FILE}")
endif()
if(found)
  message(FATAL_ERROR "${FILE} needs cuBLAS/cuSPARSE at load time: ${found}")
endif()
message(STATUS "${FILE}: no cuBLAS or cuSPARSE needed to load")
