// Google Benchmark of the VIF kernels, per SIMD variant and the scalar
// reference, at 1920x1080. Each kernel benchmark covers the calls one frame
// makes of it at that scale; "frame" runs compute_vif on one luma pair.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "features/vif/vif_kernels.hpp"
#include "support/feature_bench.hpp"

namespace {

namespace vif = vmaf::vif;

constexpr unsigned kW = 1920, kH = 1080;

template <typename T>
struct Frame {
    std::vector<T> ref, dis;
    unsigned bpc;
    explicit Frame(unsigned bpc_) : ref(std::size_t{kW} * kH), dis(std::size_t{kW} * kH), bpc(bpc_) {
        std::mt19937 rng(42);
        const unsigned max = (1u << bpc) - 1;
        // Textured content with a correlated distortion (every branch taken).
        for (unsigned y = 0; y < kH; ++y)
            for (unsigned x = 0; x < kW; ++x) {
                const unsigned v = ((x * 7 + y * 3) % 97) * max / 128 + rng() % (max / 16 + 1);
                ref[std::size_t{y} * kW + x] = static_cast<T>(std::min(v, max));
                const unsigned dv = (v * 3 + rng() % (max / 8 + 1)) / 4;
                dis[std::size_t{y} * kW + x] = static_cast<T>(std::min(dv, max));
            }
    }
    vif::SampleView<T> rv() const { return {ref.data(), static_cast<std::ptrdiff_t>(kW * sizeof(T)), kW, kH}; }
    vif::SampleView<T> dv() const { return {dis.data(), static_cast<std::ptrdiff_t>(kW * sizeof(T)), kW, kH}; }
};

/// Luma of the first frame of VIF_BENCH_CLIP_REF / VIF_BENCH_CLIP_DIS (raw
/// 8-bit 4:2:0, 1920x1080) when both are set: real content, where most pixels
/// are flat (sigma1 < sigma_nsq); otherwise the synthetic frame.
const Frame<std::uint8_t>* clip8() {
    static const Frame<std::uint8_t>* f = []() -> const Frame<std::uint8_t>* {
        const char* r = std::getenv("VIF_BENCH_CLIP_REF");
        const char* d = std::getenv("VIF_BENCH_CLIP_DIS");
        if (!r || !d) return nullptr;
        auto* fr = new Frame<std::uint8_t>(8);
        for (auto [path, buf] : {std::pair{r, &fr->ref}, std::pair{d, &fr->dis}}) {
            std::FILE* fp = std::fopen(path, "rb");
            if (!fp || std::fread(buf->data(), 1, buf->size(), fp) != buf->size()) std::abort();
            std::fclose(fp);
        }
        return fr;
    }();
    return f;
}

const Frame<std::uint8_t>& frame8() {
    static const Frame<std::uint8_t> f(8);
    return f;
}
const Frame<std::uint16_t>& frame10() {
    static const Frame<std::uint16_t> f(10);
    return f;
}

template <typename T>
void bench_stat_vfilter(benchmark::State& st, vif::VifKernels k, const Frame<T>& f) {
    const vif::Kernel& kern = vif::kKernels[0];
    const auto norm = vif::vertical_norm(0, f.bpc);
    std::vector<std::int16_t> buf(vif::StatRow::kPlanes * std::size_t{kW});
    const vif::StatRow out = vif::StatRow::over(buf.data(), kW);
    const auto fn = k.stat_vfilter(f.ref.data());
    for (auto _ : st) {
        for (unsigned i = 0; i + kern.taps <= kH; ++i) {
            const T* rr[17];
            const T* dr[17];
            for (unsigned t = 0; t < kern.taps; ++t) {
                rr[t] = f.ref.data() + std::size_t{i + t} * kW;
                dr[t] = f.dis.data() + std::size_t{i + t} * kW;
            }
            fn(rr, dr, kW, kern.coeff.data(), kern.taps, norm, out);
        }
        benchmark::DoNotOptimize(buf.data());
    }
}

/// stat_hfilter over 1080p rows of realistic moments, with `limits` gain
/// limits in one pass (2: VMAF + VMAF NEG).
void bench_stat_hfilter(benchmark::State& st, vif::VifKernels k, std::vector<double> limits) {
    // Realistic moments: the scalar vertical pass of the 8-bit frame's rows.
    const vif::Kernel& kern = vif::kKernels[0];
    const unsigned len = kW + kern.taps - 1 + vif::kStatRowPad;
    const auto& f = frame8();
    constexpr unsigned kRows = 64;
    std::vector<std::int16_t> buf(vif::StatRow::kPlanes * std::size_t{len} * kRows);
    for (unsigned r = 0; r < kRows; ++r) {
        std::int16_t* b = buf.data() + vif::StatRow::kPlanes * std::size_t{len} * r;
        const vif::StatRow out = vif::StatRow::over(b, len);
        const std::uint8_t* rr[17];
        const std::uint8_t* dr[17];
        for (unsigned t = 0; t < kern.taps; ++t) {
            rr[t] = f.ref.data() + std::size_t{r * 16 + t} * kW;
            dr[t] = f.dis.data() + std::size_t{r * 16 + t} * kW;
        }
        vif::ref::stat_vfilter(rr, dr, kW, kern.coeff.data(), kern.taps, vif::vertical_norm(0, 8), out);
    }
    const std::uint16_t* table = vif::log2_table().data();
    const auto n = static_cast<unsigned>(limits.size());
    for (auto _ : st) {
        std::vector<vif::StatSums> sums(n);
        for (unsigned i = 0; i < kH; ++i) {
            std::int16_t* b = buf.data() + vif::StatRow::kPlanes * std::size_t{len} * (i % kRows);
            const vif::StatRow in = vif::StatRow::over(b, len);
            k.stat_hfilter(in, kW, kern.coeff.data(), kern.taps, limits.data(), n, table, sums.data());
        }
        benchmark::DoNotOptimize(sums.data());
    }
}

template <typename T>
void bench_sub_vfilter(benchmark::State& st, vif::VifKernels k, const Frame<T>& f) {
    const vif::Kernel& kern = vif::kKernels[1];
    std::vector<std::uint32_t> out(kW);
    const auto fn = k.sub_vfilter(f.ref.data());
    for (auto _ : st) {
        for (unsigned i = 0; i + kern.taps <= kH; i += 2) {
            const T* rows[17];
            for (unsigned t = 0; t < kern.taps; ++t) rows[t] = f.ref.data() + std::size_t{i + t} * kW;
            fn(rows, kW, kern.coeff.data(), kern.taps, f.bpc, out.data());
        }
        benchmark::DoNotOptimize(out.data());
    }
}

void bench_sub_hfilter(benchmark::State& st, vif::VifKernels k) {
    const vif::Kernel& kern = vif::kKernels[1];
    std::vector<std::uint32_t> in(kW + kern.taps);
    std::mt19937 rng(1);
    for (auto& v : in) v = rng() & 0xFFFF;
    std::vector<std::uint16_t> out(kW / 2);
    for (auto _ : st) {
        for (unsigned i = 0; i < kH / 2; ++i)
            k.sub_hfilter(in.data(), kW / 2, kern.coeff.data(), kern.taps, out.data());
        benchmark::DoNotOptimize(out.data());
    }
}

template <typename T>
void bench_frame(benchmark::State& st, vif::VifKernels k, const Frame<T>& f) {
    for (auto _ : st) {
        auto s = vif::compute_vif(f.rv(), f.dv(), f.bpc, 100.0, false, k);
        benchmark::DoNotOptimize(s);
    }
}

/// VMAF + VMAF NEG's two limits in one call (compare with twice frame_*).
template <typename T>
void bench_frame_neg(benchmark::State& st, vif::VifKernels k, const Frame<T>& f) {
    const double limits[] = {100.0, 1.0};
    vif::FrameStats s[2];
    for (auto _ : st) {
        vif::compute_vif(f.rv(), f.dv(), f.bpc, std::span<const double>(limits), false, std::span<vif::FrameStats>(s), k);
        benchmark::DoNotOptimize(s);
    }
}

void register_all(const std::string& name, const vif::VifKernels& k) {
    auto reg = [&](const std::string& what, auto fn) {
        benchmark::RegisterBenchmark(("vif/" + what + "/" + name).c_str(), fn)->Unit(benchmark::kMillisecond);
    };
    reg("stat_vfilter_8", [k](benchmark::State& s) { bench_stat_vfilter(s, k, frame8()); });
    reg("stat_vfilter_16_10bit", [k](benchmark::State& s) { bench_stat_vfilter(s, k, frame10()); });
    reg("stat_hfilter", [k](benchmark::State& s) { bench_stat_hfilter(s, k, {100.0}); });
    reg("stat_hfilter_neg", [k](benchmark::State& s) { bench_stat_hfilter(s, k, {100.0, 1.0}); });
    reg("sub_vfilter_8", [k](benchmark::State& s) { bench_sub_vfilter(s, k, frame8()); });
    reg("sub_vfilter_16_10bit", [k](benchmark::State& s) { bench_sub_vfilter(s, k, frame10()); });
    reg("sub_hfilter", [k](benchmark::State& s) { bench_sub_hfilter(s, k); });
    reg("frame_8bit", [k](benchmark::State& s) { bench_frame(s, k, frame8()); });
    reg("frame_10bit", [k](benchmark::State& s) { bench_frame(s, k, frame10()); });
    reg("frame_8bit_neg", [k](benchmark::State& s) { bench_frame_neg(s, k, frame8()); });
    if (clip8()) reg("frame_8bit_clip", [k](benchmark::State& s) { bench_frame(s, k, *clip8()); });
}

}  // namespace

int main(int argc, char** argv) {
    for (const auto& [name, k] : vmaf::bench::kernel_tables(vif::VifKernels{}, vif::kernel_variants()))
        register_all(name, k);
    return vmaf::bench::run_benchmarks(argc, argv);
}
