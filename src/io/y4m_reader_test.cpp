#include <algorithm>
#include <cstring>
#include <memory>
#include <new>
#include <string>

#include "io/io_test_util.hpp"
#include "vmaf/video_source.hpp"

namespace vmaf {
namespace {

using namespace vmaf::iotest;

std::string header(unsigned w, unsigned h, const std::string& cs) {
    std::string s = "YUV4MPEG2 W" + std::to_string(w) + " H" + std::to_string(h) + " F25:1 Ip A1:1";
    if (!cs.empty()) s += " C" + cs;
    return s + "\n";
}

// --- Independent reference of upstream's chroma conversions (8-bit). ---

int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

// out[i] = sum_k taps[k] * in[clamp(i + first + k)], rounded, >> 7, clamped to 8 bits.
std::vector<unsigned> ref_filter(const std::vector<unsigned>& in, const int* taps, int first) {
    const int n = static_cast<int>(in.size());
    std::vector<unsigned> out(in.size());
    for (int i = 0; i < n; ++i) {
        int acc = 0;
        for (int k = 0; k < 6; ++k) acc += taps[k] * static_cast<int>(in[clampi(i + first + k, 0, n - 1)]);
        out[i] = static_cast<unsigned>(clampi((acc + 64) >> 7, 0, 255));
    }
    return out;
}
const int kFwd[6] = {4, -17, 114, 35, -9, 1};
const int kBack[6] = {1, -9, 35, 114, -17, 4};

PlaneData ref_rows(const PlaneData& src, const int* taps, int first) {
    PlaneData out = src;
    for (unsigned y = 0; y < src.height; ++y) {
        std::vector<unsigned> row(src.v.begin() + y * src.width, src.v.begin() + (y + 1) * src.width);
        auto r = ref_filter(row, taps, first);
        std::copy(r.begin(), r.end(), out.v.begin() + y * src.width);
    }
    return out;
}

PlaneData ref_cols(const PlaneData& src, const int* taps, int first) {
    PlaneData out = src;
    for (unsigned x = 0; x < src.width; ++x) {
        std::vector<unsigned> col;
        for (unsigned y = 0; y < src.height; ++y) col.push_back(src.at(x, y));
        auto r = ref_filter(col, taps, first);
        for (unsigned y = 0; y < src.height; ++y) out.v[y * src.width + x] = r[y];
    }
    return out;
}

PlaneData ref_411(const PlaneData& src, unsigned dst_w) {
    PlaneData out;
    out.width = dst_w;
    out.height = src.height;
    out.v.assign(std::size_t{dst_w} * src.height, 0);
    const int n = static_cast<int>(src.width);
    for (unsigned y = 0; y < src.height; ++y) {
        auto s = [&](int x) { return static_cast<int>(src.at(clampi(x, 0, n - 1), y)); };
        for (int x = 0; x < n; ++x) {
            const int even = s(x - 1) + 110 * s(x) + 18 * s(x + 1) - s(x + 2);
            const int odd = -3 * s(x - 1) + 50 * s(x) + 86 * s(x + 1) - 5 * s(x + 2);
            if (unsigned(2 * x) < dst_w) out.v[y * dst_w + 2 * x] = clampi((even + 64) >> 7, 0, 255);
            if (unsigned(2 * x + 1) < dst_w) out.v[y * dst_w + 2 * x + 1] = clampi((odd + 64) >> 7, 0, 255);
        }
    }
    return out;
}

PlaneData random_plane(unsigned w, unsigned h, unsigned max, std::mt19937& rng) {
    PlaneData p;
    p.width = w;
    p.height = h;
    std::uniform_int_distribution<unsigned> d(0, max);
    p.v.resize(std::size_t{w} * h);
    for (auto& s : p.v) s = d(rng);
    return p;
}

// --- Native colourspaces: samples come back as stored. ---

struct NativeCase {
    const char* cs;
    PixelFormat fmt;
    unsigned bpc;
};

class Y4mNative : public ::testing::TestWithParam<NativeCase> {};

TEST_P(Y4mNative, RoundTripsOddAndEvenSizes) {
    const NativeCase c = GetParam();
    for (auto [w, h] : {std::pair{5u, 3u}, std::pair{16u, 6u}, std::pair{1u, 1u}}) {
        TempDir dir;
        const std::string path = dir.file("clip.y4m");
        std::mt19937 rng(w * 31 + h + c.bpc);
        std::vector<std::uint8_t> bytes;
        append(bytes, header(w, h, c.cs));
        std::vector<std::vector<PlaneData>> frames;
        for (int i = 0; i < 3; ++i) {
            frames.push_back(random_frame(c.fmt, c.bpc, w, h, rng));
            append(bytes, i == 1 ? "FRAME Ixyz Xsomething\n" : "FRAME\n");
            append_samples(bytes, frames.back(), c.bpc);
        }
        write_file(path, bytes);
        auto src = open_y4m(path);
        EXPECT_EQ(src->geometry(), (VideoGeometry{c.fmt, c.bpc, w, h}));
        EXPECT_EQ(src->info().colorspace, c.cs);
        for (const auto& f : frames) {
            auto pic = src->read();
            ASSERT_TRUE(pic) << c.cs;
            EXPECT_EQ(pic->format(), c.fmt);
            EXPECT_EQ(pic->bpc(), c.bpc);
            expect_picture(*pic, f);
        }
        EXPECT_FALSE(src->read());
        EXPECT_FALSE(src->read());
    }
}

INSTANTIATE_TEST_SUITE_P(Colourspaces, Y4mNative,
                         ::testing::Values(NativeCase{"420", PixelFormat::Yuv420, 8},
                                           NativeCase{"420jpeg", PixelFormat::Yuv420, 8},
                                           NativeCase{"420mpeg2", PixelFormat::Yuv420, 8},
                                           NativeCase{"444", PixelFormat::Yuv444, 8},
                                           NativeCase{"420p10", PixelFormat::Yuv420, 10},
                                           NativeCase{"422p10", PixelFormat::Yuv422, 10},
                                           NativeCase{"444p10", PixelFormat::Yuv444, 10},
                                           NativeCase{"420p12", PixelFormat::Yuv420, 12},
                                           NativeCase{"422p12", PixelFormat::Yuv422, 12},
                                           NativeCase{"444p12", PixelFormat::Yuv444, 12},
                                           NativeCase{"420p16", PixelFormat::Yuv420, 16},
                                           NativeCase{"422p16", PixelFormat::Yuv422, 16},
                                           NativeCase{"444p16", PixelFormat::Yuv444, 16}),
                         [](const auto& info) { return std::string("C") + info.param.cs; });

TEST(Y4mReader, MissingColourspaceMeans420) {
    TempDir dir;
    const std::string path = dir.file("c.y4m");
    std::vector<std::uint8_t> bytes;
    append(bytes, "YUV4MPEG2 W2 H2\nFRAME\n");
    bytes.insert(bytes.end(), {1, 2, 3, 4, 5, 6});
    write_file(path, bytes);
    auto src = open_y4m(path);
    EXPECT_EQ(src->geometry(), (VideoGeometry{PixelFormat::Yuv420, 8, 2, 2}));
    EXPECT_EQ(src->info().colorspace, "420");
    EXPECT_EQ(src->info().fps_num, 0u);
    EXPECT_EQ(src->info().fps_den, 0u);
    EXPECT_EQ(src->info().sar_num, 0u);
    EXPECT_EQ(src->info().interlace, '?');
    auto pic = src->read();
    ASSERT_TRUE(pic);
    EXPECT_EQ(sample(*pic, 0, 1, 1), 4u);
    EXPECT_EQ(sample(*pic, 1, 0, 0), 5u);
    EXPECT_EQ(sample(*pic, 2, 0, 0), 6u);
    EXPECT_FALSE(src->read());
}

// --- Converted colourspaces. ---

TEST(Y4mReader, Alpha444DropsTheAlphaPlane) {
    TempDir dir;
    const std::string path = dir.file("a.y4m");
    std::mt19937 rng(1);
    const unsigned w = 5, h = 3;
    std::vector<std::uint8_t> bytes;
    append(bytes, header(w, h, "444alpha"));
    std::vector<std::vector<PlaneData>> frames;
    for (int i = 0; i < 2; ++i) {
        frames.push_back(random_frame(PixelFormat::Yuv444, 8, w, h, rng));
        append(bytes, "FRAME\n");
        append_samples(bytes, frames.back(), 8);
        append_samples(bytes, {random_plane(w, h, 255, rng)}, 8);  // alpha
    }
    write_file(path, bytes);
    auto src = open_y4m(path);
    EXPECT_EQ(src->geometry(), (VideoGeometry{PixelFormat::Yuv444, 8, w, h}));
    for (const auto& f : frames) {
        auto pic = src->read();
        ASSERT_TRUE(pic);
        expect_picture(*pic, f);
    }
    EXPECT_FALSE(src->read());

    // Luma only: chroma and alpha are passed over, frame by frame.
    auto luma = open_y4m(path);
    luma->plan(ReadPlan{true, nullptr, 2});
    EXPECT_FALSE(luma->frames_left());
    for (const auto& f : frames) {
        auto pic = luma->read();
        ASSERT_TRUE(pic);
        EXPECT_TRUE(pic->luma_only());
        expect_picture(*pic, {f[0]});
    }
    EXPECT_FALSE(luma->read());
}

TEST(Y4mReader, MonoBecomes420WithNeutralChroma) {
    TempDir dir;
    const std::string path = dir.file("m.y4m");
    std::mt19937 rng(2);
    const unsigned w = 5, h = 3;
    std::vector<std::uint8_t> bytes;
    append(bytes, header(w, h, "mono"));
    std::vector<PlaneData> lumas;
    for (int i = 0; i < 2; ++i) {
        lumas.push_back(random_plane(w, h, 255, rng));
        append(bytes, "FRAME\n");
        append_samples(bytes, {lumas.back()}, 8);
    }
    write_file(path, bytes);
    auto src = open_y4m(path);
    EXPECT_EQ(src->geometry(), (VideoGeometry{PixelFormat::Yuv420, 8, w, h}));
    for (const auto& luma : lumas) {
        auto pic = src->read();
        ASSERT_TRUE(pic);
        PlaneData grey{3, 2, std::vector<unsigned>(6, 128)};
        expect_picture(*pic, {luma, grey, grey});
    }
    EXPECT_FALSE(src->read());
}

TEST(Y4mReader, Shift422HandValues) {
    TempDir dir;
    const std::string path = dir.file("s.y4m");
    std::vector<std::uint8_t> bytes;
    append(bytes, header(8, 1, "422") + "FRAME\n");
    bytes.insert(bytes.end(), 8, 16);                          // Y
    bytes.insert(bytes.end(), {0, 0, 128, 0});                 // Cb
    bytes.insert(bytes.end(), {200, 200, 200, 200});           // Cr (constant stays constant)
    write_file(path, bytes);
    auto pic = open_y4m(path)->read();
    ASSERT_TRUE(pic);
    EXPECT_EQ(pic->format(), PixelFormat::Yuv422);
    const unsigned cb[] = {0, 35, 114, 0};
    for (unsigned x = 0; x < 4; ++x) {
        EXPECT_EQ(sample(*pic, 1, x, 0), cb[x]) << x;
        EXPECT_EQ(sample(*pic, 2, x, 0), 200u) << x;
    }
}

TEST(Y4mReader, Up411HandValues) {
    TempDir dir;
    const std::string path = dir.file("u.y4m");
    std::vector<std::uint8_t> bytes;
    append(bytes, header(8, 1, "411") + "FRAME\n");
    bytes.insert(bytes.end(), 8, 16);  // Y
    bytes.insert(bytes.end(), {0, 128});
    bytes.insert(bytes.end(), {77, 77});
    write_file(path, bytes);
    auto src = open_y4m(path);
    EXPECT_EQ(src->geometry(), (VideoGeometry{PixelFormat::Yuv422, 8, 8, 1}));
    auto pic = src->read();
    ASSERT_TRUE(pic);
    const unsigned cb[] = {17, 81, 127, 131};
    for (unsigned x = 0; x < 4; ++x) {
        EXPECT_EQ(sample(*pic, 1, x, 0), cb[x]) << x;
        EXPECT_EQ(sample(*pic, 2, x, 0), 77u) << x;
    }
}

TEST(Y4mReader, ConvertedColourspacesMatchReference) {
    for (auto [w, h] : {std::pair{5u, 3u}, std::pair{1u, 1u}, std::pair{2u, 7u}, std::pair{23u, 11u},
                        std::pair{9u, 2u}}) {
        for (const std::string cs : {"422", "411", "420paldv"}) {
            TempDir dir;
            const std::string path = dir.file("conv.y4m");
            std::mt19937 rng(w * 7 + h);
            const unsigned cw = cs == "411" ? (w + 3) / 4 : (w + 1) / 2;
            const unsigned ch = cs == "420paldv" ? (h + 1) / 2 : h;
            std::vector<std::uint8_t> bytes;
            append(bytes, header(w, h, cs));
            std::vector<std::vector<PlaneData>> want;
            for (int i = 0; i < 2; ++i) {
                // Extremes exercise the clamping.
                const PlaneData y = random_plane(w, h, 255, rng);
                PlaneData cb = random_plane(cw, ch, 255, rng), cr = random_plane(cw, ch, 255, rng);
                for (auto& s : cb.v) s = s < 128 ? 0 : 255;
                append(bytes, "FRAME\n");
                append_samples(bytes, {y, cb, cr}, 8);
                if (cs == "422") {
                    want.push_back({y, ref_rows(cb, kFwd, -2), ref_rows(cr, kFwd, -2)});
                } else if (cs == "411") {
                    want.push_back({y, ref_411(cb, (w + 1) / 2), ref_411(cr, (w + 1) / 2)});
                } else {
                    want.push_back({y, ref_cols(ref_rows(cb, kFwd, -2), kBack, -3),
                                    ref_cols(ref_rows(cr, kFwd, -2), kFwd, -2)});
                }
            }
            write_file(path, bytes);
            auto src = open_y4m(path);
            EXPECT_EQ(src->geometry().format, cs == "420paldv" ? PixelFormat::Yuv420 : PixelFormat::Yuv422);
            for (const auto& f : want) {
                auto pic = src->read();
                ASSERT_TRUE(pic) << cs;
                SCOPED_TRACE(cs + " " + std::to_string(w) + "x" + std::to_string(h));
                expect_picture(*pic, f);
            }
            EXPECT_FALSE(src->read());
        }
    }
}

// --- Header parsing. ---

TEST(Y4mReader, ParsesRateInterlaceAspect) {
    TempDir dir;
    const std::string path = dir.file("h.y4m");
    std::vector<std::uint8_t> bytes;
    append(bytes, "YUV4MPEG2  W4 H2 F30000:1001  Ib A128:117 C444p10 XYSCSS=444P10 Zunknown\n");
    write_file(path, bytes);
    auto src = open_y4m(path);
    EXPECT_EQ(src->geometry(), (VideoGeometry{PixelFormat::Yuv444, 10, 4, 2}));
    EXPECT_EQ(src->info().fps_num, 30000u);
    EXPECT_EQ(src->info().fps_den, 1001u);
    EXPECT_EQ(src->info().interlace, 'b');
    EXPECT_EQ(src->info().sar_num, 128u);
    EXPECT_EQ(src->info().sar_den, 117u);
    EXPECT_EQ(src->info().colorspace, "444p10");
    EXPECT_FALSE(src->read());  // no frames at all

    for (char i : std::string("ptbm?")) {
        write_file(path, {'Y', 'U', 'V', '4', 'M', 'P', 'E', 'G', '2', ' ', 'W', '1', ' ', 'H', '1', ' ', 'I',
                          static_cast<std::uint8_t>(i), '\n'});
        EXPECT_EQ(open_y4m(path)->info().interlace, i);
    }
}

TEST(Y4mReader, LongHeaderWithComments) {
    TempDir dir;
    const std::string path = dir.file("long.y4m");
    std::string hdr = "YUV4MPEG2 X" + std::string(5000, 'c') + " W6 X" + std::string(3000, 'd') + " H4 F24:1 C422p10";
    for (int i = 0; i < 100; ++i) hdr += " XCOMMENT=" + std::to_string(i);
    hdr += "\n";
    ASSERT_GT(hdr.size(), 8192u);
    std::vector<std::uint8_t> bytes;
    append(bytes, hdr);
    std::mt19937 rng(3);
    const auto frame = random_frame(PixelFormat::Yuv422, 10, 6, 4, rng);
    append(bytes, "FRAME\n");
    append_samples(bytes, frame, 10);
    write_file(path, bytes);
    auto src = open_y4m(path);
    EXPECT_EQ(src->geometry(), (VideoGeometry{PixelFormat::Yuv422, 10, 6, 4}));
    auto pic = src->read();
    ASSERT_TRUE(pic);
    expect_picture(*pic, frame);
    EXPECT_FALSE(src->read());
}

TEST(Y4mReader, MalformedHeaders) {
    TempDir dir;
    const std::string path = dir.file("bad.y4m");
    const char* cases[] = {
        "",
        "\n",
        "YUV4MPEG W4 H4\n",
        "YUV4MPEG3 W4 H4\n",
        "YUV4MPEG2W4 H4\n",
        "RIFF....WAVEfmt \n",
        "YUV4MPEG2\n",
        "YUV4MPEG2 H4 F25:1\n",
        "YUV4MPEG2 W4 F25:1\n",
        "YUV4MPEG2 W0 H4\n",
        "YUV4MPEG2 W4 H0\n",
        "YUV4MPEG2 W H4\n",
        "YUV4MPEG2 W4x H4\n",
        "YUV4MPEG2 W-4 H4\n",
        "YUV4MPEG2 W+4 H4\n",
        "YUV4MPEG2 W99999999999 H4\n",
        "YUV4MPEG2 W40000 H4\n",
        "YUV4MPEG2 W20000 H20000\n",
        "YUV4MPEG2 W4 H4 F25\n",
        "YUV4MPEG2 W4 H4 Fx:1\n",
        "YUV4MPEG2 W4 H4 F25:\n",
        "YUV4MPEG2 W4 H4 A1\n",
        "YUV4MPEG2 W4 H4 A1:x\n",
        "YUV4MPEG2 W4 H4 Iq\n",
        "YUV4MPEG2 W4 H4 I\n",
        "YUV4MPEG2 W4 H4 Ipp\n",
        "YUV4MPEG2 W4 H4 C\n",
        "YUV4MPEG2 W4 H4 C420p14\n",
        "YUV4MPEG2 W4 H4 Cmono10\n",
        "YUV4MPEG2 W4 H4 Cyuv420p\n",
        "YUV4MPEG2 W4 H4",
        "YUV4MPEG2 W4 H4 F25:1 C420jpeg",
        "YUV4",
    };
    for (const char* c : cases) {
        const std::string text = c;
        write_file(path, std::vector<std::uint8_t>(text.begin(), text.end()));
        auto e = catch_error([&] { open_y4m(path); });
        EXPECT_EQ(e.kind(), ErrorKind::Input) << text;
        const std::string msg = e.what();
        EXPECT_CONTAINS(msg, "malformed Y4M header in " + path);
        EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    }
}

TEST(Y4mReader, MissingFileNamesThePath) {
    TempDir dir;
    const std::string path = dir.file("nope.y4m");
    auto e = catch_error([&] { open_y4m(path); });
    EXPECT_EQ(e.kind(), ErrorKind::Input);
    EXPECT_CONTAINS(e.what(), path);
}

// --- Frame markers, truncation, end of stream, skip. ---

std::vector<std::uint8_t> stream_with(const std::vector<std::string>& markers, unsigned payload_fill_count) {
    // 4x2 4:2:0 8-bit: 8 + 2 + 2 = 12 bytes a frame; frame i is filled with i.
    std::vector<std::uint8_t> bytes;
    append(bytes, header(4, 2, "420"));
    for (unsigned i = 0; i < markers.size(); ++i) {
        append(bytes, markers[i]);
        if (i < payload_fill_count) bytes.insert(bytes.end(), 12, static_cast<std::uint8_t>(i));
    }
    return bytes;
}

TEST(Y4mReader, MalformedFrameMarker) {
    TempDir dir;
    const std::string path = dir.file("f.y4m");
    struct Case {
        std::vector<std::string> markers;
        unsigned bad_frame;
    };
    const Case cases[] = {
        {{"FRAMX\n"}, 0},
        {{"FRAME\n", "frame\n"}, 1},
        {{"FRAME\n", "FRAME\tIp\n"}, 1},
        {{"FRAME\n", "FRAMEIp\n"}, 1},
        {{"FRAME\n", "FRA"}, 1},
        {{"FRAME\n", "FRAME"}, 1},
        {{"FRAME\n", "FRAME Ip"}, 1},
        {{"FRAME\n", "FRAME\n", "\nFRAME\n"}, 2},
    };
    for (const Case& c : cases) {
        write_file(path, stream_with(c.markers, c.markers.size() - 1));
        auto src = open_y4m(path);
        for (unsigned i = 0; i < c.bad_frame; ++i) ASSERT_TRUE(src->read());
        auto e = catch_error([&] { src->read(); });
        EXPECT_EQ(e.kind(), ErrorKind::Input);
        EXPECT_EQ(std::string(e.what()),
                  "malformed frame header at frame " + std::to_string(c.bad_frame) + " in " + path);
    }
    // A parameter list of any reasonable length is fine.
    write_file(path, stream_with({"FRAME Ip X" + std::string(1000, 'x') + "\n"}, 1));
    EXPECT_TRUE(open_y4m(path)->read());
}

TEST(Y4mReader, TruncatedFrame) {
    TempDir dir;
    const std::string path = dir.file("t.y4m");
    auto bytes = stream_with({"FRAME\n", "FRAME\n"}, 2);
    bytes.resize(bytes.size() - 7);
    write_file(path, bytes);
    auto src = open_y4m(path);
    ASSERT_TRUE(src->read());
    auto e = catch_error([&] { src->read(); });
    EXPECT_EQ(e.kind(), ErrorKind::Input);
    EXPECT_EQ(std::string(e.what()), "truncated frame 1 in " + path + " (got 5 of 12 bytes)");

    // A marker with no payload at all.
    write_file(path, stream_with({"FRAME\n", "FRAME\n"}, 1));
    auto src2 = open_y4m(path);
    ASSERT_TRUE(src2->read());
    auto e2 = catch_error([&] { src2->read(); });
    EXPECT_EQ(std::string(e2.what()), "truncated frame 1 in " + path + " (got 0 of 12 bytes)");

    // Converted layouts count the bytes as stored (411: 8 + 2*2*1... here 8x1).
    std::vector<std::uint8_t> b411;
    append(b411, header(8, 1, "411") + "FRAME\n");
    b411.insert(b411.end(), 10, 1);
    write_file(path, b411);
    auto e3 = catch_error([&] { open_y4m(path)->read(); });
    EXPECT_EQ(std::string(e3.what()), "truncated frame 0 in " + path + " (got 10 of 12 bytes)");
}

// The largest accepted frame announced by a few header bytes: the short
// payload is reported before any picture storage is allocated.
TEST(Y4mReader, TruncatedLargeFrameFailsBeforeAllocating) {
    struct Counting final : PictureAllocator {
        unsigned calls = 0;
        std::uint8_t* allocate(std::size_t) override {
            ++calls;
            throw std::bad_alloc();
        }
        void deallocate(std::uint8_t*, std::size_t) noexcept override {}
        MemoryKind memory() const override { return MemoryKind::Host; }
    };
    TempDir dir;
    const std::string path = dir.file("big.y4m");
    std::vector<std::uint8_t> bytes;
    append(bytes, header(16384, 16384, "444p16") + "FRAME\n");
    bytes.resize(bytes.size() + 100, 7);
    write_file(path, bytes);
    auto src = open_y4m(path);
    auto alloc = std::make_shared<Counting>();
    ReadPlan plan;
    plan.allocator = alloc;
    src->plan(plan);
    auto e = catch_error([&] { src->read(); });
    EXPECT_EQ(std::string(e.what()), "truncated frame 0 in " + path + " (got 100 of 1610612736 bytes)");
    EXPECT_EQ(alloc->calls, 0u);
}

TEST(Y4mReader, SkipFrames) {
    TempDir dir;
    const std::string path = dir.file("s.y4m");
    write_file(path, stream_with({"FRAME\n", "FRAME Ip\n", "FRAME\n", "FRAME Xa Xb\n", "FRAME\n"}, 5));
    auto src = open_y4m(path);
    src->skip(0);
    src->skip(2);
    auto pic = src->read();
    ASSERT_TRUE(pic);
    EXPECT_EQ(sample(*pic, 0, 0, 0), 2u);
    src->skip(1);
    pic = src->read();
    ASSERT_TRUE(pic);
    EXPECT_EQ(sample(*pic, 2, 1, 0), 4u);
    EXPECT_FALSE(src->read());

    auto e = catch_error([&] { open_y4m(path)->skip(6); });
    EXPECT_EQ(e.kind(), ErrorKind::Input);
    EXPECT_CONTAINS(e.what(), "cannot skip 6 frames in " + path + ": it ends after 5");

    auto bytes = stream_with({"FRAME\n", "FRAME\n"}, 2);
    bytes.pop_back();
    write_file(path, bytes);
    auto et = catch_error([&] { open_y4m(path)->skip(2); });
    EXPECT_EQ(std::string(et.what()), "truncated frame 1 in " + path + " (got 11 of 12 bytes)");

    write_file(path, stream_with({"FRAME\n", "FRAMX\n"}, 2));
    auto em = catch_error([&] { open_y4m(path)->skip(2); });
    EXPECT_EQ(std::string(em.what()), "malformed frame header at frame 1 in " + path);
}

// Random access: bare "FRAME\n" markers and colourspaces stored as read.
TEST(Y4mReader, RandomAccessMatchesInOrderReading) {
    for (const NativeCase c : {NativeCase{"420", PixelFormat::Yuv420, 8}, NativeCase{"422p10", PixelFormat::Yuv422, 10},
                               NativeCase{"444p16", PixelFormat::Yuv444, 16}}) {
        TempDir dir;
        const std::string path = dir.file("ra.y4m");
        std::mt19937 rng(c.bpc);
        const unsigned w = 33, h = 7;
        std::vector<std::uint8_t> bytes;
        append(bytes, header(w, h, c.cs));
        std::vector<std::vector<PlaneData>> frames;
        for (int i = 0; i < 5; ++i) {
            frames.push_back(random_frame(c.fmt, c.bpc, w, h, rng));
            append(bytes, "FRAME\n");
            append_samples(bytes, frames.back(), c.bpc);
        }
        write_file(path, bytes);
        auto src = open_y4m(path);
        ASSERT_EQ(src->frames_left(), 5u) << c.cs;
        expect_picture(src->read_frame(4), frames[4]);
        expect_picture(src->read_frame(0), frames[0]);
        src->skip(2);
        ASSERT_EQ(src->frames_left(), 3u);
        expect_picture(src->read_frame(1), frames[3]);
        auto pic = src->read();  // the in-order position is where skip() left it
        ASSERT_TRUE(pic);
        expect_picture(*pic, frames[2]);
        auto e = catch_error([&] { src->read_frame(2); });
        EXPECT_CONTAINS(std::string(e.what()), "frame 5 is past the end of " + path);
        // The planes' bytes as stored, in pieces.
        ASSERT_TRUE(src->has_plane_bytes());
        const Picture want = src->read_frame(0);  // frame 3
        for (unsigned p = 0; p < want.planes(); ++p) {
            const Plane& pl = want.plane(p);
            const std::size_t row = std::size_t{pl.width} * want.bytes_per_sample();
            std::vector<std::uint8_t> got(row * pl.height);
            for (std::size_t at = 0; at < got.size(); at += 10)
                src->read_plane_bytes(0, p, at, got.data() + at, std::min<std::size_t>(10, got.size() - at));
            for (unsigned y = 0; y < pl.height; ++y)
                ASSERT_EQ(std::memcmp(got.data() + y * row, pl.row<const std::uint8_t>(y), row), 0) << c.cs << " " << p;
        }
        // Luma only.
        auto luma = open_y4m(path);
        luma->plan(ReadPlan{true, nullptr, 2});
        const Picture l = luma->read_frame(3);
        EXPECT_TRUE(l.luma_only());
        expect_picture(l, {frames[3][0]});
    }
}

TEST(Y4mReader, NoRandomAccessWithFrameParametersOrConversions) {
    TempDir dir;
    const std::string path = dir.file("p.y4m");
    write_file(path, stream_with({"FRAME\n", "FRAME Ip\n", "FRAME\n"}, 3));
    auto src = open_y4m(path);
    EXPECT_FALSE(src->frames_left());
    EXPECT_FALSE(src->has_plane_bytes());
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(src->read());
    EXPECT_FALSE(src->read());
    // A damaged marker further on: read in order, which names it.
    write_file(path, stream_with({"FRAME\n", "FRAME\n", "FRAMX\n"}, 3));
    auto bad = open_y4m(path);
    EXPECT_FALSE(bad->frames_left());
    // A converted colourspace (4:2:2 8-bit is resampled).
    std::vector<std::uint8_t> b422;
    append(b422, header(4, 2, "422") + "FRAME\n");
    b422.insert(b422.end(), 16, 9);
    write_file(path, b422);
    EXPECT_FALSE(open_y4m(path)->frames_left());
}

TEST(Y4mReader, RandomAccessReportsAPartialFinalFrameAsReadDoes) {
    TempDir dir;
    const std::string path = dir.file("t.y4m");
    auto bytes = stream_with({"FRAME\n", "FRAME\n", "FRAME\n"}, 3);
    bytes.resize(bytes.size() - 7);
    write_file(path, bytes);
    auto src = open_y4m(path);
    ASSERT_EQ(src->frames_left(), 3u);
    EXPECT_EQ(sample(src->read_frame(1), 0, 0, 0), 1u);
    const std::string want = "truncated frame 2 in " + path + " (got 5 of 12 bytes)";
    EXPECT_EQ(std::string(catch_error([&] { src->read_frame(2); }).what()), want);
    EXPECT_EQ(std::string(catch_error([&] { src->read_plane_bytes(2, 0, 0, nullptr, 0); }).what()), want);
    src->skip(2);
    EXPECT_EQ(std::string(catch_error([&] { src->read(); }).what()), want);
}

}  // namespace
}  // namespace vmaf
