// Every HIP runtime function the HIP backend's objects call (the kernels'
// registration and launch included, which hipcc emits) is defined here as a
// jump through a pointer. libamdhip64 is opened when the HIP backend is first
// asked for (hip_runtime_loaded()), not at start-up: opening it takes 10-25 ms,
// which every process paid on a machine with ROCm installed, whatever its
// backend. Until then the API's pointers are a stub returning
// hipErrorNoDevice, and the kernels' registrations (hipcc's constructors run
// before main) are recorded and replayed into the library when it opens.
// x86-64 only (cmake/Hip.cmake links libamdhip64 directly elsewhere).
//
// A HIP function the backend starts to call that is missing below fails the
// link with "undefined reference to `hipXxx'": add it to VMAF_HIP_FUNCTIONS.
#include "backends/gpu/hip_runtime_loader.hpp"

#include <dlfcn.h>

#include <cstddef>
#include <deque>
#include <mutex>
#include <type_traits>
#include <vector>

/// The API the backend calls, bound when the library opens (the registration
/// entry points are this file's own functions, at its end).
#define VMAF_HIP_FUNCTIONS(X)                                                                                     \
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

// The registration calls as clang's HIP code generation emits them (the
// uint3 / dim3 pointers as void*, the same in the ABI).
using RegisterFatBinary = void** (*)(const void* data);
using RegisterFunction = int (*)(void** module, const void* host_function, char* device_function,
                                 const char* device_name, int thread_limit, void* tid, void* bid, void* block_dim,
                                 void* grid_dim, int* warp_size);
using RegisterVar = void (*)(void** module, char* var, char* host_var, const char* device_var, int ext,
                             std::size_t size, int constant, int global);
using UnregisterFatBinary = void (*)(void** module);

/// One registered fat binary: the handle given to its constructor is this
/// entry's address; `real` is the library's handle once replayed.
struct FatBinary {
    const void* data;
    void** real = nullptr;
};
struct Registration {
    FatBinary* module;
    bool is_var;
    const void* host;  ///< host function (is_var: the variable)
    char* device_function;
    const char* device_name;
    int thread_limit;
    void *tid, *bid, *block_dim, *grid_dim;
    int* warp_size;
    int ext, constant, global;
    std::size_t size;
};

// Function-local statics: hipcc's constructors in other translation units may
// run before this one's.
std::deque<FatBinary>& fat_binaries() {
    static std::deque<FatBinary> d;  // stable addresses: they are the handles
    return d;
}
std::vector<Registration>& registrations() {
    static std::vector<Registration> v;
    return v;
}
std::mutex& registry_mutex() {
    static std::mutex m;
    return m;
}

RegisterFatBinary g_register_fat_binary = nullptr;  // the library's, once open
RegisterFunction g_register_function = nullptr;
RegisterVar g_register_var = nullptr;
UnregisterFatBinary g_unregister_fat_binary = nullptr;
bool g_loaded = false;

void replay(const Registration& r) {
    if (r.is_var)
        g_register_var(r.module->real, static_cast<char*>(const_cast<void*>(r.host)), r.device_function,
                       r.device_name, r.ext, r.size, r.constant, r.global);
    else
        g_register_function(r.module->real, r.host, r.device_function, r.device_name, r.thread_limit, r.tid, r.bid,
                            r.block_dim, r.grid_dim, r.warp_size);
}

void load() {
    void* lib = ::dlopen(vmaf::gpu::kHipRuntimeLibrary, RTLD_NOW | RTLD_LOCAL);
    if (!lib) return;
    bool all = true;
    auto bind = [&](auto& slot, const char* name) {
        if (void* f = ::dlsym(lib, name))
            slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(f);
        else
            all = false;
    };
    bind(g_register_fat_binary, "__hipRegisterFatBinary");
    bind(g_register_function, "__hipRegisterFunction");
    bind(g_register_var, "__hipRegisterVar");
    bind(g_unregister_fat_binary, "__hipUnregisterFatBinary");
#define VMAF_HIP_COUNT(name) +1
    constexpr std::size_t kFunctions = 1 VMAF_HIP_FUNCTIONS(VMAF_HIP_COUNT);  // and hipGetErrorString
#undef VMAF_HIP_COUNT
    void* fn[kFunctions] = {};  // the API's pointers, set only if every one resolves
    std::size_t n = 0;
#define VMAF_HIP_BIND(name) bind(fn[n++], #name);
    VMAF_HIP_FUNCTIONS(VMAF_HIP_BIND)
    VMAF_HIP_BIND(hipGetErrorString)
#undef VMAF_HIP_BIND
    if (!all) return;  // an older or partial runtime: HIP stays unavailable
    std::lock_guard lk(registry_mutex());
    for (FatBinary& f : fat_binaries()) f.real = g_register_fat_binary(f.data);
    for (const Registration& r : registrations()) replay(r);
    n = 0;
#define VMAF_HIP_SET(name) vmaf_hip_fn_##name = fn[n++];
    VMAF_HIP_FUNCTIONS(VMAF_HIP_SET)
    VMAF_HIP_SET(hipGetErrorString)
#undef VMAF_HIP_SET
    g_loaded = true;
}

}  // namespace

// The registration entry points hipcc's constructors and destructors call:
// recorded before the library is open, passed on (and replayed) once it is.
extern "C" {

void** __hipRegisterFatBinary(const void* data) {
    std::lock_guard lk(registry_mutex());
    FatBinary& f = fat_binaries().emplace_back(FatBinary{data});
    if (g_loaded) f.real = g_register_fat_binary(data);
    return reinterpret_cast<void**>(&f);
}

int __hipRegisterFunction(void** module, const void* host_function, char* device_function, const char* device_name,
                          int thread_limit, void* tid, void* bid, void* block_dim, void* grid_dim, int* warp_size) {
    std::lock_guard lk(registry_mutex());
    const Registration r{reinterpret_cast<FatBinary*>(module), false, host_function, device_function, device_name,
                         thread_limit, tid, bid, block_dim, grid_dim, warp_size, 0, 0, 0, 0};
    registrations().push_back(r);
    if (g_loaded) replay(r);
    return 0;
}

void __hipRegisterVar(void** module, char* var, char* host_var, const char* device_var, int ext, std::size_t size,
                      int constant, int global) {
    std::lock_guard lk(registry_mutex());
    const Registration r{reinterpret_cast<FatBinary*>(module), true, var, host_var, device_var, 0, nullptr,
                         nullptr, nullptr, nullptr, nullptr, ext, constant, global, size};
    registrations().push_back(r);
    if (g_loaded) replay(r);
}

void __hipUnregisterFatBinary(void** module) {
    std::lock_guard lk(registry_mutex());
    auto* f = reinterpret_cast<FatBinary*>(module);
    if (g_loaded && f->real) g_unregister_fat_binary(f->real);
    f->real = nullptr;
}

}  // extern "C"

bool vmaf::gpu::hip_runtime_loaded() {
    static std::once_flag once;
    std::call_once(once, load);
    return g_loaded;
}
