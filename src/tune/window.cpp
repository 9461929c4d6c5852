#include "tune/window.hpp"

#include <algorithm>

#include "vmaf/error.hpp"

namespace vmaf::tune {

unsigned FrameWindow::frames() const {
    unsigned n = 0;
    for (const FrameRange& r : ranges) n += r.frames();
    return n;
}

std::string FrameWindow::ffmpeg_filter() const {
    if (ranges.empty()) return {};
    if (ranges.size() == 1)
        return "trim=start_frame=" + std::to_string(ranges[0].first) + ":end_frame=" + std::to_string(ranges[0].end) +
               ",setpts=PTS-STARTPTS";
    // select keeps frames by number; setpts puts the kept ones back on the frame grid.
    std::string expr = "select=";
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        if (i) expr += '+';
        expr += "between(n\\,";
        expr += std::to_string(ranges[i].first);
        expr += "\\,";
        expr += std::to_string(ranges[i].end - 1);
        expr += ')';
    }
    return expr + ",setpts=N/FRAME_RATE/TB";
}

namespace {

class WindowedSource final : public VideoSource {
public:
    WindowedSource(std::unique_ptr<VideoSource> inner, std::vector<FrameRange> ranges)
        : inner_(std::move(inner)), ranges_(std::move(ranges)) {
        for (const FrameRange& r : ranges_) total_ += r.frames();
    }

    const VideoGeometry& geometry() const override { return inner_->geometry(); }
    const StreamInfo& info() const override { return inner_->info(); }
    const std::string& name() const override { return inner_->name(); }
    std::optional<std::int64_t> timestamp() const override { return inner_->timestamp(); }
    std::uint64_t decode_errors() const override { return inner_->decode_errors(); }
    void plan(const ReadPlan& p) override { inner_->plan(p); }
    bool decode_on_device(const DeviceTarget& t, std::string& why) override { return inner_->decode_on_device(t, why); }
    void skip(unsigned n) override { delivered_ = std::min<std::uint64_t>(total_, delivered_ + n); }

    std::optional<std::uint64_t> frames_left() const override {
        const auto left = inner_->frames_left();
        if (!left) return std::nullopt;
        // Window frames still ahead that the input has.
        std::uint64_t n = 0;
        for (std::uint64_t k = delivered_; k < total_ && source_frame(k) < at_ + *left; ++k) ++n;
        return n;
    }

    std::optional<Picture> read() override {
        if (delivered_ >= total_) return std::nullopt;
        const std::uint64_t want = source_frame(delivered_);
        if (want > at_) inner_->skip(static_cast<unsigned>(want - at_));
        at_ = want;
        std::optional<Picture> pic = inner_->read();
        if (!pic)
            throw Error(ErrorKind::Input,
                        inner_->name() + " ends at frame " + std::to_string(at_) + ", inside the frames to score");
        ++at_;
        ++delivered_;
        return pic;
    }

    Picture read_frame(std::uint64_t index) override {
        return inner_->read_frame(source_frame(delivered_ + index) - at_);
    }

private:
    /// Source frame number of the window's k-th frame.
    std::uint64_t source_frame(std::uint64_t k) const {
        for (const FrameRange& r : ranges_) {
            if (k < r.frames()) return r.first + k;
            k -= r.frames();
        }
        return ranges_.back().end;  // past the window
    }

    std::unique_ptr<VideoSource> inner_;
    std::vector<FrameRange> ranges_;
    std::uint64_t total_ = 0, delivered_ = 0;
    std::uint64_t at_ = 0;  ///< source frames the inner source has moved past
};

}  // namespace

std::unique_ptr<VideoSource> window_video(std::unique_ptr<VideoSource> src, const FrameWindow& window) {
    if (window.whole()) return src;
    return std::make_unique<WindowedSource>(std::move(src), window.ranges);
}

FrameWindow spread_windows(unsigned total, unsigned count, unsigned length) {
    FrameWindow w;
    if (count == 0 || length == 0 || std::uint64_t{count} * length >= total) return w;
    for (unsigned i = 0; i < count; ++i) {
        // Centre of part i is total * (2i + 1) / (2 count); the range starts half its length before.
        const std::uint64_t twice_centre = std::uint64_t{total} * (2 * i + 1) / count;
        const unsigned first = static_cast<unsigned>((twice_centre - length) / 2);
        FrameRange r{first, std::min(total, first + length)};
        if (!w.ranges.empty() && r.first <= w.ranges.back().end)
            w.ranges.back().end = std::max(w.ranges.back().end, r.end);
        else
            w.ranges.push_back(r);
    }
    if (w.ranges.size() == 1 && w.ranges[0].first == 0 && w.ranges[0].end == total) w.ranges.clear();
    return w;
}

}  // namespace vmaf::tune
