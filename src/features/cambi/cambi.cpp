// CAMBI ("cambi"): no-reference banding score of the distorted luma, and with
// full_ref=true also of the reference (cambi_source) and their clipped
// difference (cambi_full_reference). Options, aliases, defaults, ranges and
// the heat-map files are upstream libvmaf's.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/feature_extractor.hpp"
#include "features/cambi/cambi_core.hpp"
#include "features/cambi/cambi_setup.hpp"
#include "vmaf/error.hpp"

namespace vmaf {

extern const ExtractorInfo kCambiInfo;

namespace {

enum Opt : std::size_t {
    kMaxVal,
    kEncWidth,
    kEncHeight,
    kEncBitdepth,
    kSrcWidth,
    kSrcHeight,
    kWindowSize,
    kTopk,
    kCambiTopk,
    kTviThreshold,
    kVisLumThreshold,
    kMaxLogContrast,
    kHeatmapsPath,
    kFullRef,
    kEotf,
    kCambiEotf,
    kHighResSpeedup,
};

constexpr double kDefaultTopk = 0.6;
constexpr const char* kDefaultEotf = "bt1886";

const OptionSpec kOptions[] = {
    {"cambi_max_val", "cmxv", OptType::Double, 1000.0, 0.0, 1000.0, true,
     "maximum value allowed; larger values will be clipped to this value"},
    {"enc_width", "encw", OptType::Int, 0, 180, 7680, true, "encoding width"},
    {"enc_height", "ench", OptType::Int, 0, 150, 7680, true, "encoding height"},
    {"enc_bitdepth", "encbd", OptType::Int, 0, 6, 16, true, "encoding bit depth"},
    {"src_width", "srcw", OptType::Int, 0, 320, 7680, true, "source width (full_ref only)"},
    {"src_height", "srch", OptType::Int, 0, 200, 4320, true, "source height (full_ref only)"},
    {"window_size", "ws", OptType::Int, 65, 15, 127, true, "window size; 65 is about 1 degree at 4K"},
    {"topk", "", OptType::Double, kDefaultTopk, 0.0001, 1.0, true, "pooled fraction of pixels, (0, 1]"},
    {"cambi_topk", "ctpk", OptType::Double, kDefaultTopk, 0.0001, 1.0, true, "pooled fraction of pixels, (0, 1]"},
    {"tvi_threshold", "tvit", OptType::Double, 0.019, 0.0001, 1.0, true,
     "visibility threshold: delta L < tvi_threshold * L_mean"},
    {"cambi_vis_lum_threshold", "vlt", OptType::Double, 0.0, 0.0, 300.0, true,
     "luminance below which banding is not visible"},
    {"max_log_contrast", "mlc", OptType::Int, 2, 0, 5, true, "maximum contrast in log2 10-bit luma levels"},
    {"heatmaps_path", "", OptType::String, std::string(), 0, 0, false, "directory the heat maps are written to"},
    {"full_ref", "", OptType::Bool, false, 0, 0, false, "also score the reference (cambi_source, cambi_full_reference)"},
    {"eotf", "", OptType::String, std::string(kDefaultEotf), 0, 0, true, "EOTF of the thresholds: bt1886 or pq"},
    {"cambi_eotf", "ceot", OptType::String, std::string(kDefaultEotf), 0, 0, true,
     "EOTF of the thresholds (wins over eotf when not bt1886)"},
    {"cambi_high_res_speedup", "hrs", OptType::Int, 0, 0, 2160, true,
     "downscale after the spatial mask from this resolution up: 1080, 1440, 2160 or 0"},
};

enum Out : unsigned { kScore, kSource, kFullReference };
constexpr std::string_view kOutputs[] = {"Cambi_feature_cambi_score", "cambi_source", "cambi_full_reference"};
// Upstream suffixes only the main score with the non-default options.
constexpr unsigned kVerbatim[] = {kSource, kFullReference};

constexpr unsigned kMinSide = 216;

/// Resolved geometry of a run (upstream's init() rules).
struct Sizes {
    unsigned enc_w, enc_h, src_w, src_h;
    bool speedup;
};

Sizes resolve_sizes(const OptionValues& o, const VideoGeometry& g) {
    Sizes s{static_cast<unsigned>(o.i(kEncWidth)), static_cast<unsigned>(o.i(kEncHeight)),
            static_cast<unsigned>(o.i(kSrcWidth)), static_cast<unsigned>(o.i(kSrcHeight)), false};
    if (s.enc_w == 0 || s.enc_h == 0) s.enc_w = g.width, s.enc_h = g.height;
    if (s.src_w == 0 || s.src_h == 0) s.src_w = g.width, s.src_h = g.height;
    // A downscaled encode is not upscaled back to its encoding resolution.
    if (s.enc_h > g.height || s.enc_w > g.width) s.enc_w = g.width, s.enc_h = g.height;
    auto fail = [](const std::string& what) { throw Error(ErrorKind::Usage, "cambi: " + what); };
    if (s.enc_w < kMinSide && s.enc_h < kMinSide)
        fail("encoding resolution " + std::to_string(s.enc_w) + "x" + std::to_string(s.enc_h) +
             " is below the minimum (216 on one side)");
    if (s.src_w < kMinSide && s.src_h < kMinSide)
        fail("source resolution " + std::to_string(s.src_w) + "x" + std::to_string(s.src_h) +
             " is below the minimum (216 on one side)");
    if ((s.src_w > s.enc_w && s.src_h < s.enc_h) || (s.src_w < s.enc_w && s.src_h > s.enc_h))
        fail("source and encoding resolutions have different aspect orientations");
    const unsigned long pixels = static_cast<unsigned long>(s.enc_w) * s.enc_h;
    switch (o.i(kHighResSpeedup)) {
        case 1080: s.speedup = pixels >= 1920ul * 1080; break;
        case 1440: s.speedup = pixels >= 2560ul * 1440; break;
        case 2160: s.speedup = pixels >= 3840ul * 2160; break;
        default: s.speedup = false;
    }
    return s;
}

struct CambiFrame final : FrameState {
    std::vector<cambi::Heatmap> heatmaps;  ///< distorted picture's, when heatmaps_path is set
};

class CambiExtractor final : public FeatureExtractor {
public:
    CambiExtractor(const OptionValues& o, const VideoGeometry& g, unsigned cpumask)
        : kernels_(cambi::cambi_registry().select(cpumask)), setup_(cambi::make_setup(o, g)) {
        if (!setup_.heatmaps_path.empty())
            heatmaps_ = std::make_unique<cambi::HeatmapFiles>(setup_.heatmaps_path, setup_.enc_w, setup_.enc_h);
    }

    std::unique_ptr<FrameState> compute(unsigned /*index*/, const Picture& ref, const Picture& dist) const override {
        thread_local cambi::Scratch scratch;
        auto st = std::make_unique<CambiFrame>();
        const cambi::Setup& s = setup_;
        const double dist_score = cambi::score_picture(dist.plane(0), s.bpc, s.enc_w, s.enc_h, s.window, s.params,
                                                       scratch, heatmaps_ ? &st->heatmaps : nullptr, kernels_);
        const double src_score = s.full_ref ? cambi::score_picture(ref.plane(0), s.bpc, s.src_w, s.src_h,
                                                                   s.src_window, s.params, scratch, nullptr, kernels_)
                                            : 0.0;
        cambi::append_scores(s, dist_score, src_score, st->scores);
        return st;
    }

    void finish(unsigned index, FrameState& state, ScoreWriter& out) override {
        auto& st = static_cast<CambiFrame&>(state);
        FeatureExtractor::finish(index, st, out);
        if (heatmaps_) heatmaps_->write(index, st.heatmaps);
        st.heatmaps.clear();
    }

private:
    const cambi::CambiKernels kernels_;  ///< selected once for ctx.cpumask
    const cambi::Setup setup_;
    std::unique_ptr<cambi::HeatmapFiles> heatmaps_;
};

std::unique_ptr<FeatureExtractor> create(const OptionValues& opts, const VideoGeometry& geom,
                                         const ExtractorContext& ctx) {
    return std::make_unique<CambiExtractor>(opts, geom, ctx.cpumask);
}

}  // namespace

namespace cambi {

Setup make_setup(const OptionValues& o, const VideoGeometry& g) {
    const Sizes sz = resolve_sizes(o, g);
    Setup s;
    s.enc_w = sz.enc_w, s.enc_h = sz.enc_h, s.src_w = sz.src_w, s.src_h = sz.src_h;
    s.bpc = g.bpc;
    s.max_val = o.d(kMaxVal);
    s.full_ref = o.b(kFullRef);
    const unsigned enc_bitdepth = o.i(kEncBitdepth) ? static_cast<unsigned>(o.i(kEncBitdepth)) : g.bpc;
    const double topk = o.d(kTopk) != kDefaultTopk ? o.d(kTopk) : o.d(kCambiTopk);
    const std::string& eotf = o.s(kCambiEotf) != kDefaultEotf ? o.s(kCambiEotf) : o.s(kEotf);
    s.params = make_params(o.i(kMaxLogContrast), o.d(kTviThreshold), o.d(kVisLumThreshold), eotf.c_str(), topk,
                           enc_bitdepth, sz.speedup);
    const auto window = static_cast<std::uint16_t>(o.i(kWindowSize));
    s.window = adjusted_window(window, s.enc_w, s.enc_h, sz.speedup);
    s.src_window = adjusted_window(window, s.src_w, s.src_h, sz.speedup);
    const int largest = std::max(s.window, s.src_window);
    if (largest * largest >= kReciprocalTableSize)
        throw Error(ErrorKind::Usage, "cambi: window_size " + std::to_string(largest) + " is too large");
    // The row loop of upstream's c values (kept literally) reads before the
    // first row when the last scale has fewer rows than half the window:
    // refused here instead (upstream's behaviour there is undefined).
    auto check_height = [&](const char* what, unsigned w, unsigned h, std::uint16_t win) {
        unsigned last = h;
        for (int k = 0; k < kNumScales; ++k)
            if (k > 0 || sz.speedup) last = (last + 1) >> 1;
        if (last < static_cast<unsigned>(win >> 1))
            throw Error(ErrorKind::Usage, std::string("cambi: ") + what + " resolution " + std::to_string(w) + "x" +
                                              std::to_string(h) + " is too short for its window (" +
                                              std::to_string(win) + "): " + std::to_string(last) +
                                              " rows at the last scale, fewer than half the window");
    };
    check_height("encoding", s.enc_w, s.enc_h, s.window);
    if (s.full_ref) check_height("source", s.src_w, s.src_h, s.src_window);
    s.heatmaps_path = o.s(kHeatmapsPath);
    return s;
}

void append_scores(const Setup& s, double dist_score, double src_score, ScoreList& out) {
    out.emplace_back(kScore, std::min(dist_score, s.max_val));
    if (s.full_ref) {
        out.emplace_back(kSource, std::min(src_score, s.max_val));
        const double combined = std::max(0.0, dist_score - src_score);
        out.emplace_back(kFullReference, std::min(combined, s.max_val));
    }
}

HeatmapFiles::HeatmapFiles(const std::string& dir, unsigned w, unsigned h) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw Error(ErrorKind::Usage, "cambi: could not create heatmaps_path " + dir + ": " + ec.message());
    for (int s = 0; s < kNumScales; ++s) {
        const std::string path = (std::filesystem::path(dir) / ("cambi_heatmap_scale_" + std::to_string(s) + "_" +
                                                                 std::to_string(w) + "x" + std::to_string(h) +
                                                                 "_16b.gray"))
                                     .string();
        std::FILE* f = std::fopen(path.c_str(), "wb");
        if (!f) throw Error(ErrorKind::Usage, "cambi: could not open heat map file " + path);
        files_.push_back(f);
        w = (w + 1) >> 1;
        h = (h + 1) >> 1;
    }
}

HeatmapFiles::~HeatmapFiles() {
    for (std::FILE* f : files_) std::fclose(f);
}

void HeatmapFiles::write(unsigned index, const std::vector<Heatmap>& maps) {
    for (std::size_t s = 0; s < maps.size() && s < files_.size(); ++s) {
        const Heatmap& hm = maps[s];
        const long offset = static_cast<long>(std::size_t{index} * hm.samples.size() * sizeof(std::uint16_t));
        if (std::fseek(files_[s], offset, SEEK_SET) != 0 ||
            std::fwrite(hm.samples.data(), sizeof(std::uint16_t), hm.samples.size(), files_[s]) != hm.samples.size())
            throw Error(ErrorKind::Input, "cambi: could not write heat map of frame " + std::to_string(index));
    }
}

}  // namespace cambi

const ExtractorInfo kCambiInfo{
    .name = "cambi",
    .options = kOptions,
    .outputs = kOutputs,
    .verbatim_outputs = kVerbatim,
    .needs_chroma = false,
    .reads_reference = [](const OptionValues& o) { return o.b(kFullRef); },
    .temporal = false,
    .create = &create,
};

}  // namespace vmaf
