// SSIMULACRA 2 of a pair of YUV pictures: the pipeline of libjxl's
// tools/ssimulacra2 over this project's pictures (kernels in
// ssimulacra2_kernels.hpp).
#pragma once

#include <array>
#include <vector>

#include "features/ssimulacra2/ssimulacra2_kernels.hpp"
#include "vmaf/picture.hpp"

namespace vmaf::ssimulacra2 {

/// yuv_matrix option values (the multi-backend fork's numbering).
enum class YuvMatrix { Bt709Limited = 0, Bt601Limited = 1, Bt709Full = 2, Bt601Full = 3 };

/// Coefficients turning `bpc`-bit code values into R'G'B' in [0, 1] nominal:
/// limited range scales luma by 219 and chroma by 224 steps of 2^(bpc-8)
/// above 16 and around 128 steps; full range scales both by 2^bpc - 1, chroma
/// around 2^(bpc-1). Kr/Kb: BT.709 0.2126/0.0722, BT.601 0.299/0.114.
YuvCoeffs yuv_coeffs(YuvMatrix m, unsigned bpc);

/// Error-map norms of one scale: per channel (X, Y, B) the SSIM L1, L4 and
/// the artifact/detail-lost L1, L4 (libjxl's MsssimScale).
struct ScaleNorms {
    std::array<double, 6> ssim{};       ///< [c * 2 + n], n 0: L1, 1: L4
    std::array<double, 12> edgediff{};  ///< [c * 4 + n] artifact, [c * 4 + 2 + n] detail lost
};

/// Channel c's four norms of one sw x sh scale from its map sums (the means
/// and fourth roots of the mean fourth powers), into `norms`.
void add_channel_norms(ScaleNorms& norms, int c, const MapSums& sums, unsigned sw, unsigned sh);

/// The final score from the measured scales (libjxl's Msssim::Score): the
/// weighted sum of the 108 norms, taking weights in order over (channel,
/// scale, norm) for the scales present, then the polynomial and power mapping.
double score_from_norms(const std::vector<ScaleNorms>& scales);

/// Number of scales libjxl measures for a width x height picture: scale s
/// (s >= 1) is measured when scale s - 1 is at least 8x8 (its check runs
/// before downsampling), scale 0 when the picture is; so the last scale may
/// be smaller than 8x8 (a 16x16 picture gets 16, 8 and 4).
int scale_count(unsigned width, unsigned height);

/// Computes SSIMULACRA 2 for pictures of one geometry (at least 8x8).
class Scorer {
public:
    Scorer(const Kernels& k, YuvMatrix m, const VideoGeometry& g);
    /// Score of `dist` against `ref`; thread-safe (work buffers are per thread).
    double score(const Picture& ref, const Picture& dist) const;
    /// The per-scale norms behind score().
    std::vector<ScaleNorms> norms(const Picture& ref, const Picture& dist) const;

private:
    Kernels k_;
    YuvCoeffs coeffs_;
    VideoGeometry geom_;
};

}  // namespace vmaf::ssimulacra2
