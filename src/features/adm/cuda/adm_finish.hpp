// Host-side fixed-point set-up and float finishing of integer ADM for the CUDA
// twin. Everything the CPU exposes is reused (adm::csf_factors,
// adm::score_region, adm::support_region, adm::div_lut, adm::cos1deg_sq,
// adm::params_problem). The remaining few formulas (CSF multipliers, shift
// counts, den/num combination) live in an anonymous namespace of
// adm_kernels.cpp, which this twin may not edit; they are restated in
// adm_finish.cpp expression for expression, and the CUDA parity tests compare
// every output bit for bit against the CPU. TODO(lead): expose them from
// adm_kernels.hpp (e.g. adm::detail::den_scale0_from_sums(...)) and let
// adm_finish.cpp forward to them.
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
