#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <thread>
#include <tuple>

#include "io/io_test_util.hpp"
#include "support/testdata.hpp"
#include "vmaf/video_source.hpp"

namespace vmaf {
namespace {

using namespace vmaf::iotest;


class YuvRoundTrip : public ::testing::TestWithParam<std::tuple<PixelFormat, unsigned, std::pair<unsigned, unsigned>>> {};

TEST_P(YuvRoundTrip, ReadsEveryFrameThenEnds) {
    const auto [fmt, bpc, size] = GetParam();
    const auto [w, h] = size;
    TempDir dir;
    const std::string path = dir.file("clip.yuv");
    std::mt19937 rng(w * 131 + h * 7 + bpc);
    std::vector<std::vector<PlaneData>> frames;
    std::vector<std::uint8_t> bytes;
    for (int i = 0; i < 3; ++i) {
        frames.push_back(random_frame(fmt, bpc, w, h, rng));
        append_samples(bytes, frames.back(), bpc);
    }
    write_file(path, bytes);

    auto src = open_yuv(path, {fmt, bpc, w, h});
    EXPECT_EQ(src->geometry(), (VideoGeometry{fmt, bpc, w, h}));
    EXPECT_EQ(src->name(), path);
    for (const auto& f : frames) {
        auto pic = src->read();
        ASSERT_TRUE(pic.has_value());
        EXPECT_EQ(pic->format(), fmt);
        EXPECT_EQ(pic->bpc(), bpc);
        expect_picture(*pic, f);
    }
    EXPECT_FALSE(src->read().has_value());
    EXPECT_FALSE(src->read().has_value());
}

INSTANTIATE_TEST_SUITE_P(AllFormats, YuvRoundTrip,
                         ::testing::Combine(::testing::Values(PixelFormat::Yuv400, PixelFormat::Yuv420,
                                                              PixelFormat::Yuv422, PixelFormat::Yuv444),
                                            ::testing::Values(8u, 10u, 12u, 16u),
                                            ::testing::Values(std::pair{5u, 3u}, std::pair{16u, 8u},
                                                              std::pair{33u, 7u}, std::pair{1u, 1u})));

TEST(YuvReader, OddSizeChromaLayout) {
    TempDir dir;
    const std::string path = dir.file("odd.yuv");
    // 5x3 4:2:0: Y 15 bytes, U and V 3x2 each.
    std::vector<std::uint8_t> bytes;
    for (int i = 0; i < 15; ++i) bytes.push_back(static_cast<std::uint8_t>(i));
    for (int i = 0; i < 6; ++i) bytes.push_back(static_cast<std::uint8_t>(100 + i));
    for (int i = 0; i < 6; ++i) bytes.push_back(static_cast<std::uint8_t>(200 + i));
    write_file(path, bytes);
    auto pic = open_yuv(path, {PixelFormat::Yuv420, 8, 5, 3})->read();
    ASSERT_TRUE(pic);
    EXPECT_EQ(pic->plane(1).width, 3u);
    EXPECT_EQ(pic->plane(1).height, 2u);
    EXPECT_EQ(sample(*pic, 0, 4, 2), 14u);
    EXPECT_EQ(sample(*pic, 1, 2, 1), 105u);
    EXPECT_EQ(sample(*pic, 2, 0, 1), 203u);

    // The same 27 bytes are not a whole 5x3 4:2:2 frame (15 + 2 * 9 = 33).
    auto e = catch_error([&] { open_yuv(path, {PixelFormat::Yuv422, 8, 5, 3})->read(); });
    EXPECT_EQ(e.kind(), ErrorKind::Input);
    EXPECT_CONTAINS(std::string(e.what()), "truncated frame 0 in " + path + " (got 27 of 33 bytes)");
}

TEST(YuvReader, SixteenBitLittleEndian) {
    TempDir dir;
    const std::string path = dir.file("le.yuv");
    // 2x1 4:4:4: every plane holds two words.
    write_file(path, {0x34, 0x12, 0xff, 0xff, 0x01, 0x00, 0x00, 0x80, 0xcd, 0xab, 0x00, 0x01});
    auto pic = open_yuv(path, {PixelFormat::Yuv444, 16, 2, 1})->read();
    ASSERT_TRUE(pic);
    EXPECT_EQ(sample(*pic, 0, 0, 0), 0x1234u);
    EXPECT_EQ(sample(*pic, 0, 1, 0), 0xffffu);
    EXPECT_EQ(sample(*pic, 1, 0, 0), 0x0001u);
    EXPECT_EQ(sample(*pic, 1, 1, 0), 0x8000u);
    EXPECT_EQ(sample(*pic, 2, 0, 0), 0xabcdu);
    EXPECT_EQ(sample(*pic, 2, 1, 0), 0x0100u);
}

TEST(YuvReader, OutOfRangeHighBitDepthSamplesPassThrough) {
    TempDir dir;
    const std::string path = dir.file("oor.yuv");
    write_file(path, {0xff, 0xff, 0x00, 0x04, 0xff, 0x03});  // 4:0:0 3x1 at 10 bits
    auto pic = open_yuv(path, {PixelFormat::Yuv400, 10, 3, 1})->read();
    ASSERT_TRUE(pic);
    EXPECT_EQ(pic->planes(), 1u);
    EXPECT_EQ(sample(*pic, 0, 0, 0), 0xffffu);
    EXPECT_EQ(sample(*pic, 0, 1, 0), 0x0400u);
    EXPECT_EQ(sample(*pic, 0, 2, 0), 0x03ffu);
}

TEST(YuvReader, TruncatedFinalFrameIsAnError) {
    TempDir dir;
    const std::string path = dir.file("trunc.yuv");
    const unsigned frame = 8 * 4 + 2 * 4 * 2;  // 8x4 4:2:0
    std::vector<std::uint8_t> bytes(2 * frame + 20, 7);
    write_file(path, bytes);
    auto src = open_yuv(path, {PixelFormat::Yuv420, 8, 8, 4});
    ASSERT_TRUE(src->read());
    ASSERT_TRUE(src->read());
    auto e = catch_error([&] { src->read(); });
    EXPECT_EQ(e.kind(), ErrorKind::Input);
    EXPECT_EQ(std::string(e.what()), "truncated frame 2 in " + path + " (got 20 of 48 bytes)");

    // Truncated inside a chroma plane at 10 bits.
    std::vector<std::uint8_t> b10((8 * 4 + 3) * 2, 0);
    write_file(path, b10);
    auto e10 = catch_error([&] { open_yuv(path, {PixelFormat::Yuv420, 10, 8, 4})->read(); });
    EXPECT_EQ(std::string(e10.what()), "truncated frame 0 in " + path + " (got 70 of 96 bytes)");
}

TEST(YuvReader, EmptyFileHasNoFrames) {
    TempDir dir;
    const std::string path = dir.file("empty.yuv");
    write_file(path, {});
    EXPECT_FALSE(open_yuv(path, {PixelFormat::Yuv420, 8, 4, 4})->read());
}

TEST(YuvReader, MissingFileNamesThePath) {
    TempDir dir;
    const std::string path = dir.file("does_not_exist.yuv");
    auto e = catch_error([&] { open_yuv(path, {PixelFormat::Yuv420, 8, 4, 4}); });
    EXPECT_EQ(e.kind(), ErrorKind::Input);
    EXPECT_CONTAINS(std::string(e.what()), path);
    EXPECT_CONTAINS(std::string(e.what()), "No such file");
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
}

TEST(YuvReader, DirectoryIsRejected) {
    TempDir dir;
    auto e = catch_error([&] { open_yuv(dir.file(""), {PixelFormat::Yuv420, 8, 4, 4}); });
    EXPECT_EQ(e.kind(), ErrorKind::Input);
    EXPECT_CONTAINS(std::string(e.what()), "directory");
}

TEST(YuvReader, BadGeometryIsAUsageError) {
    TempDir dir;
    const std::string path = dir.file("g.yuv");
    write_file(path, std::vector<std::uint8_t>(64, 0));
    const VideoGeometry bad[] = {
        {PixelFormat::Yuv420, 8, 0, 4},     {PixelFormat::Yuv420, 8, 4, 0},
        {PixelFormat::Yuv420, 9, 4, 4},     {PixelFormat::Yuv420, 0, 4, 4},
        {PixelFormat::Yuv420, 14, 4, 4},    {PixelFormat::Yuv420, 8, 100000, 4},
        {PixelFormat::Yuv420, 8, 30000, 30000}, {static_cast<PixelFormat>(9), 8, 4, 4},
    };
    for (const auto& g : bad) {
        auto e = catch_error([&] { open_yuv(path, g); });
        EXPECT_EQ(e.kind(), ErrorKind::Usage) << g.width << "x" << g.height << " bpc " << g.bpc;
        EXPECT_CONTAINS(std::string(e.what()), path);
    }
}

TEST(YuvReader, SkipSeeksWholeFrames) {
    TempDir dir;
    const std::string path = dir.file("skip.yuv");
    const unsigned w = 6, h = 4, fsz = (w * h + 2 * 3 * 2) * 2;
    std::vector<std::uint8_t> bytes;
    for (unsigned f = 0; f < 5; ++f)
        for (unsigned i = 0; i < fsz; i += 2) {
            bytes.push_back(static_cast<std::uint8_t>(f));
            bytes.push_back(0);
        }
    write_file(path, bytes);
    const VideoGeometry g{PixelFormat::Yuv420, 10, w, h};

    auto src = open_yuv(path, g);
    src->skip(0);
    src->skip(2);
    auto pic = src->read();
    ASSERT_TRUE(pic);
    EXPECT_EQ(sample(*pic, 0, 0, 0), 2u);
    src->skip(1);
    pic = src->read();
    ASSERT_TRUE(pic);
    EXPECT_EQ(sample(*pic, 2, 2, 1), 4u);
    EXPECT_FALSE(src->read());

    auto src2 = open_yuv(path, g);
    src2->skip(5);
    EXPECT_FALSE(src2->read());

    auto e = catch_error([&] { open_yuv(path, g)->skip(6); });
    EXPECT_EQ(e.kind(), ErrorKind::Input);
    EXPECT_CONTAINS(std::string(e.what()), "cannot skip 6 frames in " + path);

    // Skipping into a partial final frame reports the truncation.
    bytes.resize(bytes.size() - 10);
    write_file(path, bytes);
    auto et = catch_error([&] { open_yuv(path, g)->skip(5); });
    EXPECT_CONTAINS(std::string(et.what()), "truncated frame 4 in " + path);
}

/// Counts its allocations; reports page-locked memory (as a GPU backend's would).
class CountingAllocator final : public PictureAllocator {
public:
    std::uint8_t* allocate(std::size_t bytes) override {
        ++live;
        return static_cast<std::uint8_t*>(std::aligned_alloc(64, (bytes + 63) / 64 * 64));
    }
    void deallocate(std::uint8_t* p, std::size_t) noexcept override {
        --live;
        std::free(p);
    }
    MemoryKind memory() const override { return MemoryKind::PinnedHost; }
    std::atomic<int> live{0};
};

struct Clip {
    std::string path;
    std::vector<std::vector<PlaneData>> frames;
};

Clip write_clip(const TempDir& dir, PixelFormat fmt, unsigned bpc, unsigned w, unsigned h, unsigned n) {
    Clip c{dir.file("clip.yuv"), {}};
    std::mt19937 rng(n * 977 + w + bpc);
    std::vector<std::uint8_t> bytes;
    for (unsigned i = 0; i < n; ++i) {
        c.frames.push_back(random_frame(fmt, bpc, w, h, rng));
        append_samples(bytes, c.frames.back(), bpc);
    }
    write_file(c.path, bytes);
    return c;
}

TEST(YuvReader, RandomAccessMatchesInOrderReading) {
    TempDir dir;
    const Clip c = write_clip(dir, PixelFormat::Yuv420, 10, 33, 7, 6);
    auto src = open_yuv(c.path, {PixelFormat::Yuv420, 10, 33, 7});
    ASSERT_EQ(src->frames_left(), 6u);
    expect_picture(src->read_frame(4), c.frames[4]);
    expect_picture(src->read_frame(0), c.frames[0]);
    src->skip(2);
    ASSERT_EQ(src->frames_left(), 4u);
    expect_picture(src->read_frame(0), c.frames[2]);
    // Out-of-order reads leave the in-order position alone.
    auto pic = src->read();
    ASSERT_TRUE(pic);
    expect_picture(*pic, c.frames[2]);
    EXPECT_EQ(src->frames_left(), 3u);
    auto e = catch_error([&] { src->read_frame(3); });
    EXPECT_EQ(e.kind(), ErrorKind::Input);
    EXPECT_CONTAINS(std::string(e.what()), "frame 6 is past the end of " + c.path);

    // Several threads at once, each frame many times.
    auto all = open_yuv(c.path, {PixelFormat::Yuv420, 10, 33, 7});
    std::atomic<int> bad{0};
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < 4; ++t)
        pool.emplace_back([&, t] {
            for (unsigned k = 0; k < 60; ++k) {
                const unsigned i = (k * 5 + t) % 6;
                const Picture p = all->read_frame(i);
                for (unsigned y = 0; y < 7; ++y)
                    for (unsigned x = 0; x < 33; ++x)
                        if (sample(p, 0, x, y) != c.frames[i][0].at(x, y)) ++bad;
            }
        });
    for (auto& th : pool) th.join();
    EXPECT_EQ(bad.load(), 0);
}

TEST(YuvReader, RandomAccessCountsAndReportsAPartialFinalFrame) {
    TempDir dir;
    const std::string path = dir.file("trunc.yuv");
    const unsigned frame = 8 * 4 + 2 * 4 * 2;  // 8x4 4:2:0
    write_file(path, std::vector<std::uint8_t>(2 * frame + 20, 7));
    auto src = open_yuv(path, {PixelFormat::Yuv420, 8, 8, 4});
    EXPECT_EQ(src->frames_left(), 3u);
    src->read_frame(1);
    auto e = catch_error([&] { src->read_frame(2); });
    EXPECT_EQ(std::string(e.what()), "truncated frame 2 in " + path + " (got 20 of 48 bytes)");
    // The same with a luma-only plan: the chroma it does not read still counts.
    src->plan(ReadPlan{true, nullptr, 4});
    auto e2 = catch_error([&] { src->read_frame(2); });
    EXPECT_EQ(std::string(e2.what()), "truncated frame 2 in " + path + " (got 20 of 48 bytes)");
}

TEST(YuvReader, PlaneBytesAreTheFilesPackedPlanes) {
    TempDir dir;
    for (const auto& [fmt, bpc] : {std::pair{PixelFormat::Yuv420, 10u}, std::pair{PixelFormat::Yuv422, 8u},
                                   std::pair{PixelFormat::Yuv444, 16u}, std::pair{PixelFormat::Yuv400, 12u}}) {
        const Clip c = write_clip(dir, fmt, bpc, 33, 7, 4);
        auto src = open_yuv(c.path, {fmt, bpc, 33, 7});
        ASSERT_TRUE(src->has_plane_bytes());
        src->skip(1);
        for (unsigned i = 0; i < 3; ++i) {
            const Picture pic = src->read_frame(i);
            ASSERT_TRUE(pic.planes() == 1 || fmt != PixelFormat::Yuv400);
            for (unsigned p = 0; p < pic.planes(); ++p) {
                const Plane& pl = pic.plane(p);
                const std::size_t row = std::size_t{pl.width} * pic.bytes_per_sample();
                const std::size_t bytes = row * pl.height;
                // In uneven pieces, the last one short, as a backend reads them.
                std::vector<std::uint8_t> got(bytes, 0xA5);
                for (std::size_t at = 0; at < bytes; at += 13)
                    src->read_plane_bytes(i, p, at, got.data() + at, std::min<std::size_t>(13, bytes - at));
                for (unsigned y = 0; y < pl.height; ++y)
                    ASSERT_EQ(std::memcmp(got.data() + y * row, pl.row<const std::uint8_t>(y), row), 0)
                        << pixel_format_name(fmt) << " " << bpc << "-bit frame " << i << " plane " << p << " row " << y;
            }
        }
        auto e = catch_error([&] { src->read_plane_bytes(3, 0, 0, nullptr, 0); });
        EXPECT_EQ(e.kind(), ErrorKind::Input);
        EXPECT_CONTAINS(std::string(e.what()), "frame 4 is past the end of " + c.path);
        auto e2 = catch_error([&] { src->read_plane_bytes(0, 0, 1, nullptr, 33 * 7 * 2); });
        EXPECT_EQ(e2.kind(), ErrorKind::Internal);
    }
}

TEST(YuvReader, PlaneBytesReportAPartialFinalFrameAsReadFrameDoes) {
    TempDir dir;
    const std::string path = dir.file("trunc.yuv");
    write_file(path, std::vector<std::uint8_t>(2 * 48 + 20, 7));  // 8x4 4:2:0, 48 bytes a frame
    auto src = open_yuv(path, {PixelFormat::Yuv420, 8, 8, 4});
    std::uint8_t b[8];
    src->read_plane_bytes(1, 2, 0, b, 8);
    EXPECT_EQ(b[7], 7);
    for (std::size_t n : {std::size_t{0}, std::size_t{4}}) {
        auto e = catch_error([&] { src->read_plane_bytes(2, 0, 0, b, n); });
        EXPECT_EQ(std::string(e.what()), "truncated frame 2 in " + path + " (got 20 of 48 bytes)");
    }
}

TEST(YuvReader, LumaOnlyPlanIntoTheGivenAllocator) {
    TempDir dir;
    const Clip c = write_clip(dir, PixelFormat::Yuv422, 8, 17, 5, 4);
    auto alloc = std::make_shared<CountingAllocator>();
    {
        auto src = open_yuv(c.path, {PixelFormat::Yuv422, 8, 17, 5});
        src->plan(ReadPlan{true, alloc, 2});
        for (unsigned i = 0; i < 4; ++i) {
            auto pic = src->read();
            ASSERT_TRUE(pic);
            EXPECT_TRUE(pic->luma_only());
            EXPECT_EQ(pic->planes(), 1u);
            EXPECT_EQ(pic->format(), PixelFormat::Yuv422);
            EXPECT_EQ(pic->memory(), MemoryKind::PinnedHost);
            expect_picture(*pic, {c.frames[i][0]});
        }
        EXPECT_FALSE(src->read());
        EXPECT_EQ(alloc->live.load(), 1);  // one buffer, recycled
    }
    EXPECT_EQ(alloc->live.load(), 0);
}

TEST(YuvReader, LumaOnlyThroughAPipePassesOverChroma) {
    TempDir dir;
    const Clip c = write_clip(dir, PixelFormat::Yuv420, 16, 9, 6, 3);
    const std::string fifo = dir.file("pipe.yuv");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::thread writer([&] {
        std::ifstream in(c.path, std::ios::binary);
        std::ofstream out(fifo, std::ios::binary);
        out << in.rdbuf();
    });
    auto src = open_yuv(fifo, {PixelFormat::Yuv420, 16, 9, 6});
    EXPECT_FALSE(src->frames_left());
    EXPECT_FALSE(src->has_plane_bytes());
    src->plan(ReadPlan{true, nullptr, 2});
    for (unsigned i = 0; i < 3; ++i) {
        auto pic = src->read();
        ASSERT_TRUE(pic);
        expect_picture(*pic, {c.frames[i][0]});
    }
    EXPECT_FALSE(src->read());
    writer.join();
}

TEST(YuvReader, RealClipFrameMatchesReference) {
    const std::string path = test::clip_path("p01_576x324_yuv420p_ref.yuv");
    const VideoGeometry g{PixelFormat::Yuv420, 8, 576, 324};
    const Picture want = test::load_raw_frame(path, g, 5);
    auto src = open_yuv(path, g);
    src->skip(2);
    for (int i = 2; i < 5; ++i) ASSERT_TRUE(src->read());
    auto got = src->read();
    ASSERT_TRUE(got);
    for (unsigned p = 0; p < 3; ++p) {
        const Plane& a = got->plane(p);
        const Plane& b = want.plane(p);
        ASSERT_EQ(a.width, b.width);
        ASSERT_EQ(a.height, b.height);
        for (unsigned y = 0; y < a.height; ++y)
            ASSERT_EQ(std::memcmp(a.row<std::uint8_t>(y), b.row<std::uint8_t>(y), a.width), 0)
                << "plane " << p << " row " << y;
    }
}

}  // namespace
}  // namespace vmaf
