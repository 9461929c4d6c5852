# The HIP backend: the CUDA backend's sources and every feature's kernels
# (cmake/GpuSources.cmake) compiled a second time as HIP, through
# src/backends/gpu/portability.hpp (CUDA's runtime names mapped onto HIP's)
# with the token `cuda` defined as `hip`, so that the namespaces vmaf::cuda and
# vmaf::<feature>::cuda of this copy become ...::hip and both backends link
# into one binary. The backend registers as "hip".
#
# VMAF_HIP_PLATFORM:
#   amd     hipcc (Debian 12: hipcc, libamdhip64-dev, rocm-device-libs)
#           compiles the kernels for VMAF_HIP_ARCHITECTURES; the host code is
#           plain C++ over libamdhip64.
#   nvidia  HIP's NVIDIA platform: HIP's headers (hip/nvidia_detail, from
#           VMAF_HIP_NVIDIA_INCLUDE, see scripts/hip-nvidia-headers.sh) over
#           nvcc and the CUDA runtime; needs the CUDA backend's toolchain.
set(VMAF_ENABLE_HIP AUTO CACHE STRING "Build the HIP backend: AUTO (when hipcc is found), ON or OFF")
set_property(CACHE VMAF_ENABLE_HIP PROPERTY STRINGS AUTO ON OFF)
set(VMAF_HIP_PLATFORM amd CACHE STRING "HIP platform: amd (hipcc) or nvidia (HIP's NVIDIA headers over nvcc)")
set_property(CACHE VMAF_HIP_PLATFORM PROPERTY STRINGS amd nvidia)
set(VMAF_HIP_ARCHITECTURES "gfx90a;gfx1030" CACHE STRING "AMD targets the HIP kernels are compiled for")
set(VMAF_HIP_NVIDIA_INCLUDE "" CACHE PATH "With VMAF_HIP_PLATFORM=nvidia: the folder holding hip/ (with nvidia_detail/)")

set(VMAF_HAVE_HIP OFF)
if(VMAF_ENABLE_HIP STREQUAL "OFF")
  message(STATUS "HIP backend: off")
else()
  add_subdirectory(src/backends/gpu)
endif()
if(VMAF_HAVE_HIP AND VMAF_BUILD_TESTS)
  add_subdirectory(tests/hip)
endif()
