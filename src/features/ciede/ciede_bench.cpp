// CIEDE2000 benchmarks: the colour-difference kernel of the scalar reference
// and of every SIMD variant on one 1920-pixel row of colour pairs, and the
// whole extractor per 1080p 4:2:0 frame at cpumask 63 (scalar) and 0 (best SIMD).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
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

/// One row of colour pairs: samples and slightly distorted samples.
std::vector<std::vector<float>> colour_pairs() {
    std::mt19937_64 rng(5);
    std::vector<std::vector<float>> c(6, std::vector<float>(kW));
    for (unsigned i = 0; i < kW; ++i) {
        const unsigned y = 16 + rng() % 220, u = 16 + rng() % 225, v = 16 + rng() % 225;
        const ciede::Lab a = ciede::yuv_to_lab(y, u, v, 8);
        const ciede::Lab b = ciede::yuv_to_lab(y + rng() % 4, u, v + rng() % 3, 8);
        c[0][i] = a.l, c[1][i] = a.a, c[2][i] = a.b, c[3][i] = b.l, c[4][i] = b.a, c[5][i] = b.b;
    }
    return c;
}

void register_kernel(const std::string& variant, ciede::CiedeKernels k) {
    const std::string name = "delta_e/" + variant + "/1920_pairs";
    benchmark::RegisterBenchmark(name.c_str(), [k](benchmark::State& st) {
        const std::vector<std::vector<float>> c = colour_pairs();
        const ciede::LabColumns in{c[0].data(), c[1].data(), c[2].data(), c[3].data(), c[4].data(), c[5].data()};
        std::vector<float> out(kW);
        for (auto _ : st) {
            k.delta_e(in, kW, out.data());
            benchmark::DoNotOptimize(out.data());
        }
        st.SetItemsProcessed(st.iterations() * kW);
    });
}

// The part of delta_e2000 a GPU twin could not evaluate bit-exactly (docs/ciede.md):
// the calls of glibc's double atan2, sin and cos (not ARM optimized-routines
// code) and what depends on them per pixel (hue difference, mean hue, T, R_T's
// exp and sin), i.e. the SIMD kernel's scalar pass D, on the same colour pairs.
void register_host_steps() {
    benchmark::RegisterBenchmark("delta_e/host_steps_of_a_gpu_split/1920_pairs", [](benchmark::State& st) {
        const std::vector<std::vector<float>> c = colour_pairs();
        std::vector<float> a1p(kW), a2p(kW), ch1(kW), ch2(kW), cp_bar(kW), t(kW), r_t(kW);
        std::vector<double> sin_half(kW);
        for (unsigned i = 0; i < kW; ++i) {  // delta_e2000's inputs of pass D
            ch1[i] = static_cast<float>(std::sqrt(double(c[1][i]) * c[1][i] + double(c[2][i]) * c[2][i]));
            ch2[i] = static_cast<float>(std::sqrt(double(c[4][i]) * c[4][i] + double(c[5][i]) * c[5][i]));
            const double c7 = std::pow(static_cast<double>((ch1[i] + ch2[i]) / 2), 7.0);
            const double g = 1 - std::sqrt(c7 / (c7 + 6103515625.0));
            a1p[i] = static_cast<float>(c[1][i] + static_cast<double>(c[1][i] / 2) * g);
            a2p[i] = static_cast<float>(c[4][i] + static_cast<double>(c[4][i] / 2) * g);
            const float cp1 = static_cast<float>(std::sqrt(double(a1p[i]) * a1p[i] + double(c[2][i]) * c[2][i]));
            const float cp2 = static_cast<float>(std::sqrt(double(a2p[i]) * a2p[i] + double(c[5][i]) * c[5][i]));
            cp_bar[i] = (cp1 + cp2) / 2;
        }
        for (auto _ : st) {
            for (unsigned i = 0; i < kW; ++i) {
                const float h1 = ciede::hue_angle(c[2][i], a1p[i]);
                const float h2 = ciede::hue_angle(c[5][i], a2p[i]);
                const float dh = ciede::hue_difference(ch1[i], ch2[i], h1, h2);
                sin_half[i] = std::sin(static_cast<double>(dh) / 2.0);
                const float h_bar = ciede::mean_hue(h1, h2);
                t[i] = ciede::hue_weight_t(h_bar);
                r_t[i] = ciede::rotation_term(cp_bar[i], h_bar);
            }
            benchmark::DoNotOptimize(sin_half.data());
            benchmark::DoNotOptimize(t.data());
            benchmark::DoNotOptimize(r_t.data());
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
    register_host_steps();
    bench::register_extractor_frames({.info = &kCiedeInfo, .frames = frames, .unit = benchmark::kMillisecond}, {63, 0},
                                     {8});
    return bench::run_benchmarks(argc, argv);
}
