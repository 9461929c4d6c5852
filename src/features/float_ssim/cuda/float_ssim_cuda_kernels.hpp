// Device kernels of the float_ssim twin (host-callable launcher): the
// decimation (or conversion) of the luma, then the shared device SSIM.
#pragma once

#include "backends/gpu/portability.hpp"

#include <cstddef>

#include "features/ssim_common/cuda/ssim_cuda_kernels.hpp"

namespace vmaf::floatfeat::cuda {

/// Sizes of one frame's SSIM: w x h luma, decimated by `scale` to iqa.sw x iqa.sh.
struct SsimGeometry {
    unsigned w, h, bpc;
    int scale;
    ssimfeat::cuda::IqaGeometry iqa;
    bool lcs;  ///< also the l, c and s sums
};

/// The host's float constants, bit for bit.
struct SsimConstants {
    ssimfeat::cuda::IqaConstants iqa;
    float box;  ///< 1 / (scale * scale) as float
};

/// Device scratch of one frame's SSIM.
struct SsimScratch {
    float *a, *b;  ///< sw * sh each: the decimated (or converted) luma
    ssimfeat::cuda::IqaScratch iqa;
};
std::size_t ssim_scratch_bytes(const SsimGeometry& g);
SsimScratch ssim_scratch_layout(void* base, const SsimGeometry& g);

/// One frame's sums into sums[0..3] (device): map sums of l*c*s and, with
/// lcs, of l, c and s, each giving the CPU's float mean (launch_iqa_ssim).
void launch_float_ssim(const void* ref, const void* dist, std::size_t pitch, const SsimGeometry& g,
                       const SsimConstants& k, const SsimScratch& scratch, double* sums, cudaStream_t s);

}  // namespace vmaf::floatfeat::cuda
