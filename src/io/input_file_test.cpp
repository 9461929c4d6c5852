#include "io/input_file.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <string>

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

}  // namespace
}  // namespace vmaf::io
