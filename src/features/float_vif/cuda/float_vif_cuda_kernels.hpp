// Device kernels of the float_vif twin (host-callable launcher).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace vmaf::floatfeat::cuda {

/// Most vif_enhn_gain_limit values one pass scores (a group).
constexpr int kVifMaxLimits = 4;

/// Longest VIF filter: scale 0 at the largest accepted kernelscale (360/97).
constexpr int kVifMaxTaps = 65;

/// Resampling of the converted luma (vif_prescale), tables made by the host
/// (floatfeat::scale_axis / bilinear_axis), device pointers.
struct VifPrescale {
    int method = 0;                                ///< 0: none, 1 nearest, 2 bilinear, 3 bicubic, 4 lanczos4
    int taps = 0;                                  ///< per output along an axis (nearest 1, bicubic 4, lanczos4 9)
    const int *x_idx = nullptr, *y_idx = nullptr;  ///< [n * taps]; bilinear: lo then hi ([2n])
    const float *x_w = nullptr, *y_w = nullptr;    ///< [n * taps]; bilinear: d ([n])
};

struct VifGeometry {
    unsigned w, h, bpc;     ///< the luma
    unsigned ws[4], hs[4];  ///< image size of each scale (ws[0] x hs[0]: prescaled)
    unsigned row_off[4];    ///< floats into the row sums where scale s's 2 * limits blocks of hs[s] rows begin
    int first_scale;        ///< 1 with vif_skip_scale0
};

/// The host's filters and statistic constants, bit for bit.
struct VifConstants {
    int taps[4];
    float f[4][kVifMaxTaps];
    double sigma_nsq;
    float sigma_max_inv;
    int limits;                       ///< gain limits scored (1 to kVifMaxLimits)
    float gain_limit[kVifMaxLimits];  ///< as the CPU's VifStatParams holds them
};

/// Device scratch of one frame.
struct VifScratch {
    float* orig[2];  ///< w * h each (with prescale): the converted luma before resampling
    float* cur[2];   ///< ws[0] * hs[0] each: ref, dist of the current scale
    float* next[2];  ///< ws[0] * hs[0] each: the decimated pair
    float* tmp[5];   ///< ws[0] * hs[0] each: vertical passes
    float* out[5];   ///< ws[0] * hs[0] each: mu1, mu2, xx, yy, xy
};
std::size_t vif_scratch_bytes(const VifGeometry& g, bool prescale);
VifScratch vif_scratch_layout(void* base, const VifGeometry& g, bool prescale);

/// One frame: for each scale from first_scale and each gain limit j, the
/// float row sums of the VIF statistic's num (rows[row_off[s] + 2j * hs[s] + y])
/// and den (rows[row_off[s] + (2j + 1) * hs[s] + y]).
void launch_float_vif(const void* ref, const void* dist, std::size_t pitch, const VifGeometry& g, const VifConstants& k,
                      const VifPrescale& ps, const VifScratch& sc, float* rows, cudaStream_t s);

}  // namespace vmaf::floatfeat::cuda
