// Device kernels of the CAMBI twin (host-callable launcher). Every per-pixel
// step of the CPU's scalar reference (cambi_core.cpp, cambi_kernels.cpp) runs
// on the device with its integer arithmetic and its float c-value
// expression; the launcher leaves each scale's c values in device memory.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace vmaf::cambi::cuda {

inline constexpr int kScales = 5;

/// Size of each scale of a w x h picture (halved first under the speed-up).
struct ScaleSizes {
    unsigned w[kScales], h[kScales];
    std::size_t offset[kScales];  ///< of each scale's c values in the picture's array
    std::size_t total;            ///< c values of all scales
};
inline ScaleSizes scale_sizes(unsigned w, unsigned h, bool speedup) {
    ScaleSizes s{};
    for (int k = 0; k < kScales; ++k) {
        if (k > 0 || speedup) w = (w + 1) >> 1, h = (h + 1) >> 1;
        s.w[k] = w, s.h[k] = h;
        s.offset[k] = s.total;
        s.total += std::size_t{w} * h;
    }
    return s;
}

/// Run-wide device tables (uploaded once).
struct Tables {
    const std::uint32_t* active = nullptr;  ///< Params::active
    const float* recip = nullptr;           ///< reciprocal_table(), kReciprocalTableSize entries
};

/// One picture to score.
struct PictureArgs {
    const void* luma = nullptr;  ///< device, uint8 when bpc == 8 else uint16
    std::size_t pitch = 0;       ///< bytes
    unsigned in_w = 0, in_h = 0, bpc = 8;
    const unsigned* xmap = nullptr;  ///< device: source column of each of w columns (nearest_samples)
    const unsigned* ymap = nullptr;  ///< device: source row of each of h rows
    unsigned w = 0, h = 0;           ///< resolution it is scored at
    bool anti_dither = false;        ///< enc_bitdepth < 10
    bool speedup = false;            ///< cambi_high_res_speedup in effect
    int window = 0;                  ///< adjusted window (odd)
    std::uint16_t mask_threshold = 0;
    std::uint16_t band_base = 0, band_size = 0;
    int num_diffs = 4;
};

struct PoolStats;  // cambi_cuda_pool.hpp

/// Device scratch for pictures scored at up to w x h.
std::size_t scratch_bytes(unsigned w, unsigned h);

/// Enqueues one picture on `s`: c values of every scale into `c` (device,
/// scale_sizes(a.w, a.h, a.speedup) layout, w per row); sets *flag to 1
/// when a sample of a 9- to 15-bit plane exceeds its bit depth (*flag is
/// zeroed first). With `stats` (device, one per scale, reset), also adds each
/// scale's nonzero c values to its PoolStats.
void launch_picture(const PictureArgs& a, const Tables& t, void* scratch, float* c, unsigned* flag,
                    PoolStats* const* stats, cudaStream_t s);

}  // namespace vmaf::cambi::cuda
