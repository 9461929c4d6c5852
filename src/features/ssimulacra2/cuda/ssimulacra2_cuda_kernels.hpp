// Device kernels of the ssimulacra2 twin (host-callable launcher). The
// contracts are the CPU kernels' (features/ssimulacra2/ssimulacra2_kernels.hpp):
// each device kernel evaluates the scalar reference's expressions per sample.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace vmaf::ssimulacra2::cuda {

/// One frame's shape: w x h luma of `bpc` bits; chroma subsampled by
/// 2^cx x 2^cy, or no chroma planes (4:0:0: Cb = Cr = the chroma offset).
struct S2Geometry {
    unsigned w, h, bpc;
    unsigned cx, cy;
    bool chroma;
    int scales;  ///< scale_count(w, h)
};

/// The host's constants, bit for bit (CPU tables copied, not retyped).
struct S2Constants {
    // YuvCoeffs
    float y_offset, y_scale, c_offset, c_scale, cr_r, cb_g, cr_g, cb_b;
    // sRGB EOTF
    float srgb_p[5], srgb_q[5], srgb_threshold, srgb_low_slope;
    // XYB
    float opsin[3][3], opsin_bias, neg_cbrt_bias;
    // BlurCoeffs
    int radius;
    float n2[3], d1[3], mul_in[3][4], mul_prev[3][4], mul_prev2[3][4];
    float c2;  ///< SSIM stabiliser
};

/// Device planes of one frame's pipeline (all packed: stride = the scale's width).
struct S2Scratch {
    float* cur[2][3];   ///< w * h each: the current scale of ref (0) and dist (1)
    float* next[2][3];  ///< ceil(w/2) * ceil(h/2) each: the next scale
    float* tmp[5];      ///< w * h each: horizontal blur passes
    float* blurred[3][5];  ///< w * h each, per channel: s11, s22, s12, mu1, mu2
};
std::size_t s2_scratch_bytes(const S2Geometry& g);
S2Scratch s2_scratch_layout(void* base, const S2Geometry& g);

/// Number of doubles launch_ssimulacra2 writes: per scale (6), channel (3)
/// the six MapSums sums.
constexpr std::size_t kS2Sums = 6 * 3 * 6;

/// One frame: sums[(scale * 3 + channel) * 6 + k] = MapSums::s[k] of that
/// scale and channel, for the measured scales (others untouched).
/// plane[p], pitch[p]: the staged planes of each side (bytes per row).
void launch_ssimulacra2(const void* const ref[3], const void* const dist[3], const std::size_t pitch[3],
                        const S2Geometry& g, const S2Constants& k, const S2Scratch& scratch, double* sums,
                        cudaStream_t s);

}  // namespace vmaf::ssimulacra2::cuda
