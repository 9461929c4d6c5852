#include "ctc_presets.hpp"

#include "cli_args.hpp"

namespace vmaf::cli {

namespace {

using Options = std::vector<std::string>;

void model(Options& out, const char* version, const char* name) {
    std::string spec = "version=";
    spec.append(version).append(":name=").append(name);
    out.push_back("--model");
    out.push_back(std::move(spec));
}
void feature(Options& out, const char* spec) {
    out.insert(out.end(), {"--feature", spec});
}

/// AOM CTC v1.0 to v7.0: v3.0 adds CAMBI; v6.0 sets common_bitdepth (inputs
/// of different bit depths scored at the deeper one); v7.0 computes
/// float_ssim at full resolution (scale=1).
void aom_ctc(Options& out, int major) {
    model(out, "vmaf_v0.6.1", "vmaf");
    model(out, "vmaf_v0.6.1neg", "vmaf_neg");
    feature(out, "psnr=reduced_hbd_peak=true:enable_apsnr=true:min_sse=0.5");
    feature(out, "ciede");
    feature(out, major >= 7 ? "float_ssim=scale=1:enable_db=true:clip_db=true" : "float_ssim=enable_db=true:clip_db=true");
    feature(out, "float_ms_ssim=enable_db=true:clip_db=true");
    feature(out, "psnr_hvs");
    if (major >= 3) feature(out, "cambi");
    if (major >= 6) out.push_back("--common_bitdepth");
}

void nflx_ctc(Options& out) {
    model(out, "vmaf_4k_v0.6.1", "vmaf");
    model(out, "vmaf_4k_v0.6.1neg", "vmaf_neg");
    feature(out, "psnr=enable_chroma=true:enable_apsnr=true");
    feature(out, "float_ssim=enable_db=true:clip_db=true");
    feature(out, "cambi");
}

void expand(const std::string& preset, const std::string& version, Options& out) {
    if (preset == "--aom_ctc") {
        if (version == "proposed") throw UsageError{"`--aom_ctc proposed` is deprecated"};
        for (int major = 1; major <= 7; ++major)
            if (version == std::string("v") + std::to_string(major) + ".0") return aom_ctc(out, major);
        throw UsageError{"bad aom_ctc version \"" + version + "\" (expected v1.0 ... v7.0)"};
    }
    if (version == "v1.0") return nflx_ctc(out);
    throw UsageError{"bad nflx_ctc version \"" + version + "\" (expected v1.0)"};
}

}  // namespace

std::vector<std::string> expand_ctc_presets(int argc, char** argv) {
    Options out;
    for (int i = 0; i < argc; ++i) {
        const std::string arg = argv[i];
        bool matched = false;
        for (const std::string preset : {"--aom_ctc", "--nflx_ctc"}) {
            if (arg == preset) {
                if (i + 1 >= argc) throw UsageError{preset + " needs a version"};
                expand(preset, argv[++i], out);
                matched = true;
            } else if (arg.rfind(preset + "=", 0) == 0) {
                expand(preset, arg.substr(preset.size() + 1), out);
                matched = true;
            }
        }
        if (!matched) out.push_back(arg);
    }
    return out;
}

std::string ctc_versions_text() {
    return "--aom_ctc v1.0|v2.0|v3.0|v4.0|v5.0|v6.0|v7.0, --nflx_ctc v1.0";
}

}  // namespace vmaf::cli
