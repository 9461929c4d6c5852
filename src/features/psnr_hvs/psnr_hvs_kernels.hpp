// Scalar reference of PSNR-HVS ("psnr_hvs", Xiph's PSNR-HVS-M as upstream
// ships it): 8x8 blocks every 7 samples, Daala's integer 8x8 DCT, contrast
// masking from the block variances, CSF-weighted squared error.
#pragma once

#include <cstdint>

#include "core/simd.hpp"
#include "vmaf/picture.hpp"

namespace vmaf::psnr_hvs {

/// Block grid: blocks start every kStep samples while x < w - 7 (y < h - 7).
inline constexpr unsigned kStep = 7;
/// Blocks along a dimension of n samples (0 when n < 8).
inline unsigned block_count(unsigned n) {
    return n < 8 ? 0 : (n - 1) / kStep;
}

/// Per-plane weights, row-major by (vertical, horizontal) frequency.
struct Weights {
    float csf[64];   ///< contrast sensitivity
    float mask[64];  ///< masking weight: (csf * 0.3885746225901003)^2 rounded to float
};
/// Luma weights (plane 0) and the chroma weights upstream uses for every
/// subsampling (planes 1, 2).
const Weights& weights(unsigned plane);

/// Daala's forward 8x8 integer DCT (od_bin_fdct8x8): `blk` holds 64 samples
/// row-major and receives the coefficients, out[8 * v + h] for vertical
/// frequency v and horizontal frequency h.
void fdct8x8(std::int32_t blk[64]);

/// Squared weighted errors of the blocks of one block row: blocks at
/// (kStep * b, y) for b < n, samples uint8_t when bpc == 8 else uint16_t.
/// out[k * n + b] = (err_k * csf_k)^2 of block b, coefficient k (row-major).
using BlockRowFn = void (*)(const Plane& ref, const Plane& dist, unsigned bpc, unsigned y, unsigned n, const Weights& w,
                            float* out);
void block_row(const Plane& ref, const Plane& dist, unsigned bpc, unsigned y, unsigned n, const Weights& w, float* out);

/// Kernel table: scalar reference by default, overridden per SIMD target
/// (psnr_hvs_simd.cpp); every entry gives bit-identical results.
struct PsnrHvsKernels {
    BlockRowFn block_row = &psnr_hvs::block_row;
};
simd::KernelRegistry<PsnrHvsKernels>& psnr_hvs_registry();

/// Normalised error of one plane of w x h samples (the planes may be
/// larger): the block errors summed in float in block order (rows top to
/// bottom, blocks left to right, coefficients in order), / pixels,
/// / (2^bpc - 1)^2. NaN when the plane holds no block (as upstream).
double plane_error(const PsnrHvsKernels& k, const Plane& ref, const Plane& dist, unsigned bpc, unsigned w, unsigned h,
                   const Weights& wt);
/// plane_error's last steps: `ret`, the float sum of the nx x ny blocks'
/// errors, / pixels (64 per block), / (2^bpc - 1)^2, in float.
double finish_error(float ret, unsigned nx, unsigned ny, unsigned bpc);

/// 10 * -log10(error): the reported dB value.
double to_db(double error);

}  // namespace vmaf::psnr_hvs
