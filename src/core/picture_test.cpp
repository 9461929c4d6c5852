#include "vmaf/picture.hpp"

#include <gtest/gtest.h>

#include <cstdint>

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

}  // namespace
}  // namespace vmaf
