// One GPU source for two toolchains: the CUDA backend's sources and every
// feature's kernels (src/features/<name>/cuda/) compile unchanged as CUDA
// (nvcc) and as HIP (hipcc/clang for AMD, or HIP's NVIDIA platform over nvcc).
//
// Contract for GPU code (kernels and host code alike):
// - include this header instead of <cuda_runtime.h>;
// - spell the runtime API with CUDA's names: a HIP build (VMAF_GPU_HIP
//   defined) maps each name listed below onto HIP's. A name missing from the
//   list fails the HIP build (CI compiles every kernel for AMD), so add it here;
// - never assume 32 lanes per warp: AMD runs wave64 (gfx9) or wave32
//   (gfx10+). Use gpu::kWarpSize, gpu::shfl_down/shfl_up/shfl_xor/shfl,
//   gpu::sync_warp and the reductions of backends/cuda/reduce.cuh; no
//   __shfl_*_sync, __syncwarp or full-warp lane masks. Code written for
//   32-lane groups stays correct on wave64 when every shuffle passes width 32;
// - launch with <<<grid, block, shared, stream>>> (both toolchains accept it).
// The HIP build also defines the token `cuda` as `hip` (cmake/Hip.cmake), so
// the HIP copy's namespaces differ from the CUDA copy's in the same binary.
#pragma once

#include <type_traits>

#if defined(VMAF_GPU_HIP)

#include <hip/hip_runtime.h>

/// The backend these sources build: its name (--backend, reports) and label (messages).
#define VMAF_GPU_NAME "hip"
#define VMAF_GPU_LABEL "HIP"
#define VMAF_GPU_DESCRIPTOR kHipBackend

// Types and constants.
#define cudaError_t hipError_t
#define cudaSuccess hipSuccess
#define cudaErrorNoDevice hipErrorNoDevice
#define cudaErrorInsufficientDriver hipErrorInsufficientDriver
#define cudaStream_t hipStream_t
#define cudaEvent_t hipEvent_t
#define cudaMemcpyKind hipMemcpyKind
#define cudaMemcpyHostToDevice hipMemcpyHostToDevice
#define cudaMemcpyDeviceToHost hipMemcpyDeviceToHost
#define cudaMemcpyDeviceToDevice hipMemcpyDeviceToDevice
#ifndef cudaStreamNonBlocking  // CUDA's own macro on HIP's NVIDIA platform
#define cudaStreamNonBlocking hipStreamNonBlocking
#endif
#ifndef cudaEventDisableTiming  // CUDA's own macro on HIP's NVIDIA platform
#define cudaEventDisableTiming hipEventDisableTiming
#endif
#ifndef cudaHostAllocDefault  // CUDA's own macro on HIP's NVIDIA platform
#define cudaHostAllocDefault hipHostMallocDefault
#endif
#ifndef cudaHostAllocPortable  // CUDA's own macro on HIP's NVIDIA platform
#define cudaHostAllocPortable hipHostMallocPortable
#endif
#ifndef cudaHostRegisterPortable  // CUDA's own macro on HIP's NVIDIA platform
#define cudaHostRegisterPortable hipHostRegisterPortable
#endif
// Functions.
#define cudaGetErrorString hipGetErrorString
#define cudaGetLastError hipGetLastError
#define cudaGetDeviceCount hipGetDeviceCount
#define cudaSetDevice hipSetDevice
#define cudaMalloc hipMalloc
#define cudaMallocPitch hipMallocPitch
#define cudaFree hipFree
#define cudaHostAlloc hipHostMalloc
#define cudaFreeHost hipHostFree
#define cudaHostRegister hipHostRegister
#define cudaHostUnregister hipHostUnregister
#define cudaMemcpy hipMemcpy
#define cudaMemcpyAsync hipMemcpyAsync
#define cudaMemcpy2D hipMemcpy2D
#define cudaMemcpy2DAsync hipMemcpy2DAsync
#define cudaMemset hipMemset
#define cudaMemsetAsync hipMemsetAsync
#define cudaMemset2D hipMemset2D
#define cudaStreamCreate hipStreamCreate
#define cudaStreamCreateWithFlags hipStreamCreateWithFlags
#define cudaStreamDestroy hipStreamDestroy
#define cudaStreamSynchronize hipStreamSynchronize
#define cudaStreamQuery hipStreamQuery
#define cudaStreamWaitEvent hipStreamWaitEvent
#define cudaEventCreate hipEventCreate
#define cudaEventCreateWithFlags hipEventCreateWithFlags
#define cudaEventDestroy hipEventDestroy
#define cudaEventRecord hipEventRecord
#define cudaEventSynchronize hipEventSynchronize
#define cudaEventElapsedTime hipEventElapsedTime
#ifndef cudaStreamLegacy  // CUDA's own macro on HIP's NVIDIA platform
// HIP's null stream is the legacy default stream.
#define cudaStreamLegacy static_cast<hipStream_t>(nullptr)
#endif

#if defined(__HIP_PLATFORM_AMD__)
// Kernel parameters are addressable on AMD: CUDA's __grid_constant__ (a
// by-value parameter read in place, also with dynamic indices) is the default.
#ifndef __grid_constant__
#define __grid_constant__
#endif
// Device intrinsics whose HIP (ROCm 5.2) version is not CUDA's: __fsqrt_rn is
// the native v_sqrt_f32 there (about 1 ulp), while sqrtf, under
// -fhip-fp32-correctly-rounded-divide-sqrt (cmake/Hip.cmake), is the IEEE
// square root, as CUDA's __fsqrt_rn. (__fdiv_rn, __dsqrt_rn and the other
// _rn operations are IEEE in both.)
#define __fsqrt_rn(x) (::sqrtf(x))
#endif

#else

#include <cuda_runtime.h>

#define VMAF_GPU_NAME "cuda"
#define VMAF_GPU_LABEL "CUDA"
#define VMAF_GPU_DESCRIPTOR kCudaBackend

#endif

namespace vmaf::gpu {

/// Lanes per warp (wavefront) of the code being compiled: 32 on NVIDIA; on
/// AMD the target's wavefront size in device code (64 for gfx9, 32 for
/// gfx10+ by default). Host code of an AMD build sees 64: only device code may depend on it.
#if defined(__AMDGCN_WAVEFRONT_SIZE)
inline constexpr unsigned kWarpSize = __AMDGCN_WAVEFRONT_SIZE;
#elif defined(__HIP_PLATFORM_AMD__)
inline constexpr unsigned kWarpSize = 64;
#else
inline constexpr unsigned kWarpSize = 32;
#endif

#if defined(__CUDACC__) || defined(__HIP__)
#if defined(__HIP_PLATFORM_AMD__)
namespace detail {
/// HIP's shuffles take int, unsigned, long long, float, double...: narrower
/// integers go through int or unsigned.
template <typename T>
__device__ __forceinline__ auto shfl_arg(T v) {
    if constexpr (std::is_integral_v<T> && sizeof(T) < sizeof(int))
        return static_cast<std::conditional_t<std::is_signed_v<T>, int, unsigned>>(v);
    else
        return v;
}
}  // namespace detail
#endif

/// v of the lane `delta` above this one within aligned groups of `width`
/// lanes (a power of two, at most kWarpSize; every lane of the warp must call it).
template <typename T>
__device__ __forceinline__ T shfl_down(T v, unsigned delta, int width = static_cast<int>(kWarpSize)) {
#if defined(__HIP_PLATFORM_AMD__)
    return static_cast<T>(__shfl_down(detail::shfl_arg(v), delta, width));
#else
    return __shfl_down_sync(0xffffffffu, v, delta, width);
#endif
}

/// v of the lane `delta` below this one within aligned groups of `width` lanes.
template <typename T>
__device__ __forceinline__ T shfl_up(T v, unsigned delta, int width = static_cast<int>(kWarpSize)) {
#if defined(__HIP_PLATFORM_AMD__)
    return static_cast<T>(__shfl_up(detail::shfl_arg(v), delta, width));
#else
    return __shfl_up_sync(0xffffffffu, v, delta, width);
#endif
}

/// v of the lane whose index within its group of `width` lanes is this one's XOR `mask`.
template <typename T>
__device__ __forceinline__ T shfl_xor(T v, int mask, int width = static_cast<int>(kWarpSize)) {
#if defined(__HIP_PLATFORM_AMD__)
    return static_cast<T>(__shfl_xor(detail::shfl_arg(v), mask, width));
#else
    return __shfl_xor_sync(0xffffffffu, v, mask, width);
#endif
}

/// v of lane `src` of this lane's group of `width` lanes (a broadcast).
template <typename T>
__device__ __forceinline__ T shfl(T v, int src, int width = static_cast<int>(kWarpSize)) {
#if defined(__HIP_PLATFORM_AMD__)
    return static_cast<T>(__shfl(detail::shfl_arg(v), src, width));
#else
    return __shfl_sync(0xffffffffu, v, src, width);
#endif
}

/// Orders shared-memory accesses among the lanes of this warp (CUDA's
/// __syncwarp(); on AMD a wavefront-scope fence around the wave barrier).
__device__ __forceinline__ void sync_warp() {
#if defined(__HIP_PLATFORM_AMD__)
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
    __builtin_amdgcn_wave_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
#else
    __syncwarp();
#endif
}
#endif

}  // namespace vmaf::gpu

#if defined(__HIP_PLATFORM_AMD__) && (defined(__CUDACC__) || defined(__HIP__)) && HIP_VERSION < 60200000
// CUDA's warp-synchronous intrinsics, which ROCm 5.2 lacks, for code written
// for 32-lane warps: on AMD they act on aligned groups of 32 lanes (half a
// wave64, a whole wave32), so such code keeps its meaning when its lane index
// is threadIdx.x & 31. The shuffles take the mask as "every lane of the
// group" (as full-warp CUDA code passes); the ballot reports only lanes in mask.
template <typename T>
__device__ __forceinline__ T __shfl_sync(unsigned, T v, int src, int width = 32) {
    return vmaf::gpu::shfl(v, src, width);
}
template <typename T>
__device__ __forceinline__ T __shfl_up_sync(unsigned, T v, unsigned delta, int width = 32) {
    return vmaf::gpu::shfl_up(v, delta, width);
}
template <typename T>
__device__ __forceinline__ T __shfl_down_sync(unsigned, T v, unsigned delta, int width = 32) {
    return vmaf::gpu::shfl_down(v, delta, width);
}
template <typename T>
__device__ __forceinline__ T __shfl_xor_sync(unsigned, T v, int mask, int width = 32) {
    return vmaf::gpu::shfl_xor(v, mask, width);
}
__device__ __forceinline__ unsigned __ballot_sync(unsigned mask, int predicate) {
    const unsigned long long wave = __ballot(predicate);
    return static_cast<unsigned>(wave >> (__lane_id() & 32u)) & mask;
}
__device__ __forceinline__ void __syncwarp(unsigned = 0xffffffffu) { vmaf::gpu::sync_warp(); }
#endif
