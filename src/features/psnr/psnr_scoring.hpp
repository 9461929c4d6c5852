// Everything of the psnr feature except how each plane's SSE is computed:
// options, per-frame scores, the clip-level apsnr accumulation. Shared by the
// CPU extractor (psnr.cpp) and its CUDA twin (cuda/psnr_cuda.cpp).
#pragma once

#include <cstdint>

#include "core/feature_extractor.hpp"
#include "features/psnr/psnr_kernels.hpp"

namespace vmaf::psnr {

/// Option indices of the psnr option table (kPsnrInfo.options).
enum Opt : std::size_t { kEnableChroma, kEnableMse, kEnableApsnr, kReducedHbdPeak, kMinSse };
/// Output indices: psnr_y/cb/cr, mse_y/cb/cr, apsnr_y/cb/cr (aggregates).
constexpr unsigned kPsnr = 0, kMse = 3, kApsnr = 6;

/// One frame: the exact per-plane sums (from either backend) and its scores.
struct PsnrFrame : FrameState {
    std::uint64_t sse[3] = {};
    std::uint64_t samples[3] = {};
};

class Scoring {
public:
    Scoring(const OptionValues& o, const VideoGeometry& g);

    /// Planes measured: 3, or 1 for 4:0:0 input or enable_chroma=false.
    unsigned planes() const { return planes_; }
    /// Adds the frame's scores (upstream's write order) from its sse/samples.
    void score(PsnrFrame& f) const;
    /// Ordered stage: writes the frame's scores and accumulates apsnr.
    void finish(unsigned index, const PsnrFrame& f, ScoreWriter& out);
    /// After the last frame: apsnr_y/cb/cr when enabled (all three, as
    /// upstream: a plane never measured reports -inf).
    void flush(ScoreWriter& out) const;

private:
    unsigned planes_;
    bool enable_mse_, enable_apsnr_;
    std::uint32_t peak_;
    double psnr_max_[3] = {};
    std::uint64_t sse_[3] = {};
    std::uint64_t samples_[3] = {};
};

}  // namespace vmaf::psnr
