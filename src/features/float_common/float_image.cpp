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

void convolve_mirror(const FloatKernels& kern, std::span<const float> f, const FloatImage& a, const FloatImage* b,
                     Tap tap, FloatImage& dst) {
    const int w = static_cast<int>(a.w), h = static_cast<int>(a.h);
    const int fw = static_cast<int>(f.size()), r = fw / 2;
    dst.w = a.w;
    dst.h = a.h;
    dst.px.resize(a.px.size());
    std::vector<float> tmp(a.w);
    std::vector<const float*> ra(fw), rb(fw);
    for (int i = 0; i < h; ++i) {
        for (int k = 0; k < fw; ++k) {
            int ii = i - r + k;
            ii = ii < 0 ? -ii : (ii >= h ? 2 * h - ii - 2 : ii);
            ra[k] = a.row(ii);
            rb[k] = b ? b->row(ii) : nullptr;
        }
        kern.conv_rows(f.data(), fw, ra.data(), rb.data(), tap, tmp.data(), w);
        kern.conv_cols(f.data(), fw, tmp.data(), dst.row(i), w);
    }
}

}  // namespace vmaf::floatfeat
