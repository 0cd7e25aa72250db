# Warning and sanitizer flags shared by every sinew target (through sinew_compile_options).

add_library(sinew_compile_options INTERFACE)
target_compile_options(sinew_compile_options INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic>
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<BOOL:${SINEW_WARNINGS_AS_ERRORS}>>:-Werror>
  $<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<BOOL:${SINEW_WARNINGS_AS_ERRORS}>>:-Werror=all-warnings>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>)
if(SINEW_SANITIZE)
  target_compile_options(sinew_compile_options INTERFACE
    $<$<COMPILE_LANGUAGE:CXX>:-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all>)
  target_link_options(sinew_compile_options INTERFACE -fsanitize=address,undefined)
endif()

# sinew_add_library(name SOURCES...): the target sinew_<name>, alias sinew::<name>, public
# headers in libs/<name>/include (or the current folder's include/).
function(sinew_add_library name)
  add_library(sinew_${name} ${ARGN})
  add_library(sinew::${name} ALIAS sinew_${name})
  target_include_directories(sinew_${name} PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:include>)
  target_link_libraries(sinew_${name} PRIVATE sinew_compile_options)
  set_target_properties(sinew_${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
endfunction()
