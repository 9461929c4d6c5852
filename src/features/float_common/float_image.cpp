#include "features/float_common/float_image.hpp"

#include <cstdint>

namespace vmaf::floatfeat {

FloatImage to_float(const Plane& plane, unsigned bpc, int offset) {
    FloatImage out(plane.width, plane.height);
    const float off = static_cast<float>(offset);
    if (bpc == 8) {
        for (unsigned y = 0; y < plane.height; ++y) {
            const std::uint8_t* s = plane.row<std::uint8_t>(y);
            float* d = out.row(y);
            for (unsigned x = 0; x < plane.width; ++x) d[x] = static_cast<float>(s[x]) + off;
        }
        return out;
    }
    const float scaler = bpc == 10 ? 4.0f : bpc == 12 ? 16.0f : 256.0f;
    for (unsigned y = 0; y < plane.height; ++y) {
        const std::uint16_t* s = plane.row<std::uint16_t>(y);
        float* d = out.row(y);
        for (unsigned x = 0; x < plane.width; ++x) d[x] = static_cast<float>(s[x]) / scaler + off;
    }
    return out;
}

namespace {

inline int mirror(int i, int n) { return i < 0 ? -i : (i >= n ? 2 * n - i - 2 : i); }

}  // namespace

void convolve_mirror(std::span<const float> f, const FloatImage& a, const FloatImage* b, Tap tap, FloatImage& dst) {
    const int w = static_cast<int>(a.w), h = static_cast<int>(a.h);
    const int fw = static_cast<int>(f.size()), r = fw / 2;
    dst.w = a.w;
    dst.h = a.h;
    dst.px.resize(a.px.size());
    std::vector<float> tmp(a.w);
    for (int i = 0; i < h; ++i) {
        for (int j = 0; j < w; ++j) {
            float acc = 0;
            for (int k = 0; k < fw; ++k) {
                const int ii = mirror(i - r + k, h);
                const float v = a.row(ii)[j];
                switch (tap) {
                    case Tap::Value: acc += f[k] * v; break;
                    case Tap::Square: acc += f[k] * (v * v); break;
                    case Tap::Product: acc += f[k] * (v * b->row(ii)[j]); break;
                }
            }
            tmp[j] = acc;
        }
        float* d = dst.row(i);
        for (int j = 0; j < w; ++j) {
            float acc = 0;
            for (int k = 0; k < fw; ++k) acc += f[k] * tmp[mirror(j - r + k, w)];
            d[j] = acc;
        }
    }
}

}  // namespace vmaf::floatfeat
