// The CUDA backend: one device, frames staged once per frame through pinned
// host memory and shared by every CUDA twin of that frame.
#pragma once

#include "backends/gpu/portability.hpp"

#include <memory>
#include <span>
#include <mutex>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "backends/backend.hpp"
#include "backends/cuda/context.hpp"
#include "backends/cuda/cuda_util.hpp"
#include "backends/cuda/dispatch.hpp"

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

/// A twin's part of the per-frame results area (bytes from its start).
struct ResultArea {
    std::size_t offset = 0, bytes = 0;
};

/// One frame's results: a device area the twins' kernels add their exact
/// sums to (zeroed before the frame's `ready`), and its page-locked host
/// copy, read back in one copy per frame after every batched twin's work.
struct FrameResults {
    DeviceBuffer dev;
    PinnedBuffer host;
    Event copied;         ///< recorded after the frame's readback
    bool issued = false;  ///< the readback is enqueued
};

/// A twin's share of one frame's results, on the host.
class Results {
public:
    Results() = default;
    Results(std::shared_ptr<FrameResults> f, ResultArea a, bool copied)
        : frame_(std::move(f)), area_(a), copied_(copied) {}
    /// The sums; waits for the frame's readback when the twin did not copy them itself.
    template <typename T>
    const T* get() const {
        if (!copied_) {
            if (!frame_->issued) throw Error(ErrorKind::Internal, VMAF_GPU_NAME ": results read before the frame's readback");
            check(cudaEventSynchronize(frame_->copied.get()), "cudaEventSynchronize");
        }
        return reinterpret_cast<const T*>(frame_->host.get<std::uint8_t>() + area_.offset);
    }
    explicit operator bool() const { return frame_ != nullptr; }

private:
    std::shared_ptr<FrameResults> frame_;
    ResultArea area_;
    bool copied_ = false;
};

/// A feature's CUDA twin, listed by cmake/Cuda.cmake's generated table.
struct TwinDescriptor {
    std::string_view kind;  ///< the CPU kind it replaces ("psnr")
    std::unique_ptr<FeatureExtractor> (*create)(Session& s, const ExtractorInfo& kind, const OptionValues& opts,
                                                const VideoGeometry& geom, const ExtractorContext& ctx) = nullptr;
    /// One extractor for several option sets (ExtractorInfo::create_group's
    /// contract), or null: the twin has no groups / not for these sets.
    std::unique_ptr<FeatureExtractor> (*create_group)(Session& s, const ExtractorInfo& kind,
                                                      std::span<const OptionValues* const> sets,
                                                      const VideoGeometry& geom, const ExtractorContext& ctx) = nullptr;
};

/// Caller-created CUDA state (library API): hand it to EngineConfig::backend_state.
struct State {
    Context context;
};

class Session final : public BackendSession {
public:
    explicit Session(Context context);
    ~Session() override;

    std::string_view name() const override { return VMAF_GPU_NAME; }
    std::unique_ptr<FeatureExtractor> create_extractor(const ExtractorInfo& kind, const OptionValues& opts,
                                                       const VideoGeometry& geom, const ExtractorContext& ctx) override;
    std::unique_ptr<FeatureExtractor> create_group_extractor(const ExtractorInfo& kind,
                                                             std::span<const OptionValues* const> sets,
                                                             const VideoGeometry& geom,
                                                             const ExtractorContext& ctx) override;
    bool has_twin(std::string_view kind_name) const override;
    void run_begin(const VideoGeometry& geom, const PlaneNeeds& needs) override;
    void run_end() override;
    void frame_begin(unsigned index, const Picture& ref, const Picture& dist) override;
    void frame_end(unsigned index) override;
    bool takes_plane_feed() const override;
    void frame_begin_fed(unsigned index, const PlaneFeed& feed) override;
    std::shared_ptr<PictureAllocator> picture_allocator() override;
    std::optional<DeviceTarget> device_target() const override;
    std::function<Picture()> picture_supply(const VideoGeometry& geom, MemoryKind kind, unsigned keep) override;

    /// The staged frame `index` (between frame_begin and frame_end).
    const DeviceFrame& frame(unsigned index);
    /// A twin that returns from compute() with work still reading frame
    /// `index` on the device passes the event recorded after that work: the
    /// frame's staging is not reused before it completes.
    void add_reader(unsigned index, cudaEvent_t done);

    /// Reserves `bytes` of every frame's results area for one twin (at
    /// creation, before the run's first frame).
    ResultArea reserve_results(std::size_t bytes);
    /// Frame `index`'s device results area `a` (zeroed; between frame_begin and frame_end).
    void* results_device(unsigned index, ResultArea a);
    /// Ends a twin's frame: its kernels for frame `index`, enqueued on `s`,
    /// wrote their sums into `a`. Serial: copies `a` back on `s` and waits.
    /// Batched: records `done` on `s` (the frame's staging and its one
    /// readback, made in frame_end, wait for it) and returns at once; get()
    /// waits for that readback.
    Results submit(unsigned index, ResultArea a, cudaStream_t s, cudaEvent_t done, Dispatch mode);
    /// Makes this session's context current on the calling thread (every
    /// thread binds before its CUDA calls; nothing restores the previous one).
    void bind() const { context_.bind(); }
    int device() const { return context_.device(); }

private:
    struct Slot;
    struct FeedRing;
    Slot& active(unsigned index);  // requires m_ held
    /// `twin` once its set-up work on the device is done (null stays null).
    std::unique_ptr<FeatureExtractor> created(std::unique_ptr<FeatureExtractor> twin);
    /// A frame slot for a frame about to be staged (its results zeroed).
    std::unique_ptr<Slot> begin_slot();
    /// The staged slot `s` becomes frame `index`'s (its `ready` recorded).
    void activate(unsigned index, std::unique_ptr<Slot> s);
    std::shared_ptr<FrameResults> acquire_results();
    Context context_;
    VideoGeometry geom_;
    bool chroma_ = false;
    bool reference_ = true;  ///< false: the reference is not staged (its planes alias the distorted's)
    std::unique_ptr<Pool<Slot>> slots_;
    std::size_t slot_cap_ = 8;  ///< slots kept at most (set by run_begin)
    std::shared_ptr<PictureAllocator> pinned_;
    std::mutex m_;
    std::unordered_map<unsigned, std::unique_ptr<Slot>> active_;
    std::size_t results_bytes_ = 0;  ///< reserved so far
    bool results_sealed_ = false;    ///< the first frame has begun
    std::unique_ptr<Pool<FrameResults>> results_;
    /// A fed frame's reads: plane bytes [at, at + n) of one side, to byte `to` of the slot's staging.
    struct FeedPiece {
        int side;
        unsigned plane;
        std::size_t at, n, to;
    };
    std::vector<FeedPiece> feed_pieces_;  ///< in staging order (set by run_begin)
    std::unique_ptr<Pool<FeedRing>> rings_;  ///< one per thread reading a fed frame at once
};

/// The entry points of a twin with option-set groups: `Make(session, kind,
/// sets, geom, ctx)` builds one extractor for 1..MaxSets option sets; a larger
/// group gets null (each set then gets a twin of its own).
template <auto Make, std::size_t MaxSets>
struct GroupTwin {
    static std::unique_ptr<FeatureExtractor> create(Session& s, const ExtractorInfo& kind, const OptionValues& o,
                                                    const VideoGeometry& g, const ExtractorContext& ctx) {
        const OptionValues* const one[] = {&o};
        return Make(s, kind, std::span<const OptionValues* const>(one), g, ctx);
    }
    static std::unique_ptr<FeatureExtractor> create_group(Session& s, const ExtractorInfo& kind,
                                                          std::span<const OptionValues* const> sets,
                                                          const VideoGeometry& g, const ExtractorContext& ctx) {
        if (sets.size() > MaxSets) return nullptr;
        return Make(s, kind, sets, g, ctx);
    }
    static constexpr TwinDescriptor descriptor(std::string_view kind_name) {
        return {.kind = kind_name, .create = &create, .create_group = &create_group};
    }
};

/// Kernel-side probe: launches a trivial kernel; false with `err` set if it cannot run.
bool probe_device(std::string& err);

}  // namespace vmaf::cuda
