// Device SSIM shared by the float_ssim and float_ms_ssim twins: iqa_ssim of
// two float images (both Gaussian passes, the per-sample l, c, s terms) and
// the SSIM map's raster-order double sums (see ssim_cuda_kernels.cu for why
// they equal the CPU's).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace vmaf::ssimfeat::cuda {

/// One iqa_ssim call: sw x sh images, a dw x dh map (sw - 10, sh - 10).
struct IqaGeometry {
    unsigned sw, sh, dw, dh;
};
IqaGeometry iqa_geometry(unsigned sw, unsigned sh);

/// The host's float constants, bit for bit.
struct IqaConstants {
    float gauss[11];
    float c1, c2, c3;
};
IqaConstants iqa_constants();

/// Which map sums a call produces, in this order in `sums`: the SSIM term
/// l * c * s (ssim), then l, c and s (lcs).
struct IqaTerms {
    bool ssim, lcs;
    int count() const { return (ssim ? 1 : 0) + (lcs ? 3 : 0); }
};

/// Device scratch of iqa_ssim calls on one stream (sized for the largest).
struct IqaScratch {
    float* h;      ///< 5 * dw * sh: the horizontal pass of a, b, a*a, b*b, a*b
    double* term;  ///< count * dw * dh: each sum's terms, term k at k * dw * dh
    double* acc;   ///< 3 * count: parallel sum, sum of |t|, sum of (n - i) |t|
    int* undecided;
    void* ordered;  ///< launch_ordered_sums's scratch
};
std::size_t iqa_scratch_bytes(const IqaGeometry& largest, IqaTerms t);
IqaScratch iqa_scratch_layout(void* base, const IqaGeometry& largest, IqaTerms t);

/// iqa_ssim of the device images a and b (sw x sh floats, row pitch sw):
/// sums[0 .. t.count()) (device) receive map sums S with (float)(S / (dw * dh))
/// equal to the CPU's mean, which is all ssim_means() keeps of a sum.
void launch_iqa_ssim(const float* a, const float* b, const IqaGeometry& g, const IqaConstants& k, IqaTerms t,
                     const IqaScratch& scratch, double* sums, cudaStream_t s);

}  // namespace vmaf::ssimfeat::cuda
