// The sweep grid of `vmaf-tune corpus`: sources x encoders x presets x CRFs,
// in a fixed order, and the deterministic share of it a shard takes.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace vmaf::tune {

/// Parses repeatable `--crf` values: single values ("23", "23.5") or
/// inclusive ranges "FIRST:LAST[:STEP]" ("18:40:2", "20:22:0.25"). Returns the
/// distinct values in ascending order (each rounded to 1e-6, so that
/// 20 + 3 * 0.1 is 20.3). Throws std::invalid_argument with a one-line message
/// on a malformed, empty, or out-of-[lo, hi] list, and on a fractional value
/// when `whole_only` (an encoder whose CRF is an integer); `encoder` names
/// whose range [lo, hi] is in the message.
std::vector<double> parse_crf_list(const std::vector<std::string>& specs, int lo, int hi,
                                   const std::string& encoder = "", bool whole_only = true);

/// A CRF rounded to 1e-6 (steps like 0.1 then give the values one would type).
double round_crf(double crf);
/// A CRF as ffmpeg and file names take it: "23", "23.25".
std::string crf_text(double crf);

/// `--shard I/N`: this process takes cells whose grid index i has i % N == I
/// (I in [0, N)). The default 0/1 takes every cell.
struct Shard {
    unsigned index = 0, count = 1;
    bool takes(std::size_t cell_index) const { return cell_index % count == index; }
};
/// Parses "I/N"; throws std::invalid_argument.
Shard parse_shard(const std::string& text);

/// How a cell's encode differs from a whole-source encode at the source's
/// size: a range of frames (a shot) and/or another size (a ladder rung).
struct EncodeShape {
    /// Source frames [first, end) to encode and score; overrides --sample-seconds.
    std::optional<std::pair<unsigned, unsigned>> frames;
    /// Encode size (0: the source's). Scaled down by ffmpeg's scale filter with
    /// flags=`scale_filter`, scored after scaling back up to the source's size
    /// with the same libswscale filter (vmaf --scale_dist_to_ref).
    unsigned width = 0, height = 0;
    std::string scale_filter = "bicubic";
};

/// One cell of the grid.
struct Cell {
    std::size_t source = 0;  ///< index into the sweep's sources
    std::string encoder, preset;
    double crf = 0;
    std::size_t shape = 0;  ///< index into the sweep's shapes (CorpusOptions::shapes), when it has any
};

/// Every cell, sources outermost, then encoders, presets, CRFs (ascending).
std::vector<Cell> make_grid(std::size_t sources, const std::vector<std::string>& encoders,
                            const std::vector<std::string>& presets, const std::vector<double>& crfs);

}  // namespace vmaf::tune
