// hip_runtime_loader.cpp: libamdhip64 is opened on the first
// hip_runtime_loaded(), not at start-up, and the kernels' registrations that
// hipcc's constructors made before main are replayed into it (on a machine
// with ROCm installed, as CI's: the replay runs there; without ROCm the
// backend stays unavailable and every HIP call returns hipErrorNoDevice).
#include <dlfcn.h>
#include <gtest/gtest.h>

#include "backends/gpu/hip_runtime_loader.hpp"

// The loader's trampoline (hipError_t is an int-sized enum).
extern "C" int hipGetDeviceCount(int* count);

// A HIP twin, so that this binary holds HIP kernels and their registrations
// (the HIP build's copy of the twins is in namespace vmaf::hip).
namespace vmaf::hip {
struct TwinDescriptor;
extern const TwinDescriptor kPsnrCudaTwin;
}  // namespace vmaf::hip

TEST(HipRuntimeLoader, OpensTheRuntimeOnFirstUseAndReplaysTheRegistrations) {
    ASSERT_NE(static_cast<const void*>(&vmaf::hip::kPsnrCudaTwin), nullptr);
    EXPECT_EQ(::dlopen(vmaf::gpu::kHipRuntimeLibrary, RTLD_NOW | RTLD_NOLOAD), nullptr)
        << "the HIP runtime was opened before anything asked for HIP";
    const bool loaded = vmaf::gpu::hip_runtime_loaded();
    void* installed = ::dlopen(vmaf::gpu::kHipRuntimeLibrary, RTLD_NOW | RTLD_LOCAL);
    int n = -1;
    const int e = hipGetDeviceCount(&n);  // after the replay: the library's answer, whatever the machine has
    if (!installed) {
        EXPECT_FALSE(loaded);
        EXPECT_EQ(e, 100) << "hipErrorNoDevice without the library";
        GTEST_SKIP() << vmaf::gpu::kHipRuntimeLibrary << " is not installed: nothing was replayed";
    }
    EXPECT_TRUE(loaded) << "the installed runtime lacks a function the backend calls";
    EXPECT_TRUE(e != 0 || n >= 0);
    EXPECT_TRUE(vmaf::gpu::hip_runtime_loaded());  // once: the same answer
    ::dlclose(installed);
}
