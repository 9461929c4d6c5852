// The CUDA backend: one device, frames staged once per frame through pinned
// host memory and shared by every CUDA twin of that frame.
#pragma once

#include <cuda_runtime.h>

#include <memory>
#include <mutex>
#include <string_view>
#include <unordered_map>

#include "backends/backend.hpp"
#include "backends/cuda/cuda_util.hpp"

namespace vmaf::cuda {

/// One plane of a staged frame in device memory (rows packed: pitch = width * bytes per sample).
struct DevicePlane {
    const void* data = nullptr;
    std::size_t pitch = 0;  ///< bytes
    unsigned width = 0, height = 0;
};

/// A frame pair on the device. Work that reads it must wait for `ready` on its stream.
struct DeviceFrame {
    DevicePlane ref[3], dist[3];
    unsigned planes = 1;  ///< 1 (luma only staged) or 3
    unsigned bpc = 8;
    cudaEvent_t ready = nullptr;
};

class Session;

/// A feature's CUDA twin, listed by cmake/Cuda.cmake's generated table.
struct TwinDescriptor {
    std::string_view kind;  ///< the CPU kind it replaces ("psnr")
    std::unique_ptr<FeatureExtractor> (*create)(Session& s, const ExtractorInfo& kind, const OptionValues& opts, const VideoGeometry& geom,
                                                const ExtractorContext& ctx) = nullptr;
};

/// Caller-created CUDA state (library API): hand it to EngineConfig::backend_state.
struct State {
    int device = 0;
};

class Session final : public BackendSession {
public:
    explicit Session(int device);
    ~Session() override;

    std::string_view name() const override { return "cuda"; }
    std::unique_ptr<FeatureExtractor> create_extractor(const ExtractorInfo& kind, const OptionValues& opts,
                                                       const VideoGeometry& geom, const ExtractorContext& ctx) override;
    bool has_twin(std::string_view kind_name) const override;
    void run_begin(const VideoGeometry& geom, bool needs_chroma) override;
    void run_end() override;
    void frame_begin(unsigned index, const Picture& ref, const Picture& dist) override;
    void frame_end(unsigned index) override;
    std::shared_ptr<PictureAllocator> picture_allocator() override;

    /// The staged frame `index` (between frame_begin and frame_end).
    const DeviceFrame& frame(unsigned index);
    /// A twin that returns from compute() with work still reading frame
    /// `index` on the device passes the event recorded after that work: the
    /// frame's staging is not reused before it completes.
    void add_reader(unsigned index, cudaEvent_t done);
    /// Makes this session's device current on the calling thread.
    void bind() const;
    int device() const { return device_; }

private:
    struct Slot;
    int device_;
    VideoGeometry geom_;
    bool chroma_ = false;
    std::unique_ptr<Pool<Slot>> slots_;
    std::shared_ptr<PictureAllocator> pinned_;
    std::mutex m_;
    std::unordered_map<unsigned, std::unique_ptr<Slot>> active_;
};

/// Kernel-side probe: launches a trivial kernel; false with `err` set if it cannot run.
bool probe_device(std::string& err);

}  // namespace vmaf::cuda
