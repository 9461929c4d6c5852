// Test access to the shared corpus (../shared/testdata): decompressed clips,
// golden-full reports, and a minimal raw-YUV loader independent of src/io.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "vmaf/picture.hpp"

namespace vmaf::test {

/// Root of the shared test corpus.
std::string testdata_dir();
/// Path of a decompressed raw clip, e.g. "p01_576x324_yuv420p_ref.yuv".
/// Decompresses clips/<name>.xz into the build tree once (safe across processes).
std::string clip_path(const std::string& name);
/// Parsed golden-full/<stem>.json (e.g. "p01_crf35__vmaf_v0.6.1").
nlohmann::json golden_full(const std::string& stem);
/// Parsed manifest.json.
const nlohmann::json& manifest();

/// A pair of the manifest ("p01_crf35" ...).
struct PairInfo {
    std::string id, ref, dist;
    VideoGeometry geom;
    unsigned frames = 0;
};
PairInfo pair_info(const std::string& id);
/// Every pair id of the manifest whose clips are stored (p02/p06 are not).
std::vector<std::string> stored_pair_ids();

/// Loads frame `index` of a raw planar file in the standard layout.
Picture load_raw_frame(const std::string& path, const VideoGeometry& geom, unsigned index);

/// Golden value of `key` at `frame`; throws if missing.
double golden_value(const nlohmann::json& golden, unsigned frame, const std::string& key);

}  // namespace vmaf::test
