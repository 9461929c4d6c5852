// Every HIP runtime function the HIP backend's objects call (the kernels'
// registration and launch included, which hipcc emits) is defined here as a
// jump through a pointer. The pointers start at a stub returning
// hipErrorNoDevice; a constructor that runs before the kernels register
// themselves points them into libamdhip64 when the library is installed.
// x86-64 only (cmake/Hip.cmake links libamdhip64 directly elsewhere).
//
// A HIP function the backend starts to call that is missing below fails the
// link with "undefined reference to `hipXxx'": add it to VMAF_HIP_FUNCTIONS.
#include "backends/gpu/hip_runtime_loader.hpp"

#include <dlfcn.h>

#define VMAF_HIP_FUNCTIONS(X)                                                                                     \
    X(__hipRegisterFatBinary) X(__hipRegisterFunction) X(__hipRegisterVar) X(__hipUnregisterFatBinary)            \
    X(__hipPushCallConfiguration) X(__hipPopCallConfiguration) X(hipLaunchKernel) X(hipGetLastError)              \
    X(hipGetDeviceCount) X(hipGetDevice) X(hipSetDevice) X(hipMalloc) X(hipMallocPitch) X(hipFree)                \
    X(hipHostMalloc) X(hipHostFree) X(hipHostRegister) X(hipHostUnregister) X(hipMemcpy) X(hipMemcpyAsync)        \
    X(hipMemcpy2D) X(hipMemcpy2DAsync) X(hipMemset) X(hipMemsetAsync) X(hipMemset2D) X(hipStreamCreate)           \
    X(hipStreamCreateWithFlags) X(hipStreamDestroy) X(hipStreamSynchronize) X(hipStreamWaitEvent)                 \
    X(hipStreamQuery) X(hipEventCreate) X(hipEventCreateWithFlags) X(hipEventDestroy) X(hipEventRecord)          \
    X(hipEventSynchronize) X(hipEventElapsedTime) X(hipDeviceSynchronize)

extern "C" {

/// What every function does without the library: return hipErrorNoDevice
/// (100; a null-like handle for the registration calls, which ignore it).
__attribute__((visibility("hidden"))) long vmaf_hip_unavailable() { return 100; }
__attribute__((visibility("hidden"))) const char* vmaf_hip_unavailable_string(int) {
    return "the HIP runtime (libamdhip64.so.5) is not installed";
}

#define VMAF_HIP_POINTER(name) \
    __attribute__((visibility("hidden"))) void* vmaf_hip_fn_##name = reinterpret_cast<void*>(&vmaf_hip_unavailable);
VMAF_HIP_FUNCTIONS(VMAF_HIP_POINTER)
__attribute__((visibility("hidden"))) void* vmaf_hip_fn_hipGetErrorString =
    reinterpret_cast<void*>(&vmaf_hip_unavailable_string);

}  // extern "C"

#define VMAF_HIP_TRAMPOLINE(name)                                                   \
    asm(".text\n.globl " #name "\n.type " #name ",@function\n.p2align 4\n" #name \
        ":\n\tjmp *vmaf_hip_fn_" #name "(%rip)\n.size " #name ",.-" #name "\n");
VMAF_HIP_FUNCTIONS(VMAF_HIP_TRAMPOLINE)
VMAF_HIP_TRAMPOLINE(hipGetErrorString)

namespace {

bool g_loaded = false;

// Priority 101: before the default-priority constructors that register the kernels.
__attribute__((constructor(101))) void load_hip_runtime() {
    void* lib = ::dlopen(vmaf::gpu::kHipRuntimeLibrary, RTLD_NOW | RTLD_LOCAL);
    if (!lib) return;
    bool all = true;
    auto bind = [&](void*& slot, const char* name) {
        if (void* f = ::dlsym(lib, name))
            slot = f;
        else
            all = false;
    };
#define VMAF_HIP_BIND(name) bind(vmaf_hip_fn_##name, #name);
    VMAF_HIP_FUNCTIONS(VMAF_HIP_BIND)
    VMAF_HIP_BIND(hipGetErrorString)
    g_loaded = all;
}

}  // namespace

bool vmaf::gpu::hip_runtime_loaded() { return g_loaded; }
