#include "features/psnr/psnr_scoring.hpp"

namespace vmaf::psnr {

Scoring::Scoring(const OptionValues& o, const VideoGeometry& g)
    : planes_(o.b(kEnableChroma) && g.format != PixelFormat::Yuv400 ? 3u : 1u),
      enable_mse_(o.b(kEnableMse)),
      enable_apsnr_(o.b(kEnableApsnr)),
      peak_(peak(g.bpc, o.b(kReducedHbdPeak))) {
    // Upstream sizes chroma planes by floor halving here (w / 2, h / 2).
    const bool ss_hor = g.format != PixelFormat::Yuv444;
    const bool ss_ver = g.format == PixelFormat::Yuv420;
    for (unsigned p = 0; p < 3; ++p) {
        const unsigned w = (p && ss_hor) ? g.width / 2 : g.width;
        const unsigned h = (p && ss_ver) ? g.height / 2 : g.height;
        psnr_max_[p] = psnr_max(g.bpc, peak_, o.d(kMinSse), w, h);
    }
}

void Scoring::score(PsnrFrame& f) const {
    for (unsigned p = 0; p < planes_; ++p) {
        const double mse = static_cast<double>(f.sse[p]) / static_cast<double>(f.samples[p]);
        f.scores.emplace_back(kPsnr + p, frame_psnr(mse, peak_, psnr_max_[p]));
        if (enable_mse_) f.scores.emplace_back(kMse + p, mse);
    }
}

void Scoring::finish(unsigned index, const PsnrFrame& f, ScoreWriter& out) {
    for (auto [o, v] : f.scores) out.write(index, o, v);
    if (enable_apsnr_)
        for (unsigned p = 0; p < planes_; ++p) {
            sse_[p] += f.sse[p];
            samples_[p] += f.samples[p];
        }
}

void Scoring::flush(ScoreWriter& out) const {
    if (!enable_apsnr_) return;
    for (unsigned p = 0; p < 3; ++p) out.write_aggregate(kApsnr + p, aggregate_psnr(sse_[p], samples_[p], peak_));
}

}  // namespace vmaf::psnr
