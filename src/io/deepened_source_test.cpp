// deepen_video / common_bitdepth: samples shifted left to the deeper bit depth.
#include "io/io_test_util.hpp"
#include "vmaf/video_source.hpp"

namespace vmaf {
namespace {

using namespace vmaf::iotest;

/// `planes` with every sample shifted left by `shift`.
std::vector<PlaneData> shifted(std::vector<PlaneData> planes, unsigned shift) {
    for (PlaneData& pd : planes)
        for (unsigned& s : pd.v) s <<= shift;
    return planes;
}

TEST(DeepenedSource, ShiftsEverySampleLeftInOrderAndByIndex) {
    TempDir dir;
    std::mt19937 rng(7);
    for (const auto& [from, to] : {std::pair{8u, 10u}, std::pair{8u, 16u}, std::pair{10u, 12u}}) {
        const std::string path = dir.file("clip" + std::to_string(from) + ".yuv");
        std::vector<std::vector<PlaneData>> frames;
        std::vector<std::uint8_t> bytes;
        for (int i = 0; i < 3; ++i) {
            frames.push_back(random_frame(PixelFormat::Yuv420, from, 33, 7, rng));
            append_samples(bytes, frames.back(), from);
        }
        write_file(path, bytes);
        auto src = deepen_video(open_yuv(path, {PixelFormat::Yuv420, from, 33, 7}), to);
        EXPECT_EQ(src->geometry(), (VideoGeometry{PixelFormat::Yuv420, to, 33, 7}));
        ASSERT_EQ(src->frames_left(), 3u);
        expect_picture(src->read_frame(2), shifted(frames[2], to - from));  // random access, position unchanged
        src->skip(1);
        for (int i = 1; i < 3; ++i) {
            auto pic = src->read();
            ASSERT_TRUE(pic.has_value());
            EXPECT_EQ(pic->bpc(), to);
            expect_picture(*pic, shifted(frames[i], to - from));
        }
        EXPECT_FALSE(src->read().has_value());
    }
}

TEST(DeepenedSource, LumaOnlyPlanAndCommonBitdepth) {
    TempDir dir;
    std::mt19937 rng(11);
    const auto f8 = random_frame(PixelFormat::Yuv444, 8, 16, 8, rng);
    const auto f10 = random_frame(PixelFormat::Yuv444, 10, 16, 8, rng);
    std::vector<std::uint8_t> b8, b10;
    append_samples(b8, f8, 8);
    append_samples(b10, f10, 10);
    write_file(dir.file("a.yuv"), b8);
    write_file(dir.file("b.yuv"), b10);
    std::unique_ptr<VideoSource> a = open_yuv(dir.file("a.yuv"), {PixelFormat::Yuv444, 8, 16, 8});
    std::unique_ptr<VideoSource> b = open_yuv(dir.file("b.yuv"), {PixelFormat::Yuv444, 10, 16, 8});
    VideoSource* deeper = b.get();
    EXPECT_EQ(common_bitdepth(a, b), 10u);
    EXPECT_EQ(b.get(), deeper);  // the deeper side is left as it is
    EXPECT_EQ(a->geometry().bpc, 10u);
    ReadPlan luma;
    luma.luma_only = true;
    luma.in_flight = 4;
    a->plan(luma);
    auto pic = a->read();
    ASSERT_TRUE(pic.has_value());
    EXPECT_TRUE(pic->luma_only());
    expect_picture(*pic, {shifted(f8, 2)[0]});
}

TEST(DeepenedSource, RefusesAShallowerDepth) {
    TempDir dir;
    write_file(dir.file("c.yuv"), std::vector<std::uint8_t>(16 * 8 * 3, 0));
    const Error e = catch_error([&] {
        deepen_video(open_yuv(dir.file("c.yuv"), {PixelFormat::Yuv420, 10, 16, 8}), 8);
    });
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    EXPECT_CONTAINS(e.what(), "10-bit");
}

}  // namespace
}  // namespace vmaf
