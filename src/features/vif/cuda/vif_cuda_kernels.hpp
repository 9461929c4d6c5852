// Device kernels of the VIF twin (host-callable launchers). Integer sums are
// exact; the per-scale float finishing stays on the host.
#pragma once

#include "backends/gpu/portability.hpp"

#include <cstddef>
#include <cstdint>

namespace vmaf::vif::cuda {

/// Device scratch of one frame's VIF at w x h (scale 0 size).
struct Scratch {
    std::uint16_t* scale[2][2];  ///< [ping/pong][ref/dis], each (w/2) * (h/2)
    const std::uint16_t* log2_table;  ///< 65536 entries
    bool fp64_mma = false;  ///< scales 0 and 1 filter on the FP64 tensor cores (see fp64_mma_here)
};

/// Whether the current device runs statistic_mma: FP64 matrix multiply-
/// accumulate in the m16n8k4 shape at full rate (compute capability 9.x and
/// 10.x: H100/H200, B200; not sm_80, which lacks the shape, nor the parts whose
/// FP64 is a fraction), in code built for sm_90 or later. False on HIP.
bool fp64_mma_here();

/// Bytes of device memory Scratch needs (without the table), and its layout.
std::size_t scratch_bytes(unsigned w, unsigned h);
Scratch scratch_layout(void* base, unsigned w, unsigned h, const std::uint16_t* table);

/// Enhancement-gain limits computed in one pass (option sets of a group).
constexpr unsigned kMaxGainLimits = 4;
struct GainLimits {
    double v[kMaxGainLimits];
    unsigned n;  ///< 1..kMaxGainLimits
};

/// Sums per scale: num_log of each gain limit, then den_log, num_non_log,
/// den_non_log (only num_log depends on the limit).
constexpr unsigned sums_per_scale(unsigned limits) { return limits + 3; }

/// All four scales of one frame: adds to sums[scale][sums_per_scale(egl.n)]
/// (device), which the caller zeroed. The filtered statistics are computed
/// once and serve every limit.
/// ref/dis: luma planes (pitch in bytes), samples uint8 when bpc == 8, else uint16.
void launch_vif(const void* ref, const void* dis, std::size_t pitch, unsigned w, unsigned h, unsigned bpc,
                const GainLimits& egl, bool skip_scale0, const Scratch& s, long long* sums, cudaStream_t stream);

}  // namespace vmaf::vif::cuda
