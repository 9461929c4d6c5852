// Device kernels of the float_adm twin (host-callable launcher).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace vmaf::floatfeat::cuda {

/// Most adm_enhn_gain_limit values one pass scores (a group).
constexpr int kAdmMaxLimits = 4;

/// Sizes of one frame's ADM: per scale the input image (cw x ch), its bands
/// (bw x bh) and the pooling region of the bands.
struct AdmGeometry {
    unsigned w, h, bpc;
    unsigned cw[4], ch[4], bw[4], bh[4];
    int left[4], top[4], right[4], bottom[4];  ///< the (non-extended) region
    std::size_t out_off[4];                    ///< floats into the results where scale s's 3 + 6 * limits blocks begin
    bool cube;                                 ///< p_norm 3: per-row sums of cubes; else the raw pooling arguments
    bool skip0;                                ///< scale 0 is skipped (only its approximation band is made)
};

/// The host's constants, bit for bit.
struct AdmConstants {
    float lo[4], hi[4];  ///< db2 analysis filters (kAdmDb2Lo, kAdmDb2Hi)
    double one_by_30, one_by_15;
    float fac[4][3];  ///< CSF factors (h, v, d) per scale
    int limits;       ///< gain limits scored (1 to kAdmMaxLimits)
    double gain_limit[kAdmMaxLimits];
    float cos_1deg_sq;
    bool bypass_cm;
    const float* rcp;  ///< device table of rcpss(1.m) by mantissa m (2^23), or null: IEEE division
};

struct AdmScratch {
    float* img[2];      ///< w * h each: the converted ref, dist
    float* lohi[4];     ///< w * ((h + 1) / 2) each: vertical DWT pass of ref (lo, hi), dist (lo, hi)
    float* band[2][8];  ///< two sets (alternating per scale) of bw0 * bh0: ref a, h, v, d, dist a, h, v, d
    float* dec[12];     ///< bw0 * bh0 each: r h/v/d, a h/v/d, flt(csf a) h/v/d, flt(csf r) h/v/d
};
std::size_t adm_scratch_bytes(const AdmGeometry& g);
AdmScratch adm_scratch_layout(void* base, const AdmGeometry& g);

/// One frame. Per computed scale s, 3 + 6 * limits blocks at out + out_off[s],
/// each for the region's rows (rh = bottom - top) in order: den (bands h, v,
/// d), then per gain limit num (h, v, d) and AIM num (h, v, d). With cube: each block is rh floats, the
/// float sum of each region row's cubes in column order. Else each block is
/// rh * rw floats: the region's pooling arguments (|x| before the p-th power), row-major.
void launch_float_adm(const void* ref, const void* dist, std::size_t pitch, const AdmGeometry& g, const AdmConstants& k,
                      const AdmScratch& sc, float* out, cudaStream_t s);

}  // namespace vmaf::floatfeat::cuda
