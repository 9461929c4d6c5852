// Host side of the CUDA twin of integer ADM: the per-scale fixed-point
// parameters the kernels take, and the CPU's float finishing
// (adm_fixed_point.hpp) of the device's exact integer sums.
#pragma once

#include <cstdint>

#include "features/adm/adm_kernels.hpp"
#include "features/adm/adm_simd.hpp"
#include "features/adm/cuda/adm_cuda_kernels.hpp"

namespace vmaf::adm::cuda {

/// Fixed-point parameters of every scale of a w x h picture.
FrameParams make_params(const Params& p, unsigned w, unsigned h, unsigned bpc);

/// The CPU's adm::Result from the device sums (kSums values, see adm_cuda_kernels.hpp).
Result finish(const Params& p, const FrameParams& fp, const unsigned long long* sums, unsigned w, unsigned h);

}  // namespace vmaf::adm::cuda
