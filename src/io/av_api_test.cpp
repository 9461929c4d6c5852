#include "io/av_api.hpp"

#include <gtest/gtest.h>

#include <string>

#include "vmaf/error.hpp"

namespace vmaf::io {
namespace {

TEST(AvApi, AMissingLibraryIsOneLineNamingIt) {
    try {
        open_library("libvmaf_no_such_library.so.7");
        FAIL() << "loaded a library that does not exist";
    } catch (const Error& e) {
        const std::string msg = e.what();
        EXPECT_EQ(e.kind(), ErrorKind::Input);
        EXPECT_NE(msg.find("libvmaf_no_such_library.so.7"), std::string::npos) << msg;
        EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    }
}

// This build has the headers, so the libraries of the same major versions
// are installed (the -dev packages depend on them).
TEST(AvApi, EveryFunctionResolvesAndCallsThrough) {
    ASSERT_TRUE(av_loadable());
    const AvApi& api = av();
#define VMAF_AV_CHECK(lib, name) EXPECT_NE(api.name, nullptr) << #name;
    VMAF_AV_FUNCTIONS(VMAF_AV_CHECK)
#undef VMAF_AV_CHECK
    EXPECT_STREQ(api.av_get_pix_fmt_name(AV_PIX_FMT_YUV420P10LE), "yuv420p10le");
    char buf[AV_ERROR_MAX_STRING_SIZE] = {};
    EXPECT_EQ(api.av_strerror(AVERROR_EOF, buf, sizeof buf), 0);
    EXPECT_STREQ(buf, "End of file");
}

}  // namespace
}  // namespace vmaf::io
