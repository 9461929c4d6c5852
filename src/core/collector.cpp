#include "core/collector.hpp"

namespace vmaf {

Slot FeatureCollector::slot(std::string_view key) {
    if (auto s = find(key)) return *s;
    const auto s = static_cast<Slot>(keys_.size());
    keys_.emplace_back(key);
    index_.emplace(keys_.back(), s);
    columns_.emplace_back();
    after_frames_.push_back(0);
    return s;
}

void FeatureCollector::order_after_frames(Slot s) { after_frames_[s] = 1; }

std::vector<Slot> FeatureCollector::written_order() const {
    std::vector<Slot> out;
    out.reserve(order_.size());
    for (Slot s : order_)
        if (!after_frames_[s]) out.push_back(s);
    for (Slot s : order_)
        if (after_frames_[s]) out.push_back(s);
    return out;
}

std::optional<Slot> FeatureCollector::find(std::string_view key) const {
    auto it = index_.find(std::string(key));
    if (it == index_.end()) return std::nullopt;
    return it->second;
}

void FeatureCollector::write(Slot s, unsigned frame, double value) {
    Column& c = columns_[s];
    if (c.value.empty()) order_.push_back(s);
    if (frame >= c.value.size()) {
        c.value.resize(frame + 1, 0.0);
        c.written.resize(frame + 1, 0);
    }
    c.value[frame] = value;
    c.written[frame] = 1;
    if (frame + 1 > span_) span_ = frame + 1;
}

bool FeatureCollector::has(Slot s, unsigned frame) const {
    const Column& c = columns_[s];
    return frame < c.written.size() && c.written[frame];
}

double FeatureCollector::get(Slot s, unsigned frame) const { return columns_[s].value[frame]; }

void FeatureCollector::write_aggregate(std::string_view key, double value) {
    for (auto& [k, v] : aggregates_)
        if (k == key) {
            v = value;
            return;
        }
    aggregates_.emplace_back(std::string(key), value);
}

std::optional<double> FeatureCollector::pool(Slot s, PoolMethod m, unsigned frame_count, unsigned subsample) const {
    if (frame_count == 0) return std::nullopt;
    return pool_range(s, m, 0, frame_count - 1, subsample);
}

std::optional<double> FeatureCollector::pool_range(Slot s, PoolMethod m, unsigned low, unsigned high,
                                                   unsigned subsample) const {
    // Same accumulation order as upstream so pooled values match to the last bit.
    unsigned n = 0;
    double min = 0, max = 0, sum = 0, inv_sum = 0;
    for (std::uint64_t j = low; j <= high; ++j) {
        const auto i = static_cast<unsigned>(j);
        if (subsample > 1 && i % subsample) continue;
        if (!has(s, i)) return std::nullopt;
        const double v = get(s, i);
        ++n;
        sum += v;
        inv_sum += 1.0 / (v + 1.0);
        if (i == low || v < min) min = v;  // upstream's initialisation, kept for equal results
        if (i == low || v > max) max = v;
    }
    if (n == 0) return std::nullopt;
    switch (m) {
        case PoolMethod::Min: return min;
        case PoolMethod::Max: return max;
        case PoolMethod::Mean: return sum / n;
        case PoolMethod::HarmonicMean: return n / inv_sum - 1.0;
    }
    return std::nullopt;
}

}  // namespace vmaf
