// SpEED's prescaling as per-axis tap tables plus one sample expression shared
// by the CPU (speed_core.cpp) and the CUDA twin (cuda/), so both evaluate
// every rescaled sample with the same float operations in the same order.
// Plain C++17 (nvcc compiles it too); the tables are built on the host
// (rescale_axis, speed_core.cpp) with upstream's arithmetic.
#pragma once

#if defined(__CUDACC__)
#define VMAF_SPEED_HD __host__ __device__
#else
#define VMAF_SPEED_HD
#endif

namespace vmaf::speed {

enum class Rescale { Nearest, Bilinear, Bicubic, Lanczos4 };

/// Taps per output sample along one axis.
constexpr VMAF_SPEED_HD int rescale_taps(Rescale m) {
    return m == Rescale::Nearest ? 1 : m == Rescale::Bilinear ? 2 : m == Rescale::Bicubic ? 4 : 9;
}

/// One rescaled sample: `xi`/`xw` are the output column's source columns and
/// weights (rescale_taps(m) each), `yi`/`yw` the output row's; `src(y, x)`
/// reads a source sample. Bilinear keeps (x1, x2) in xi and the fraction in
/// xw[0]; nearest reads xi[0], yi[0]. Upstream's expressions, left to right.
template <typename Src>
VMAF_SPEED_HD inline float rescaled_sample(Rescale m, const int* xi, const float* xw, const int* yi, const float* yw,
                                           const Src& src) {
    switch (m) {
        case Rescale::Nearest:
            return src(yi[0], xi[0]);
        case Rescale::Bilinear: {
            const float dx = xw[0], dy = yw[0];
            return (1 - dy) * (1 - dx) * src(yi[0], xi[0]) + (1 - dy) * dx * src(yi[0], xi[1]) +
                   dy * (1 - dx) * src(yi[1], xi[0]) + dy * dx * src(yi[1], xi[1]);
        }
        case Rescale::Bicubic: {
            float v = 0.0f;
            for (int j = 0; j < 4; ++j)
                for (int i = 0; i < 4; ++i) v += src(yi[j], xi[i]) * (xw[i] * yw[j]);
            return v;
        }
        case Rescale::Lanczos4:
            break;
    }
    float v = 0.0f, wsum = 0.0f;
    for (int j = 0; j < 9; ++j)
        for (int i = 0; i < 9; ++i) {
            const float wgt = xw[i] * yw[j];
            wsum += wgt;
            v += src(yi[j], xi[i]) * wgt;
        }
    return v / wsum;
}

}  // namespace vmaf::speed
