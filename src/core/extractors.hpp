// The compute and collect stages of the engine: the configured extractors,
// where each runs (a backend's twin or the CPU), which instances one
// extractor computes together, and a frame's compute() / finish() / flush().
// Shared by the pull pipeline (engine.cpp) and push mode (engine_push.cpp).
// Private to the library.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "core/collector.hpp"
#include "core/feature_extractor.hpp"

namespace vmaf::engine_detail {

/// One configured extractor: kind + resolved options. The run's extractor is
/// created when the geometry is known.
struct Instance {
    const ExtractorInfo* info = nullptr;
    OptionValues opts;
    std::string identity;
    std::vector<Slot> slots;  ///< by output index (aggregates: unused)
    std::string pinned;       ///< backend a GPU-pinned name asked for ("cuda" for psnr_cuda), or empty
    // This run's:
    std::unique_ptr<FeatureExtractor> extractor;  ///< null for a member another instance computes
    bool on_backend = false;                      ///< computed by the backend (its twin)
    /// Leader of a group: the instances its extractor computes, in option-set order (itself first).
    std::vector<std::size_t> group;
};

/// One frame pair on its way through the stages.
struct Token {
    unsigned index = 0;
    Picture ref, dist;  ///< empty when `feed` is set
    /// Where a backend reads the pair itself (every extractor on the backend,
    /// raw files); null: the pictures hold it.
    const PlaneFeed* feed = nullptr;
    std::vector<std::unique_ptr<FrameState>> states;  ///< by instance
};

/// A score a group's extractor wrote for a member instance, not yet passed on
/// (see Extractors::finish).
struct HeldWrite {
    std::size_t inst;
    unsigned output;  ///< the member's own output index
    unsigned frame;
    double value;
    bool aggregate;
};

class Extractors {
public:
    explicit Extractors(FeatureCollector& fc) : fc_(fc) {}

    /// Index of the instance computing (info, dict), adding it if new.
    std::size_t use(const ExtractorInfo* info, const OptionDict& dict, const std::string& pinned = {});
    std::vector<Instance>& instances() { return list_; }
    const std::vector<Instance>& instances() const { return list_; }
    bool empty() const { return list_.empty(); }
    /// No instance reads chroma.
    bool luma_only() const;

    /// Decides where each instance runs this run (`session`'s twin, or the
    /// CPU when null or twinless); returns what the backend's twins read.
    PlaneNeeds place(BackendSession* session);
    /// Every instance runs on the backend.
    bool all_on_backend() const;
    /// Creates this run's extractors (after place() and the backend's run_begin()).
    /// Instances of a groupable kind that differ only in its group options
    /// share one extractor where the backend (or the CPU kind) builds groups.
    void create(BackendSession* session, const VideoGeometry& geom, const ExtractorContext& ctx);

    /// Compute stage: the frame's extractors, in parallel when asked; the
    /// backend stages the pictures once for all its twins of the frame.
    void compute(Token& t, bool parallel, BackendSession* session, unsigned subsample) const;
    /// Collect stage (frame order): writes the frame's scores, in instance
    /// order (a group's writes for its members when the loop reaches them).
    void finish(Token& t);
    /// After the last frame.
    void flush();

private:
    bool runs_on(const Instance& inst, unsigned frame, unsigned subsample) const;
    /// Writes and forgets the held writes of instance `inst`, in their order.
    void release(std::size_t inst);

    FeatureCollector& fc_;
    std::vector<Instance> list_;
    std::vector<HeldWrite> held_;  ///< reused by finish() and flush(), both single-threaded
};

}  // namespace vmaf::engine_detail
