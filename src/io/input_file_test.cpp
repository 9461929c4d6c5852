#include "io/input_file.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "vmaf/picture.hpp"

#include "io/readers.hpp"

namespace vmaf::io {
namespace {

/// The read end of a pipe holding `data` (at most the pipe's buffer), as a path.
struct Pipe {
    explicit Pipe(const std::string& data) {
        int fds[2];
        EXPECT_EQ(::pipe(fds), 0);
        read_fd = fds[0];
        EXPECT_EQ(::write(fds[1], data.data(), data.size()), static_cast<ssize_t>(data.size()));
        ::close(fds[1]);
    }
    ~Pipe() { ::close(read_fd); }
    std::string path() const { return "/dev/fd/" + std::to_string(read_fd); }
    int read_fd;
};

std::string read_all(InputFile& in) {
    std::string out;
    for (int c; (c = in.get()) >= 0;) out += static_cast<char>(c);
    return out;
}

TEST(InputFile, PeekOnAPipeLeavesTheBytesToRead) {
    const std::string data = "YUV4MPEG2 W2 H2\nFRAME\nabcdef";
    Pipe p(data);
    InputFile in(p.path());
    EXPECT_FALSE(in.remaining_known());
    EXPECT_EQ(in.peek(9), "YUV4MPEG2");
    EXPECT_EQ(in.peek(512), data);  // more than the pipe holds: what there is
    char buf[4];
    ASSERT_EQ(in.read(buf, 4), 4u);
    EXPECT_EQ(std::string(buf, 4), "YUV4");
    EXPECT_EQ(in.peek(3), "MPE");  // peeking again after a read
    EXPECT_EQ(in.skip(12), 12u);   // through the peeked bytes
    EXPECT_EQ(read_all(in), data.substr(16));
}

TEST(InputFile, PeekOnARegularFileDoesNotMove) {
    char path[] = "/tmp/vmaf_input_file_test_XXXXXX";
    const int fd = ::mkstemp(path);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::write(fd, "0123456789", 10), 10);
    ::close(fd);
    {
        InputFile in(path);
        char c2[2];
        ASSERT_EQ(in.read(c2, 2), 2u);
        EXPECT_EQ(in.peek(4), "2345");
        EXPECT_EQ(in.tell(), 2u);
        EXPECT_EQ(read_all(in), "23456789");
    }
    std::remove(path);
}

TEST(InputFile, Y4mReaderContinuesFromPeekedPipe) {
    std::string data = "YUV4MPEG2 W2 H2 F25:1 C444\nFRAME\n";
    for (int i = 0; i < 12; ++i) data += static_cast<char>(i * 10);
    Pipe p(data);
    InputFile in(p.path());
    ASSERT_EQ(in.peek(9), "YUV4MPEG2");
    auto src = open_y4m(std::move(in));
    EXPECT_EQ(src->geometry().width, 2u);
    auto pic = src->read();
    ASSERT_TRUE(pic);
    EXPECT_EQ(pic->plane(2).row<std::uint8_t>(1)[1], 110);
    EXPECT_FALSE(src->read());
}

/// A temporary file holding `bytes` pseudo-random bytes.
struct TempFile {
    explicit TempFile(std::size_t bytes) {
        char name[] = "/tmp/vmaf_input_file_test_XXXXXX";
        const int fd = ::mkstemp(name);
        EXPECT_GE(fd, 0);
        path = name;
        unsigned r = 12345;
        data.resize(bytes);
        for (auto& c : data) c = static_cast<char>((r = r * 1103515245u + 12345u) >> 24);
        EXPECT_EQ(::write(fd, data.data(), bytes), static_cast<ssize_t>(bytes));
        ::close(fd);
    }
    ~TempFile() { std::remove(path.c_str()); }
    std::string path;
    std::string data;
};

// A plane read in row bands by several threads equals one read by one
// thread, for a whole file and for one that ends inside the plane (the
// byte count is the same as a single reader's, so truncation is reported alike).
TEST(InputFile, BandedPlaneReadEqualsSingleRead) {
    const unsigned w = 1500, h = 1000;  // 3 MB of 16-bit samples: several 1 MiB bands
    for (const std::size_t file_bytes : {std::size_t{w} * h * 2 + 100, std::size_t{w} * h * 2 * 2 / 3 + 7}) {
        TempFile f(file_bytes);
        InputFile in(f.path);
        for (const unsigned split : {1u, 3u, 8u}) {
            Picture pic(PixelFormat::Yuv400, 10, w, h);
            const Plane& pl = pic.plane(0);
            std::memset(pl.data, 0, static_cast<std::size_t>(pl.stride) * h);
            const std::size_t got = read_plane_at(in, pl, 2, 50, split);
            EXPECT_EQ(got, std::min<std::size_t>(std::size_t{w} * h * 2, file_bytes - 50)) << "split " << split;
            for (unsigned y = 0; y < h; ++y) {
                const std::size_t row = std::size_t{y} * w * 2;
                if (row >= got) break;
                const std::size_t n = std::min<std::size_t>(w * 2, got - row);
                ASSERT_EQ(std::memcmp(pl.row<std::uint8_t>(y), f.data.data() + 50 + row, n), 0)
                    << "split " << split << " row " << y;
            }
        }
    }
}

}  // namespace
}  // namespace vmaf::io
