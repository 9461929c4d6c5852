#include "io/sniff.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace vmaf::io {
namespace {

std::string describe(std::vector<unsigned char> head) {
    head.resize(512, 0x80);  // the rest of a file: mid-grey samples
    return describe_format(head.data(), head.size());
}

std::vector<unsigned char> bytes(const std::string& s) {
    return {s.begin(), s.end()};
}

TEST(Sniff, RecognisesContainersAndStreams) {
    EXPECT_EQ(describe(bytes(std::string("\0\0\0\x20"
                                         "ftypisom",
                                         12))),
              "an MP4/MOV (ISO BMFF) container");
    EXPECT_EQ(describe({0x1a, 0x45, 0xdf, 0xa3}), "a Matroska/WebM container");
    EXPECT_EQ(describe(bytes("DKIF")), "an IVF stream (VP8/VP9/AV1)");
    EXPECT_EQ(describe(bytes("YUV4MPEG2 W2 H2")), "a Y4M file");
    EXPECT_EQ(describe({0, 0, 0, 1, 0x67, 0x64}), "an H.264/HEVC elementary stream");  // H.264 SPS
    EXPECT_EQ(describe({0, 0, 1, 0x09, 0xf0}), "an H.264/HEVC elementary stream");     // H.264 AUD
    EXPECT_EQ(describe({0, 0, 0, 1, 0x40, 0x01}), "an H.264/HEVC elementary stream");  // HEVC VPS
    std::vector<unsigned char> ts(512, 0xff);
    ts[0] = ts[188] = ts[376] = 0x47;
    EXPECT_EQ(describe_format(ts.data(), ts.size()), "an MPEG transport stream");
}

TEST(Sniff, RawSamplesAreUnknown) {
    EXPECT_EQ(describe({}), "");
    EXPECT_EQ(describe({0x10, 0x10, 0x10, 0x10}), "");  // black luma
    EXPECT_EQ(describe({0, 0, 0, 1, 0x80}), "");        // a start code, but no valid NAL header
    EXPECT_EQ(describe_format(nullptr, 0), "");
    const unsigned char short_head[] = {'f', 't'};
    EXPECT_EQ(describe_format(short_head, sizeof short_head), "");
}

TEST(Sniff, NonRegularFilesAreNotRead) {
    EXPECT_EQ(sniff_file("/dev/null"), "");
    EXPECT_EQ(sniff_file("/nonexistent/file.yuv"), "");
}

}  // namespace
}  // namespace vmaf::io
