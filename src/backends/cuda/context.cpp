#include "backends/cuda/context.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>

#include "vmaf/engine.hpp"

namespace vmaf::cuda {

namespace {

/// The few driver-API functions the backend needs, obtained from the runtime
/// (cudaGetDriverEntryPoint*) so that the library links no libcuda.
struct Driver {
    CUresult (*set_current)(CUcontext) = nullptr;
    CUresult (*push_current)(CUcontext) = nullptr;
    CUresult (*pop_current)(CUcontext*) = nullptr;
    CUresult (*get_device)(CUdevice*) = nullptr;
    CUresult (*get_current)(CUcontext*) = nullptr;
    cudaError_t error = cudaSuccess;  ///< why the functions could not be obtained
};

template <typename F>
cudaError_t entry_point(const char* name, F*& out) {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
#if CUDART_VERSION >= 12050
    // The ABI of each function as of CUDA 12.0, whatever the driver's version.
    cudaError_t e = cudaGetDriverEntryPointByVersion(name, &fn, 12000, cudaEnableDefault, &found);
#else
    cudaError_t e = cudaGetDriverEntryPoint(name, &fn, cudaEnableDefault, &found);
#endif
    if (e == cudaSuccess && (found != cudaDriverEntryPointSuccess || !fn)) e = cudaErrorSymbolNotFound;
    if (e != cudaSuccess) cudaGetLastError();
    out = reinterpret_cast<F*>(fn);
    return e;
}

const Driver& driver() {
    static const Driver d = [] {
        Driver r;
        for (cudaError_t e :
             {entry_point("cuCtxSetCurrent", r.set_current), entry_point("cuCtxPushCurrent", r.push_current),
              entry_point("cuCtxPopCurrent", r.pop_current), entry_point("cuCtxGetDevice", r.get_device),
              entry_point("cuCtxGetCurrent", r.get_current)})
            if (e != cudaSuccess && r.error == cudaSuccess) r.error = e;
        return r;
    }();
    return d;
}

const Driver& require_driver() {
    const Driver& d = driver();
    if (d.error != cudaSuccess)
        throw BackendError("cuda", -ENODEV,
                           std::string("the CUDA driver API is not available (") + cudaGetErrorString(d.error) + ")");
    return d;
}

/// Set once a context has been bound on some thread (CUDA is running).
std::atomic<bool> g_bound{false};

}  // namespace

bool save_current(void** saved, bool starting) {
    if (!starting && !g_bound.load(std::memory_order_acquire)) return false;
    const Driver& d = driver();
    CUcontext c = nullptr;
    if (d.error != cudaSuccess || d.get_current(&c) != CUDA_SUCCESS) return false;
    *saved = c;
    return true;
}

void restore_current(void* saved) {
    driver().set_current(static_cast<CUcontext>(saved));
}

std::string no_device_reason(cudaError_t e) {
    if (e == cudaErrorInsufficientDriver || e == cudaErrorNoDevice) {
        void* lib = ::dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
        if (!lib) return "no NVIDIA driver (libcuda.so.1 not found)";
        ::dlclose(lib);
        if (::access("/dev/nvidiactl", F_OK) != 0)
            return "the NVIDIA driver is installed but not loaded (no /dev/nvidiactl)";
        if (e == cudaErrorInsufficientDriver)
            return "the installed NVIDIA driver is too old for this build's CUDA runtime " +
                   std::to_string(CUDART_VERSION / 1000) + "." + std::to_string(CUDART_VERSION % 1000 / 10);
    }
    return std::string("no usable CUDA device (") + cudaGetErrorString(e) + ")";
}

void require_device() {
    int n = 0;
    const cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess) {
        cudaGetLastError();
        throw BackendError("cuda", -ENODEV, no_device_reason(e));
    }
    if (n <= 0) throw BackendError("cuda", -ENODEV, "no CUDA device found");
}

Context Context::primary(int device) {
    require_device();
    int n = 0;
    cudaGetDeviceCount(&n);
    if (device < 0 || device >= n)
        throw BackendError(
            "cuda", -ENODEV,
            "CUDA device " + std::to_string(device) + " does not exist (" + std::to_string(n) + " found)");
    return Context(device);
}

Context Context::external(CUcontext ctx) {
    require_device();
    const Driver& d = require_driver();
    if (!ctx) throw BackendError("cuda", -EINVAL, "no CUDA context given");
    // Pushed and popped: the calling thread's current context is left as it was.
    if (const CUresult r = d.push_current(ctx); r != CUDA_SUCCESS)
        throw BackendError("cuda", -EINVAL,
                           "the CUDA context given is not valid (driver error " + std::to_string(r) + ")");
    CUdevice dev = 0;
    const CUresult r = d.get_device(&dev);
    CUcontext popped = nullptr;
    d.pop_current(&popped);
    if (r != CUDA_SUCCESS)
        throw BackendError("cuda", -EINVAL,
                           "the CUDA context given has no device (driver error " + std::to_string(r) + ")");
    Context c;
    c.device_ = static_cast<int>(dev);
    c.ctx_ = ctx;
    return c;
}

CUcontext Context::native() const {
    if (ctx_) return ctx_;
    bind();
    cudaFree(nullptr);  // the primary context is created lazily: make sure it exists
    CUcontext c = nullptr;
    if (const CUresult r = require_driver().get_current(&c); r != CUDA_SUCCESS || !c)
        throw Error(ErrorKind::Internal, "CUDA: cuCtxGetCurrent failed (driver error " + std::to_string(r) + ")");
    return c;
}

void Context::bind() const {
    g_bound.store(true, std::memory_order_release);
    if (!ctx_) {
        if (const cudaError_t e = cudaSetDevice(device_); e != cudaSuccess) {
            cudaGetLastError();
            throw Error(ErrorKind::Internal, std::string("CUDA: cudaSetDevice: ") + cudaGetErrorString(e));
        }
        return;
    }
    if (const CUresult r = driver().set_current(ctx_); r != CUDA_SUCCESS)
        throw Error(ErrorKind::Internal, "CUDA: cuCtxSetCurrent failed (driver error " + std::to_string(r) + ")");
}

}  // namespace vmaf::cuda
