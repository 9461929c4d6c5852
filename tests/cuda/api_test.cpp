// Library API of the backends: caller-created state, selection through
// EngineConfig, GPU-pinned feature names. Device cases skip without a GPU.
#include <gtest/gtest.h>

#include <cerrno>

#include "vmaf/engine.hpp"

namespace {

TEST(BackendApi, UnknownOrAbsentBackendState) {
    try {
        (void)vmaf::create_backend_state("sycl", 0);
        FAIL() << "sycl state created";
    } catch (const vmaf::BackendError& e) {
        EXPECT_EQ(e.backend(), "sycl");
        EXPECT_EQ(e.error_number(), -ENOSYS);
    }
}

TEST(BackendApi, PinnedFeatureNeedsItsBackend) {
    vmaf::EngineConfig cfg;
    cfg.backend = "cpu";
    vmaf::Engine e(cfg);
    e.add_feature({"psnr_cuda", {}});
    EXPECT_THROW(e.select_backend(), vmaf::BackendError);
}

TEST(BackendApi, CpuIsTheLibraryDefault) {
    vmaf::Engine e;
    e.add_feature({"psnr", {}});
    EXPECT_EQ(e.select_backend().used, "cpu");
    EXPECT_EQ(e.backend_used(), "cpu");
}

TEST(BackendApiGpu, CallerCreatedCudaState) {
    std::shared_ptr<void> st;
    try {
        st = vmaf::create_backend_state("cuda", 0);
    } catch (const vmaf::BackendError& e) {
        GTEST_SKIP() << "no usable CUDA device: " << e.what();
    }
    vmaf::EngineConfig cfg;
    cfg.backend = "cuda";
    cfg.backend_state = st;
    vmaf::Engine e(cfg);
    e.add_feature({"vif_cuda", {}});
    EXPECT_EQ(e.select_backend().used, "cuda");
    EXPECT_EQ(e.backend_used(), "cuda");
    EXPECT_THROW((void)vmaf::create_backend_state("cuda", 1 << 20), vmaf::BackendError);
}

}  // namespace
