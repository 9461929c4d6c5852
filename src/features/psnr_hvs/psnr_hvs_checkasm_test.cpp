// checkasm-style tests of the PSNR-HVS kernel table: the block-row kernel of
// every SIMD variant against the scalar reference, bit for bit, on random and
// edge planes of every supported depth, with guard zones around the inputs.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <random>
#include <vector>

#include "features/psnr_hvs/psnr_hvs_kernels.hpp"
#include "support/checkasm.hpp"

namespace {

using namespace vmaf;
using test::as_plane;
using test::GuardedPlane;

enum class Fill { Random, Flat, MaxVsZero, Noisy, Checker };

template <typename T>
void fill_pair(GuardedPlane<T>& a, GuardedPlane<T>& b, Fill f, unsigned bpc, std::mt19937_64& rng) {
    const std::uint32_t maxv = (1u << bpc) - 1u;
    std::uniform_int_distribution<std::uint32_t> full(0, maxv), small(0, 6);
    unsigned n = 0;
    switch (f) {
        case Fill::Random:
            a.fill([&] { return full(rng); }), b.fill([&] { return full(rng); });
            break;
        case Fill::Flat:
            a.fill([&] { return maxv / 2; }), b.fill([&] { return maxv / 2; });
            break;
        case Fill::MaxVsZero:
            a.fill([&] { return maxv; }), b.fill([] { return 0u; });
            break;
        case Fill::Noisy: {  // b = a + small noise: mostly masked errors
            std::vector<std::uint32_t> vals;
            a.fill([&] { return vals.emplace_back(full(rng) / 8 + maxv / 3); });
            b.fill([&] { return std::min(maxv, vals[n++] + small(rng)); });
            break;
        }
        case Fill::Checker:
            a.fill([&] { return (n++ & 1) ? maxv : 0u; });
            b.fill([&] { return (n++ & 3) ? maxv : 0u; });
            break;
    }
}

template <typename T>
void check(const psnr_hvs::PsnrHvsKernels& k, unsigned bpc, unsigned w, unsigned h, Fill f, std::mt19937_64& rng) {
    GuardedPlane<T> a(w, h, 3), b(w, h, 3);
    fill_pair(a, b, f, bpc, rng);
    const Plane pa = as_plane(a), pb = as_plane(b);
    const unsigned n = psnr_hvs::block_count(w);
    for (unsigned plane = 0; plane < 3; ++plane) {
        const auto& wt = psnr_hvs::weights(plane);
        for (unsigned by = 0; by < psnr_hvs::block_count(h); ++by) {
            std::vector<float> want(64 * n, -1.f), got(64 * n, -2.f);
            psnr_hvs::block_row(pa, pb, bpc, psnr_hvs::kStep * by, n, wt, want.data());
            k.block_row(pa, pb, bpc, psnr_hvs::kStep * by, n, wt, got.data());
            for (std::size_t i = 0; i < want.size(); ++i)
                ASSERT_EQ(std::bit_cast<std::uint32_t>(want[i]), std::bit_cast<std::uint32_t>(got[i]))
                    << "bpc " << bpc << " " << w << "x" << h << " fill " << static_cast<int>(f) << " plane " << plane
                    << " block row " << by << " block " << i % n << " coefficient " << i / n << ": " << want[i]
                    << " vs " << got[i];
        }
        ASSERT_EQ(psnr_hvs::plane_error(psnr_hvs::PsnrHvsKernels{}, pa, pb, bpc, w, h, wt),
                  psnr_hvs::plane_error(k, pa, pb, bpc, w, h, wt));
    }
    ASSERT_TRUE(a.intact() && b.intact());
}

TEST(PsnrHvsCheckasm, BlockRowEveryVariantBitExact) {
    SCOPED_TRACE(test::seed_trace());
    std::mt19937_64 rng(test::checkasm_seed());
    const auto variants = psnr_hvs::psnr_hvs_registry().variants();
    ASSERT_FALSE(variants.empty());
    for (const auto& [name, k] : variants) {
        SCOPED_TRACE(name);
        // Widths: one block, one short of / exactly / one past a vector of blocks, ragged tails.
        for (unsigned w : {8u, 15u, 57u, 64u, 120u, 127u, 131u, 200u})
            for (Fill f : {Fill::Random, Fill::Flat, Fill::MaxVsZero, Fill::Noisy, Fill::Checker}) {
                check<std::uint8_t>(k, 8, w, 15, f, rng);
                check<std::uint16_t>(k, 10, w, 15, f, rng);
                check<std::uint16_t>(k, 12, w, 8, f, rng);
            }
    }
}

}  // namespace
