// CIEDE2000 benchmarks: the colour-difference kernel of the scalar reference
// and of every SIMD variant on one 1920-pixel row of colour pairs, and the
// whole extractor per 1080p 4:2:0 frame at cpumask 63 (scalar) and 0 (best SIMD).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "core/feature_extractor.hpp"
#include "features/ciede/ciede_color.hpp"
#include "features/ciede/ciede_kernels.hpp"
#include "support/feature_bench.hpp"

namespace vmaf {
extern const ExtractorInfo kCiedeInfo;
}

namespace {

using namespace vmaf;

constexpr unsigned kW = bench::kWidth;

void register_kernel(const std::string& variant, ciede::CiedeKernels k) {
    const std::string name = "delta_e/" + variant + "/1920_pairs";
    benchmark::RegisterBenchmark(name.c_str(), [k](benchmark::State& st) {
        std::mt19937_64 rng(5);
        std::vector<float> c[6];
        for (auto& v : c) v.resize(kW);
        for (unsigned i = 0; i < kW; ++i) {  // colours of samples and slightly distorted samples
            const unsigned y = 16 + rng() % 220, u = 16 + rng() % 225, v = 16 + rng() % 225;
            const ciede::Lab a = ciede::yuv_to_lab(y, u, v, 8);
            const ciede::Lab b = ciede::yuv_to_lab(y + rng() % 4, u, v + rng() % 3, 8);
            c[0][i] = a.l, c[1][i] = a.a, c[2][i] = a.b, c[3][i] = b.l, c[4][i] = b.a, c[5][i] = b.b;
        }
        const ciede::LabColumns in{c[0].data(), c[1].data(), c[2].data(), c[3].data(), c[4].data(), c[5].data()};
        std::vector<float> out(kW);
        for (auto _ : st) {
            k.delta_e(in, kW, out.data());
            benchmark::DoNotOptimize(out.data());
        }
        st.SetItemsProcessed(st.iterations() * kW);
    });
}

// 8-bit only. Reference: gradients plus noise; distorted: reference plus small noise.
std::vector<bench::PicturePair> frames(unsigned) {
    const Picture ref = bench::synthetic_picture(8, 1, [](unsigned pl, unsigned x, unsigned y, std::mt19937_64& rng) {
        return (((x + 2 * y) >> 3) + pl * 40 + unsigned(rng() % 6)) & 255u;
    });
    const Picture dis =
        bench::synthetic_picture(8, 2, [&ref](unsigned pl, unsigned x, unsigned y, std::mt19937_64& rng) {
            return std::min(255u, ref.plane(pl).row<std::uint8_t>(y)[x] + unsigned(rng() % 3));
        });
    return {{ref, dis}};
}

}  // namespace

int main(int argc, char** argv) {
    for (const auto& [name, k] : bench::kernel_tables(ciede::CiedeKernels{}, ciede::ciede_registry().variants()))
        register_kernel(name, k);
    bench::register_extractor_frames({.info = &kCiedeInfo, .frames = frames, .unit = benchmark::kMillisecond}, {63, 0},
                                     {8});
    return bench::run_benchmarks(argc, argv);
}
