# The CUDA backend. Built whenever nvcc is found (VMAF_ENABLE_CUDA=AUTO), or
# forced ON/OFF. The core sees backends only through src/backends/backend.hpp:
# this file lists the compiled backends and the CUDA twins of features
# (src/features/<name>/cuda/) in generated tables.
#
# Included from the top-level CMakeLists.txt after the feature folders and
# before the extractor registry is finished.
set(VMAF_ENABLE_CUDA AUTO CACHE STRING "Build the CUDA backend: AUTO (when nvcc is found), ON or OFF")
set_property(CACHE VMAF_ENABLE_CUDA PROPERTY STRINGS AUTO ON OFF)

set(VMAF_HAVE_CUDA OFF)
if(NOT VMAF_ENABLE_CUDA STREQUAL "OFF")
  include(CheckLanguage)
  if(NOT CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX} AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    set(VMAF_HAVE_CUDA ON)
  elseif(VMAF_ENABLE_CUDA STREQUAL "ON")
    message(FATAL_ERROR "VMAF_ENABLE_CUDA=ON but no CUDA compiler (nvcc) was found")
  endif()
endif()

if(NOT VMAF_HAVE_CUDA)
  message(STATUS "CUDA backend: off (no nvcc)")
  return()
endif()

# SASS for every architecture the local nvcc knows from sm_75 to sm_120, plus
# PTX of the newest for JIT on later devices.
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES OR CMAKE_CUDA_ARCHITECTURES STREQUAL "")
  execute_process(COMMAND ${CMAKE_CUDA_COMPILER} --list-gpu-arch OUTPUT_VARIABLE _archs ERROR_QUIET)
  set(_want 75 80 86 89 90 100 120)
  set(_have "")
  foreach(a IN LISTS _want)
    if(_archs MATCHES "compute_${a}")
      list(APPEND _have ${a})
    endif()
  endforeach()
  if(NOT _have)
    set(_have 75 80 86)
  endif()
  list(GET _have -1 _last)
  list(REMOVE_AT _have -1)
  set(_arch_list "")
  foreach(a IN LISTS _have)
    list(APPEND _arch_list "${a}-real")
  endforeach()
  list(APPEND _arch_list "${_last}")  # SASS and PTX
  set(CMAKE_CUDA_ARCHITECTURES "${_arch_list}" CACHE STRING "CUDA architectures" FORCE)
endif()
set(CMAKE_CUDA_RUNTIME_LIBRARY Static)
set(CMAKE_CUDA_STANDARD 17)  # .cu files are plain C++17; CMake 3.25 lacks CUDA20 for nvcc
set(CMAKE_CUDA_STANDARD_REQUIRED ON)
enable_language(CUDA)
find_package(CUDAToolkit REQUIRED)
message(STATUS "CUDA backend: on (nvcc ${CMAKE_CUDA_COMPILER_VERSION}, architectures ${CMAKE_CUDA_ARCHITECTURES})")

add_subdirectory(src/backends/cuda)
target_sources(vmaf PRIVATE $<TARGET_OBJECTS:vmaf_cuda>)
target_link_libraries(vmaf PUBLIC CUDA::cudart_static)

if(VMAF_BUILD_TESTS AND EXISTS "${PROJECT_SOURCE_DIR}/tests/cuda/CMakeLists.txt")
  add_subdirectory(tests/cuda)
endif()
