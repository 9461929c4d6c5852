# The one GPU source tree both GPU backends compile: the backend runtime in
# src/backends/cuda/ and every feature twin under src/features/<name>/cuda/
# (sources plus a twin.txt naming its TwinDescriptor symbols, one a line: a
# folder whose feature has several kinds, as speed's, has one twin per kind). CUDA builds it
# with nvcc (src/backends/cuda/CMakeLists.txt); HIP builds the same files
# again (cmake/Hip.cmake) through src/backends/gpu/portability.hpp.
#
#   vmaf_gpu_sources(<cu_var> <cpp_var> <twin_symbols_var>)
function(vmaf_gpu_sources cu_var cpp_var syms_var)
  set(_root "${PROJECT_SOURCE_DIR}/src")
  set(_cu "${_root}/backends/cuda/probe.cu" "${_root}/backends/cuda/gather.cu")
  set(_cpp "${_root}/backends/cuda/session.cpp" "${_root}/backends/cuda/device_pictures.cpp"
    "${_root}/backends/cuda/device_ledger.cpp")
  file(GLOB _twin_dirs LIST_DIRECTORIES true "${_root}/features/*/cuda")
  list(SORT _twin_dirs)
  set(_syms "")
  foreach(dir IN LISTS _twin_dirs)
    file(GLOB _c "${dir}/*.cu")
    file(GLOB _p "${dir}/*.cpp")
    list(FILTER _p EXCLUDE REGEX "_test\\.cpp$")
    list(APPEND _cu ${_c})
    list(APPEND _cpp ${_p})
    if(EXISTS "${dir}/twin.txt")
      file(STRINGS "${dir}/twin.txt" _sym)
      list(APPEND _syms ${_sym})
    endif()
  endforeach()
  # Re-glob when a feature folder gains or loses a cuda/ folder or file.
  file(GLOB _feature_dirs LIST_DIRECTORIES true "${_root}/features/*")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_feature_dirs} ${_twin_dirs})
  set(${cu_var} ${_cu} PARENT_SCOPE)
  set(${cpp_var} ${_cpp} PARENT_SCOPE)
  set(${syms_var} ${_syms} PARENT_SCOPE)
endfunction()
