# The generated table of compiled GPU backends, in auto-selection priority
# order (cuda, then hip), after cmake/Cuda.cmake and cmake/Hip.cmake.
set(_vmaf_backend_syms "")
if(VMAF_HAVE_CUDA)
  list(APPEND _vmaf_backend_syms kCudaBackend)
endif()
if(VMAF_HAVE_HIP)
  list(APPEND _vmaf_backend_syms kHipBackend)
endif()
vmaf_write_registry(OUTPUT "${PROJECT_BINARY_DIR}/generated/backend_list.cpp" GENERATOR cmake/Backends.cmake
  INCLUDE backends/backend.hpp NAMESPACE vmaf TYPE BackendDescriptor ARRAY kBackends COUNT kBackendCount
  SYMBOLS ${_vmaf_backend_syms})
target_sources(vmaf PRIVATE "${PROJECT_BINARY_DIR}/generated/backend_list.cpp"
                            "${PROJECT_SOURCE_DIR}/src/backends/backend.cpp")
