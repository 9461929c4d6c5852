// FeatureCollector: every score of a run, by key and frame.
//
// Keys get dense ids (Slot) when registered; writers report keys in the
// order of their first written value, as upstream does.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace vmaf {

using Slot = std::uint32_t;

enum class PoolMethod { Min, Max, Mean, HarmonicMean };

class FeatureCollector {
public:
    /// Id of `key`, registering it on first use. Not thread-safe; call during setup
    /// or from the ordered stage.
    Slot slot(std::string_view key);
    std::optional<Slot> find(std::string_view key) const;
    const std::string& key(Slot s) const { return keys_[s]; }

    void write(Slot s, unsigned frame, double value);
    bool has(Slot s, unsigned frame) const;
    double get(Slot s, unsigned frame) const;  ///< precondition: has(s, frame)

    /// Clip-level metrics (e.g. apsnr_y), in write order.
    void write_aggregate(std::string_view key, double value);
    const std::vector<std::pair<std::string, double>>& aggregates() const { return aggregates_; }

    /// Marks `s` as a key upstream first writes after the frames (at flush, or
    /// model scores): reports list such keys after all others.
    void order_after_frames(Slot s);

    /// Keys in the order their first value was written, keys marked with
    /// order_after_frames() last (among themselves again by first write).
    std::vector<Slot> written_order() const;
    /// One past the highest frame index written for any key.
    unsigned frame_span() const { return span_; }

    /// Pools frames [0, frame_count) of `s`, skipping frames i with i % subsample != 0.
    /// nullopt when a frame in range has no value.
    std::optional<double> pool(Slot s, PoolMethod m, unsigned frame_count, unsigned subsample) const;
    /// The same over frames low..high inclusive.
    std::optional<double> pool_range(Slot s, PoolMethod m, unsigned low, unsigned high, unsigned subsample) const;

private:
    struct Column {
        std::vector<double> value;
        std::vector<std::uint8_t> written;
    };
    std::vector<std::string> keys_;
    std::unordered_map<std::string, Slot> index_;
    std::vector<Column> columns_;
    std::vector<Slot> order_;
    std::vector<std::uint8_t> after_frames_;  ///< by slot
    unsigned span_ = 0;
    std::vector<std::pair<std::string, double>> aggregates_;
};

}  // namespace vmaf
