// Parsing of the `vmaf` command line, flag-compatible with upstream's CLI.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "vmaf/engine.hpp"

namespace vmaf::cli {

struct Args {
    std::string reference, distorted;
    bool raw = false;  ///< any of -w/-h/-p/-b given: raw YUV inputs
    VideoGeometry geom;
    std::vector<ModelRequest> models;
    std::vector<FeatureRequest> features;
    std::string output;
    OutputFormat format = OutputFormat::Xml;
    Precision precision;
    EngineConfig engine;
    RunLimits limits;
    bool no_prediction = false;
    bool quiet = false;
    bool version = false;
    bool help = false;
    bool list_features = false;  ///< print every feature with its options and exit
    bool list_models = false;    ///< print every built-in model and exit
    bool pair_in_order = false;  ///< pair frames in order even when the inputs' frame rates differ
    vmaf::InputOptions input;    ///< how containers are read (--skip_decode_errors)
    bool pair_nearest = false;   ///< pair each reference frame with the distorted frame nearest in time
    std::string scale_dist;      ///< libswscale filter to resize the distorted video to the reference's size; empty: off
    bool common_bitdepth = false;  ///< deepen the shallower input to the other's bit depth (upstream's common_bitdepth)
    std::string backend = "auto";
    bool no_cuda = false;
    bool no_hip = false;
    int hip_device = -1;  ///< --hip_device; -1: not given
};

/// Thrown for a usage error; the CLI prints the message and exits 1.
struct UsageError {
    std::string message;
};

/// Parses argv. Throws UsageError.
Args parse_args(int argc, char** argv);
/// Parses one `--model` value ("version=x:name=y:disable_clip:vif.opt=v").
ModelRequest parse_model(const std::string& text);
/// Parses one `--feature` value ("psnr=enable_chroma=false:min_sse=0.5").
FeatureRequest parse_feature(const std::string& text);
/// The --help text.
std::string usage_text();

}  // namespace vmaf::cli
