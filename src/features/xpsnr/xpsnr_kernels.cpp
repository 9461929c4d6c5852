#include "features/xpsnr/xpsnr_kernels.hpp"

#include <cstdlib>

namespace vmaf::xpsnr {

namespace {

/// A sample, 0 outside the picture.
int at(const Plane& p, unsigned bpc, long x, long y) {
    if (x < 0 || y < 0 || x >= static_cast<long>(p.width) || y >= static_cast<long>(p.height)) return 0;
    return sample(p, bpc, static_cast<unsigned>(x), static_cast<unsigned>(y));
}

/// Sum of the 2x2 group at (x, y) .. (x+1, y+1), 0 outside the picture.
int quad(const Plane& p, unsigned bpc, long x, long y) {
    return at(p, bpc, x, y) + at(p, bpc, x + 1, y) + at(p, bpc, x, y + 1) + at(p, bpc, x + 1, y + 1);
}

}  // namespace

void spatial_plain(const Plane& p, unsigned bpc, unsigned y0, unsigned y1, std::uint32_t* col) {
    for (unsigned y = y0; y < y1; ++y)
        for (unsigned x = 1; x + 1 < p.width; ++x) {
            const int c = sample(p, bpc, x, y);
            const int edges = sample(p, bpc, x - 1, y) + sample(p, bpc, x + 1, y) + sample(p, bpc, x, y - 1) +
                              sample(p, bpc, x, y + 1);
            const int corners = sample(p, bpc, x - 1, y - 1) + sample(p, bpc, x + 1, y - 1) +
                                sample(p, bpc, x - 1, y + 1) + sample(p, bpc, x + 1, y + 1);
            col[x] += static_cast<std::uint32_t>(std::abs(12 * c - 2 * edges - corners));
        }
}

void spatial_down(const Plane& p, unsigned bpc, unsigned y0, unsigned y1, std::uint32_t* col, std::int32_t*) {
    for (long y = y0; y < static_cast<long>(y1); y += 2)
        for (long x = 2; x + 2 < static_cast<long>(p.width); x += 2) {
            auto s = [&](long dx, long dy) { return at(p, bpc, x + dx, y + dy); };
            const int centre = quad(p, bpc, x, y);
            const int edges = s(0, -1) + s(1, -1) + s(0, 2) + s(1, 2) + s(-1, 0) + s(-1, 1) + s(2, 0) + s(2, 1);
            const int corners = s(-1, -1) + s(2, -1) + s(-1, 2) + s(2, 2);
            int ring = 0;
            for (long k = -1; k <= 2; ++k) ring += s(k, -2) + s(k, 3) + s(-2, k) + s(3, k);
            col[x] += static_cast<std::uint32_t>(std::abs(12 * centre - 3 * edges - 2 * corners - ring));
        }
}

void temporal_plain(const Plane& cur, const Plane& p1, const Plane& p2, unsigned bpc, unsigned order, unsigned y0,
                    unsigned y1, std::uint32_t* col) {
    for (unsigned y = y0; y < y1; ++y)
        for (unsigned x = 0; x < cur.width; ++x) {
            int t = sample(cur, bpc, x, y) - sample(p1, bpc, x, y);
            if (order == 2) t = t - sample(p1, bpc, x, y) + sample(p2, bpc, x, y);
            col[x] += static_cast<std::uint32_t>(std::abs(t));
        }
}

void temporal_down(const Plane& cur, const Plane& p1, const Plane& p2, unsigned bpc, unsigned order, unsigned y0,
                   unsigned y1, std::uint32_t* col, std::int32_t*) {
    for (long y = y0; y < static_cast<long>(y1); y += 2)
        for (long x = 0; x < static_cast<long>(cur.width); x += 2) {
            int t = quad(cur, bpc, x, y) - quad(p1, bpc, x, y);
            if (order == 2) t = t - quad(p1, bpc, x, y) + quad(p2, bpc, x, y);
            col[x] += static_cast<std::uint32_t>(std::abs(t));
        }
}

void sse_cols(const Plane& a, const Plane& b, unsigned bpc, unsigned y0, unsigned y1, std::uint32_t* col) {
    for (unsigned y = y0; y < y1; ++y)
        for (unsigned x = 0; x < a.width; ++x) {
            // Unsigned samples (the filter's sse_line reads them as uint16).
            const long e = bpc == 8 ? long{a.row<const std::uint8_t>(y)[x]} - long{b.row<const std::uint8_t>(y)[x]}
                                    : long{a.row<const std::uint16_t>(y)[x]} - long{b.row<const std::uint16_t>(y)[x]};
            col[x] += static_cast<std::uint32_t>(e * e);
        }
}

std::uint64_t sse_line_x86(const std::uint16_t* a, const std::uint16_t* b, unsigned n) {
    std::uint64_t total = 0;
    unsigned x = 0;
    for (; x + 32 <= n; x += 32)
        for (unsigned lane = 0; lane < 4; ++lane) {
            std::uint32_t sum = 0;  // wraps, as a 32-bit SIMD lane does
            for (unsigned part = 0; part < 4; ++part)
                for (unsigned k = 0; k < 2; ++k) {
                    const unsigned i = x + 8 * part + 2 * lane + k;
                    const std::int16_t d = static_cast<std::int16_t>(static_cast<std::uint16_t>(a[i] - b[i]));
                    sum += static_cast<std::uint32_t>(static_cast<std::int32_t>(d) * d);
                }
            total += sum;
        }
    for (; x < n; ++x) {
        const long e = long{a[x]} - long{b[x]};
        total += static_cast<std::uint64_t>(e * e);
    }
    return total;
}

}  // namespace vmaf::xpsnr
