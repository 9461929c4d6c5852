// PSNR ("psnr"): per-plane peak signal-to-noise ratio, optionally the MSE and
// a clip-level PSNR over all frames (apsnr_*, written at flush).
#include <cfloat>
#include <memory>

#include "core/feature_extractor.hpp"
#include "features/psnr/psnr_kernels.hpp"

namespace vmaf {

extern const ExtractorInfo kPsnrInfo;

namespace {

enum Opt : std::size_t { kEnableChroma, kEnableMse, kEnableApsnr, kReducedHbdPeak, kMinSse };

// Same names, types, defaults and ranges as upstream; none is a feature parameter.
constexpr OptionSpec kOptions[] = {
    {"enable_chroma", "", OptType::Bool, true, 0, 0, false, "enable calculation for chroma channels"},
    {"enable_mse", "", OptType::Bool, false, 0, 0, false, "enable MSE calculation"},
    {"enable_apsnr", "", OptType::Bool, false, 0, 0, false, "enable APSNR calculation"},
    {"reduced_hbd_peak", "", OptType::Bool, false, 0, 0, false,
     "reduce hbd peak value to align with scaled 8-bit content"},
    {"min_sse", "", OptType::Double, 0.0, 0.0, DBL_MAX, false, "constrain the minimum possible sse"},
};

constexpr unsigned kPsnr = 0, kMse = 3, kApsnr = 6;
constexpr std::string_view kOutputs[] = {
    "psnr_y", "psnr_cb", "psnr_cr", "mse_y", "mse_cb", "mse_cr", "apsnr_y", "apsnr_cb", "apsnr_cr",
};
constexpr unsigned kAggregates[] = {kApsnr + 0, kApsnr + 1, kApsnr + 2};

/// compute() result: the scores (in upstream's write order) plus the raw sums
/// the ordered stage accumulates for apsnr.
struct PsnrFrame final : FrameState {
    std::uint64_t sse[3] = {};
    std::uint64_t samples[3] = {};
};

class PsnrExtractor final : public FeatureExtractor {
public:
    PsnrExtractor(const OptionValues& o, const VideoGeometry& g, unsigned cpumask)
        : kernels_(psnr::psnr_registry().select(cpumask)),
          bpc_(g.bpc),
          planes_(o.b(kEnableChroma) && g.format != PixelFormat::Yuv400 ? 3u : 1u),
          enable_mse_(o.b(kEnableMse)),
          enable_apsnr_(o.b(kEnableApsnr)),
          peak_(psnr::peak(g.bpc, o.b(kReducedHbdPeak))) {
        // Upstream sizes chroma planes by floor halving here (w / 2, h / 2).
        const bool ss_hor = g.format != PixelFormat::Yuv444;
        const bool ss_ver = g.format == PixelFormat::Yuv420;
        for (unsigned p = 0; p < 3; ++p) {
            const unsigned w = (p && ss_hor) ? g.width / 2 : g.width;
            const unsigned h = (p && ss_ver) ? g.height / 2 : g.height;
            psnr_max_[p] = psnr::psnr_max(g.bpc, peak_, o.d(kMinSse), w, h);
        }
    }

    std::unique_ptr<FrameState> compute(unsigned /*index*/, const Picture& ref, const Picture& dist) const override {
        auto st = std::make_unique<PsnrFrame>();
        for (unsigned p = 0; p < planes_; ++p) {
            const Plane& a = ref.plane(p);
            st->sse[p] = psnr::sse(kernels_, a, dist.plane(p), bpc_);
            st->samples[p] = a.width * a.height;
            const double mse = static_cast<double>(st->sse[p]) / static_cast<double>(a.width * a.height);
            st->scores.emplace_back(kPsnr + p, psnr::frame_psnr(mse, peak_, psnr_max_[p]));
            if (enable_mse_) st->scores.emplace_back(kMse + p, mse);
        }
        return st;
    }

    void finish(unsigned index, FrameState& state, ScoreWriter& out) override {
        const auto& st = static_cast<const PsnrFrame&>(state);
        for (auto [o, v] : st.scores) out.write(index, o, v);
        if (enable_apsnr_)
            for (unsigned p = 0; p < planes_; ++p) {
                sse_[p] += st.sse[p];
                samples_[p] += st.samples[p];
            }
    }

    void flush(ScoreWriter& out) override {
        if (!enable_apsnr_) return;
        // All three, as upstream (a plane never measured reports -inf).
        for (unsigned p = 0; p < 3; ++p) out.write_aggregate(kApsnr + p, psnr::aggregate_psnr(sse_[p], samples_[p], peak_));
    }

private:
    const psnr::PsnrKernels kernels_;  ///< selected once for ctx.cpumask
    const unsigned bpc_;
    const unsigned planes_;
    const bool enable_mse_, enable_apsnr_;
    const std::uint32_t peak_;
    double psnr_max_[3] = {};

    // Ordered-stage accumulators for apsnr.
    std::uint64_t sse_[3] = {};
    std::uint64_t samples_[3] = {};
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
