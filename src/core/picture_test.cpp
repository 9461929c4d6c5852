#include "vmaf/picture.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "vmaf/error.hpp"

namespace vmaf {
namespace {

TEST(Picture, OddSizesUseCeilChroma) {
    Picture p(PixelFormat::Yuv420, 10, 641, 363);
    EXPECT_EQ(p.plane(1).width, 321u);
    EXPECT_EQ(p.plane(1).height, 182u);
    EXPECT_EQ(p.plane(0).stride % 64, 0);
    EXPECT_GE(p.plane(0).stride, 641 * 2);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p.plane(2).data) % 64, 0u);
    Picture q(PixelFormat::Yuv422, 8, 5, 3);
    EXPECT_EQ(q.plane(2).width, 3u);
    EXPECT_EQ(q.plane(2).height, 3u);
}

TEST(PicturePool, RecyclesReleasedStorage) {
    PicturePool pool(VideoGeometry{PixelFormat::Yuv420, 8, 64, 48});
    void* first = nullptr;
    {
        Picture a = pool.acquire();
        first = a.plane(0).data;
        a.plane(0).row<std::uint8_t>(47)[63] = 7;  // whole plane writable
    }
    Picture b = pool.acquire();
    EXPECT_EQ(b.plane(0).data, first);
    Picture c = pool.acquire();  // b still held: fresh storage
    EXPECT_NE(c.plane(0).data, first);
    EXPECT_EQ(c.width(), 64u);
}

TEST(PicturePool, PicturesMayOutliveThePool) {
    Picture keep;
    {
        PicturePool pool(VideoGeometry{PixelFormat::Yuv444, 16, 8, 8});
        keep = pool.acquire();
        keep.plane(2).row<std::uint16_t>(7)[7] = 1023;
    }
    EXPECT_EQ(keep.plane(2).row<std::uint16_t>(7)[7], 1023);
}

TEST(PicturePool, LumaOnlyPicturesKeepTheirFormat) {
    PicturePool pool(VideoGeometry{PixelFormat::Yuv420, 8, 64, 48}, 4, nullptr, true);
    Picture p = pool.acquire();
    EXPECT_TRUE(p.luma_only());
    EXPECT_EQ(p.planes(), 1u);
    EXPECT_EQ(p.format(), PixelFormat::Yuv420);
    EXPECT_EQ(p.memory(), MemoryKind::Host);
    EXPECT_EQ(p.plane(0).width, 64u);
    // 4:0:0 has no chroma to leave out.
    PicturePool mono(VideoGeometry{PixelFormat::Yuv400, 8, 8, 8}, 4, nullptr, true);
    EXPECT_FALSE(mono.acquire().luma_only());
}

TEST(Picture, WrapKeepsTheOwnerAliveAndChecksTheLayout) {
    auto owner = std::make_shared<std::vector<std::uint8_t>>(16 * 4 + 2 * 8 * 2);
    Plane planes[3] = {{owner->data(), 16, 16, 4}, {owner->data() + 64, 8, 8, 2}, {owner->data() + 80, 8, 8, 2}};
    Picture p = Picture::wrap(PixelFormat::Yuv420, 8, 16, 4, planes, MemoryKind::Device, owner);
    EXPECT_EQ(p.memory(), MemoryKind::Device);
    EXPECT_EQ(p.plane(1).data, owner->data() + 64);
    EXPECT_FALSE(p.empty());
    std::weak_ptr<std::vector<std::uint8_t>> watch = owner;
    owner.reset();
    EXPECT_FALSE(watch.expired());
    p = Picture();
    EXPECT_TRUE(watch.expired());

    std::vector<std::uint8_t> buf(64);
    Plane bad[3] = {{buf.data(), 16, 16, 3}, {}, {}};  // 3 rows, 4 expected
    EXPECT_THROW(Picture::wrap(PixelFormat::Yuv400, 8, 16, 4, bad, MemoryKind::Host, nullptr), Error);
    Plane narrow[1] = {{buf.data(), 8, 16, 4}};  // stride below the row size
    EXPECT_THROW(Picture::wrap(PixelFormat::Yuv400, 8, 16, 4, narrow, MemoryKind::Host, nullptr), Error);
}

TEST(Picture, AbsurdGeometryFailsBeforeAllocating) {
    // Each of these would overflow the size arithmetic or allocate gigabytes.
    for (auto [w, h] : {std::pair{0u, 4u}, {4u, 0u}, {32769u, 4u}, {4u, 32769u}, {32768u, 32768u}, {0xffffffffu, 2u}}) {
        EXPECT_THROW(Picture(PixelFormat::Yuv420, 8, w, h), Error) << w << "x" << h;
        EXPECT_THROW(PicturePool(VideoGeometry{PixelFormat::Yuv444, 16, w, h}), Error) << w << "x" << h;
    }
    EXPECT_THROW(Picture(PixelFormat::Yuv420, 7, 4, 4), Error);
    EXPECT_THROW(Picture(PixelFormat::Yuv420, 17, 4, 4), Error);
    try {
        Picture(PixelFormat::Yuv420, 8, 40000, 2);
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Usage);
        EXPECT_STREQ(e.what(), "picture size 40000x2 is out of range (1 to 32768 per side, at most 268435456 pixels)");
    }
    const Picture widest(PixelFormat::Yuv400, 8, 32768, 2);
    EXPECT_EQ(widest.width(), 32768u);
}

}  // namespace
}  // namespace vmaf
