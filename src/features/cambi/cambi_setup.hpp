// What the "cambi" extractor (cambi.cpp) and its CUDA twin (cuda/) share:
// the run's settings resolved from the options and the video geometry, the
// frame's outputs, and the heat-map files.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "core/feature_extractor.hpp"
#include "features/cambi/cambi_core.hpp"

namespace vmaf::cambi {

/// Everything a run derives from cambi's options (upstream's init() rules).
struct Setup {
    unsigned enc_w = 0, enc_h = 0;  ///< resolution the distorted picture is scored at
    unsigned src_w = 0, src_h = 0;  ///< the same for the reference (full_ref)
    unsigned bpc = 8;               ///< of the input pictures
    double max_val = 1000.0;
    bool full_ref = false;
    Params params;
    std::uint16_t window = 0, src_window = 0;  ///< adjusted windows of the two pictures
    std::string heatmaps_path;                 ///< empty: no heat maps
};

/// Throws vmaf::Error(Usage) for the option/geometry combinations the CPU kind rejects.
Setup make_setup(const OptionValues& o, const VideoGeometry& g);

/// The frame's outputs (cambi's output indices) from the distorted picture's
/// score and, under full_ref, the reference's.
void append_scores(const Setup& s, double dist_score, double src_score, ScoreList& out);

/// The per-scale heat-map files of a run (upstream's names and layout).
class HeatmapFiles {
public:
    HeatmapFiles() = default;
    /// Creates `dir` and one file per scale, named after the encoding resolution halved per scale.
    HeatmapFiles(const std::string& dir, unsigned enc_w, unsigned enc_h);
    ~HeatmapFiles();
    HeatmapFiles(const HeatmapFiles&) = delete;
    HeatmapFiles& operator=(const HeatmapFiles&) = delete;
    bool empty() const { return files_.empty(); }
    /// Writes frame `index`'s maps (one per scale) at index * (map size), as upstream seeks them.
    void write(unsigned index, const std::vector<Heatmap>& maps);

private:
    std::vector<std::FILE*> files_;
};

}  // namespace vmaf::cambi
