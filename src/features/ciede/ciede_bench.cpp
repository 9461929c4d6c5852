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

namespace vmaf {
extern const ExtractorInfo kCiedeInfo;
}

namespace {

using namespace vmaf;

constexpr unsigned kW = 1920, kH = 1080;

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

// Reference: gradients plus noise; distorted: reference plus small noise.
Picture frame(std::uint64_t seed, const Picture* base) {
    Picture p(PixelFormat::Yuv420, 8, kW, kH);
    std::mt19937_64 rng(seed);
    for (unsigned pl = 0; pl < 3; ++pl) {
        const Plane& q = p.plane(pl);
        for (unsigned y = 0; y < q.height; ++y)
            for (unsigned x = 0; x < q.width; ++x) {
                const unsigned v = base ? std::min(255u, base->plane(pl).row<std::uint8_t>(y)[x] + unsigned(rng() % 3))
                                        : (((x + 2 * y) >> 3) + pl * 40 + unsigned(rng() % 6)) & 255u;
                q.row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(v);
            }
    }
    return p;
}

void register_extractor(unsigned cpumask) {
    const std::string name = "extractor/8bit/cpumask" + std::to_string(cpumask) + "/1080p_frame";
    benchmark::RegisterBenchmark(name.c_str(), [cpumask](benchmark::State& st) {
        const Picture a = frame(1, nullptr), b = frame(2, &a);
        const VideoGeometry g{PixelFormat::Yuv420, 8, kW, kH};
        auto ex = kCiedeInfo.create(OptionValues(kCiedeInfo.options, {}, "ciede"), g, ExtractorContext{cpumask});
        for (auto _ : st) benchmark::DoNotOptimize(static_cast<const FeatureExtractor&>(*ex).compute(0, a, b));
    })->Unit(benchmark::kMillisecond);
}

}  // namespace

int main(int argc, char** argv) {
    // Registered here, not from static initialisers: the kernel registry is
    // filled by static initialisers of another translation unit.
    register_kernel("scalar", ciede::CiedeKernels{});
    for (const auto& [name, k] : ciede::ciede_registry().variants()) register_kernel(name, k);
    register_extractor(63);
    register_extractor(0);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
