// PSNR ("psnr"): per-plane peak signal-to-noise ratio, optionally the MSE and
// a clip-level PSNR over all frames (apsnr_*, written at flush).
#include <cfloat>
#include <memory>

#include "core/feature_extractor.hpp"
#include "features/psnr/psnr_kernels.hpp"
#include "features/psnr/psnr_scoring.hpp"

namespace vmaf {

extern const ExtractorInfo kPsnrInfo;

namespace {

using psnr::kApsnr;

// Same names, types, defaults and ranges as upstream; none is a feature parameter.
constexpr OptionSpec kOptions[] = {
    {"enable_chroma", "", OptType::Bool, true, 0, 0, false, "enable calculation for chroma channels"},
    {"enable_mse", "", OptType::Bool, false, 0, 0, false, "enable MSE calculation"},
    {"enable_apsnr", "", OptType::Bool, false, 0, 0, false, "enable APSNR calculation"},
    {"reduced_hbd_peak", "", OptType::Bool, false, 0, 0, false,
     "reduce hbd peak value to align with scaled 8-bit content"},
    {"min_sse", "", OptType::Double, 0.0, 0.0, DBL_MAX, false, "constrain the minimum possible sse"},
};

constexpr std::string_view kOutputs[] = {
    "psnr_y", "psnr_cb", "psnr_cr", "mse_y", "mse_cb", "mse_cr", "apsnr_y", "apsnr_cb", "apsnr_cr",
};
constexpr unsigned kAggregates[] = {kApsnr + 0, kApsnr + 1, kApsnr + 2};

class PsnrExtractor final : public FeatureExtractor {
public:
    PsnrExtractor(const OptionValues& o, const VideoGeometry& g, unsigned cpumask)
        : kernels_(psnr::psnr_registry().select(cpumask)), bpc_(g.bpc), scoring_(o, g) {}

    std::unique_ptr<FrameState> compute(unsigned /*index*/, const Picture& ref, const Picture& dist) const override {
        auto st = std::make_unique<psnr::PsnrFrame>();
        for (unsigned p = 0; p < scoring_.planes(); ++p) {
            const Plane& a = ref.plane(p);
            st->sse[p] = psnr::sse(kernels_, a, dist.plane(p), bpc_);
            st->samples[p] = std::uint64_t{a.width} * a.height;
        }
        scoring_.score(*st);
        return st;
    }

    void finish(unsigned index, FrameState& state, ScoreWriter& out) override {
        scoring_.finish(index, static_cast<const psnr::PsnrFrame&>(state), out);
    }

    void flush(ScoreWriter& out) override { scoring_.flush(out); }

private:
    const psnr::PsnrKernels kernels_;  ///< selected once for ctx.cpumask
    const unsigned bpc_;
    psnr::Scoring scoring_;
};

std::unique_ptr<FeatureExtractor> create(const OptionValues& opts, const VideoGeometry& geom, const ExtractorContext& ctx) {
    return std::make_unique<PsnrExtractor>(opts, geom, ctx.cpumask);
}

}  // namespace

const ExtractorInfo kPsnrInfo{
    .name = "psnr",
    .options = kOptions,
    .outputs = kOutputs,
    .aggregate_outputs = kAggregates,
    .needs_chroma = true,
    .temporal = true,  // upstream flags psnr TEMPORAL (apsnr accumulates in frame order)
    .create = &create,
};

}  // namespace vmaf
