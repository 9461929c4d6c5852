// SSIMULACRA 2 benchmarks: each kernel (scalar and every SIMD variant) on a
// 1920-sample row or a 1920x1080 plane, and the whole metric per 1920x1080
// 4:2:0 8-bit frame at cpumask 63 (scalar) and 0 (best SIMD).
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "core/feature_extractor.hpp"
#include "features/ssimulacra2/ssimulacra2_core.hpp"
#include "features/ssimulacra2/ssimulacra2_kernels.hpp"
#include "support/feature_bench.hpp"

namespace vmaf {
extern const ExtractorInfo kSsimulacra2Info;
}

namespace {

using namespace vmaf;
using namespace vmaf::ssimulacra2;

constexpr unsigned kW = bench::kWidth, kH = bench::kHeight;

Picture noise(std::uint64_t seed) {
    return bench::synthetic_picture(8, seed, [](unsigned, unsigned x, unsigned y, std::mt19937_64& rng) {
        return 64 + (x / 7 + y / 5) % 96 + (rng() & 15);
    });
}

std::vector<bench::PicturePair> frames(unsigned) {
    return {{noise(1), noise(2)}};
}

std::vector<float> randoms(std::size_t n, float lo, float hi) {
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<float> u(lo, hi);
    std::vector<float> v(n);
    for (float& x : v) x = u(rng);
    return v;
}

void register_kernels(const std::string& name, const Kernels& k) {
    const std::string p = "ssimulacra2/";
    benchmark::RegisterBenchmark((p + "yuv_to_linear_row_1920/" + name).c_str(), [k](benchmark::State& st) {
        auto y = randoms(kW, 16, 235), u = randoms(kW, 16, 240), v = randoms(kW, 16, 240);
        std::vector<float> r(kW), g(kW), b(kW);
        const YuvCoeffs c = yuv_coeffs(YuvMatrix::Bt709Limited, 8);
        for (auto _ : st) {
            k.yuv_to_linear_row(y.data(), u.data(), v.data(), r.data(), g.data(), b.data(), kW, c);
            benchmark::DoNotOptimize(r.data());
        }
    });
    benchmark::RegisterBenchmark((p + "xyb_row_1920/" + name).c_str(), [k](benchmark::State& st) {
        auto r = randoms(kW, 0, 1), g = randoms(kW, 0, 1), b = randoms(kW, 0, 1);
        std::vector<float> x(kW), y(kW), z(kW);
        for (auto _ : st) {
            k.xyb_row(r.data(), g.data(), b.data(), x.data(), y.data(), z.data(), kW);
            benchmark::DoNotOptimize(x.data());
        }
    });
    benchmark::RegisterBenchmark((p + "downsample_row_1920/" + name).c_str(), [k](benchmark::State& st) {
        auto a = randoms(kW, 0, 1), b = randoms(kW, 0, 1);
        std::vector<float> o(kW / 2);
        for (auto _ : st) {
            k.downsample_row(a.data(), b.data(), kW, o.data());
            benchmark::DoNotOptimize(o.data());
        }
    });
    benchmark::RegisterBenchmark((p + "map_values_row_1920/" + name).c_str(), [k](benchmark::State& st) {
        auto i1 = randoms(kW, 0.2f, 0.8f), m1 = randoms(kW, 0.2f, 0.8f), i2 = randoms(kW, 0.2f, 0.8f),
             m2 = randoms(kW, 0.2f, 0.8f), s11 = randoms(kW, 0.7f, 0.8f), s22 = randoms(kW, 0.7f, 0.8f),
             s12 = randoms(kW, 0.3f, 0.4f);
        std::vector<double> ssim(kW), art(kW), lost(kW);
        for (auto _ : st) {
            k.map_values_row(i1.data(), m1.data(), i2.data(), m2.data(), s11.data(), s22.data(), s12.data(), kW,
                             ssim.data(), art.data(), lost.data());
            benchmark::DoNotOptimize(ssim.data());
        }
    });
    for (bool horizontal : {true, false})
        benchmark::RegisterBenchmark((p + (horizontal ? "blur_h_1080p/" : "blur_v_1080p/") + name).c_str(),
                                     [k, horizontal](benchmark::State& st) {
                                         auto in = randoms(std::size_t{kW} * kH, 0, 1);
                                         std::vector<float> out(in.size()), scratch(blur_scratch_floats(kW));
                                         const PlaneF a{in.data(), kW, kW, kH}, b{out.data(), kW, kW, kH};
                                         for (auto _ : st) {
                                             if (horizontal)
                                                 k.blur_h(a, b, scratch.data());
                                             else
                                                 k.blur_v(a, b, scratch.data());
                                             benchmark::DoNotOptimize(out.data());
                                         }
                                     });
}

void register_all() {
    for (const auto& [name, k] : bench::kernel_tables(Kernels{}, ssimulacra2_registry().variants()))
        register_kernels(name, k);
    for (unsigned mask : {63u, 0u})
        bench::register_extractor_frame("ssimulacra2/1080p_frame/cpumask" + std::to_string(mask),
                                        {.info = &kSsimulacra2Info, .frames = frames, .unit = benchmark::kMillisecond},
                                        8, mask);
}

}  // namespace

int main(int argc, char** argv) {
    register_all();
    return bench::run_benchmarks(argc, argv);
}
