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

TEST(BackendApi, NativeContextWithoutDevice) {
    int not_a_context = 0;  // never dereferenced: the device check comes first
    try {
        (void)vmaf::create_backend_state("sycl", 0, &not_a_context);
        FAIL() << "sycl state created";
    } catch (const vmaf::BackendError& e) {
        EXPECT_EQ(e.error_number(), -ENOSYS);
    }
    try {
        (void)vmaf::create_backend_state("cuda", 0);
    } catch (const vmaf::BackendError& e) {
        if (e.error_number() != -ENODEV && e.error_number() != -ENOSYS) GTEST_SKIP() << e.what();
        try {
            (void)vmaf::create_backend_state("cuda", 0, &not_a_context);
            FAIL() << "cuda state created for a fake context";
        } catch (const vmaf::BackendError& e2) {
            EXPECT_EQ(e2.error_number(), e.error_number()) << e2.what();
        }
        return;
    }
    GTEST_SKIP() << "a CUDA device is present";
}

TEST(BackendApi, BackendPicturesNeedAGpuBackend) {
    vmaf::Engine e;
    e.add_feature({"psnr", {}});
    const vmaf::VideoGeometry g{vmaf::PixelFormat::Yuv420, 8, 64, 48};
    for (auto kind : {vmaf::MemoryKind::Device, vmaf::MemoryKind::PinnedHost}) {
        try {
            (void)e.backend_pictures(g, kind, 2);
            FAIL() << "CPU engine gave GPU pictures";
        } catch (const vmaf::BackendError& err) {
            EXPECT_EQ(err.error_number(), -ENODEV);
        }
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
    // Pictures in device and page-locked memory; plain host memory is not the backend's.
    const vmaf::VideoGeometry g{vmaf::PixelFormat::Yuv420, 10, 66, 38};
    auto device = e.backend_pictures(g, vmaf::MemoryKind::Device, 2);
    const vmaf::Picture p = device();
    EXPECT_EQ(p.memory(), vmaf::MemoryKind::Device);
    EXPECT_EQ(p.plane(1).width, 33u);
    EXPECT_EQ(p.plane(1).height, 19u);
    EXPECT_GE(p.plane(1).stride, 66);
    EXPECT_EQ(e.backend_pictures(g, vmaf::MemoryKind::PinnedHost, 1)().memory(), vmaf::MemoryKind::PinnedHost);
    try {
        (void)e.backend_pictures(g, vmaf::MemoryKind::Host, 1);
        FAIL() << "host pictures from the backend";
    } catch (const vmaf::BackendError& err) {
        EXPECT_EQ(err.error_number(), -ENOSYS);
    }
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

// Pictures handed over in device memory (as FFmpeg's CUDA frames will be)
// score exactly as the same pictures in host memory.
#include <cuda_runtime.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr unsigned kW = 352, kH = 288, kFrames = 11;  // more than one batch of motion SADs

/// A deterministic 8-bit 4:2:0 clip: smooth gradients plus noise; the
/// distorted side adds more noise and a small shift.
std::vector<vmaf::Picture> synth_clip(bool distorted) {
    std::mt19937 rng(distorted ? 7 : 3);
    std::vector<vmaf::Picture> out;
    for (unsigned f = 0; f < kFrames; ++f) {
        vmaf::Picture p(vmaf::PixelFormat::Yuv420, 8, kW, kH);
        for (unsigned pl = 0; pl < 3; ++pl) {
            const vmaf::Plane& P = p.plane(pl);
            for (unsigned y = 0; y < P.height; ++y)
                for (unsigned x = 0; x < P.width; ++x) {
                    const unsigned sx = distorted ? x + 1 : x;
                    int v = static_cast<int>((sx * 3 + y * 2 + f * 5 + pl * 40) % 200) + 20 + static_cast<int>(rng() % 9);
                    if (distorted) v += static_cast<int>(rng() % 13) - 6;
                    P.row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(std::clamp(v, 0, 255));
                }
        }
        out.push_back(std::move(p));
    }
    return out;
}

/// Serves a list of pictures; with `device`, copies of them in CUDA device memory.
class ListSource final : public vmaf::VideoSource {
public:
    ListSource(std::vector<vmaf::Picture> pics, bool device) : pics_(std::move(pics)), device_(device) {}
    const vmaf::VideoGeometry& geometry() const override { return geom_; }
    const vmaf::StreamInfo& info() const override { return info_; }
    const std::string& name() const override { return name_; }
    std::optional<vmaf::Picture> read() override {
        if (next_ == pics_.size()) return std::nullopt;
        const vmaf::Picture& h = pics_[next_++];
        if (!device_) return h;
        vmaf::Plane planes[3];
        std::vector<void*> blocks;
        for (unsigned p = 0; p < 3; ++p) {
            const vmaf::Plane& hp = h.plane(p);
            void* d = nullptr;
            std::size_t pitch = 0;
            if (cudaMallocPitch(&d, &pitch, hp.width, hp.height) != cudaSuccess) throw std::runtime_error("cudaMallocPitch");
            cudaMemcpy2D(d, pitch, hp.data, static_cast<std::size_t>(hp.stride), hp.width, hp.height, cudaMemcpyHostToDevice);
            blocks.push_back(d);
            planes[p] = {d, static_cast<std::ptrdiff_t>(pitch), hp.width, hp.height};
        }
        auto owner = std::shared_ptr<void>(nullptr, [blocks](void*) {
            for (void* b : blocks) cudaFree(b);
        });
        return vmaf::Picture::wrap(vmaf::PixelFormat::Yuv420, 8, kW, kH, planes, vmaf::MemoryKind::Device, owner);
    }

private:
    std::vector<vmaf::Picture> pics_;
    bool device_;
    std::size_t next_ = 0;
    vmaf::VideoGeometry geom_{vmaf::PixelFormat::Yuv420, 8, kW, kH};
    vmaf::StreamInfo info_;
    std::string name_ = "list";
};

/// The report of one run, minus the fps line.
std::string score(bool device, const std::string& backend, unsigned threads, const std::vector<std::string>& features) {
    vmaf::EngineConfig cfg;
    cfg.backend = backend;
    cfg.threads = threads;
    vmaf::Engine e(cfg);
    e.add_model({"vmaf_v0.6.1", "", "", false, false, {}});
    for (const auto& f : features) e.add_feature({f, {}});
    ListSource ref(synth_clip(false), device), dist(synth_clip(true), device);
    EXPECT_EQ(e.run(ref, dist), kFrames);
    const std::string path = ::testing::TempDir() + "/device_pictures_" + std::to_string(::getpid()) + ".json";
    e.write_report(path, vmaf::OutputFormat::Json, vmaf::Precision{vmaf::Precision::Mode::Digits, 17});
    std::ifstream in(path);
    std::string line, text;
    while (std::getline(in, line))
        if (line.find("\"fps\"") == std::string::npos && line.find("backend_used") == std::string::npos &&
            line.find("feature_backends") == std::string::npos)
            text += line + "\n";
    std::remove(path.c_str());
    return text;
}

TEST(BackendApiGpu, DevicePicturesScoreLikeHostPictures) {
    try {
        (void)vmaf::create_backend_state("cuda", 0);
    } catch (const vmaf::BackendError& e) {
        GTEST_SKIP() << "no usable CUDA device: " << e.what();
    }
    // Both dispatch modes (the clip is small: the default is serial). The
    // report must match the CPU's to the byte, key order included.
    for (const char* dispatch : {"", "batched"}) {
        ::setenv("VMAF_CUDA_DISPATCH", dispatch, 1);
        for (unsigned threads : {0u, 4u}) {
            const std::string host = score(false, "cuda", threads, {"psnr"});
            const std::string device = score(true, "cuda", threads, {"psnr"});
            EXPECT_NE(host.find("\"vmaf\""), std::string::npos);
            EXPECT_NE(host.find("psnr_cb"), std::string::npos);
            EXPECT_EQ(host, device) << "threads " << threads << " dispatch '" << dispatch << "'";
            EXPECT_EQ(host, score(false, "cpu", threads, {"psnr"})) << "threads " << threads << " dispatch '" << dispatch << "'";
        }
    }
    ::unsetenv("VMAF_CUDA_DISPATCH");
    // The CPU cannot read device pictures: a clear error, not a crash.
    EXPECT_THROW(score(true, "cpu", 0, {}), vmaf::Error);
}

}  // namespace
