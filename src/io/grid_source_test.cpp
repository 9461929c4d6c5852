// align_to_grid: which input frame each grid slot gets, and the counts.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "vmaf/error.hpp"
#include "vmaf/video_source.hpp"

namespace vmaf {
namespace {

/// Tiny 2x2 gray frames numbered by their first sample, with the given
/// timestamps in milliseconds.
class TimedFrames final : public VideoSource {
public:
    explicit TimedFrames(std::vector<std::int64_t> ms) : ms_(std::move(ms)) {
        geom_.width = geom_.height = 2;
        geom_.format = PixelFormat::Yuv400;
        info_.time_base_num = 1;
        info_.time_base_den = 1000;
    }
    const VideoGeometry& geometry() const override { return geom_; }
    const StreamInfo& info() const override { return info_; }
    const std::string& name() const override { return name_; }
    std::optional<std::int64_t> timestamp() const override { return ms_[next_ - 1]; }
    std::optional<Picture> read() override {
        if (next_ == ms_.size()) return std::nullopt;
        Picture p(geom_.format, geom_.bpc, 2, 2);
        *p.plane(0).row<std::uint8_t>(0) = static_cast<std::uint8_t>(next_++);
        return p;
    }

private:
    std::vector<std::int64_t> ms_;
    std::size_t next_ = 0;
    VideoGeometry geom_;
    StreamInfo info_;
    std::string name_ = "timed";
};

/// The frame numbers align_to_grid delivers at `fps` (25 unless given).
std::vector<int> slots(std::vector<std::int64_t> ms, GridMode mode, GridStats& st, unsigned fps = 25,
                       unsigned skip = 0) {
    auto stats = std::make_shared<GridStats>();
    auto src = align_to_grid(std::make_unique<TimedFrames>(std::move(ms)), mode, fps, 1, stats);
    if (skip) src->skip(skip);
    std::vector<int> out;
    while (auto p = src->read()) out.push_back(*p->plane(0).row<std::uint8_t>(0));
    st = *stats;
    return out;
}

TEST(GridSource, ExactPassesARegularStreamThrough) {
    GridStats st;
    EXPECT_EQ(slots({1000, 1040, 1080, 1120}, GridMode::Exact, st), (std::vector<int>{0, 1, 2, 3}));
    EXPECT_EQ(st.repeated + st.skipped, 0u);
}

TEST(GridSource, ExactRepeatsForAMissingFrameAndSkipsADuplicate) {
    GridStats st;
    // 80 ms has no frame (frame 1 shown again); 125 ms falls in the 120 ms slot after frame 3.
    EXPECT_EQ(slots({0, 40, 120, 125, 160}, GridMode::Exact, st), (std::vector<int>{0, 1, 1, 2, 4}));
    EXPECT_EQ(st.repeated, 1u);
    EXPECT_EQ(st.skipped, 1u);
}

TEST(GridSource, ExactRejectsAFrameOffTheGrid) {
    GridStats st;
    try {
        slots({0, 40, 100, 120}, GridMode::Exact, st);
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("frame 2"), std::string::npos) << e.what();
    }
}

TEST(GridSource, NearestTakesTheCloserFrameAndTheEarlierOnATie) {
    GridStats st;
    // Slots at 0, 40, 80, 120 ms: 40 is 20 ms from 20 and 60 (a tie), 80 is nearer 60 than 100.
    EXPECT_EQ(slots({0, 20, 60, 100, 120}, GridMode::Nearest, st), (std::vector<int>{0, 1, 2, 4}));
    EXPECT_EQ(st.skipped, 1u);  // frame 3 (100 ms): no slot nearest to it
    EXPECT_EQ(st.repeated, 0u);
}

TEST(GridSource, NearestAtHalfTheRateRepeatsAndEndsWithTheLastFrame) {
    GridStats st;
    // 12.5 fps onto 25 fps: every frame twice, the last one too, then the end.
    EXPECT_EQ(slots({0, 80, 160}, GridMode::Nearest, st), (std::vector<int>{0, 0, 1, 1, 2, 2}));
    EXPECT_EQ(st.repeated, 3u);
}

TEST(GridSource, NearestAtTwiceTheRateCountsEveryUnusedFrame) {
    GridStats st;
    EXPECT_EQ(slots({0, 20, 40, 60, 80, 100}, GridMode::Nearest, st), (std::vector<int>{0, 2, 4}));
    EXPECT_EQ(st.skipped, 3u);  // frames 1, 3 and the last, 5
}

TEST(GridSource, TheGridStartsAtTheFirstFrameAfterASkip) {
    GridStats st;
    EXPECT_EQ(slots({500, 540, 580, 660}, GridMode::Exact, st, 25, 1), (std::vector<int>{1, 2, 2, 3}));
    EXPECT_EQ(st.repeated, 1u);
}

TEST(GridSource, AnUnknownRateLeavesTheSourceAsItIs) {
    auto src = std::make_unique<TimedFrames>(std::vector<std::int64_t>{0});
    const VideoSource* before = src.get();
    EXPECT_EQ(align_to_grid(std::move(src), GridMode::Exact, 0, 1).get(), before);
}

// Found by container_fuzz: a corrupt stream's timestamps so far apart that
// their difference overflows 64 bits (undefined behaviour before).
TEST(GridSource, TimestampsTooFarApartAreAnError) {
    for (GridMode mode : {GridMode::Exact, GridMode::Nearest}) {
        GridStats st;
        try {
            slots({-1051027559541637121, 8974532621669815134}, mode, st);
            ADD_FAILURE() << "no error";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("timestamp out of range"), std::string::npos) << e.what();
        }
    }
}

}  // namespace
}  // namespace vmaf
