#include "features/xpsnr/xpsnr_scoring.hpp"

#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstring>

#include "vmaf/error.hpp"

namespace vmaf::xpsnr {

namespace {

double larger(double a, double b) { return a > b ? a : b; }

}  // namespace

Layout::Layout(const VideoGeometry& g, unsigned fps_int)
    : w(g.width),
      h(g.height),
      bpc(g.bpc),
      planes(g.format == PixelFormat::Yuv400 ? 1u : 3u),
      frame_rate(fps_int),
      order(fps_int < 32 ? 1u : 2u) {
    const ChromaShift cs = chroma_shift(g.format);
    cw = (w + (1u << cs.x) - 1) >> cs.x;
    ch = (h + (1u << cs.y) - 1) >> cs.y;
    const std::uint32_t pixels = w * h;
    const double r = static_cast<double>(pixels) / (3840.0 * 2160.0);
    const int size = 4 * static_cast<std::int32_t>(32.0 * std::sqrt(r) + 0.5);
    b = size > 0 ? static_cast<unsigned>(size) : 0u;
    weighted = b >= 4;
    down = static_cast<int>(w) * static_cast<int>(h) > 2048 * 1152;
    smoothing = pixels <= 640u * 480u;
    avg_act = std::sqrt(16.0 * static_cast<double>(1 << (2 * bpc - 9)) / std::sqrt(larger(0.00001, r)));
    max_error = (std::uint64_t{1} << bpc) - 1;
    max_error *= max_error;
    if (!weighted) return;
    nbx = (w + b - 1) / b;
    nby = (h + b - 1) / b;
    const int bval = down ? 2 : 1;
    for (unsigned y = 0; y < h; y += b)
        for (unsigned x = 0; x < w; x += b) {
            Block k{x, y, x + b > w ? w - x : b, y + b > h ? h - y : b, 0, 0, 0, 0};
            k.x_act = x > 0 ? 0 : bval;
            k.y_act = y > 0 ? 0 : bval;
            k.w_act = x + k.w < w ? static_cast<int>(k.w) : static_cast<int>(k.w) - bval;
            k.h_act = y + k.h < h ? static_cast<int>(k.h) : static_cast<int>(k.h) - bval;
            blocks.push_back(k);
        }
    if (planes == 3) {
        cbx = (b * cw) / w;
        cby = (b * ch) / h;
        ncx = (cw + cbx - 1) / cbx;
        ncy = (ch + cby - 1) / cby;
        // The filter indexes the luma weights with the chroma block number.
        if (ncx != nbx || ncy != nby)
            throw Error(ErrorKind::Internal, "xpsnr: chroma blocks do not match the luma blocks");
    }
}

void Layout::spatial_rows(unsigned strip, unsigned& y0, unsigned& y1) const {
    const Block& k = blocks[std::size_t{strip} * nbx];
    y0 = k.y0 + static_cast<unsigned>(k.y_act);
    y1 = k.h_act > k.y_act ? k.y0 + static_cast<unsigned>(k.h_act) : y0;
}

unsigned Layout::sse_rows_per_call() const {
    const std::uint64_t rows = 0xFFFFFFFFull / max_error;
    return rows > h ? h : static_cast<unsigned>(rows);
}

void add_columns(const std::uint32_t* col, const unsigned* begin, const unsigned* end, unsigned n,
                 std::uint64_t* out) {
    for (unsigned i = 0; i < n; ++i) {
        std::uint64_t s = 0;
        for (unsigned x = begin[i]; x < end[i]; ++x) s += col[x];
        out[i] += s;
    }
}

double average_xpsnr(double sum_wdist, double sum_xpsnr, unsigned w, unsigned h, std::uint64_t max_error,
                     std::uint64_t frames) {
    if (frames == 0) return INFINITY;
    if (sum_wdist >= static_cast<double>(frames)) {
        const double avg = sum_wdist / static_cast<double>(frames);
        const std::uint64_t num = std::uint64_t{w} * std::uint64_t{h} * max_error;
        return 10.0 * std::log10(static_cast<double>(num) / (avg * avg));
    }
    return sum_xpsnr / static_cast<double>(frames);
}

double plane_xpsnr(std::uint64_t wsse, unsigned w, unsigned h, std::uint64_t max_error) {
    return average_xpsnr(std::sqrt(static_cast<double>(wsse)), INFINITY, w, h, max_error, 1);
}

unsigned frame_rate(const OptionValues& o, const ExtractorContext& ctx) {
    if (o.d(kFps) > 0) return static_cast<unsigned>(o.d(kFps));
    if (ctx.fps_num > 0 && ctx.fps_den > 0) return ctx.fps_num / ctx.fps_den;
    return 25;
}

Scoring::Scoring(const OptionValues& o, const Layout& l) : l_(l) {
    const std::string& a = o.s(kStatsFile);
    const std::string& b = o.s(kStatsFileShort);
    if (!a.empty() && !b.empty() && a != b)
        throw Error(ErrorKind::Usage, "xpsnr: stats_file and f name the same option; give one");
    const std::string& path = a.empty() ? b : a;
    if (path == "-") {
        stats_ = stdout;
        stats_stdout_ = true;
    } else if (!path.empty()) {
        stats_ = std::fopen(path.c_str(), "w");
        if (!stats_)
            throw Error(ErrorKind::Usage, "xpsnr: could not open stats_file " + path + ": " + std::strerror(errno));
    }
}

Scoring::~Scoring() {
    if (stats_ && !stats_stdout_) std::fclose(stats_);
}

void Scoring::score(XpsnrFrame& f) const {
    std::uint64_t wsse[3] = {};
    if (!l_.weighted) {
        for (unsigned c = 0; c < l_.planes; ++c) wsse[c] = f.sse[c];
    } else {
        const std::size_t n = l_.blocks.size();
        std::vector<double> weights(n);
        const double floor_act = static_cast<double>(1 << (l_.bpc - 6));
        for (std::size_t i = 0; i < n; ++i) {
            const Block& k = l_.blocks[i];
            double ms = 1.0;
            if (!k.small()) {
                ms = static_cast<double>(f.spatial[i]) /
                     (static_cast<double>(k.w_act - k.x_act) * static_cast<double>(k.h_act - k.y_act));
                ms += static_cast<double>(2 * f.temporal[i]) / (static_cast<double>(k.w) * static_cast<double>(k.h));
                if (ms < floor_act) ms = floor_act;
                ms *= ms;
            }
            weights[i] = 1.0 / std::sqrt(ms);
            if (!l_.smoothing) continue;
            // The filter's in-line smoothing: a block's left neighbour keeps the
            // smaller activity (larger weight) of its neighbours.
            const std::size_t wb = l_.nbx;
            double prev;
            if (k.x0 == 0)
                prev = i > 1 ? weights[i - 2] : 0;
            else
                prev = k.x0 > l_.b ? larger(weights[i - 2], weights[i]) : weights[i];
            if (i > wb) prev = larger(prev, weights[i - 1 - wb]);
            if (i > 0 && weights[i - 1] > prev) weights[i - 1] = prev;
            if (k.x0 + l_.b >= l_.w && k.y0 + l_.b >= l_.h && i > wb) {
                prev = larger(weights[i - 1], weights[i - wb]);
                if (weights[i] > prev) weights[i] = prev;
            }
        }
        auto total = [&](const std::vector<std::uint64_t>& sse) {
            double s = 0.0;
            for (std::size_t i = 0; i < sse.size(); ++i) s += static_cast<double>(sse[i]) * weights[i];
            return s <= 0.0 ? std::uint64_t{0} : static_cast<std::uint64_t>(s * l_.avg_act + 0.5);
        };
        wsse[0] = total(f.sse);
        for (unsigned c = 1; c < l_.planes; ++c) wsse[c] = total(f.chroma[c - 1]);
    }
    for (unsigned c = 0; c < l_.planes; ++c) {
        const unsigned pw = c ? l_.cw : l_.w, ph = c ? l_.ch : l_.h;
        f.sqrt_wsse[c] = std::sqrt(static_cast<double>(wsse[c]));
        f.value[c] = plane_xpsnr(wsse[c], pw, ph, l_.max_error);
    }
}

void Scoring::finish(unsigned index, const XpsnrFrame& f, ScoreWriter& out) {
    ++frames_;
    for (unsigned c = 0; c < l_.planes; ++c) {
        out.write(index, kY + c, f.value[c]);
        sum_wdist_[c] += f.sqrt_wsse[c];
        sum_xpsnr_[c] += f.value[c];
    }
    if (stats_) {
        std::fprintf(stats_, "n: %4" PRIu64, frames_);
        for (unsigned c = 0; c < l_.planes; ++c) std::fprintf(stats_, "  XPSNR %c: %3.4f", "yuv"[c], f.value[c]);
        std::fprintf(stats_, "\n");
    }
}

void Scoring::flush(ScoreWriter& out) {
    if (frames_ == 0) return;
    double avg[3] = {};
    for (unsigned c = 0; c < l_.planes; ++c) {
        avg[c] = average_xpsnr(sum_wdist_[c], sum_xpsnr_[c], c ? l_.cw : l_.w, c ? l_.ch : l_.h, l_.max_error,
                               frames_);
        out.write_aggregate(kAvgY + c, avg[c]);
    }
    double minimum = avg[0];
    for (unsigned c = 1; c < l_.planes; ++c)
        if (minimum > avg[c]) minimum = avg[c];
    out.write_aggregate(kMinimum, minimum);
    if (l_.planes == 3) {
        // Av1an's "xpsnr-weighted": the three averages as MSEs, luma 4x.
        const double mse = (4.0 * std::pow(10.0, -avg[0] / 10.0) + std::pow(10.0, -avg[1] / 10.0) +
                            std::pow(10.0, -avg[2] / 10.0)) /
                           6.0;
        out.write_aggregate(kWeighted, -10.0 * std::log10(mse));
    }
    if (stats_) {
        // The filter's closing lines, including what it leaves out on stdout.
        std::fprintf(stats_, "\nXPSNR average, %" PRIu64 " frames", frames_);
        std::fprintf(stats_, "  %c: %3.4f", 'y', avg[0]);
        for (unsigned c = 1; c < l_.planes; ++c)
            if (!stats_stdout_) std::fprintf(stats_, "  %c: %3.4f", "yuv"[c], avg[c]);
        if (!stats_stdout_) {
            if (l_.planes > 1)
                std::fprintf(stats_, "  (minimum: %3.4f)\n", minimum);
            else
                std::fprintf(stats_, "\n");
        }
        std::fflush(stats_);
        if (!stats_stdout_) std::fclose(stats_);
        stats_ = nullptr;
    }
}

}  // namespace vmaf::xpsnr
