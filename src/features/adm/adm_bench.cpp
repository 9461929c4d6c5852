// ADM benchmarks at 1920x1080: each kernel of the scalar reference and of
// every SIMD variant, run over the rows a 1080p frame gives it (scale 0 on
// 960x540 bands, scales 1..3 on the 480x270 band of scale 1), and the whole
// extractor per frame at several cpumask values (63: scalar, 0: best SIMD).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "core/feature_extractor.hpp"
#include "features/adm/adm_kernels.hpp"
#include "features/adm/adm_simd.hpp"
#include "support/feature_bench.hpp"

namespace vmaf {
extern const ExtractorInfo kAdmInfo;
}

namespace {

using namespace vmaf;
using namespace vmaf::adm;

constexpr int kW = bench::kWidth, kH = bench::kHeight;

/// Textured content: gradients plus noise (ADM's work does not depend on
/// the data except through the decouple gain branch).
Picture picture(unsigned bpc, std::uint64_t seed, int blur) {
    const unsigned max = (1u << bpc) - 1;
    return bench::synthetic_picture(
        bpc, seed, [bpc, max, blur](unsigned, unsigned x, unsigned y, std::mt19937_64& rng) {
            const unsigned base = ((x / (1 + blur)) * 3 + y * 2) % 256;
            return std::min(max, (base << (bpc - 8)) + static_cast<unsigned>(rng() % (8u << (bpc - 8))));
        });
}

std::vector<bench::PicturePair> frames(unsigned bpc) {
    return {{picture(bpc, 1, 0), picture(bpc, 2, 1)}};
}

template <typename T>
std::vector<T> noise(std::size_t n, int lo, int hi, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<T> v(n);
    for (auto& x : v) x = static_cast<T>(lo + static_cast<int>(rng() % static_cast<unsigned>(hi - lo + 1)));
    return v;
}

void register_kernels(const std::string& variant, const AdmKernels& k) {
    const std::string sfx = "/" + variant + "/1920x1080";
    auto reg = [&](const std::string& name, auto fn) {
        benchmark::RegisterBenchmark((name + sfx).c_str(), fn)->Unit(benchmark::kMicrosecond);
    };
    // Scale 0: vertical pass over the full-resolution luma (540 output rows).
    reg("dwt0_vert8", [k](benchmark::State& st) {
        const auto src = noise<std::uint8_t>(std::size_t{kW} * 4, 0, 255, 1);
        std::vector<std::int16_t> lo(kW), hi(kW);
        const std::uint8_t* r[4] = {&src[0], &src[kW], &src[2 * kW], &src[3 * kW]};
        for (auto _ : st)
            for (int i = 0; i < kH / 2; ++i) k.dwt0_vert8(r, kW, lo.data(), hi.data());
    });
    reg("dwt0_vert16_10bit", [k](benchmark::State& st) {
        const auto src = noise<std::uint16_t>(std::size_t{kW} * 4, 0, 1023, 1);
        std::vector<std::int16_t> lo(kW), hi(kW);
        const std::uint16_t* r[4] = {&src[0], &src[kW], &src[2 * kW], &src[3 * kW]};
        for (auto _ : st)
            for (int i = 0; i < kH / 2; ++i) k.dwt0_vert16(r, kW, 10, lo.data(), hi.data());
    });
    reg("dwt0_horz", [k](benchmark::State& st) {
        const auto lo = noise<std::int16_t>(kW, -20000, 20000, 2), hi = noise<std::int16_t>(kW, -20000, 20000, 3);
        std::vector<std::int16_t> o(std::size_t{kW} * 2);
        for (auto _ : st)
            for (int i = 0; i < kH / 2; ++i)
                k.dwt0_horz(lo.data(), hi.data(), kW, &o[0], &o[kW / 2], &o[kW], &o[3 * kW / 2]);
    });
    constexpr int bw = kW / 2, bh = kH / 2;  // scale-0 bands
    reg("decouple0", [k](benchmark::State& st) {
        std::vector<std::vector<std::int16_t>> in;
        for (int i = 0; i < 6; ++i) in.push_back(noise<std::int16_t>(bw, -2000, 2000, 10 + i));
        for (int i = 3; i < 6; ++i)
            for (int j = 0; j < bw; j += 2) in[i][j] = static_cast<std::int16_t>(in[i - 3][j] * 3 / 4);
        std::vector<std::int16_t> out(std::size_t{bw} * 6);
        const std::int16_t* o[3] = {in[0].data(), in[1].data(), in[2].data()};
        const std::int16_t* t[3] = {in[3].data(), in[4].data(), in[5].data()};
        std::int16_t* r[3] = {&out[0], &out[bw], &out[2 * bw]};
        std::int16_t* a[3] = {&out[3 * bw], &out[4 * bw], &out[5 * bw]};
        for (auto _ : st)
            for (int i = 0; i < bh; ++i) k.decouple0(o, t, bw, 100.0, r, a);
    });
    reg("csf0_x3", [k](benchmark::State& st) {
        const auto src = noise<std::int16_t>(bw, -2000, 2000, 4);
        std::vector<std::int16_t> out(bw);
        std::vector<std::int32_t> fsum(bw);
        for (auto _ : st)
            for (int i = 0; i < 3 * bh; ++i) k.csf0(src.data(), bw, 36453, 15, 16384, out.data(), fsum.data());
    });
    reg("den0_x3", [k](benchmark::State& st) {
        const auto src = noise<std::int16_t>(bw, -2000, 2000, 5);
        std::uint64_t s = 0;
        for (auto _ : st) {
            for (int i = 0; i < 3 * bh; ++i) s += k.den0(src.data(), bw);
            benchmark::DoNotOptimize(s);
        }
    });
    reg("cm0", [k](benchmark::State& st) {
        std::vector<std::vector<std::int16_t>> in;
        for (int i = 0; i < 15; ++i) in.push_back(noise<std::int16_t>(bw, -2000, 2000, 20 + i));
        std::vector<std::vector<std::int32_t>> fsum;
        for (int i = 0; i < 3; ++i) fsum.push_back(noise<std::int32_t>(bw, 0, 6000, 50 + i));
        CmRow<std::int16_t> row{};
        for (int r = 0; r < 3; ++r) row.fsum[r] = fsum[static_cast<std::size_t>(r)].data();
        for (int t = 0; t < 3; ++t) {
            row.masker[t] = in[9 + t].data();
            row.target[t] = in[12 + t].data();
            row.rf[t] = t == 2 ? 49417 : 36453;
            row.shift_cub[t] = t == 2 ? 7 : 6;
            row.add_cub[t] = t == 2 ? 64 : 32;
        }
        row.w = bw;
        row.j0 = 0;
        row.j1 = bw;
        for (auto _ : st) {
            std::int64_t inner[3] = {0, 0, 0};
            for (int i = 0; i < bh; ++i) k.cm0(row, inner);
            benchmark::DoNotOptimize(inner);
        }
    });
    // Scales 1..3: the 480x270 bands of scale 1 (scales 2, 3 add ~1/3 more).
    constexpr int cw = kW / 4, ch = kH / 4;
    reg("dwt123_vert_s1", [k](benchmark::State& st) {
        const auto src = noise<std::int32_t>(std::size_t{bw} * 4, -20000, 20000, 6);
        std::vector<std::int32_t> lo(bw), hi(bw);
        const std::int32_t* r[4] = {&src[0], &src[bw], &src[2 * bw], &src[3 * bw]};
        for (auto _ : st)
            for (int i = 0; i < ch; ++i) k.dwt123_vert(r, bw, 0, 0, lo.data(), hi.data());
    });
    reg("dwt1_vert", [k](benchmark::State& st) {
        const auto src = noise<std::int16_t>(std::size_t{bw} * 4, -20000, 20000, 6);
        std::vector<std::int32_t> lo(bw), hi(bw);
        const std::int16_t* r[4] = {&src[0], &src[bw], &src[2 * bw], &src[3 * bw]};
        for (auto _ : st)
            for (int i = 0; i < ch; ++i) k.dwt1_vert(r, bw, lo.data(), hi.data());
    });
    reg("dwt123_horz_s1", [k](benchmark::State& st) {
        const auto lo = noise<std::int32_t>(bw, -1 << 28, 1 << 28, 7), hi = noise<std::int32_t>(bw, -1 << 28, 1 << 28, 8);
        std::vector<std::int32_t> o(std::size_t{bw} * 2);
        for (auto _ : st)
            for (int i = 0; i < ch; ++i)
                k.dwt123_horz(lo.data(), hi.data(), bw, 16384, 15, &o[0], &o[bw / 2], &o[bw], &o[3 * bw / 2]);
    });
    reg("decouple123_s1", [k](benchmark::State& st) {
        std::vector<std::vector<std::int32_t>> in;
        for (int i = 0; i < 6; ++i) in.push_back(noise<std::int32_t>(cw, -200000, 200000, 30 + i));
        std::vector<std::int32_t> out(std::size_t{cw} * 6);
        const std::int32_t* o[3] = {in[0].data(), in[1].data(), in[2].data()};
        const std::int32_t* t[3] = {in[3].data(), in[4].data(), in[5].data()};
        std::int32_t* r[3] = {&out[0], &out[cw], &out[2 * cw]};
        std::int32_t* a[3] = {&out[3 * cw], &out[4 * cw], &out[5 * cw]};
        for (auto _ : st)
            for (int i = 0; i < ch; ++i) k.decouple123(o, t, cw, 100.0, r, a);
    });
    reg("csf123_s1_x3", [k](benchmark::State& st) {
        const auto src = noise<std::int32_t>(cw, -200000, 200000, 9);
        std::vector<std::int32_t> out(cw), fsum(cw);
        for (auto _ : st)
            for (int i = 0; i < 3 * ch; ++i) k.csf123(src.data(), cw, 173040426, out.data(), fsum.data());
    });
    reg("den123_s1_x3", [k](benchmark::State& st) {
        const auto src = noise<std::int32_t>(cw, -200000, 200000, 10);
        std::uint64_t s = 0;
        for (auto _ : st) {
            for (int i = 0; i < 3 * ch; ++i) s += k.den123(src.data(), cw, 31, 1u << 31, 9, 256);
            benchmark::DoNotOptimize(s);
        }
    });
    reg("cm123_s1", [k](benchmark::State& st) {
        std::vector<std::vector<std::int32_t>> in;
        for (int i = 0; i < 15; ++i) in.push_back(noise<std::int32_t>(cw, -200000, 200000, 40 + i));
        std::vector<std::vector<std::int32_t>> fsum;
        for (int i = 0; i < 3; ++i) fsum.push_back(noise<std::int32_t>(cw, 0, 600000, 60 + i));
        CmRow<std::int32_t> row{};
        for (int r = 0; r < 3; ++r) row.fsum[r] = fsum[static_cast<std::size_t>(r)].data();
        for (int t = 0; t < 3; ++t) {
            row.masker[t] = in[9 + t].data();
            row.target[t] = in[12 + t].data();
            row.rf[t] = 173040426;
            row.shift_cub[t] = 9;
            row.add_cub[t] = 256;
        }
        row.w = cw;
        row.j0 = 0;
        row.j1 = cw;
        for (auto _ : st) {
            std::int64_t inner[3] = {0, 0, 0};
            for (int i = 0; i < ch; ++i) k.cm123(row, inner);
            benchmark::DoNotOptimize(inner);
        }
    });
}

}  // namespace

int main(int argc, char** argv) {
    for (const auto& [name, k] : bench::kernel_tables(scalar_kernels(), adm_registry().variants()))
        register_kernels(name, k);
    bench::register_extractor_frames({.info = &kAdmInfo, .frames = frames, .unit = benchmark::kMillisecond},
                                     {63, 56, 48, 32, 0}, {8, 10});
    return bench::run_benchmarks(argc, argv);
}
