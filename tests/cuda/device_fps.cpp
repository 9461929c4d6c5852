// GPU-side throughput of the CUDA twins, without reading or uploading:
// frame pairs already in device memory, scored N times through the engine
// (MemoryKind::Device pictures). Prints frames per second.
//
//   cuda_device_fps WIDTH HEIGHT FRAMES THREADS [-b BPC] [-c REF DIST [K]] [-m VERSION[=NAME]]... [feature...]
//   (no model and no feature: the default model; BPC 8 (default) to 16)
//
// The pair is a synthetic gradient with noise unless -c names raw 4:2:0
// files (16-bit little-endian samples above 8 bits): then their first K
// pairs (default 8) are uploaded once and cycled. Content matters to some
// twins: cambi's c-value work grows with the masked, banded area, which
// the noise frames do not have.
#include <cuda_runtime.h>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "vmaf/engine.hpp"
#include "vmaf/video_source.hpp"

namespace {

/// A `w` x `h` `bpc`-bit 4:2:0 host picture with a gradient-and-noise pattern.
vmaf::Picture pattern_frame(unsigned w, unsigned h, unsigned bpc, unsigned seed) {
    vmaf::Picture host(vmaf::PixelFormat::Yuv420, bpc, w, h);
    unsigned r = seed * 2654435761u + 1;
    for (unsigned p = 0; p < 3; ++p) {
        const vmaf::Plane& hp = host.plane(p);
        for (unsigned y = 0; y < hp.height; ++y)
            for (unsigned x = 0; x < hp.width; ++x) {
                r = r * 1664525u + 1013904223u;
                const unsigned v = ((x + 2 * y) % 200 + 20 + (r >> 28)) << (bpc - 8);
                if (bpc == 8)
                    hp.row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(v);
                else
                    hp.row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(v | (r >> 30));
            }
    }
    return host;
}

/// `host` copied to device memory, as a MemoryKind::Device picture.
vmaf::Picture to_device(const vmaf::Picture& host) {
    const unsigned bps = host.bpc() > 8 ? 2 : 1;
    vmaf::Plane planes[3];
    std::vector<void*> blocks;
    for (unsigned p = 0; p < 3; ++p) {
        const vmaf::Plane& hp = host.plane(p);
        void* d = nullptr;
        std::size_t pitch = 0;
        if (cudaMallocPitch(&d, &pitch, hp.width * bps, hp.height) != cudaSuccess) std::exit(2);
        cudaMemcpy2D(d, pitch, hp.data, static_cast<std::size_t>(hp.stride), hp.width * bps, hp.height,
                     cudaMemcpyHostToDevice);
        blocks.push_back(d);
        planes[p] = {d, static_cast<std::ptrdiff_t>(pitch), hp.width, hp.height};
    }
    auto owner = std::shared_ptr<void>(nullptr, [blocks](void*) {
        for (void* b : blocks) cudaFree(b);
    });
    return vmaf::Picture::wrap(vmaf::PixelFormat::Yuv420, host.bpc(), host.width(), host.height(), planes,
                               vmaf::MemoryKind::Device, owner);
}

/// `n` frames cycling through `pics` (same geometry).
class Repeat final : public vmaf::VideoSource {
public:
    Repeat(std::vector<vmaf::Picture> pics, unsigned n)
        : pics_(std::move(pics)),
          n_(n),
          geom_{vmaf::PixelFormat::Yuv420, pics_[0].bpc(), pics_[0].width(), pics_[0].height()} {}
    const vmaf::VideoGeometry& geometry() const override { return geom_; }
    const vmaf::StreamInfo& info() const override { return info_; }
    const std::string& name() const override { return name_; }
    std::optional<vmaf::Picture> read() override {
        if (i_ == n_) return std::nullopt;
        return pics_[i_++ % pics_.size()];
    }

private:
    std::vector<vmaf::Picture> pics_;
    unsigned n_, i_ = 0;
    vmaf::VideoGeometry geom_;
    vmaf::StreamInfo info_;
    std::string name_ = "device";
};

}  // namespace

static int run(int argc, char** argv) {
    if (argc < 5) {
        std::fprintf(stderr,
                     "usage: %s WIDTH HEIGHT FRAMES THREADS [-b BPC] [-c REF DIST [K]] [-m VERSION[=NAME]]... "
                     "[feature...]\n",
                     argv[0]);
        return 1;
    }
    const unsigned w = std::atoi(argv[1]), h = std::atoi(argv[2]), n = std::atoi(argv[3]), t = std::atoi(argv[4]);
    unsigned bpc = 8;
    std::vector<vmaf::ModelRequest> models;
    std::vector<std::string> features;
    std::string label, clips[2];
    unsigned clip_frames = 8;
    for (int i = 5; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "-c" && i + 2 < argc) {
            clips[0] = argv[++i], clips[1] = argv[++i];
            if (i + 1 < argc && std::isdigit(static_cast<unsigned char>(argv[i + 1][0])))
                clip_frames = std::atoi(argv[++i]);
            continue;
        }
        if ((a == "-b" || a == "-m") && i + 1 < argc) {
            const std::string v = argv[++i];
            if (a == "-b") {
                bpc = std::atoi(v.c_str());
                continue;
            }
            const auto eq = v.find('=');
            vmaf::ModelRequest m;
            m.version = v.substr(0, eq);
            if (eq != std::string::npos) m.name = v.substr(eq + 1);
            models.push_back(m);
        } else {
            features.push_back(a);
        }
        label += (label.empty() ? "" : "+") + (a == "-m" ? std::string(argv[i]) : a);
    }
    if (bpc < 8 || bpc > 16) {
        std::fprintf(stderr, "-b: 8 to 16\n");
        return 1;
    }
    if (models.empty() && features.empty()) {
        models.push_back({"vmaf_v0.6.1", "", "", false, false, {}});
        label = "vmaf_v0.6.1";
    }
    vmaf::EngineConfig cfg;
    cfg.backend = "cuda";
    cfg.threads = t;
    cfg.no_prediction = models.empty();
    vmaf::Engine e(cfg);
    for (const auto& m : models) e.add_model(m);
    for (const auto& f : features) e.add_feature({f, {}});
    e.select_backend();
    std::vector<vmaf::Picture> pics[2];
    if (clips[0].empty()) {
        for (unsigned k = 0; k < 2; ++k) pics[k].push_back(to_device(pattern_frame(w, h, bpc, k + 1)));
    } else {
        for (unsigned k = 0; k < 2; ++k) {
            const auto src = vmaf::open_yuv(clips[k], {vmaf::PixelFormat::Yuv420, bpc, w, h});
            while (pics[k].size() < clip_frames)
                if (auto host = src->read())
                    pics[k].push_back(to_device(*host));
                else
                    break;
        }
        if (pics[0].empty() || pics[0].size() != pics[1].size()) {
            std::fprintf(stderr, "cuda_device_fps: -c: need as many whole %ux%u %u-bit 4:2:0 frames in each file\n",
                         w, h, bpc);
            return 1;
        }
        label += " (" + std::to_string(pics[0].size()) + " clip pairs)";
    }
    // Warm-up run (allocations, first launches), then the timed one.
    Repeat wr(pics[0], 8), wd(pics[1], 8);
    e.run(wr, wd);
    Repeat ref(pics[0], n), dist(pics[1], n);
    const auto t0 = std::chrono::steady_clock::now();
    e.run(ref, dist);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%ux%u %u-bit threads=%u %s: %u frames in %.3f s = %.0f fps (device-resident)\n", w, h, bpc, t,
                label.c_str(), n, s, n / s);
    return 0;
}

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "cuda_device_fps: %s\n", e.what());
        return 1;
    }
}
