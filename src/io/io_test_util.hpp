// Helpers shared by the reader tests: temp files and sample access.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <unistd.h>

#include "vmaf/error.hpp"
#include "vmaf/picture.hpp"

namespace vmaf::iotest {

/// A fresh directory under the system temp dir, removed at the end of the test.
class TempDir {
public:
    TempDir() {
        std::random_device rd;
        path_ = std::filesystem::temp_directory_path() /
                ("vmaf_io_test_" + std::to_string(::getpid()) + "_" + std::to_string(rd()));
        std::filesystem::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    std::string file(const std::string& name) const { return (path_ / name).string(); }

private:
    std::filesystem::path path_;
};

inline void write_file(const std::string& path, const std::vector<std::uint8_t>& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    ASSERT_TRUE(out.good()) << path;
}

inline void append(std::vector<std::uint8_t>& v, const std::string& s) { v.insert(v.end(), s.begin(), s.end()); }

/// Sample (x, y) of plane p, whatever the bit depth.
inline unsigned sample(const Picture& pic, unsigned p, unsigned x, unsigned y) {
    const Plane& pl = pic.plane(p);
    return pic.bpc() > 8 ? pl.row<std::uint16_t>(y)[x] : pl.row<std::uint8_t>(y)[x];
}

/// One plane of samples in file order (row-major, no padding).
struct PlaneData {
    unsigned width = 0, height = 0;
    std::vector<unsigned> v;
    unsigned at(int x, int y) const { return v[std::size_t(y) * width + x]; }
};

/// Random planes of a frame in the standard planar layout.
inline std::vector<PlaneData> random_frame(PixelFormat fmt, unsigned bpc, unsigned w, unsigned h, std::mt19937& rng) {
    const ChromaShift cs = chroma_shift(fmt);
    std::vector<PlaneData> planes(plane_count(fmt));
    for (unsigned p = 0; p < planes.size(); ++p) {
        PlaneData& pd = planes[p];
        pd.width = p ? (w + (1u << cs.x) - 1) >> cs.x : w;
        pd.height = p ? (h + (1u << cs.y) - 1) >> cs.y : h;
        std::uniform_int_distribution<unsigned> dist(0, (1u << bpc) - 1);
        pd.v.resize(std::size_t{pd.width} * pd.height);
        for (auto& s : pd.v) s = dist(rng);
    }
    return planes;
}

/// Appends samples: bytes at 8 bits, 16-bit little-endian words above.
inline void append_samples(std::vector<std::uint8_t>& out, const std::vector<PlaneData>& planes, unsigned bpc) {
    for (const PlaneData& pd : planes) {
        for (unsigned s : pd.v) {
            if (bpc > 8) {
                out.push_back(static_cast<std::uint8_t>(s & 0xff));
                out.push_back(static_cast<std::uint8_t>(s >> 8));
            } else {
                out.push_back(static_cast<std::uint8_t>(s));
            }
        }
    }
}

inline void expect_picture(const Picture& pic, const std::vector<PlaneData>& planes) {
    ASSERT_EQ(pic.planes(), planes.size());
    for (unsigned p = 0; p < planes.size(); ++p) {
        ASSERT_EQ(pic.plane(p).width, planes[p].width) << "plane " << p;
        ASSERT_EQ(pic.plane(p).height, planes[p].height) << "plane " << p;
        for (unsigned y = 0; y < planes[p].height; ++y)
            for (unsigned x = 0; x < planes[p].width; ++x)
                ASSERT_EQ(sample(pic, p, x, y), planes[p].at(x, y)) << "plane " << p << " at " << x << "," << y;
    }
}

/// Runs `f` and returns the vmaf::Error it throws (fails the test otherwise).
template <typename F>
Error catch_error(F&& f) {
    try {
        f();
    } catch (const Error& e) {
        return e;
    }
    ADD_FAILURE() << "expected vmaf::Error";
    return Error(ErrorKind::Internal, "(none thrown)");
}

}  // namespace vmaf::iotest

/// Checks that `text` contains `part`.
#define EXPECT_CONTAINS(text, part)                                                          \
    EXPECT_NE(std::string(text).find(part), std::string::npos)                               \
        << "\"" << std::string(text) << "\" lacks \"" << std::string(part) << "\""
