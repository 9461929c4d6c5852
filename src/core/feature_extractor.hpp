// The contract between the engine and a feature: an extractor turns pairs of
// pictures into named per-frame scores.
//
// Work is split in two so frames can run in parallel:
//  * compute() sees one frame's pictures and may run concurrently for
//    different frames (it must not mutate the extractor);
//  * finish() runs once per frame, strictly in frame order, on one thread,
//    and writes scores. Temporal features (motion) keep their history here.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "core/options.hpp"
#include "vmaf/picture.hpp"

namespace vmaf {

/// Destination of scores. `output` indexes the extractor's declared outputs.
class ScoreWriter {
public:
    virtual ~ScoreWriter() = default;
    virtual void write(unsigned frame, unsigned output, double value) = 0;
    /// Clip-level (aggregate) metric such as apsnr_y; `output` as above.
    virtual void write_aggregate(unsigned output, double value) = 0;
};

/// (output index, value) pairs of one frame.
using ScoreList = std::vector<std::pair<unsigned, double>>;

/// Per-frame result of compute(); extractors may derive to carry more.
struct FrameState {
    virtual ~FrameState() = default;
    ScoreList scores;
};

class FeatureExtractor {
public:
    virtual ~FeatureExtractor() = default;

    /// Concurrent per-frame work. `index` is the frame number.
    virtual std::unique_ptr<FrameState> compute(unsigned index, const Picture& ref, const Picture& dist) const = 0;

    /// Ordered stage: default writes state.scores for `index`.
    virtual void finish(unsigned index, FrameState& state, ScoreWriter& out) {
        for (auto [o, v] : state.scores) out.write(index, o, v);
    }

    /// After the last frame (temporal features emit their tail here, and
    /// clip-level aggregates are written).
    virtual void flush(ScoreWriter& /*out*/) {}
};

/// Run-wide settings an extractor may need when it is created.
struct ExtractorContext {
    unsigned cpumask = 0;  ///< set bits disable ISAs (upstream bit meanings); selects kernel tables
    /// The reference input's frame rate (Y4M header, container), 0/0 when unknown (raw YUV, push mode).
    unsigned fps_num = 0, fps_den = 0;
};

/// Static description of one extractor kind (one per feature folder).
struct ExtractorInfo {
    std::string_view name;                      ///< CLI name, e.g. "vif"
    std::span<const OptionSpec> options;        ///< accepted options
    std::span<const std::string_view> outputs;  ///< upstream score names, by output index
    /// Output indices that are clip-level aggregates (keys used verbatim, no alias/suffix).
    std::span<const unsigned> aggregate_outputs = {};
    /// Output indices upstream first writes at flush: reports list their keys
    /// after every key written during the frames (key order only).
    std::span<const unsigned> flush_outputs = {};
    /// Per-frame output indices reported under their bare name, without the
    /// option suffix (upstream appends them outside its feature-name dictionary,
    /// e.g. cambi_source).
    std::span<const unsigned> verbatim_outputs = {};
    bool needs_chroma = false;  ///< false: only luma is read
    /// Whether instances with options `o` read the reference picture; null:
    /// always. No-reference features (cambi) let a backend skip staging it.
    bool (*reads_reference)(const OptionValues& o) = nullptr;
    /// Temporal kinds see every frame even under --subsample (upstream's TEMPORAL flag).
    bool temporal = false;
    /// Builds an instance for a run; throws vmaf::Error for options or a
    /// geometry the feature cannot handle.
    std::unique_ptr<FeatureExtractor> (*create)(const OptionValues& opts, const VideoGeometry& geom,
                                                const ExtractorContext& ctx) = nullptr;
    /// Options that may differ between instances one extractor computes
    /// together: VMAF and VMAF NEG ask VIF and ADM for two enhancement-gain
    /// limits, and one pass of filters and transforms serves both.
    std::span<const std::string_view> group_options = {};
    /// Builds one extractor for several option sets equal but in
    /// group_options (at least two); it writes set k's output o as output
    /// k * outputs.size() + o. Null: the CPU kind has no groups (each set
    /// gets its own extractor). Backends have their own (BackendSession).
    std::unique_ptr<FeatureExtractor> (*create_group)(std::span<const OptionValues* const> sets,
                                                      const VideoGeometry& geom, const ExtractorContext& ctx) = nullptr;
};

}  // namespace vmaf
