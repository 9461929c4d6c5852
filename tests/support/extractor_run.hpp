// Test harness for one feature extractor on frames in memory: runs it the
// way the engine may (compute() in any frame order, finish() in frame order,
// then flush()), records what it writes, and compares outputs with golden-full
// values at full precision.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "core/feature_extractor.hpp"
#include "support/testdata.hpp"

namespace vmaf::test {

/// `v` printed with "%.17g" (enough digits to tell any two doubles apart).
std::string g17(double v);

/// Every write of one extractor run, in order and by (frame, output). A
/// (frame, output) written twice is a test failure, and so is an aggregate
/// whose output is not among `aggregate_outputs` (the extractor's declared ones).
class ScoreLog final : public ScoreWriter {
public:
    struct Entry {
        unsigned frame, output;
        double value;
    };
    explicit ScoreLog(std::vector<unsigned> aggregate_outputs = {})
        : aggregate_outputs_(std::move(aggregate_outputs)) {}

    void write(unsigned frame, unsigned output, double value) override;
    void write_aggregate(unsigned output, double value) override;

    bool has(unsigned frame, unsigned output) const { return at.count({frame, output}) != 0; }
    /// The value written for (frame, output); a test failure, and -1, where none was.
    double get(unsigned frame, unsigned output) const;

    std::vector<Entry> log;                               ///< writes in order
    std::map<std::pair<unsigned, unsigned>, double> at;   ///< (frame, output) -> value
    std::vector<std::pair<unsigned, double>> aggregates;  ///< (output, value) in order

private:
    std::vector<unsigned> aggregate_outputs_;
};

/// Runs `ex` over refs[i]/dists[i] (equal sizes): compute() for every frame in
/// reverse order (its result must not depend on order), then finish() in frame
/// order, then flush(), all writing into `out`.
void run_frames(FeatureExtractor& ex, const std::vector<Picture>& refs, const std::vector<Picture>& dists,
                ScoreWriter& out);

/// Creates `info`'s extractor with `dict` for `geom` (default cpumask) and
/// runs it as run_frames() does; the log allows the aggregates `info` declares.
ScoreLog run_extractor(const ExtractorInfo& info, const OptionDict& dict, const VideoGeometry& geom,
                       const std::vector<Picture>& refs, const std::vector<Picture>& dists);

/// Shared work between option sets (ExtractorInfo::create_group): creates
/// `info`'s group extractor for the option sets `dicts` (default cpumask; a
/// test failure if the kind declines) and each set's own extractor, runs all
/// of them as run_frames() does, and expects the group's output
/// k * outputs + o equal to set k's output o bit for bit, for every frame and
/// output, with nothing else written. Returns the separate runs' logs (e.g. to
/// check that the sets' scores differ at all).
std::vector<ScoreLog> expect_group_matches_separate(const ExtractorInfo& info, const std::vector<OptionDict>& dicts,
                                                    const VideoGeometry& geom, const std::vector<Picture>& refs,
                                                    const std::vector<Picture>& dists);

/// The first `max_frames` frames (all by default) of a corpus pair, both sides.
struct PairFrames {
    PairInfo info;
    std::vector<Picture> refs, dists;
};
PairFrames load_pair(const std::string& id, unsigned max_frames = ~0u);

/// Expects `output` of every frame in `log` to equal `key` of the same frame
/// in `golden` (a golden-full report), naming the frame and both values at
/// "%.17g" on a difference. Returns how many frames were equal.
unsigned expect_golden(const ScoreLog& log, unsigned output, const nlohmann::json& golden, const std::string& key,
                       unsigned frames);

}  // namespace vmaf::test
