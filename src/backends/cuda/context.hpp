// The CUDA context the backend runs in: a device's primary context (the
// runtime's default) or a context the caller made with the driver API (as
// FFmpeg's CUDA hardware device has). Host code only. The HIP build of these
// sources implements this interface in context_hip.cpp (devices only: a
// caller's native context is refused).
#pragma once

#include "backends/gpu/portability.hpp"
#if !defined(VMAF_GPU_HIP)
#include <cuda.h>  // driver API types only: functions come through the runtime's entry points
#endif

#include <string>

namespace vmaf::cuda {

#if defined(VMAF_GPU_HIP)
using NativeContext = void*;
/// The device node whose absence means no GPU driver is loaded.
#if defined(__HIP_PLATFORM_AMD__)
inline constexpr const char* kDriverNode = "/dev/kfd";
#else
inline constexpr const char* kDriverNode = "/dev/nvidiactl";
#endif
#else
using NativeContext = CUcontext;
inline constexpr const char* kDriverNode = "/dev/nvidiactl";
#endif

/// Throws BackendError(-ENODEV) with the reason in the user's terms when the
/// CUDA runtime finds no usable device (no driver, driver not loaded or too
/// old, no device). Initialises the driver otherwise.
void require_device();

/// Why the runtime reported `e` at start-up, in the user's terms.
std::string no_device_reason(cudaError_t e);

/// The calling thread's current context into `*saved`; false (nothing
/// saved, CUDA untouched) while no Context has been bound in the process
/// unless `starting`, or when there is no usable driver.
bool save_current(void** saved, bool starting);
/// Makes `saved` (from save_current) the calling thread's current context again.
void restore_current(void* saved);

/// Where every CUDA call of a backend session runs. Copyable value; an
/// external context is not owned and must outlive every use of the copies.
class Context {
public:
    /// The primary context of `device`, unchecked (see primary()).
    explicit Context(int device = 0) : device_(device) {}
    /// The primary context of device `device` (CUDA_VISIBLE_DEVICES numbering).
    /// Throws BackendError(-ENODEV) when there is no such device.
    static Context primary(int device);
    /// The caller's driver-API context `ctx`. Throws BackendError: -ENODEV
    /// without a usable driver, -EINVAL when `ctx` is not a valid context.
    static Context external(NativeContext ctx);

    /// Makes this context current on the calling thread (replacing the
    /// thread's current one, as cudaSetDevice does); throws Error(Internal)
    /// when the driver refuses.
    void bind() const;
    /// The device ordinal the context belongs to.
    int device() const { return device_; }
    /// The caller's context, or null for a primary context.
    NativeContext external_handle() const { return ctx_; }
    /// The driver handle of this context (a primary one is made current on
    /// the calling thread to obtain it). Throws as bind() does.
    NativeContext native() const;

private:
    int device_ = 0;
    NativeContext ctx_ = nullptr;
};

}  // namespace vmaf::cuda
