// The ssimulacra2 twin's geometry and constants from the CPU extractor's
// (host code shared by the twin and its host test).
#pragma once

#include <cmath>
#include <vector>

#include "features/ssimulacra2/cuda/ssimulacra2_cuda_pipeline.hpp"
#include "features/ssimulacra2/ssimulacra2_constants.hpp"
#include "features/ssimulacra2/ssimulacra2_core.hpp"
#include "vmaf/picture.hpp"

namespace vmaf::ssimulacra2::cuda {

inline S2Geometry s2_geometry(const VideoGeometry& g) {
    const ChromaShift cs = chroma_shift(g.format);
    S2Geometry s{};
    s.w = g.width;
    s.h = g.height;
    s.bpc = g.bpc;
    s.cx = cs.x;
    s.cy = cs.y;
    s.chroma = g.format != PixelFormat::Yuv400;
    s.scales = scale_count(g.width, g.height);
    return s;
}

/// The CPU's values, copied: yuv_coeffs(m, bpc), the sRGB and opsin tables,
/// xyb_row's -cbrt(bias) (the same call), blur_coeffs(), C2.
inline S2Constants s2_constants(YuvMatrix m, unsigned bpc) {
    S2Constants k{};
    const YuvCoeffs y = yuv_coeffs(m, bpc);
    k.y_offset = y.y_offset;
    k.y_scale = y.y_scale;
    k.c_offset = y.c_offset;
    k.c_scale = y.c_scale;
    k.cr_r = y.cr_r;
    k.cb_g = y.cb_g;
    k.cr_g = y.cr_g;
    k.cb_b = y.cb_b;
    for (int i = 0; i < 5; ++i) {
        k.srgb_p[i] = kSrgbP[i];
        k.srgb_q[i] = kSrgbQ[i];
    }
    k.srgb_threshold = kSrgbThreshold;
    k.srgb_low_slope = kSrgbLowSlope;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) k.opsin[i][j] = kOpsin[i][j];
    k.opsin_bias = kOpsinBias;
    k.neg_cbrt_bias = -std::cbrt(kOpsinBias);
    const BlurCoeffs& b = blur_coeffs();
    k.radius = b.radius;
    for (int i = 0; i < 3; ++i) {
        k.n2[i] = b.n2[i];
        k.d1[i] = b.d1[i];
        for (int j = 0; j < 4; ++j) {
            k.mul_in[i][j] = b.mul_in[i][j];
            k.mul_prev[i][j] = b.mul_prev[i][j];
            k.mul_prev2[i][j] = b.mul_prev2[i][j];
        }
    }
    k.c2 = kC2;
    return k;
}

/// The frame's norms from the kS2Sums sums (the CPU's add_channel_norms per
/// measured scale and channel).
inline std::vector<ScaleNorms> s2_norms(const double* sums, const S2Geometry& g) {
    std::vector<ScaleNorms> scales;
    unsigned sw = g.w, sh = g.h;
    for (int scale = 0; scale < g.scales; ++scale) {
        if (scale > 0) {
            sw = (sw + 1) / 2;
            sh = (sh + 1) / 2;
        }
        ScaleNorms norms;
        for (int c = 0; c < 3; ++c) {
            MapSums m;
            for (int k = 0; k < 6; ++k) m.s[k] = sums[(scale * 3 + c) * 6 + k];
            add_channel_norms(norms, c, m, sw, sh);
        }
        scales.push_back(norms);
    }
    return scales;
}

}  // namespace vmaf::ssimulacra2::cuda
