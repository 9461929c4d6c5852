// align_to_grid: a timed input delivered as one picture per slot of a
// constant frame-rate grid, so that two inputs pair slot by slot.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "vmaf/error.hpp"
#include "vmaf/video_source.hpp"

namespace vmaf {

namespace {

/// A frame read from the input, with its position on the grid in slots
/// (slot k is k / fps seconds after the first frame read).
struct Timed {
    Picture pic;
    double slot = 0;
    std::optional<std::int64_t> ts;  ///< the input's timestamp of the frame
};

class GridSource final : public VideoSource {
public:
    GridSource(std::unique_ptr<VideoSource> src, GridMode mode, unsigned fps_num, unsigned fps_den,
               std::shared_ptr<GridStats> stats)
        : src_(std::move(src)), mode_(mode), stats_(stats ? std::move(stats) : std::make_shared<GridStats>()) {
        const StreamInfo& i = src_->info();
        // slots per timestamp unit = time_base * fps
        slots_per_tick_ = static_cast<double>(i.time_base_num) * fps_num / (static_cast<double>(i.time_base_den) * fps_den);
        fps_ = std::to_string(fps_num);
        if (fps_den != 1) fps_.append("/").append(std::to_string(fps_den));
    }

    const VideoGeometry& geometry() const override { return src_->geometry(); }
    const StreamInfo& info() const override { return src_->info(); }
    const std::string& name() const override { return src_->name(); }
    std::optional<std::int64_t> timestamp() const override { return timestamp_; }
    std::uint64_t decode_errors() const override { return src_->decode_errors(); }
    bool decode_on_device(const DeviceTarget& target, std::string& why) override {
        return src_->decode_on_device(target, why);
    }
    void plan(const ReadPlan& p) override {
        ReadPlan inner = p;
        inner.in_flight += 2;  // the picture kept for repeating, and one read ahead
        src_->plan(inner);
    }
    void skip(unsigned n) override {
        if (started_) throw Error(ErrorKind::Internal, "align_to_grid: skip() after read()");
        src_->skip(n);
        read_ += n;
    }

    std::optional<Picture> read() override {
        const double k = static_cast<double>(slot_);
        std::optional<Timed> out = mode_ == GridMode::Exact ? exact(k) : nearest(k);
        if (!out) return std::nullopt;
        timestamp_ = out->ts;
        ++slot_;
        return std::move(out->pic);
    }

private:
    /// The next frame of the input with its slot position; nullopt at the end.
    std::optional<Timed> next_frame() {
        if (eof_) return std::nullopt;
        std::optional<Picture> p = src_->read();
        if (!p) {
            eof_ = true;
            return std::nullopt;
        }
        ++read_;
        const std::optional<std::int64_t> ts = src_->timestamp();
        Timed t{std::move(*p), 0, ts};
        if (!ts) {
            // A frame without a timestamp follows the previous one by one slot.
            t.slot = started_ ? last_slot_ + 1 : 0;
        } else {
            if (!started_) origin_ = *ts;
            std::int64_t since_origin;
            if (__builtin_sub_overflow(*ts, origin_, &since_origin))
                throw Error(ErrorKind::Input, src_->name() + ": frame " + std::to_string(read_ - 1) +
                                                  " has a timestamp out of range (" + std::to_string(*ts) +
                                                  " after " + std::to_string(origin_) + ")");
            t.slot = static_cast<double>(since_origin) * slots_per_tick_;
        }
        started_ = true;
        last_slot_ = t.slot;
        return t;
    }

    std::string frame_at(const Timed& t) const {
        char buf[96];
        std::snprintf(buf, sizeof buf, "frame %llu (%.3f s after the first)", static_cast<unsigned long long>(read_ - 1),
                      t.slot / slots_per_tick_ * time_base());
        return buf;
    }
    double time_base() const { return static_cast<double>(src_->info().time_base_num) / src_->info().time_base_den; }

    std::optional<Timed> exact(double k) {
        for (;;) {
            if (!ahead_) {
                ahead_ = next_frame();
                if (!ahead_) return std::nullopt;  // the input ends: so does the grid
                const double r = std::nearbyint(ahead_->slot);
                if (std::fabs(ahead_->slot - r) > 0.25)
                    throw Error(ErrorKind::Input, src_->name() + ": " + frame_at(*ahead_) + " is off the " + fps_ +
                                                      " fps frame grid (variable frame rate?): pass --pair_nearest to "
                                                      "pair by nearest timestamp");
                ahead_->slot = r;
            }
            if (ahead_->slot < k) {  // a second frame for a slot already given: a duplicate
                ++stats_->skipped;
                ahead_.reset();
                continue;
            }
            if (ahead_->slot == k) {
                last_ = *ahead_;
                ahead_.reset();
                return last_;
            }
            // The slot has no frame of its own (a dropped frame): show the previous one again.
            ++stats_->repeated;
            return last_;
        }
    }

    std::optional<Timed> nearest(double k) {
        // cur_: the latest frame at or before slot k; ahead_: the first after it.
        while (!ahead_ || ahead_->slot <= k) {
            if (ahead_) {
                if (cur_ && !cur_used_) ++stats_->skipped;
                cur_ = std::move(ahead_);
                cur_used_ = false;
                ahead_.reset();
            }
            ahead_ = next_frame();
            if (!ahead_) break;
        }
        if (!cur_) {  // only the first slot can precede every frame; slot 0 is the first frame's time
            if (!ahead_) return std::nullopt;
            cur_ = std::move(ahead_);
            cur_used_ = false;
            ahead_.reset();
        }
        // The input has ended once cur_ is its last frame and the slot lies
        // past that frame's display interval (the interval before it).
        if (!ahead_ && k - cur_->slot > last_interval_ - 0.5 * std::min(1.0, last_interval_)) {
            if (!cur_used_) ++stats_->skipped;
            cur_used_ = true;
            return std::nullopt;
        }
        // Timestamps are rounded to their time base: distances within a tick
        // of each other are a tie, which the earlier frame takes.
        const double tie = std::min(slots_per_tick_, 0.25);
        if (ahead_ && ahead_->slot - k < k - cur_->slot - tie) {
            if (!cur_used_) ++stats_->skipped;
            last_interval_ = ahead_->slot - cur_->slot;
            cur_ = std::move(ahead_);
            cur_used_ = false;
            ahead_.reset();
        }
        if (ahead_) last_interval_ = ahead_->slot - cur_->slot;
        if (cur_used_) ++stats_->repeated;
        cur_used_ = true;
        return *cur_;
    }

    std::unique_ptr<VideoSource> src_;
    GridMode mode_;
    std::shared_ptr<GridStats> stats_;
    double slots_per_tick_ = 0;
    std::string fps_;
    bool started_ = false;
    std::int64_t origin_ = 0;    ///< timestamp of the first frame read
    double last_slot_ = 0;       ///< slot position of the last frame read
    std::uint64_t read_ = 0;     ///< frames taken from the input (skipped ones included)
    std::uint64_t slot_ = 0;     ///< the slot the next read() fills
    std::optional<Timed> ahead_, cur_;
    bool cur_used_ = false;      ///< cur_ was delivered at least once
    double last_interval_ = 1;   ///< slots between the last two frames (the last frame's display time)
    Timed last_;                 ///< Exact: the frame delivered last
    bool eof_ = false;           ///< the input has ended
    std::optional<std::int64_t> timestamp_;
};

}  // namespace

std::unique_ptr<VideoSource> align_to_grid(std::unique_ptr<VideoSource> src, GridMode mode, unsigned fps_num,
                                           unsigned fps_den, std::shared_ptr<GridStats> stats) {
    const StreamInfo& i = src->info();
    if (!i.time_base_num || !i.time_base_den || !fps_num || !fps_den) return src;
    return std::make_unique<GridSource>(std::move(src), mode, fps_num, fps_den, std::move(stats));
}

}  // namespace vmaf
