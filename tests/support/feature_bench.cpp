#include "support/feature_bench.hpp"

namespace vmaf::bench {

namespace {

struct NullScoreWriter final : ScoreWriter {
    void write(unsigned, unsigned, double) override {}
    void write_aggregate(unsigned, double) override {}
};

}  // namespace

void register_extractor_frame(const std::string& name, const ExtractorBench& spec, unsigned bpc, unsigned cpumask) {
    benchmark::RegisterBenchmark(name.c_str(), [spec, bpc, cpumask](benchmark::State& st) {
        const std::vector<PicturePair> frames = spec.frames(bpc);
        const Picture& first = frames.front().ref;
        const VideoGeometry g{first.format(), first.bpc(), first.width(), first.height()};
        auto ex = spec.info->create(OptionValues(spec.info->options, spec.options, spec.info->name), g,
                                    ExtractorContext{cpumask});
        const FeatureExtractor& cex = *ex;
        if (spec.loop == FrameLoop::Compute) {
            for (auto _ : st) benchmark::DoNotOptimize(cex.compute(0, frames[0].ref, frames[0].dis));
            return;
        }
        NullScoreWriter out;
        unsigned i = 0;
        for (auto _ : st) {
            const PicturePair& f = frames[i % frames.size()];
            auto s = cex.compute(i, f.ref, f.dis);
            ex->finish(i, *s, out);
            ++i;
        }
    })->Unit(spec.unit);
}

void register_extractor_frames(const ExtractorBench& spec, std::initializer_list<unsigned> cpumasks,
                               std::initializer_list<unsigned> bpcs) {
    for (unsigned cpumask : cpumasks)
        for (unsigned bpc : bpcs)
            register_extractor_frame(
                "extractor/" + std::to_string(bpc) + "bit/cpumask" + std::to_string(cpumask) + "/1080p_frame", spec,
                bpc, cpumask);
}

int run_benchmarks(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}

}  // namespace vmaf::bench
