// checkasm-style tests of the CAMBI kernel table: every kernel of every SIMD
// variant against the scalar reference, bit for bit, on random and edge
// inputs (runs of equal values, empty masks, band edges, odd widths), with
// guard zones around the outputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>
#include <cstring>
#include <random>
#include <vector>

#include "features/cambi/cambi_core.hpp"
#include "features/cambi/cambi_kernels.hpp"
#include "support/checkasm.hpp"

namespace {

using namespace vmaf;
using test::GuardedPlane;
using u16 = std::uint16_t;

const std::vector<unsigned> kWidths = {1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 257, 1921};

std::vector<std::pair<std::string, cambi::CambiKernels>> variants() {
    auto v = cambi::cambi_registry().variants();
    EXPECT_FALSE(v.empty()) << "no SIMD variant compiled";
    return v;
}

/// Values drawn from [lo, hi], repeated in runs of random length (as banded pictures have).
std::vector<u16> runs(std::mt19937_64& rng, std::size_t n, unsigned lo, unsigned hi, unsigned max_run) {
    std::uniform_int_distribution<unsigned> val(lo, hi), len(1, max_run);
    std::vector<u16> out;
    while (out.size() < n) {
        const u16 v = static_cast<u16>(val(rng));
        for (unsigned r = len(rng); r && out.size() < n; --r) out.push_back(v);
    }
    return out;
}

TEST(CambiCheckasm, HasVariants) { EXPECT_FALSE(variants().empty()); }

TEST(CambiCheckasm, Mode3AndFlatAndAntiDither) {
    SCOPED_TRACE(test::seed_trace());
    std::mt19937_64 rng(test::checkasm_seed());
    const cambi::CambiKernels ref;
    for (const auto& [name, k] : variants())
        for (unsigned w : kWidths)
            for (unsigned hi : {3u, 1023u, 65535u}) {
                SCOPED_TRACE(name + " w " + std::to_string(w) + " max " + std::to_string(hi));
                const auto a = runs(rng, w + 1, 0, hi, 4), b = runs(rng, w + 1, 0, hi, 4),
                           c = runs(rng, w + 1, 0, hi, 4);
                GuardedPlane<u16> want(w, 1), got(w, 1);
                ref.mode3(a.data(), b.data(), c.data(), want.data(), w);
                k.mode3(a.data(), b.data(), c.data(), got.data(), w);
                ASSERT_EQ(0, std::memcmp(want.data(), got.data(), w * sizeof(u16))) << "mode3";
                ASSERT_TRUE(got.intact()) << "mode3";
                for (const u16* below : {static_cast<const u16*>(nullptr), b.data()}) {
                    ref.flat(a.data(), below, want.data(), w);
                    k.flat(a.data(), below, got.data(), w);
                    ASSERT_EQ(0, std::memcmp(want.data(), got.data(), w * sizeof(u16))) << "flat";
                    ASSERT_TRUE(got.intact()) << "flat";
                }
                if (hi > 1023) continue;
                auto ra = a, rb = a;  // n = w - 1 pairs of a row of w + 1 samples
                ref.anti_dither(ra.data(), c.data(), w);
                k.anti_dither(rb.data(), c.data(), w);
                ASSERT_EQ(ra, rb) << "anti_dither";
            }
}

TEST(CambiCheckasm, Box7) {
    SCOPED_TRACE(test::seed_trace());
    std::mt19937_64 rng(test::checkasm_seed());
    const cambi::CambiKernels ref;
    for (const auto& [name, k] : variants())
        for (unsigned w : kWidths)
            for (std::uint32_t thr : {0u, 7u, 24u, 48u, 49u, 1000u}) {
                SCOPED_TRACE(name + " w " + std::to_string(w) + " threshold " + std::to_string(thr));
                std::vector<u16> colsum(w + 6, 0);
                const auto vals = runs(rng, w, 0, 7, 5);
                std::copy(vals.begin(), vals.end(), colsum.begin() + 3);
                GuardedPlane<u16> want(w, 1), got(w, 1);
                ref.box7(colsum.data() + 3, thr, want.data(), w);
                k.box7(colsum.data() + 3, thr, got.data(), w);
                ASSERT_EQ(0, std::memcmp(want.data(), got.data(), w * sizeof(u16)));
                ASSERT_TRUE(got.intact());
            }
}

TEST(CambiCheckasm, BandCodes) {
    SCOPED_TRACE(test::seed_trace());
    std::mt19937_64 rng(test::checkasm_seed());
    const cambi::CambiKernels ref;
    for (const auto& [name, k] : variants())
        for (unsigned w : kWidths)
            for (u16 base : {u16{0}, u16{3}, u16{900}}) {
                const u16 size = static_cast<u16>(1 + rng() % 600);
                SCOPED_TRACE(name + " w " + std::to_string(w) + " base " + std::to_string(base));
                // Values around both band edges, and 10-bit extremes.
                const auto vals = runs(rng, w, 0, 1024, 5);
                const auto near = runs(rng, w, base > 2 ? base - 2u : 0u, base + size + 2u, 5);
                const auto mask = runs(rng, w, 0, 3, 7);
                for (const std::vector<u16>* v : {&vals, &near}) {
                    GuardedPlane<u16> want(w, 1), got(w, 1);
                    ref.band_codes(v->data(), mask.data(), base, size, want.data(), w);
                    k.band_codes(v->data(), mask.data(), base, size, got.data(), w);
                    ASSERT_EQ(0, std::memcmp(want.data(), got.data(), w * sizeof(u16)));
                    ASSERT_TRUE(got.intact());
                }
            }
}

/// A row of band codes with the kNoCode sentinels the slide kernels need
/// either side; runs of equal codes and of kNoCode, from rows [0, size).
std::vector<u16> code_row(std::mt19937_64& rng, unsigned w, u16 size) {
    std::vector<u16> row = runs(rng, w + 2, 0, size, 9);
    for (auto& c : row)
        if (c == size) c = cambi::kNoCode;
    row.front() = row.back() = cambi::kNoCode;
    return row;
}

TEST(CambiCheckasm, Slide) {
    SCOPED_TRACE(test::seed_trace());
    std::mt19937_64 rng(test::checkasm_seed());
    const cambi::CambiKernels ref;
    auto widths = kWidths;
    widths.push_back(32767);  // column numbers at the end of int16
    for (const auto& [name, k] : variants())
        for (unsigned w : widths)
            for (int pad : {1, 7, 16, 40}) {
                const u16 size = static_cast<u16>(1 + rng() % (w > 2000 ? 4 : 24));
                SCOPED_TRACE(name + " w " + std::to_string(w) + " pad " + std::to_string(pad));
                const auto co = code_row(rng, w, size);
                // The entering row: independent, or the leaving one with a few
                // changes (mostly cancelling columns, as in flat areas).
                auto ci = rng() % 2 ? code_row(rng, w, size) : co;
                for (unsigned j = 1; j <= w; ++j)
                    if (rng() % 8 == 0) ci[j] = rng() % 4 ? static_cast<u16>(rng() % size) : cambi::kNoCode;
                std::uniform_int_distribution<unsigned> count(0, 65535);
                // The fast stride, and others (vectors that do not divide it, or wider than it).
                const int stride = rng() % 2 ? cambi::hist_stride(static_cast<int>(w))
                                             : static_cast<int>(w + rng() % 40);
                std::vector<u16> start(std::size_t(stride) * size);
                for (auto& h : start) h = static_cast<u16>(count(rng));
                // Both rows, only the entering one, only the leaving one.
                for (int mode = 0; mode < 3; ++mode) {
                    const u16* o = mode == 1 ? nullptr : co.data() + 1;
                    const u16* n = mode == 2 ? nullptr : ci.data() + 1;
                    auto hw = start, hg = start;
                    ref.slide(hw.data(), stride, static_cast<int>(w), pad, o, n);
                    k.slide(hg.data(), stride, static_cast<int>(w), pad, o, n);
                    for (unsigned y = 0; y < size; ++y)  // columns [w, stride) are scratch
                        ASSERT_TRUE(std::equal(hw.begin() + y * stride, hw.begin() + y * stride + w,
                                               hg.begin() + y * stride))
                            << "mode " << mode << " stride " << stride << " row " << y;
                }
            }
}

TEST(CambiCheckasm, CValuesAndStats) {
    SCOPED_TRACE(test::seed_trace());
    std::mt19937_64 rng(test::checkasm_seed());
    const cambi::CambiKernels ref;
    for (int mlc : {0, 2, 5}) {
        for (double vlt : {0.0, 10.0}) {
            const cambi::Params p = cambi::make_params(mlc, 0.019, vlt, "bt1886", 0.6, 8, false);
            const cambi::ScoreParams sp{p.num_diffs, p.active.data(), p.band_base, p.band_size};
            for (unsigned w : kWidths) {
                if (w > 300) continue;  // a band of ~560 histogram rows per column: keep it quick
                std::uniform_int_distribution<unsigned> count(0, 65 * 65 / 2);
                const int stride = rng() % 2 ? cambi::hist_stride(static_cast<int>(w))
                                             : static_cast<int>(w + rng() % 40);
                std::vector<u16> hist(std::size_t{p.band_size} * stride + 1);
                for (auto& h : hist) h = rng() % 3 ? static_cast<u16>(count(rng)) : 0;
                const auto vals = runs(rng, w, p.band_base > 40 ? p.band_base - 40 : 0,
                                       std::min(1024, p.band_base + p.band_size + 40), 6);
                const auto mask = runs(rng, w, 0, 1, 10);
                // Rows of 1 to 6 values of the band with a few others (the
                // kernels' few-rows path), or mixed.
                std::vector<u16> few(1 + rng() % 6);
                for (auto& v : few) v = static_cast<u16>(std::min<unsigned>(1024, p.band_base + rng() % p.band_size));
                auto flat = vals;
                for (auto& v : flat) v = rng() % 16 ? few[rng() % few.size()] : v;
                std::vector<u16> codes(w);
                ref.band_codes(rng() % 2 ? flat.data() : vals.data(), mask.data(), p.band_base, p.band_size,
                               codes.data(), w);
                GuardedPlane<float> want(w, 1), got(w, 1);
                // The row's stats add to what the stats held before (another row's).
                cambi::TopkStats before;
                before.sum = 1000.5, before.nonzero = 3, before.min_nonzero = rng() % 2 ? 0.75f : 1e6f;
                cambi::TopkStats ref_row = before;
                ref.c_values(hist.data(), stride, static_cast<int>(w), codes.data(), sp, want.data(), ref_row);
                for (const auto& [name, k] : variants()) {
                    SCOPED_TRACE(name + " mlc " + std::to_string(mlc) + " vlt " + std::to_string(vlt) + " w " +
                                 std::to_string(w));
                    cambi::TopkStats got_row = before;
                    k.c_values(hist.data(), stride, static_cast<int>(w), codes.data(), sp, got.data(), got_row);
                    ASSERT_EQ(0, std::memcmp(want.data(), got.data(), w * sizeof(float))) << "c_values";
                    ASSERT_TRUE(got.intact()) << "c_values";
                    // Stats of such values: exact partial sums here, so identical.
                    const cambi::TopkStats a = ref.stats(want.data(), w), b = k.stats(want.data(), w);
                    EXPECT_EQ(a.nonzero, b.nonzero);
                    EXPECT_EQ(std::bit_cast<std::uint32_t>(a.min_nonzero), std::bit_cast<std::uint32_t>(b.min_nonzero));
                    EXPECT_EQ(a.sum, b.sum);
                    // Stats added by the c-value kernels: the same (and those of topk_stats()).
                    EXPECT_EQ(ref_row.nonzero, got_row.nonzero);
                    EXPECT_EQ(ref_row.nonzero, before.nonzero + a.nonzero);
                    EXPECT_EQ(std::bit_cast<std::uint32_t>(ref_row.min_nonzero),
                              std::bit_cast<std::uint32_t>(got_row.min_nonzero));
                    EXPECT_EQ(std::bit_cast<std::uint32_t>(std::min(before.min_nonzero, a.min_nonzero)),
                              std::bit_cast<std::uint32_t>(got_row.min_nonzero));
                    EXPECT_EQ(ref_row.sum, got_row.sum);
                    EXPECT_EQ(before.sum + a.sum, got_row.sum);
                }
            }
        }
    }
}

TEST(CambiCheckasm, StatsOfArbitraryFloats) {
    SCOPED_TRACE(test::seed_trace());
    std::mt19937_64 rng(test::checkasm_seed());
    const cambi::CambiKernels ref;
    std::uniform_real_distribution<float> val(0.0f, 3000.0f);
    for (const auto& [name, k] : variants())
        for (unsigned n : {0u, 1u, 5u, 16u, 17u, 1000u, 100003u}) {
            SCOPED_TRACE(name + " n " + std::to_string(n));
            std::vector<float> c(n);
            for (auto& v : c) v = rng() % 4 ? 0.0f : val(rng);
            const cambi::TopkStats a = ref.stats(c.data(), n), b = k.stats(c.data(), n);
            EXPECT_EQ(a.nonzero, b.nonzero);
            EXPECT_EQ(std::bit_cast<std::uint32_t>(a.min_nonzero), std::bit_cast<std::uint32_t>(b.min_nonzero));
            EXPECT_LE(std::fabs(a.sum - b.sum), a.sum * n * 0x1p-52);
        }
}

/// Pooling of banding-like values (w * p0 * q / (p0 + q) as floats, >= 0.5)
/// whose sums are exact in any order: equal to the sum of the sorted top k,
/// whether the nonzero values fit in k (sum of all) or not (radix select).
TEST(CambiPool, TopkMatchesSortedSum) {
    SCOPED_TRACE(test::seed_trace());
    std::mt19937_64 rng(test::checkasm_seed());
    const float* recip = cambi::reciprocal_table();
    for (double nonzero_share : {0.0, 0.1, 0.5, 0.9, 1.0})
        for (double topk : {0.0001, 0.3, 0.6, 1.0}) {
            const unsigned w = 317, h = 91;
            std::vector<float> c(std::size_t{w} * h);
            for (auto& v : c) {
                const int p0 = 1 + static_cast<int>(rng() % 500), q = 1 + static_cast<int>(rng() % 500);
                v = std::uniform_real_distribution<double>(0, 1)(rng) < nonzero_share
                        ? static_cast<float>(static_cast<int>(1 + rng() % 4) * p0 * q) * recip[p0 + q]
                        : 0.0f;
            }
            std::vector<float> sorted = c;
            std::sort(sorted.begin(), sorted.end(), std::greater<float>());
            const int n = static_cast<int>(c.size());
            const int k = std::clamp(static_cast<int>(topk * n), 1, n);
            double want = 0;
            for (int i = 0; i < k; ++i) want += sorted[i];
            std::vector<float> tmp;
            for (const auto& [name, kern] : variants()) {
                std::vector<float> work = c;
                EXPECT_EQ(want / k, cambi::pool(work.data(), topk, w, h, tmp, kern))
                    << name << " nonzero " << nonzero_share << " topk " << topk;
            }
        }
}

/// Pooling where the exactness proof does not apply (tiny values beside
/// large totals): upstream's quick_select and in-order sum, bit for bit,
/// whether the first pivot is 0 with enough zeros left of k (the replay
/// without selection), 0 without them, or nonzero; zeros spread or in runs.
TEST(CambiPool, InexactSumsMatchQuickSelect) {
    SCOPED_TRACE(test::seed_trace());
    std::mt19937_64 rng(test::checkasm_seed());
    const cambi::CambiKernels ref;
    for (double zero_share : {0.2, 0.45, 0.6, 0.8, 0.95, 0.999})
        for (bool clustered : {false, true})
            for (double topk : {0.3, 0.6, 0.9})
                for (unsigned w : {1u, 7u, 613u}) {
                    const unsigned h = 97;
                    std::vector<float> c(std::size_t{w} * h);
                    std::uniform_real_distribution<double> u(0, 1);
                    bool zero = false;
                    for (auto& v : c) {
                        if (!clustered || rng() % 40 == 0) zero = u(rng) < zero_share;
                        v = zero ? 0.0f
                                 : rng() % 50 ? static_cast<float>(u(rng) * 3000.0)
                                              : static_cast<float>(1 + rng() % 7) / 1024.0f;
                    }
                    c[rng() % c.size()] = 1.0f / 4096.0f;  // a fine granularity, so the sum is order-dependent
                    const int n = static_cast<int>(c.size());
                    const int k = std::clamp(static_cast<int>(topk * n), 1, n);
                    std::vector<float> sel = c;
                    cambi::quick_select(sel.data(), n, k);
                    double want = 0;
                    for (int i = 0; i < k; ++i) want += sel[i];
                    std::vector<float> tmp, work = c;
                    const double got = cambi::pool(work.data(), topk, w, h, tmp, ref);
                    EXPECT_EQ(want / k, got) << "zeros " << zero_share << " clustered " << clustered << " topk "
                                             << topk << " w " << w;
                }
}

}  // namespace
