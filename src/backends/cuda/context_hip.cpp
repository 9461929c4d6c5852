// context.hpp for the HIP build of the backend's sources: a context is a
// device index made current with hipSetDevice. HIP has no driver-API context
// a caller could hand in (hipCtx* is deprecated), so external() refuses one.
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>

#include "backends/cuda/context.hpp"
#include "vmaf/engine.hpp"
#if defined(VMAF_HIP_LOADER)
#include "backends/gpu/hip_runtime_loader.hpp"
#endif

namespace vmaf::cuda {

namespace {

/// Set once a context has been bound on some thread (HIP is running).
std::atomic<bool> g_bound{false};

}  // namespace

// Only once HIP has run here: restoring a device is hipSetDevice, which on HIP's
// NVIDIA platform would replace a caller's current CUDA context (the C API's
// CUDA entry points guard it with `starting` for the CUDA backend's sake).
bool save_current(void** saved, bool /*starting*/) {
    if (!g_bound.load(std::memory_order_acquire)) return false;
    int device = 0;
    if (hipGetDevice(&device) != hipSuccess) {
        (void)hipGetLastError();
        return false;
    }
    *saved = reinterpret_cast<void*>(static_cast<std::intptr_t>(device));
    return true;
}

void restore_current(void* saved) {
    (void)hipSetDevice(static_cast<int>(reinterpret_cast<std::intptr_t>(saved)));
}

std::string no_device_reason(hipError_t e) {
#if defined(__HIP_PLATFORM_AMD__)
    if (::access(kDriverNode, F_OK) != 0) return "no AMD GPU driver loaded (no /dev/kfd)";
#else
    if (::access(kDriverNode, F_OK) != 0) return "no NVIDIA driver loaded (no /dev/nvidiactl)";
#endif
    return std::string("no usable HIP device (") + hipGetErrorString(e) + ")";
}

void require_device() {
#if defined(VMAF_HIP_LOADER)
    // Opening the runtime takes 10-25 ms: not on a machine without the driver.
    if (::access(kDriverNode, F_OK) != 0) throw BackendError(VMAF_GPU_NAME, -ENODEV, no_device_reason(hipErrorNoDevice));
    if (!gpu::hip_runtime_loaded())
        throw BackendError(VMAF_GPU_NAME, -ENODEV,
                           std::string("the HIP runtime (") + gpu::kHipRuntimeLibrary + ") is not installed");
#endif
    int n = 0;
    const hipError_t e = hipGetDeviceCount(&n);
    if (e != hipSuccess) {
        (void)hipGetLastError();
        throw BackendError(VMAF_GPU_NAME, -ENODEV, no_device_reason(e));
    }
    if (n <= 0) throw BackendError(VMAF_GPU_NAME, -ENODEV, "no HIP device found");
}

Context Context::primary(int device) {
    require_device();
    int n = 0;
    (void)hipGetDeviceCount(&n);
    if (device < 0 || device >= n)
        throw BackendError(VMAF_GPU_NAME, -ENODEV,
                           "HIP device " + std::to_string(device) + " does not exist (" + std::to_string(n) + " found)");
    return Context(device);
}

Context Context::external(NativeContext /*ctx*/) {
    throw BackendError(VMAF_GPU_NAME, -EINVAL, "the HIP backend takes a device index, not a native context");
}

NativeContext Context::native() const { return nullptr; }

void Context::bind() const {
    g_bound.store(true, std::memory_order_release);
    if (const hipError_t e = hipSetDevice(device_); e != hipSuccess) {
        (void)hipGetLastError();
        throw Error(ErrorKind::Internal, std::string("HIP: hipSetDevice: ") + hipGetErrorString(e));
    }
}

}  // namespace vmaf::cuda
