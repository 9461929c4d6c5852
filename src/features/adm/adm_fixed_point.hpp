// The fixed-point layout of integer ADM and the float finishing of its exact
// integer sums, shared by the CPU path (adm_kernels.cpp) and the CUDA twin
// (cuda/adm_finish.cpp): both accumulate the same integers, and this file
// turns them into the scores, so the two cannot drift apart.
#pragma once

#include <cstdint>

#include "features/adm/adm_kernels.hpp"

namespace vmaf::adm {

/// Every shift, rounding term and CSF multiplier the integer passes of one
/// scale use; a pure function of the options and the band size.
struct ScaleLayout {
    Rect score{};              ///< scoring region of the band (CM and denominator)
    std::uint32_t rf[3] = {};  ///< CSF multipliers: scale 0 Q21 (H, V) / Q23 (D) u16 values; scales 1-3 Q32
    std::uint32_t cm_shift_cub[3] = {};  ///< CM: per-pixel cube shift, by orientation
    std::uint32_t cm_shift_row = 0;      ///< CM: per-row shift
    std::uint32_t den_shift_sq = 0;      ///< denominator, scales 1-3: square shift ...
    std::uint64_t den_add_sq = 0;        ///< ... and its rounding term (2^s, as upstream)
    std::uint32_t den_shift_cub = 0;     ///< denominator, scales 1-3: cube shift
    std::uint32_t den_shift_acc = 0;     ///< denominator: per-row shift
    std::uint64_t den_add_acc = 0;       ///< denominator: per-row rounding term
};

/// Rounding term 2^(s-1) of a right shift by s as upstream forms it (0 for s == 0).
inline std::uint32_t half_of_shift(std::uint32_t s) { return s == 0 ? 0u : (std::uint32_t{1} << (s - 1)); }

/// Layout of `scale` (0..3) for a band of w x h coefficients.
ScaleLayout scale_layout(const Params& p, int scale, int w, int h);

/// Denominator term of a scale from the per-orientation sums of the shifted
/// per-row cube sums over the scoring region (H, V, D).
float den_from_sums(const Params& p, int scale, const ScaleLayout& l, const std::uint64_t acc[3]);

/// Numerator (noise_weight = Params::noise_weight) or AIM (noise_weight = 0)
/// term of a scale of a w x h band from the per-orientation CM sums.
float num_from_sums(int scale, const ScaleLayout& l, int w, int h, const std::int64_t acc[3], double noise_weight);

/// Fills res.num/den/aim_num/score/score_aim from the per-scale terms, for a
/// picture of width x height.
void finish_result(Result& res, unsigned width, unsigned height);

}  // namespace vmaf::adm
