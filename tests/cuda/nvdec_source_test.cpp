// Container sources decoding on the GPU (VideoSource::decode_on_device): the
// cases made by `nvdec_test.py make DIR`, named by VMAF_NVDEC_CASES=DIR.
// Skips without that variable or without a GPU decoder.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "vmaf/video_source.hpp"

namespace {

TEST(NvdecSource, DeliversDevicePicturesForWhatTheGpuDecodes) {
    const char* dir = std::getenv("VMAF_NVDEC_CASES");
    if (!dir) GTEST_SKIP() << "VMAF_NVDEC_CASES is not set";
    std::ifstream in(std::string(dir) + "/cases.json");
    ASSERT_TRUE(in) << dir;
    const auto cases = nlohmann::json::parse(in);
    for (const auto& c : cases) {
        SCOPED_TRACE(c["name"].get<std::string>());
        auto src = vmaf::open_video(std::string(dir) + "/" + c["dist"].get<std::string>());
        std::string why;
        const bool on_gpu = src->decode_on_device(vmaf::DeviceTarget{"cuda", 0}, why);
        if (!on_gpu && why.find("cannot open the GPU's decoder") != std::string::npos) {
            GTEST_SKIP() << why;
        }
        if (!c["gpu"].is_null()) {
            ASSERT_EQ(on_gpu, c["gpu"].get<bool>()) << why;
        }
        unsigned n = 0;
        while (auto p = src->read()) {
            ++n;
            EXPECT_EQ(p->memory(), on_gpu ? vmaf::MemoryKind::Device : vmaf::MemoryKind::Host);
            if (on_gpu && p->planes() == 3 && p->format() == vmaf::PixelFormat::Yuv420) {
                EXPECT_EQ(p->plane(1).step, 2u);  // NV12 / P010 chroma, interleaved
                EXPECT_EQ(p->plane(0).shift, p->bpc() == 8 ? 0u : 16u - p->bpc());
            }
        }
        EXPECT_GT(n, 0u);
    }
}

}  // namespace
