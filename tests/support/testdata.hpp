// Test access to the repository's corpus (testdata/): generated clips,
// golden-full reports, and a minimal raw-YUV loader independent of src/io.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "vmaf/picture.hpp"

namespace vmaf::test {

/// Marks a test that could not compare because the local ffmpeg made other
/// bytes than the goldens' clips: ctest reports such a test as skipped.
inline constexpr const char* kCorpusSkipTag = "VMAF_CORPUS_SKIPPED";

/// Root of the test corpus (testdata/ of the repository).
std::string testdata_dir();
/// Path of a raw clip, e.g. "p01_576x324_yuv420p_ref.yuv", in the build tree's
/// clip cache; generates its pair with testdata/make_corpus.sh when missing
/// (safe across processes). Throws a runtime_error starting with
/// kCorpusSkipTag when the clip's bytes differ from testdata/SHA256SUMS.
std::string clip_path(const std::string& name);
/// Parsed golden-full/<stem>.json (e.g. "p01_crf35__vmaf_v0.6.1"); on an
/// Intel CPU, golden-full-intel/<stem>.json where there is one (goldens with
/// float ADM, whose rcpss-based division upstream computes per CPU vendor).
nlohmann::json golden_full(const std::string& stem);
/// Whether this CPU is Intel's (x86 only).
bool intel_host();
/// Parsed manifest.json.
const nlohmann::json& manifest();

/// A pair of the manifest ("p01_crf35" ...).
struct PairInfo {
    std::string id, ref, dist;
    VideoGeometry geom;
    unsigned frames = 0;
};
PairInfo pair_info(const std::string& id);
/// Every pair id of the small corpus: all but the 1080p/4K pairs (p02, p06).
std::vector<std::string> stored_pair_ids();

/// Loads frame `index` of a raw planar file in the standard layout.
Picture load_raw_frame(const std::string& path, const VideoGeometry& geom, unsigned index);

/// Golden value of `key` at `frame`; throws if missing.
double golden_value(const nlohmann::json& golden, unsigned frame, const std::string& key);

}  // namespace vmaf::test
