#include "core/pipeline.hpp"

#include <gtest/gtest.h>

namespace vmaf::engine_detail {
namespace {

VideoGeometry geometry(unsigned w, unsigned h, PixelFormat f, unsigned bpc) {
    VideoGeometry g;
    g.width = w;
    g.height = h;
    g.format = f;
    g.bpc = bpc;
    return g;
}

TEST(PairsInFlight, CpuTwoPerWorkerPlusOne) {
    const VideoGeometry g = geometry(3840, 2160, PixelFormat::Yuv420, 10);
    EXPECT_EQ(pairs_in_flight(g, false, 3, false), 7u);
    EXPECT_EQ(pairs_in_flight(g, true, 0, false), 1u);
}

TEST(PairsInFlight, GpuBudgetCountsThePlanesAPairHolds) {
    // 4K 10-bit 4:2:0: 24.9 MB a picture with chroma, so ten pairs in 512 MiB
    // (counting chroma planes at full size gave five, which starved the readers).
    const VideoGeometry g420 = geometry(3840, 2160, PixelFormat::Yuv420, 10);
    EXPECT_EQ(pairs_in_flight(g420, false, 8, true), 10u);
    EXPECT_EQ(pairs_in_flight(g420, true, 8, true), 16u);   // 16.6 MB: the cap
    EXPECT_EQ(pairs_in_flight(g420, true, 4, true), 9u);    // two per worker, plus one
    const VideoGeometry g444 = geometry(3840, 2160, PixelFormat::Yuv444, 16);
    EXPECT_EQ(pairs_in_flight(g444, false, 8, true), 5u);
    const VideoGeometry g422 = geometry(3840, 2160, PixelFormat::Yuv422, 10);
    EXPECT_EQ(pairs_in_flight(g422, false, 8, true), 8u);
    const VideoGeometry big = geometry(8192, 8192, PixelFormat::Yuv444, 16);
    EXPECT_EQ(pairs_in_flight(big, false, 8, true), 4u);    // never fewer than four
}

}  // namespace
}  // namespace vmaf::engine_detail
