#include "support/extractor_run.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

namespace vmaf::test {

std::string g17(double v) {
    char b[40];
    std::snprintf(b, sizeof b, "%.17g", v);
    return b;
}

void ScoreLog::write(unsigned frame, unsigned output, double value) {
    log.push_back({frame, output, value});
    EXPECT_TRUE(at.emplace(std::pair{frame, output}, value).second)
        << "written twice: frame " << frame << " output " << output;
}

void ScoreLog::write_aggregate(unsigned output, double value) {
    EXPECT_NE(std::find(aggregate_outputs_.begin(), aggregate_outputs_.end(), output), aggregate_outputs_.end())
        << "aggregate of output " << output << ", which the extractor does not declare";
    aggregates.emplace_back(output, value);
}

double ScoreLog::get(unsigned frame, unsigned output) const {
    auto it = at.find({frame, output});
    if (it == at.end()) {
        ADD_FAILURE() << "missing frame " << frame << " output " << output;
        return -1;
    }
    return it->second;
}

void run_frames(FeatureExtractor& ex, const std::vector<Picture>& refs, const std::vector<Picture>& dists,
                ScoreWriter& out) {
    EXPECT_EQ(refs.size(), dists.size());
    const std::size_t n = std::min(refs.size(), dists.size());
    std::vector<std::unique_ptr<FrameState>> states(n);
    for (std::size_t i = n; i-- > 0;)
        states[i] = static_cast<const FeatureExtractor&>(ex).compute(static_cast<unsigned>(i), refs[i], dists[i]);
    for (std::size_t i = 0; i < n; ++i) ex.finish(static_cast<unsigned>(i), *states[i], out);
    ex.flush(out);
}

ScoreLog run_extractor(const ExtractorInfo& info, const OptionDict& dict, const VideoGeometry& geom,
                       const std::vector<Picture>& refs, const std::vector<Picture>& dists) {
    auto ex = info.create(OptionValues(info.options, dict, std::string(info.name)), geom, {});
    ScoreLog log({info.aggregate_outputs.begin(), info.aggregate_outputs.end()});
    run_frames(*ex, refs, dists, log);
    return log;
}

std::vector<ScoreLog> expect_group_matches_separate(const ExtractorInfo& info, const std::vector<OptionDict>& dicts,
                                                    const VideoGeometry& geom, const std::vector<Picture>& refs,
                                                    const std::vector<Picture>& dists) {
    std::vector<OptionValues> sets;
    for (const OptionDict& d : dicts) sets.emplace_back(info.options, d, std::string(info.name));
    std::vector<const OptionValues*> ptrs;
    for (const OptionValues& o : sets) ptrs.push_back(&o);
    std::vector<ScoreLog> separate;
    for (const OptionDict& d : dicts) separate.push_back(run_extractor(info, d, geom, refs, dists));
    if (!info.create_group) {
        ADD_FAILURE() << info.name << " has no create_group";
        return separate;
    }
    auto group = info.create_group(ptrs, geom, {});
    if (!group) {
        ADD_FAILURE() << info.name << " declined a group of " << ptrs.size();
        return separate;
    }
    ScoreLog joint({info.aggregate_outputs.begin(), info.aggregate_outputs.end()});
    run_frames(*group, refs, dists, joint);
    const auto n = static_cast<unsigned>(info.outputs.size());
    std::size_t expected = 0;
    for (unsigned k = 0; k < separate.size(); ++k) {
        expected += separate[k].at.size();
        for (const auto& [key, v] : separate[k].at) {
            const auto [frame, o] = key;
            const auto it = joint.at.find({frame, k * n + o});
            if (it == joint.at.end()) {
                ADD_FAILURE() << "set " << k << " frame " << frame << " output " << o << " not written by the group";
                continue;
            }
            EXPECT_EQ(g17(it->second), g17(v)) << "set " << k << " frame " << frame << " output " << info.outputs[o];
            EXPECT_EQ(std::signbit(it->second), std::signbit(v));
        }
    }
    EXPECT_EQ(joint.at.size(), expected) << "the group writes outputs no separate set writes";
    return separate;
}

PairFrames load_pair(const std::string& id, unsigned max_frames) {
    PairFrames p{pair_info(id), {}, {}};
    const std::string rp = clip_path(p.info.ref), dp = clip_path(p.info.dist);
    for (unsigned i = 0; i < p.info.frames && i < max_frames; ++i) {
        p.refs.push_back(load_raw_frame(rp, p.info.geom, i));
        p.dists.push_back(load_raw_frame(dp, p.info.geom, i));
    }
    return p;
}

unsigned expect_golden(const ScoreLog& log, unsigned output, const nlohmann::json& golden, const std::string& key,
                       unsigned frames) {
    unsigned equal = 0;
    for (unsigned f = 0; f < frames; ++f) {
        const double g = golden_value(golden, f, key), v = log.get(f, output);
        EXPECT_EQ(g, v) << key << " frame " << f << ": golden " << g17(g) << " ours " << g17(v);
        equal += g == v;
    }
    return equal;
}

}  // namespace vmaf::test
