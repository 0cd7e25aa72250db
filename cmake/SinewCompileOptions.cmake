# Warning and sanitizer flags shared by every sinew target (through sinew_compile_options).

add_library(sinew_compile_options INTERFACE)
target_compile_options(sinew_compile_options INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic>
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<BOOL:${SINEW_WARNINGS_AS_ERRORS}>>:-Werror>
  $<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<BOOL:${SINEW_WARNINGS_AS_ERRORS}>>:-Werror=all-warnings>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>
  # Shared builds: calls inside a library may be inlined as in a static build (nothing of sinew is
  # meant to be interposed by LD_PRELOAD).
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<BOOL:${BUILD_SHARED_LIBS}>>:-fno-semantic-interposition>
  # Unity builds include each .cpp into a batch file, where GCC takes a class holding a member of
  # a type from the .cpp's anonymous namespace for one defined in a header: a false alarm there.
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:GNU>,$<BOOL:${SINEW_UNITY_LIBS}>>:-Wno-subobject-linkage>)
if(SINEW_SANITIZE)
  target_compile_options(sinew_compile_options INTERFACE
    $<$<COMPILE_LANGUAGE:CXX>:-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all>)
  target_link_options(sinew_compile_options INTERFACE -fsanitize=address,undefined)
  # Libraries instrumented for libFuzzer's coverage feedback (clang only); only the fuzz
  # programs link libFuzzer itself (-fsanitize=fuzzer, fuzz/CMakeLists.txt).
  if(SINEW_BUILD_FUZZERS)
    target_compile_options(sinew_compile_options INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-fsanitize=fuzzer-no-link>)
  endif()
endif()

# sinew_add_library(name SOURCES...): the target sinew_<name>, alias sinew::<name>, public
# headers in libs/<name>/include (or the current folder's include/).
function(sinew_add_library name)
  add_library(sinew_${name} ${ARGN})
  add_library(sinew::${name} ALIAS sinew_${name})
  target_include_directories(sinew_${name} PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:include>)
  # Build-tree only: the warning flags stay out of the installed package (SinewInstall.cmake).
  target_link_libraries(sinew_${name} PRIVATE $<BUILD_INTERFACE:sinew_compile_options>)
  target_compile_features(sinew_${name} PUBLIC cxx_std_17)  # what consumers of the package need
  set_target_properties(sinew_${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  if(SINEW_UNITY_LIBS)
    set_target_properties(sinew_${name} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 6)
  endif()
  # Installed and exported as the package component <name> (cmake/SinewInstall.cmake).
  sinew_install_component(sinew_${name} ${name} ${CMAKE_CURRENT_SOURCE_DIR}/include)
endfunction()

# sinew_add_cuda_kernels(name): with SINEW_WITH_CUDA, adds libs/<name>/src/**/*.cu to sinew_<name>:
# the explicit instantiations of sinew::cuda_for_each_index for the library's kernel functors
# (sinew/backends/cuda_launch.cuh). SINEW_CUDA_KERNELS tells the library's private kernel headers
# to declare those launches compiled (sinew::CudaLaunchCompiled).
function(sinew_add_cuda_kernels name)
  if(NOT SINEW_WITH_CUDA)
    return()
  endif()
  file(GLOB_RECURSE _cuda_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/*.cu)
  target_sources(sinew_${name} PRIVATE ${_cuda_sources})
  target_include_directories(sinew_${name} PRIVATE ${PROJECT_SOURCE_DIR}/backends/cuda/include)
  target_link_libraries(sinew_${name} PRIVATE CUDA::cudart)
  target_compile_definitions(sinew_${name} PRIVATE SINEW_CUDA_KERNELS=1)
endfunction()
