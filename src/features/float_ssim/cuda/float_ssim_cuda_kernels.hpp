// Device kernels of the float_ssim twin (host-callable launcher).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace vmaf::floatfeat::cuda {

/// Sizes of one frame's SSIM: w x h luma, decimated by `scale` to sw x sh, a
/// dw x dh SSIM map (sw - 10, sh - 10).
struct SsimGeometry {
    unsigned w, h, bpc;
    int scale;
    unsigned sw, sh, dw, dh;
    bool lcs;  ///< also the l, c and s sums
};

/// The host's float constants, bit for bit.
struct SsimConstants {
    float gauss[11];
    float box;  ///< 1 / (scale * scale) as float
    float c1, c2, c3;
};

/// Device scratch of one frame's SSIM.
struct SsimScratch {
    float *a, *b;  ///< sw * sh each: the decimated (or converted) luma
    float* h;      ///< 5 * dw * sh: the horizontal Gaussian pass of a, b, a*a, b*b, a*b
    double* term;  ///< dw * dh: l * c * s per map sample; with lcs then l and c
    float* s;      ///< dw * dh (lcs): s per map sample
};
std::size_t ssim_scratch_bytes(const SsimGeometry& g);
SsimScratch ssim_scratch_layout(void* base, const SsimGeometry& g);

/// One frame's sums into sums[0..3] (device): the raster-order double sums of
/// the SSIM map's l*c*s and, with lcs, of l, c and s, exactly as iqa_ssim.
void launch_float_ssim(const void* ref, const void* dist, std::size_t pitch, const SsimGeometry& g,
                       const SsimConstants& k, const SsimScratch& scratch, double* sums, cudaStream_t s);

}  // namespace vmaf::floatfeat::cuda
