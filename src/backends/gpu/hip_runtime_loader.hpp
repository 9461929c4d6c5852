// The AMD HIP runtime (libamdhip64) is opened at start-up when installed, not
// linked: a vmaf built with the HIP backend still starts without ROCm.
#pragma once

namespace vmaf::gpu {

/// Whether libamdhip64 was found and every HIP function the backend calls
/// resolved; false: HIP calls return hipErrorNoDevice and do nothing.
bool hip_runtime_loaded();

/// The library the backend looks for, for messages.
inline constexpr const char* kHipRuntimeLibrary = "libamdhip64.so.5";

}  // namespace vmaf::gpu
