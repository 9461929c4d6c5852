// GPU-side throughput of the CUDA twins, without reading or uploading: the
// same frame pair, already in device memory, scored N times through the
// engine (MemoryKind::Device pictures). Prints frames per second.
//
//   cuda_device_fps WIDTH HEIGHT FRAMES THREADS [feature...]   (no feature: the default model)
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "vmaf/engine.hpp"

namespace {

/// One device frame of `w` x `h` 8-bit 4:2:0 with a gradient-and-noise pattern.
vmaf::Picture device_frame(unsigned w, unsigned h, unsigned seed) {
    vmaf::Picture host(vmaf::PixelFormat::Yuv420, 8, w, h);
    unsigned r = seed * 2654435761u + 1;
    vmaf::Plane planes[3];
    std::vector<void*> blocks;
    for (unsigned p = 0; p < 3; ++p) {
        const vmaf::Plane& hp = host.plane(p);
        for (unsigned y = 0; y < hp.height; ++y)
            for (unsigned x = 0; x < hp.width; ++x) {
                r = r * 1664525u + 1013904223u;
                hp.row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>((x + 2 * y) % 200 + 20 + (r >> 28));
            }
        void* d = nullptr;
        std::size_t pitch = 0;
        if (cudaMallocPitch(&d, &pitch, hp.width, hp.height) != cudaSuccess) std::exit(2);
        cudaMemcpy2D(d, pitch, hp.data, static_cast<std::size_t>(hp.stride), hp.width, hp.height, cudaMemcpyHostToDevice);
        blocks.push_back(d);
        planes[p] = {d, static_cast<std::ptrdiff_t>(pitch), hp.width, hp.height};
    }
    auto owner = std::shared_ptr<void>(nullptr, [blocks](void*) {
        for (void* b : blocks) cudaFree(b);
    });
    return vmaf::Picture::wrap(vmaf::PixelFormat::Yuv420, 8, w, h, planes, vmaf::MemoryKind::Device, owner);
}

class Repeat final : public vmaf::VideoSource {
public:
    Repeat(vmaf::Picture p, unsigned n) : pic_(std::move(p)), n_(n), geom_{vmaf::PixelFormat::Yuv420, 8, pic_.width(), pic_.height()} {}
    const vmaf::VideoGeometry& geometry() const override { return geom_; }
    const vmaf::StreamInfo& info() const override { return info_; }
    const std::string& name() const override { return name_; }
    std::optional<vmaf::Picture> read() override {
        if (i_ == n_) return std::nullopt;
        ++i_;
        return pic_;
    }

private:
    vmaf::Picture pic_;
    unsigned n_, i_ = 0;
    vmaf::VideoGeometry geom_;
    vmaf::StreamInfo info_;
    std::string name_ = "device";
};

}  // namespace

int main(int argc, char** argv) {
    if (argc < 5) {
        std::fprintf(stderr, "usage: %s WIDTH HEIGHT FRAMES THREADS [feature...]\n", argv[0]);
        return 1;
    }
    const unsigned w = std::atoi(argv[1]), h = std::atoi(argv[2]), n = std::atoi(argv[3]), t = std::atoi(argv[4]);
    vmaf::EngineConfig cfg;
    cfg.backend = "cuda";
    cfg.threads = t;
    cfg.no_prediction = argc > 5;
    vmaf::Engine e(cfg);
    if (argc == 5) e.add_model({"vmaf_v0.6.1", "", "", false, false, {}});
    for (int i = 5; i < argc; ++i) e.add_feature({argv[i], {}});
    e.select_backend();
    const vmaf::Picture a = device_frame(w, h, 1), b = device_frame(w, h, 2);
    // Warm-up run (allocations, first launches), then the timed one.
    Repeat wr(a, 8), wd(b, 8);
    e.run(wr, wd);
    Repeat ref(a, n), dist(b, n);
    const auto t0 = std::chrono::steady_clock::now();
    e.run(ref, dist);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%ux%u threads=%u %s: %u frames in %.3f s = %.0f fps (device-resident)\n", w, h, t,
                argc == 5 ? "vmaf_v0.6.1" : argv[5], n, s, n / s);
    return 0;
}
