#include "features/float_common/float_scale.hpp"

#include <cmath>
#include <numbers>
#include <vector>

namespace vmaf::floatfeat {

std::optional<ScaleMethod> parse_scale_method(std::string_view name) {
    if (name == "nearest") return ScaleMethod::Nearest;
    if (name == "bilinear") return ScaleMethod::Bilinear;
    if (name == "bicubic") return ScaleMethod::Bicubic;
    if (name == "lanczos4") return ScaleMethod::Lanczos4;
    return std::nullopt;
}

namespace {

// Float reflection at [left, right] (upstream evaluates the index in float).
float mirror_f(float i, float left, float right) {
    return i < left ? -i : i > right ? 2 * right - i : i;
}

float bicubic_kernel(float t) {
    const float a = -0.75f;
    if (t < 0) t = -t;
    if (t < 1) return ((a + 2) * t - (a + 3)) * t * t + 1;
    if (t < 2) return (((t - 5) * t + 8) * t - 4) * a;
    return 0;
}

float lanczos4_kernel(float x, float a) {
    constexpr double pi = std::numbers::pi;
    if (x == 0.0) return 1.0f;
    if (x > -a && x < a) return static_cast<float>(a * std::sin(pi * x) * std::sin(pi * x / a) / (pi * pi * x * x));
    return 0.0f;
}

float bicubic_at(const FloatImage& s, float x, float y) {
    const int x0 = static_cast<int>(std::floor(x)), y0 = static_cast<int>(std::floor(y));
    const float dx = x - x0, dy = y - y0;
    float wx[4], wy[4];
    for (int i = -1; i <= 2; ++i) {
        wx[i + 1] = bicubic_kernel(i - dx);
        wy[i + 1] = bicubic_kernel(i - dy);
    }
    float v = 0.0f;
    for (int j = -1; j <= 2; ++j)
        for (int i = -1; i <= 2; ++i) {
            const int xi = static_cast<int>(mirror_f(x0 + i, 0, s.w - 1.0f));
            const int yi = static_cast<int>(mirror_f(y0 + j, 0, s.h - 1.0f));
            const float wgt = wx[i + 1] * wy[j + 1];
            v += s.row(yi)[xi] * wgt;
        }
    return v;
}

float lanczos4_at(const FloatImage& s, float x, float y) {
    const int a = 4;
    const int x0 = static_cast<int>(std::floor(x)), y0 = static_cast<int>(std::floor(y));
    const float dx = x - x0, dy = y - y0;
    float wx[9], wy[9];
    for (int i = -a; i <= a; ++i) {
        wx[i + a] = lanczos4_kernel(i - dx, static_cast<float>(a));
        wy[i + a] = lanczos4_kernel(i - dy, static_cast<float>(a));
    }
    float v = 0.0f, wsum = 0.0f;
    for (int iy = -a; iy <= a; ++iy)
        for (int ix = -a; ix <= a; ++ix) {
            const float wgt = wx[ix + a] * wy[iy + a];
            wsum += wgt;
            const int xi = static_cast<int>(mirror_f(x0 + ix, 0, s.w - 1.0f));
            const int yi = static_cast<int>(mirror_f(y0 + iy, 0, s.h - 1.0f));
            v += s.row(yi)[xi] * wgt;
        }
    return v / wsum;
}

// Source coordinate of output index i: ((i + 0.5) * ratio - 0.5) in double, stored as float.
float centre(int i, float ratio) {
    return static_cast<float>((i + 0.5) * ratio - 0.5);
}

}  // namespace

BilinearAxis bilinear_axis(unsigned src_n, unsigned dst_n) {
    BilinearAxis a;
    a.lo.resize(dst_n);
    a.hi.resize(dst_n);
    a.d.resize(dst_n);
    const float ratio = static_cast<float>(src_n) / static_cast<float>(dst_n);
    const float last = src_n - 1.0f;
    for (int i = 0; i < static_cast<int>(dst_n); ++i) {
        const float c = centre(i, ratio);
        a.lo[i] = static_cast<int>(mirror_f(static_cast<float>(std::floor(static_cast<double>(c))), 0, last));
        a.hi[i] = static_cast<int>(mirror_f(static_cast<float>(std::ceil(static_cast<double>(c))), 0, last));
        a.d[i] = c - a.lo[i];
    }
    return a;
}

ScaleAxis scale_axis(ScaleMethod m, unsigned src_n, unsigned dst_n) {
    ScaleAxis a;
    const float ratio = static_cast<float>(src_n) / static_cast<float>(dst_n);
    const int n = static_cast<int>(dst_n);
    if (m == ScaleMethod::Nearest) {
        a.taps = 1;
        for (int i = 0; i < n; ++i) a.idx.push_back(static_cast<int>(i * ratio));
        return a;
    }
    const int r = m == ScaleMethod::Lanczos4 ? 4 : 1, hi = m == ScaleMethod::Lanczos4 ? 4 : 2;
    a.taps = r + hi + 1;
    for (int i = 0; i < n; ++i) {
        // bicubic_at / lanczos4_at's per-axis part.
        const float c = centre(i, ratio);
        const int c0 = static_cast<int>(std::floor(c));
        const float dc = c - c0;
        for (int t = -r; t <= hi; ++t) {
            a.w.push_back(m == ScaleMethod::Lanczos4 ? lanczos4_kernel(t - dc, 4.0f) : bicubic_kernel(t - dc));
            a.idx.push_back(static_cast<int>(mirror_f(c0 + t, 0, src_n - 1.0f)));
        }
    }
    return a;
}

FloatImage scale_frame(ScaleMethod m, const FloatImage& src, unsigned dst_w, unsigned dst_h) {
    if (src.w == dst_w && src.h == dst_h) return src;
    FloatImage dst(dst_w, dst_h);
    const float rx = static_cast<float>(src.w) / static_cast<float>(dst_w);
    const float ry = static_cast<float>(src.h) / static_cast<float>(dst_h);
    const int dw = static_cast<int>(dst_w), dh = static_cast<int>(dst_h);
    switch (m) {
        case ScaleMethod::Nearest:
            for (int y = 0; y < dh; ++y)
                for (int x = 0; x < dw; ++x)
                    dst.row(y)[x] = src.row(static_cast<int>(y * ry))[static_cast<int>(x * rx)];
            break;
        case ScaleMethod::Bilinear: {
            const BilinearAxis ax = bilinear_axis(src.w, dst_w), ay = bilinear_axis(src.h, dst_h);
            const std::vector<int>&x1 = ax.lo, &x2 = ax.hi;
            for (int y = 0; y < dh; ++y) {
                const float dy = ay.d[y];
                const float *r1 = src.row(ay.lo[y]), *r2 = src.row(ay.hi[y]);
                float* d = dst.row(y);
                for (int x = 0; x < dw; ++x) {
                    const float dx = ax.d[x];
                    d[x] = (1 - dy) * (1 - dx) * r1[x1[x]] + (1 - dy) * dx * r1[x2[x]] + dy * (1 - dx) * r2[x1[x]] +
                           dy * dx * r2[x2[x]];
                }
            }
            break;
        }
        case ScaleMethod::Bicubic:
            for (int y = 0; y < dh; ++y) {
                const float yy = centre(y, ry);
                for (int x = 0; x < dw; ++x) dst.row(y)[x] = bicubic_at(src, centre(x, rx), yy);
            }
            break;
        case ScaleMethod::Lanczos4:
            for (int y = 0; y < dh; ++y) {
                const float yy = centre(y, ry);
                for (int x = 0; x < dw; ++x) dst.row(y)[x] = lanczos4_at(src, centre(x, rx), yy);
            }
            break;
    }
    return dst;
}

}  // namespace vmaf::floatfeat
