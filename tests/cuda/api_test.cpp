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

#include "backends/cuda/dispatch.hpp"

namespace {

TEST(CudaDispatch, ParsesModesAndOverrides) {
    using vmaf::cuda::Dispatch;
    using vmaf::cuda::dispatch_for;
    EXPECT_EQ(dispatch_for(nullptr, "adm", 1920, 1080), Dispatch::Batched);  // adaptive: above 720p
    EXPECT_EQ(dispatch_for("", "adm", 1280, 720), Dispatch::Serial);
    EXPECT_EQ(dispatch_for("serial", "vif", 3840, 2160), Dispatch::Serial);
    EXPECT_EQ(dispatch_for("batched", "vif", 576, 324), Dispatch::Batched);
    EXPECT_EQ(dispatch_for("serial,adm=batched", "adm", 576, 324), Dispatch::Batched);
    EXPECT_EQ(dispatch_for("serial,adm_cuda=batched", "adm", 576, 324), Dispatch::Batched);
    EXPECT_EQ(dispatch_for("serial,adm=batched", "vif", 576, 324), Dispatch::Serial);
    EXPECT_EQ(dispatch_for("adaptive,motion=serial", "motion", 3840, 2160), Dispatch::Serial);
    EXPECT_THROW(dispatch_for("fast", "adm", 576, 324), vmaf::Error);
    EXPECT_THROW(dispatch_for("serial,adm=fast", "vif", 576, 324), vmaf::Error);
    EXPECT_THROW(dispatch_for("serial,batched", "vif", 576, 324), vmaf::Error);
}

}  // namespace
