#include "features/psnr/psnr_kernels.hpp"

#include <cmath>

namespace vmaf::psnr {

std::uint64_t sse_u8(const Plane& a, const Plane& b) {
    std::uint64_t total = 0;
    for (unsigned y = 0; y < a.height; ++y) {
        const std::uint8_t* ra = a.row<const std::uint8_t>(y);
        const std::uint8_t* rb = b.row<const std::uint8_t>(y);
        std::uint32_t row = 0;
        for (unsigned x = 0; x < a.width; ++x) {
            const std::int32_t e = static_cast<std::int32_t>(ra[x]) - static_cast<std::int32_t>(rb[x]);
            row += static_cast<std::uint32_t>(e * e);
        }
        total += row;
    }
    return total;
}

std::uint64_t sse_u16(const Plane& a, const Plane& b) {
    std::uint64_t total = 0;
    for (unsigned y = 0; y < a.height; ++y) {
        const std::uint16_t* ra = a.row<const std::uint16_t>(y);
        const std::uint16_t* rb = b.row<const std::uint16_t>(y);
        for (unsigned x = 0; x < a.width; ++x) {
            const std::uint32_t e = ra[x] > rb[x] ? ra[x] - rb[x] : rb[x] - ra[x];
            total += e * e;
        }
    }
    return total;
}

std::uint64_t sse(const Plane& a, const Plane& b, unsigned bpc) { return bpc == 8 ? sse_u8(a, b) : sse_u16(a, b); }

std::uint64_t sse(const PsnrKernels& k, const Plane& a, const Plane& b, unsigned bpc) {
    return bpc == 8 ? k.sse_u8(a, b) : k.sse_u16(a, b);
}

std::uint32_t peak(unsigned bpc, bool reduced_hbd_peak) {
    return reduced_hbd_peak ? (255u << (bpc - 8)) : ((1u << bpc) - 1u);
}

double frame_psnr(double mse, std::uint32_t peak, double psnr_max) {
    const std::uint32_t peak_sq = peak * peak;
    const double floor_mse = mse > 1e-16 ? mse : 1e-16;
    const double v = 10. * std::log10(static_cast<double>(peak_sq) / floor_mse);
    return v < psnr_max ? v : psnr_max;
}

double psnr_max(unsigned bpc, std::uint32_t peak, double min_sse, unsigned w, unsigned h) {
    if (min_sse == 0.0) return static_cast<double>(6 * bpc + 12);
    const double mse = min_sse / static_cast<double>(w * h);
    const std::uint32_t peak_sq = peak * peak;
    return std::ceil(10. * std::log10(static_cast<double>(peak_sq) / mse));
}

double aggregate_psnr(std::uint64_t sse, std::uint64_t n, std::uint32_t peak) {
    const std::uint32_t peak_sq = peak * peak;
    const double value = 10 * (std::log10(static_cast<double>(peak_sq)) + std::log10(static_cast<double>(n)) -
                               std::log10(static_cast<double>(sse)));
    const std::uint64_t cap_arg = static_cast<std::uint64_t>(peak_sq) * n * 2u;
    const double cap = std::ceil(10 * std::log10(static_cast<double>(cap_arg)));
    return value < cap ? value : cap;
}

}  // namespace vmaf::psnr
