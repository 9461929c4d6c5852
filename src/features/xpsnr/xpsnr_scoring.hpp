// Everything of the xpsnr feature except how the integer sums are computed:
// the block layout, options, per-frame weighting and scores in the filter's
// double arithmetic, the clip-level averages and the stats file. Shared by the
// CPU extractor (xpsnr.cpp) and its CUDA twin (cuda/xpsnr_cuda.cpp).
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "core/feature_extractor.hpp"

namespace vmaf::xpsnr {

/// Option indices of the xpsnr option table (kXpsnrInfo.options).
enum Opt : std::size_t { kFps, kStatsFile, kStatsFileShort };
/// Output indices: per frame y/u/v, then the clip-level aggregates.
enum Out : unsigned { kY, kU, kV, kAvgY, kAvgU, kAvgV, kMinimum, kWeighted };

/// One block: its rectangle and the activity window (the filter's x_act,
/// y_act, w_act, h_act, relative to the block).
struct Block {
    unsigned x0, y0, w, h;
    int x_act, y_act, w_act, h_act;
    /// Too small for an activity (weight 1, no temporal update).
    bool small() const { return w_act <= x_act || h_act <= y_act; }
};

/// The filter's partition of a picture, fixed by its size and bit depth.
struct Layout {
    Layout(const VideoGeometry& g, unsigned fps_int);

    unsigned w, h, bpc, planes;  ///< planes: 1 (4:0:0) or 3
    unsigned cw, ch;             ///< chroma plane size
    unsigned frame_rate;         ///< integer frames per second: order 2 from 32 on
    unsigned order;              ///< temporal difference order (1 or 2)
    unsigned b;                  ///< luma block size (< 4: unweighted PSNR per plane)
    bool weighted;               ///< b >= 4
    bool down;                   ///< above 2048x1152: downsampled activity
    bool smoothing;              ///< up to 640x480: the filter's in-line min-smoothing of weights
    unsigned nbx = 0, nby = 0;   ///< luma blocks per row / column
    unsigned cbx = 0, cby = 0;   ///< chroma block size
    unsigned ncx = 0, ncy = 0;   ///< chroma blocks per row / column
    double avg_act;              ///< sqrt of the picture's mean activity scale
    std::uint64_t max_error;     ///< (2^bpc - 1)^2
    std::vector<Block> blocks;   ///< luma blocks, raster order

    /// Rows [y0, y1) of a strip's spatial band (plain: every row; down: even rows).
    void spatial_rows(unsigned strip, unsigned& y0, unsigned& y1) const;
    /// Rows of the squared error summed per kernel call (keeps uint32 columns exact).
    unsigned sse_rows_per_call() const;
    /// Squared errors are emulated per row segment (bpc >= 15, see sse_line_x86).
    bool x86_sse() const { return bpc >= 15; }
};

/// One frame's exact integer sums (from either backend) and its scores.
struct XpsnrFrame : FrameState {
    std::vector<std::uint64_t> sse;      ///< per luma block (weighted) or per plane [3] (unweighted)
    std::vector<std::uint64_t> spatial;  ///< per luma block: sum of |high-pass|
    std::vector<std::uint64_t> temporal; ///< per luma block: sum of |temporal difference| (no gamma)
    std::vector<std::uint64_t> chroma[2];  ///< per chroma block, u and v
    double value[3] = {};                ///< the frame's XPSNR per plane (set by Scoring::score)
    double sqrt_wsse[3] = {};
};

/// Sums of one band of column sums into blocks: out[i] += sum of col[x] for x
/// in [begin_i, end_i), the i-th block of the strip.
void add_columns(const std::uint32_t* col, const unsigned* begin, const unsigned* end, unsigned n,
                 std::uint64_t* out);

class Scoring {
public:
    Scoring(const OptionValues& o, const Layout& l);
    ~Scoring();

    /// Weights, weighted SSE and per-plane XPSNR of a frame from its sums.
    void score(XpsnrFrame& f) const;
    /// Ordered stage: writes the frame's scores, accumulates the averages,
    /// writes the stats file's line.
    void finish(unsigned index, const XpsnrFrame& f, ScoreWriter& out);
    /// After the last frame: the clip-level averages (and the stats file's last line).
    void flush(ScoreWriter& out);

private:
    const Layout& l_;
    std::FILE* stats_ = nullptr;
    bool stats_stdout_ = false;
    std::uint64_t frames_ = 0;
    double sum_wdist_[3] = {}, sum_xpsnr_[3] = {};
};

/// The filter's per-plane value from a weighted SSE: +inf at 0, else
/// 10 log10(w h max_error / sqrt(wsse)^2).
double plane_xpsnr(std::uint64_t wsse, unsigned w, unsigned h, std::uint64_t max_error);
/// The filter's clip average from the summed sqrt(wsse) and per-frame values.
double average_xpsnr(double sum_wdist, double sum_xpsnr, unsigned w, unsigned h, std::uint64_t max_error,
                     std::uint64_t frames);

/// The integer frame rate the filter sees (integer division of the link's
/// rate): the fps option when set, else the input's, else 25 (FFmpeg's rate
/// for raw video).
unsigned frame_rate(const OptionValues& o, const ExtractorContext& ctx);

}  // namespace vmaf::xpsnr
