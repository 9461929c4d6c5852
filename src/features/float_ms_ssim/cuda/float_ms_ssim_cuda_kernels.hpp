// Device kernels of the float_ms_ssim twin (host-callable launcher): the
// luma as float, four 9x9 low-pass decimations, and the shared device SSIM
// of every scale.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "features/ssim_common/cuda/ssim_cuda_kernels.hpp"

namespace vmaf::ssimfeat::cuda {

inline constexpr int kMsScales = 5;

struct MsSsimGeometry {
    unsigned bpc;
    IqaGeometry scale[kMsScales];  ///< scale 0 is the w x h luma
};

/// The host's float constants, bit for bit.
struct MsSsimConstants {
    IqaConstants iqa;
    float lpf[81];  ///< the 9x9 low-pass, row-major
};

struct MsSsimScratch {
    float *a[kMsScales], *b[kMsScales];  ///< each scale's images
    IqaScratch iqa;
};
std::size_t ms_ssim_scratch_bytes(const MsSsimGeometry& g);
MsSsimScratch ms_ssim_scratch_layout(void* base, const MsSsimGeometry& g);

/// One frame's sums into sums[3 * i + 0, 1, 2] (device) for scale i: map sums
/// of l, c and s, each giving the CPU's float mean (launch_iqa_ssim).
void launch_float_ms_ssim(const void* ref, const void* dist, std::size_t pitch, const MsSsimGeometry& g,
                          const MsSsimConstants& k, const MsSsimScratch& scratch, double* sums, cudaStream_t s);

}  // namespace vmaf::ssimfeat::cuda
