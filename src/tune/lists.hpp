// Option values that are lists: comma-separated items ("95,90,80"), and
// compare's per-encoder settings ("libx264:veryfast:18-36").
#pragma once

#include <string>
#include <vector>

namespace vmaf::tune {

/// The items of a comma-separated list, empty items skipped ("a,,b," -> a, b).
std::vector<std::string> split_list(const std::string& text);

/// The numbers of a comma-separated list. Throws std::invalid_argument naming
/// `option` for an item that is not a number, or for a list without any.
std::vector<double> parse_number_list(const std::string& text, const std::string& option);

/// One encoder of a sweep with its own settings: an empty preset or CRF list
/// takes the sweep's (--preset, --crf).
struct EncoderRun {
    std::string encoder, preset;
    std::vector<std::string> crf_specs;  ///< as --crf: "23", "18:36", "18:36:2"
    bool operator==(const EncoderRun&) const = default;
};

/// `ENCODER[:PRESET[:CRFS]]`, CRFS a value or FIRST-LAST[/STEP] (e.g.
/// "libx264:veryfast:18-36", "libsvtav1:8:24-48/4", "libx265::20-40").
/// Throws std::invalid_argument for a malformed item.
EncoderRun parse_encoder_run(const std::string& item);

}  // namespace vmaf::tune
