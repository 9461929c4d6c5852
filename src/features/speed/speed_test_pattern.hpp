// Test planes for SpEED (the CPU's unit tests and the CUDA twins' kernel test).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace vmaf::speed::test {

/// A w x h plane of samples (bpc bits): large-scale shapes (SpEED decimates
/// by 16) plus noise; `seed` changes the noise and the shapes' contrast.
inline std::vector<std::uint16_t> pattern(unsigned w, unsigned h, unsigned bpc, unsigned seed) {
    std::vector<std::uint16_t> v(std::size_t{w} * h);
    std::uint32_t x = 2463534242u + seed;
    for (unsigned y = 0; y < h; ++y)
        for (unsigned c = 0; c < w; ++c) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            const unsigned shape = ((c / 23 + y / 19) % 3) * (40 + 20 * seed) + ((c * y / 97) % 50) + (c ^ y) % 31;
            v[std::size_t{y} * w + c] = static_cast<std::uint16_t>(((shape + (x & 15)) << (bpc - 8)) + (x >> 28));
        }
    return v;
}

}  // namespace vmaf::speed::test
