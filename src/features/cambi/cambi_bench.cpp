// CAMBI benchmarks at 1920x1080: one picture's score (5 scales) with the
// scalar reference kernels and with every SIMD variant, on a synthetic
// picture of banded gradients (flat steps a few pixels to a few hundred
// wide) beside noisy areas, so that both the masked histogram work and the
// early exits are exercised.
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "features/cambi/cambi_core.hpp"
#include "support/feature_bench.hpp"

namespace {

using namespace vmaf;

constexpr unsigned kW = 1920, kH = 1080;

std::vector<std::uint8_t> banded_picture() {
    std::vector<std::uint8_t> px(std::size_t{kW} * kH);
    std::mt19937_64 rng(7);
    for (unsigned y = 0; y < kH; ++y)
        for (unsigned x = 0; x < kW; ++x) {
            const bool noisy = (x / 240 + y / 270) % 4 == 3;
            const unsigned ramp = 16 + (x * 3 + y) / 40;  // steps of ~13 columns
            px[std::size_t{y} * kW + x] = static_cast<std::uint8_t>(noisy ? ramp + rng() % 24 : ramp);
        }
    return px;
}

void register_variant(const std::string& variant, cambi::CambiKernels k) {
    const std::string name = "score_picture/" + variant + "/1080p_8bit";
    benchmark::RegisterBenchmark(name.c_str(), [k](benchmark::State& st) {
        std::vector<std::uint8_t> px = banded_picture();
        Plane luma;
        luma.data = px.data();
        luma.stride = kW;
        luma.width = kW;
        luma.height = kH;
        const cambi::Params p = cambi::make_params(2, 0.019, 0.0, "bt1886", 0.6, 8, false);
        const std::uint16_t window = cambi::adjusted_window(65, kW, kH, false);
        cambi::Scratch scratch;
        for (auto _ : st)
            benchmark::DoNotOptimize(cambi::score_picture(luma, 8, kW, kH, window, p, scratch, nullptr, k));
    });
}

}  // namespace

int main(int argc, char** argv) {
    for (const auto& [name, k] : bench::kernel_tables(cambi::CambiKernels{}, cambi::cambi_registry().variants()))
        register_variant(name, k);
    return bench::run_benchmarks(argc, argv);
}
