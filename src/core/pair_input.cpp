#include "core/pair_input.hpp"

#include <tbb/parallel_invoke.h>

#include <algorithm>

#include "vmaf/error.hpp"

namespace vmaf::engine_detail {

namespace {

std::string ended_first(const VideoSource& shorter, const VideoSource& longer, unsigned frames) {
    return "\"" + shorter.name() + "\" ended before \"" + longer.name() + "\"; scored the first " +
           std::to_string(frames) + " frames";
}

}  // namespace

PairInput::PairInput(VideoSource& ref, VideoSource& dist, const RunLimits& limits, bool concurrent,
                     std::vector<std::string>& warnings)
    : ref_(ref), dist_(dist), limits_(limits), concurrent_(concurrent), warnings_(warnings) {
    if (limits.skip_ref) ref.skip(limits.skip_ref);
    if (limits.skip_dist) dist.skip(limits.skip_dist);
    ref_left_ = ref.frames_left();
    dist_left_ = dist.frames_left();
    random_ = ref_left_ && dist_left_;
    if (random_) {
        total_ = std::min(*ref_left_, *dist_left_);
        if (limits.frame_count) total_ = std::min<std::uint64_t>(total_, *limits.frame_count);
    }
}

bool PairInput::next(Token& t) {
    if (random_) {
        if (next_ >= total_) return false;
        t.index = next_++;
        return true;
    }
    if (limits_.frame_count && next_ >= *limits_.frame_count) return false;
    std::optional<Picture> r, s;
    if (concurrent_) {
        tbb::parallel_invoke([&] { r = ref_.read(); }, [&] { s = dist_.read(); });  // independent readers
    } else {
        r = ref_.read();
        s = dist_.read();
    }
    if (!r || !s) {
        if (r || s) warnings_.push_back(ended_first(r ? dist_ : ref_, r ? ref_ : dist_, next_));
        return false;
    }
    t.index = next_++;
    t.ref = std::move(*r);
    t.dist = std::move(*s);
    return true;
}

bool PairInput::can_feed(const VideoSource& ref, const VideoSource& dist) {
    return ref.has_plane_bytes() && dist.has_plane_bytes();
}

void PairInput::feed_backend() {
    if (!random_ || !can_feed(ref_, dist_)) throw Error(ErrorKind::Internal, "this input cannot feed a backend");
    feed_ = [this](unsigned index, int side, unsigned plane, std::uint64_t at, void* dst, std::size_t n) {
        (side ? dist_ : ref_).read_plane_bytes(index, plane, at, dst, n);
    };
}

void PairInput::load(Token& t) {
    if (!random_) return;
    if (feed_) {
        // The errors read_frame() would raise, raised here, in the same stage.
        ref_.read_plane_bytes(t.index, 0, 0, nullptr, 0);
        dist_.read_plane_bytes(t.index, 0, 0, nullptr, 0);
        t.feed = &feed_;
        return;
    }
    // One after the other: with positioned reads several pairs are read at
    // once already, and nesting a parallel read here made the GPU runs slower
    // (H200 host, 8 workers: 4K 10-bit VMAF+NEG 583 vs 677 fps).
    t.ref = ref_.read_frame(t.index);
    t.dist = dist_.read_frame(t.index);
}

unsigned PairInput::end() {
    if (random_ && (!limits_.frame_count || *limits_.frame_count > total_) && *ref_left_ != *dist_left_) {
        VideoSource& longer = *ref_left_ > total_ ? ref_ : dist_;
        longer.read_frame(total_);
        warnings_.push_back(ended_first(*ref_left_ > total_ ? dist_ : ref_, longer, next_));
    }
    if (next_ == 0)
        throw Error(ErrorKind::Input, "no frames to compare: " + ref_.name() + " or " + dist_.name() + " is empty");
    return next_;
}

}  // namespace vmaf::engine_detail
