// Compute backends other than the CPU (CUDA, later SYCL/HIP/Metal).
//
// The core knows backends only through this interface: a backend registers a
// BackendDescriptor (listed by cmake/Cuda.cmake's generated table), the engine
// starts it for a run and asks it for twins of the CPU extractor kinds. A
// backend without a twin for some kind leaves that kind on the CPU.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/feature_extractor.hpp"
#include "vmaf/engine.hpp"
#include "vmaf/error.hpp"

namespace vmaf {

/// Backends throw vmaf::BackendError (vmaf/engine.hpp) when they cannot start.

struct BackendStartOptions {
    int device = 0;                   ///< device index
    std::shared_ptr<void> external;  ///< caller-created backend state (backend-specific type), or null
};

/// What a run's twins on a backend read of each pair: the backend stages
/// nothing else (no chroma for luma-only features, no reference picture for
/// no-reference ones such as cambi).
struct PlaneNeeds {
    bool chroma = false;
    bool reference = true;
};

/// Reads a frame pair's planes in pieces: bytes [at, at + n) of plane `plane`
/// (packed rows) of the reference (side 0) or distorted (side 1) picture of
/// pair `index`, into `dst`. Throws vmaf::Error(Input) for a frame the input
/// lacks. Callable from several threads at once.
using PlaneFeed =
    std::function<void(unsigned index, int side, unsigned plane, std::uint64_t at, void* dst, std::size_t n)>;

/// One started backend, owned by an engine for the duration of its runs.
class BackendSession {
public:
    virtual ~BackendSession() = default;
    virtual std::string_view name() const = 0;
    /// The backend's twin of CPU kind `kind`, or nullptr when it has none.
    virtual std::unique_ptr<FeatureExtractor> create_extractor(const ExtractorInfo& kind, const OptionValues& opts,
                                                               const VideoGeometry& geom,
                                                               const ExtractorContext& ctx) = 0;
    /// The backend's one extractor for several option sets of `kind` (see
    /// ExtractorInfo::create_group for the contract), or nullptr when it
    /// computes them separately.
    virtual std::unique_ptr<FeatureExtractor> create_group_extractor(
        const ExtractorInfo& /*kind*/, std::span<const OptionValues* const> /*sets*/, const VideoGeometry& /*geom*/,
        const ExtractorContext& /*ctx*/) {
        return nullptr;
    }
    /// Whether create_extractor would give a twin for `kind_name`.
    virtual bool has_twin(std::string_view kind_name) const = 0;
    /// Around one frame's compute() calls (concurrent for different frames):
    /// stage the pictures once for every twin of the frame, release them after.
    /// Pictures may be in host memory of any kind, or (MemoryKind::Device) in
    /// this backend's device memory. After frame_end the backend no longer
    /// reads them.
    virtual void frame_begin(unsigned /*index*/, const Picture& /*ref*/, const Picture& /*dist*/) {}
    virtual void frame_end(unsigned /*index*/) {}
    /// Whether frame_begin_fed() is offered: the backend reads pairs in
    /// pieces through its own small staging (for a GPU, reads that stay in
    /// the CPU's caches until the upload takes them).
    virtual bool takes_plane_feed() const { return false; }
    /// frame_begin for a pair whose pictures the backend reads itself from
    /// `feed` (the planes it stages, nothing else). Ended by frame_end.
    virtual void frame_begin_fed(unsigned index, const PlaneFeed& /*feed*/) {
        throw Error(ErrorKind::Internal, std::string(name()) + " cannot read frame " + std::to_string(index) +
                                             " from a plane feed");
    }
    /// Called at the start of a run, before its extractors are created
    /// (lets the backend size its staging; twins then reserve per-frame state).
    virtual void run_begin(const VideoGeometry& /*geom*/, const PlaneNeeds& /*needs*/) {}
    virtual void run_end() {}
    /// Storage the backend uploads from directly (page-locked), for the
    /// readers' pictures; null when plain host memory is as good.
    virtual std::shared_ptr<PictureAllocator> picture_allocator() { return nullptr; }
    /// The device whose memory frame_begin reads pictures from directly
    /// (a GPU decoder's frames); nullopt when pictures must be in host memory.
    virtual std::optional<DeviceTarget> device_target() const { return std::nullopt; }
    /// A supply of pictures of `geom` in this backend's memory `kind`
    /// (MemoryKind::Device or PinnedHost) for callers that fill them
    /// themselves: each call gives one picture (unspecified samples); its
    /// storage goes back for reuse when the last copy is released (up to
    /// `keep` kept, the rest freed), and stays valid after the session ends.
    /// `keep` are allocated at once. Empty when the backend has no such memory.
    virtual std::function<Picture()> picture_supply(const VideoGeometry& /*geom*/, MemoryKind /*kind*/,
                                                    unsigned /*keep*/) {
        return {};
    }
};

struct BackendDescriptor {
    std::string_view name;  ///< "cuda", ...
    /// Starts the backend; throws BackendError when it cannot.
    std::unique_ptr<BackendSession> (*start)(const BackendStartOptions& opts) = nullptr;
    /// Creates caller-owned state for `device`, or for the backend's native
    /// context `native` when not null (see vmaf::create_backend_state); throws BackendError.
    std::shared_ptr<void> (*create_state)(int device, void* native) = nullptr;
    /// The storage a session started with `opts` uploads from directly,
    /// usable while the backend is still starting: an allocation touches its
    /// pages at once and waits for the backend's runtime only to register
    /// them (it throws if the runtime cannot start). Null when no device is
    /// likely present (a cheap check, not a start).
    std::shared_ptr<PictureAllocator> (*upload_allocator)(const BackendStartOptions& opts) = nullptr;
    /// Saves what the backend changes on the calling thread into `*saved`
    /// (false: nothing to save: it never ran and `starting` is false, or it
    /// cannot run here), and restores it.
    bool (*save_thread)(void** saved, bool starting) = nullptr;
    void (*restore_thread)(void* saved) = nullptr;
};

/// Backends compiled into this build, in auto-selection priority order.
std::span<const BackendDescriptor* const> backend_registry();
const BackendDescriptor* find_backend(std::string_view name);

/// GPU backend names the CLI and API accept (compiled in or not).
inline constexpr std::string_view kGpuBackendNames[] = {"cuda", "sycl", "hip", "metal"};

}  // namespace vmaf
