// Test helper of the float features: runs an extractor over a stored pair
// (as vmaf::test::run_frames does) and compares the named keys of every
// frame, bit for bit, with upstream's golden-full `<pair>__features_float`
// report (or another report of the pair).
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "core/feature_extractor.hpp"
#include "core/feature_name.hpp"
#include "support/extractor_run.hpp"

namespace vmaf::floatfeat::test {

/// The pairs that have a features_float golden.
inline const std::vector<std::string> kFloatGoldenPairs = {"p01_crf35", "p03_crf28", "p04a_crf30", "p04b_crf30",
                                                           "p05_crf30"};

/// frame -> key -> value.
using KeyScores = std::map<unsigned, std::map<std::string, double>>;

class KeyWriter final : public ScoreWriter {
public:
    KeyWriter(const ExtractorInfo& info, const OptionValues& opts) : info_(info), opts_(opts) {}
    void write(unsigned frame, unsigned output, double value) override {
        const std::string key = feature_key(info_.outputs[output], opts_);
        EXPECT_TRUE(scores[frame].emplace(key, value).second) << key << " written twice for frame " << frame;
    }
    void write_aggregate(unsigned, double) override { ADD_FAILURE() << "unexpected aggregate"; }
    KeyScores scores;

private:
    const ExtractorInfo& info_;
    const OptionValues& opts_;
};

inline KeyScores run_frames(const ExtractorInfo& info, const OptionDict& dict, const VideoGeometry& geom,
                            const std::vector<Picture>& refs, const std::vector<Picture>& dists) {
    const OptionValues opts(info.options, dict, info.name);
    auto ex = info.create(opts, geom, {});
    KeyWriter w(info, opts);
    vmaf::test::run_frames(*ex, refs, dists, w);
    return w.scores;
}

using vmaf::test::g17;
using vmaf::test::load_pair;
using vmaf::test::PairFrames;

/// Compares `keys` of every frame of `pair` with its golden `report`; returns the number of values compared.
inline unsigned compare_float_golden(const ExtractorInfo& info, const std::string& pair,
                                     const std::vector<std::string>& keys,
                                     const std::string& report = "__features_float") {
    SCOPED_TRACE(pair);
    const PairFrames p = load_pair(pair);
    const auto golden = vmaf::test::golden_full(pair + report);
    EXPECT_EQ(golden.at("frames").size(), p.info.frames);
    const KeyScores ours = run_frames(info, {}, p.info.geom, p.refs, p.dists);
    unsigned compared = 0, mismatches = 0;
    for (unsigned f = 0; f < p.info.frames; ++f)
        for (const std::string& k : keys) {
            const double g = vmaf::test::golden_value(golden, f, k);
            const auto fit = ours.find(f);
            if (fit == ours.end() || !fit->second.count(k)) {
                ADD_FAILURE() << k << " missing for frame " << f;
                continue;
            }
            const double v = fit->second.at(k);
            if (g != v && ++mismatches <= 10)
                ADD_FAILURE() << k << " frame " << f << ": golden " << g17(g) << " ours " << g17(v);
            ++compared;
        }
    EXPECT_EQ(mismatches, 0u);
    EXPECT_EQ(compared, p.info.frames * keys.size());
    std::printf("  %s%s: %u values of %s compared, %u mismatches\n", pair.c_str(), report.c_str(), compared,
                std::string(info.name).c_str(), mismatches);
    return compared;
}

}  // namespace vmaf::floatfeat::test
