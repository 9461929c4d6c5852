// The AMD HIP runtime (libamdhip64) is opened when the HIP backend is first
// asked for, not linked: a vmaf built with the HIP backend starts without ROCm,
// and with ROCm installed pays for opening it only when it runs on HIP.
#pragma once

namespace vmaf::gpu {

/// Opens libamdhip64 on the first call (and replays the kernels'
/// registrations into it); whether it was found and every HIP function the
/// backend calls resolved. False: HIP calls return hipErrorNoDevice and do nothing.
bool hip_runtime_loaded();

/// The library the backend looks for, for messages.
inline constexpr const char* kHipRuntimeLibrary = "libamdhip64.so.5";

}  // namespace vmaf::gpu
