// Device kernels of the ADM twin (host-callable launchers). Every integer
// stage of the CPU's scalar reference (adm_scalar.cpp / adm_kernels.cpp /
// adm_dwt.cpp) runs on the device bit for bit; the per-row sums are shifted
// and accumulated there too (exact integer sums, order-free). Only the
// per-scale float finishing stays on the host.
#pragma once

#include "backends/gpu/portability.hpp"

#include <cstddef>
#include <cstdint>

namespace vmaf::adm::cuda {

struct Region {
    int left, top, right, bottom;
};

/// Fixed-point parameters of one scale (computed on the host as the CPU does).
struct ScaleParams {
    int w, h;             ///< band size
    int in_w, in_h;       ///< DWT input size (picture at scale 0, band A of scale-1 otherwise)
    Region support;       ///< decouple / CSF region
    Region score;         ///< CM / den region
    std::uint32_t rf[3];  ///< CSF multipliers (scale 0: u16 values)
    std::uint32_t cm_shift_cub[3];
    long long cm_add_cub[3];
    std::uint32_t cm_shift_row;
    long long cm_add_row;
    // den: scale 0 uses den_shift_acc/den_add_acc only.
    std::uint32_t den_shift_sq;
    unsigned long long den_add_sq;
    std::uint32_t den_shift_cub;
    unsigned long long den_add_cub;
    std::uint32_t den_shift_acc;
    unsigned long long den_add_acc;
    // DWT rounding of scales 1..3.
    long long add_v, add_h;
    int shift_v, shift_h;
};

struct FrameParams {
    ScaleParams s[4];
    unsigned bpc;
    double egl;
    float cos1deg_sq;
    bool skip_aim, skip_scale0;
};

/// Sums of one frame: [scale][0..2 den (u64), 3..5 num (i64), 6..8 aim (i64)].
constexpr unsigned kSumsPerScale = 9;
constexpr unsigned kSums = 4 * kSumsPerScale;

/// Device scratch of one frame at picture size w x h; zero it (all of it)
/// before its first use: the kernels leave it so.
std::size_t scratch_bytes(unsigned w, unsigned h);

/// Enhancement-gain limits of the option sets one pass serves (a group).
constexpr unsigned kMaxGainLimits = 4;
struct GainLimits {
    double v[kMaxGainLimits];
    unsigned n;  ///< 1..kMaxGainLimits
};

/// One frame: adds every scale's shifted row sums to `sums` (device, kSums
/// values per gain limit, zeroed by the caller). The DWT and den are
/// computed once: den is in the first limit's sums only (the others' den
/// entries stay zero); decouple, CSF and masking run per limit.
/// `div_lut` points at entry 0 of the 65537-entry reciprocal table
/// (device). ref/dis: luma planes, uint8 when bpc == 8. p.egl is unused.
void launch_adm(const void* ref, const void* dis, std::size_t pitch, const FrameParams& p, const GainLimits& egl,
                void* scratch, const std::int32_t* div_lut, unsigned long long* sums, cudaStream_t stream);

}  // namespace vmaf::adm::cuda
