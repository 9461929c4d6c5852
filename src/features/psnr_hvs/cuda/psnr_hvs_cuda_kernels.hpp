// Device kernels of the psnr_hvs twin (host-callable launcher).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace vmaf::psnr_hvs::cuda {

/// One plane's blocks: nx x ny blocks of 8 x 8 every 7 samples, and the
/// plane's weights (the host's psnr_hvs::Weights, bit for bit).
struct HvsPlane {
    const void* ref;
    const void* dist;
    std::size_t pitch;  ///< bytes
    unsigned nx, ny;
    float csf[64], mask[64];
};

/// Bytes of device scratch for the three planes' block errors and their sums.
std::size_t hvs_scratch_bytes(const HvsPlane (&p)[3]);

/// One frame: sums[p] (device, 3 floats) = the float sum, in the CPU's order
/// (block rows, blocks, coefficients), of plane p's weighted block errors.
void launch_psnr_hvs(const HvsPlane (&p)[3], unsigned bpc, void* scratch, float* sums, cudaStream_t s);

}  // namespace vmaf::psnr_hvs::cuda
