#include "cli_args.hpp"
#include "ctc_presets.hpp"
#include "names.hpp"

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace vmaf::cli {

namespace {

/// Splits on ':' (the option separator of --model and --feature values).
std::vector<std::string> split_colon(const std::string& s) {
    std::vector<std::string> out;
    std::size_t start = 0;
    for (;;) {
        const auto pos = s.find(':', start);
        out.push_back(s.substr(start, pos - start));
        if (pos == std::string::npos) break;
        start = pos + 1;
    }
    return out;
}

/// Unsigned integer in C syntax (decimal, 0x hex, 0 octal), as upstream's strtoul(.., 0).
unsigned parse_unsigned(const std::string& flag, const std::string& text) {
    errno = 0;
    char* end = nullptr;
    const unsigned long v = std::strtoul(text.c_str(), &end, 0);
    if (text.empty() || *end || errno || text[0] == '-' || v > 0xffffffffUL)
        throw UsageError{"invalid value for " + flag + ": '" + text + "'"};
    return static_cast<unsigned>(v);
}

/// libavcodec's own ceiling on decoder threads (FFmpeg's MAX_AUTO_THREADS
/// is 16; frame threading beyond 64 only costs memory).
constexpr unsigned kMaxDecoderThreads = 64;

bool parse_flag_value(const std::string& key, const std::string& v) {
    if (v.empty() || v == "true" || v == "1") return true;
    if (v == "false" || v == "0") return false;
    throw UsageError{"--model: " + key + " expects true or false, got '" + v + "'"};
}

/// What an unknown --model item most likely meant: a bare built-in model
/// name (version=), a bare model file (path=), or a misspelt key.
std::string model_key_hint(const std::string& key, std::size_t eq) {
    if (eq == std::string::npos && is_builtin_model(key)) return "; did you mean version=" + key + "?";
    if (eq == std::string::npos && key.size() > 5 && key.compare(key.size() - 5, 5, ".json") == 0)
        return "; did you mean path=" + key + "?";
    const std::string near = nearest_name(key, {"version", "path", "name", "disable_clip", "enable_transform"});
    return near.empty() ? "" : "; did you mean '" + near + "'?";
}

/// -p: upstream's 420/422/444 (the depth comes from -b), or FFmpeg's names,
/// which carry the depth: yuv420p (8-bit), yuv422p10le, yuv444p12le, yuv420p16le.
/// Returns the depth the name implies, 0 for upstream's numbers.
unsigned parse_pixel_format(const std::string& p, PixelFormat& format) {
    std::string base = p;
    unsigned bpc = 0;
    if (base.rfind("yuv", 0) == 0) {
        bpc = 8;
        for (unsigned bits : {10u, 12u, 16u}) {
            const std::string suffix = "p" + std::to_string(bits) + "le";
            if (base.size() > suffix.size() && base.compare(base.size() - suffix.size(), suffix.size(), suffix) == 0) {
                bpc = bits;
                base.resize(base.size() - suffix.size() + 1);
            }
        }
        if (base.size() != 7 || base.back() != 'p') base.clear();
        else base = base.substr(3, 3);
    }
    if (base == "420") format = PixelFormat::Yuv420;
    else if (base == "422") format = PixelFormat::Yuv422;
    else if (base == "444") format = PixelFormat::Yuv444;
    else throw UsageError{"invalid --pixel_format '" + p + "' (expected 420, 422 or 444, or yuv420p, yuv422p10le, ...)"};
    return bpc;
}

}  // namespace

ModelRequest parse_model(const std::string& text) {
    ModelRequest m;
    for (const std::string& item : split_colon(text)) {
        if (item.empty()) throw UsageError{"--model: empty item in '" + text + "'"};
        const auto eq = item.find('=');
        const std::string key = item.substr(0, eq);
        const std::string value = eq == std::string::npos ? "" : item.substr(eq + 1);
        if (key == "version") m.version = value;
        else if (key == "path") m.path = value;
        else if (key == "name") m.name = value;
        else if (key == "disable_clip") m.disable_clip = parse_flag_value(key, value);
        else if (key == "enable_transform") m.enable_transform = parse_flag_value(key, value);
        else if (key.find('.') != std::string::npos && eq != std::string::npos) m.overrides.emplace_back(key, value);
        else throw UsageError{"--model: unknown key '" + key + "' in '" + text + "'" + model_key_hint(key, eq)};
    }
    if (m.version.empty() == m.path.empty()) throw UsageError{"--model needs exactly one of version= or path=: '" + text + "'"};
    return m;
}

FeatureRequest parse_feature(const std::string& text) {
    FeatureRequest f;
    const auto eq = text.find('=');
    f.name = text.substr(0, eq);
    if (f.name.empty()) throw UsageError{"--feature: missing feature name in '" + text + "'"};
    if (eq == std::string::npos) return f;
    for (const std::string& item : split_colon(text.substr(eq + 1))) {
        const auto e = item.find('=');
        if (e == std::string::npos || e == 0) throw UsageError{"--feature " + f.name + ": expected key=value, got '" + item + "'"};
        f.options.emplace_back(item.substr(0, e), item.substr(e + 1));
    }
    return f;
}

std::string usage_text() {
    return R"(usage: vmaf [options]

Inputs (the format is recognised by content, not by the file name):
  --reference/-r PATH       reference video: Y4M, a container or stream
                            FFmpeg's libraries read (mp4, mkv, webm, mov, ivf,
                            h264, hevc, ...), or raw planar YUV with -w -h -p -b
  --distorted/-d PATH       distorted video (same rules)
  --width/-w N              raw input width
  --height/-h N             raw input height
  --pixel_format/-p FMT     raw input pixel format: 420, 422, 444, or FFmpeg's
                            name (yuv420p, yuv422p10le, yuv444p12le, ...,
                            which gives the bit depth: then -b may be left out)
  --bitdepth/-b N           raw input bit depth: 8, 10, 12, 16
  --frame_cnt N             stop after N frame pairs
  --frame_skip_ref N        skip the first N reference frames
  --frame_skip_dist N       skip the first N distorted frames
  --subsample N             score every Nth frame only
  --pair_in_order           pair frames in order, ignoring timestamps, even
                            when the inputs declare different frame rates
  --pair_nearest            pair each reference frame with the distorted frame
                            nearest in time (any frame rates, variable ones
                            too), as FFmpeg's framesync ts_sync_mode=nearest;
                            by default, timed inputs (containers) pair by
                            presentation time on their common frame rate
  --skip_decode_errors      leave out frames of a container that fail to decode
                            (counted on stderr; paired by time, their slot shows
                            the previous picture) instead of failing the run
  --decoder_threads N       threads of a container's software decoder (default
                            0: one per core; 1 when many runs share the cores)
  --scale_dist_to_ref FILTER  resize the distorted video to the reference's
                            size with this libswscale filter (bicubic, lanczos,
                            bilinear, spline, area, neighbor, ...), as FFmpeg's
                            scale2ref does; off by default (sizes must match)
  --common_bitdepth         score inputs of different bit depths at the deeper
                            one, the shallower one's samples shifted left (as
                            upstream's common_bitdepth, which --aom_ctc v6.0
                            and later set); off by default (bit depths must match)

Models and features:
  --model/-m SPEC           version=NAME | path=FILE, then optional
                            :name=KEY :disable_clip :enable_transform
                            :<feature>.<option>=VALUE (repeatable)
  --feature NAME[=k=v:...]  extra feature extractor (repeatable; names and
                            options: --list-features)
  --no_prediction/-n        extract features only, no model score
  --aom_ctc VERSION         the AOM common test conditions' models and
                            features (v1.0 ... v7.0), as upstream's CLI
  --nflx_ctc VERSION        Netflix's (v1.0): vmaf_4k_v0.6.1(neg), psnr with
                            chroma and APSNR, float_ssim in dB, cambi

Output:
  --output/-o PATH          write the report to PATH. Without it no report is
                            written, and the scores are printed on stderr
                            only when stderr is a terminal: in a script or
                            pipe, a run without -o prints no scores (as
                            upstream)
  --xml | --json | --csv | --sub   report format (default XML; last wins)
  --precision N|max|legacy  number format: %.Ng, %.17g, or upstream's (default)

Execution:
  --threads N               worker threads (0: run on the calling thread)
  --cpumask/-c MASK         disable ISAs: 1 SSE2, 2 SSSE3, 4 SSE4.1, 8 AVX2,
                            16 AVX-512, 32 AVX-512ICL
  --backend NAME            auto | cpu | cuda | sycl | hip | metal
  --no_cuda                 never use CUDA
  --no_hip                  never use HIP
  --hip_device N            the HIP backend's device index (default 0)
  --gpumask MASK            non-zero: never use the GPU (upstream's flag;
                            here as --no_cuda --no_hip)
  --no_gpu_decode           with a GPU backend, decode containers on the CPU
                            (by default the GPU's decoder (NVDEC) takes the
                            streams it supports when every feature runs on
                            the GPU; others are decoded in software, one
                            stderr line says so)
  --quiet/-q                nothing on stderr but errors: no banner,
                            progress, scores, notices (e.g. --backend auto
                            running on the CPU) or warnings (e.g. one input
                            ended first; the report keeps the pairing counts)
  --version/-v              print the version (upstream's, then this build's
                            version, commit, backends and SIMD targets) and exit
  --list-features           every feature with its output keys and options
                            (with a legend of its tags)
  --list-models             every built-in model (and what this build lacks)
  --help                    this text
)";
}

Args parse_args(int argc_in, char** argv_in) {
    // The CTC presets stand for --model/--feature options, in their place.
    std::vector<std::string> expanded = expand_ctc_presets(argc_in, argv_in);
    std::vector<char*> expanded_ptrs;
    for (std::string& s : expanded) expanded_ptrs.push_back(s.data());
    const int argc = static_cast<int>(expanded_ptrs.size());
    char** argv = expanded_ptrs.data();
    Args a;
    CLI::App app{"vmaf"};
    app.set_help_flag();  // -h is --height, as upstream
    app.allow_extras(false);
    std::vector<std::string> models, features;
    std::string w, h, p, b, threads, decoder_threads, subsample, cpumask, gpumask, frame_cnt, skip_ref, skip_dist, precision;
    bool help = false, fmt_flag = false;
    app.add_option("-r,--reference", a.reference);
    app.add_option("-d,--distorted", a.distorted);
    app.add_option("-w,--width", w);
    app.add_option("-h,--height", h);
    app.add_option("-p,--pixel_format", p);
    app.add_option("-b,--bitdepth", b);
    app.add_option("-m,--model", models)->take_all()->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    app.add_option("--feature", features)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    app.add_option("-o,--output", a.output);
    app.add_flag("--xml,--json,--csv,--sub", fmt_flag);
    app.add_option("--threads", threads);
    app.add_option("--decoder_threads", decoder_threads);
    app.add_option("--subsample", subsample);
    app.add_option("-c,--cpumask", cpumask);
    app.add_option("--gpumask", gpumask);
    app.add_option("--frame_cnt", frame_cnt);
    app.add_option("--frame_skip_ref", skip_ref);
    app.add_option("--frame_skip_dist", skip_dist);
    app.add_option("--precision", precision);
    app.add_option("--backend", a.backend);
    app.add_flag("--no_cuda", a.no_cuda);
    app.add_flag("--no_hip", a.no_hip);
    std::string hip_device;
    app.add_option("--hip_device", hip_device);
    app.add_flag("-n,--no_prediction", a.no_prediction);
    app.add_flag("-q,--quiet", a.quiet);
    app.add_flag("-v,--version", a.version);
    app.add_flag("--help", help);
    app.add_flag("--list-features", a.list_features);
    app.add_option("--scale_dist_to_ref", a.scale_dist);
    app.add_flag("--common_bitdepth", a.common_bitdepth);
    app.add_flag("--pair_in_order", a.pair_in_order);
    app.add_flag("--pair_nearest", a.pair_nearest);
    app.add_flag("--skip_decode_errors", a.input.skip_decode_errors);
    bool no_gpu_decode = false;
    app.add_flag("--no_gpu_decode", no_gpu_decode);
    app.add_flag("--list-models", a.list_models);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        throw UsageError{e.what()};
    }
    a.help = help;
    a.engine.gpu_decode = !no_gpu_decode;
    if (a.help || a.version || a.list_features || a.list_models) return a;
    if (a.pair_in_order && a.pair_nearest) throw UsageError{"--pair_in_order and --pair_nearest exclude each other"};

    // Report format: the last of --xml/--json/--csv/--sub wins.
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--xml") a.format = OutputFormat::Xml;
        else if (arg == "--json") a.format = OutputFormat::Json;
        else if (arg == "--csv") a.format = OutputFormat::Csv;
        else if (arg == "--sub") a.format = OutputFormat::Sub;
    }

    if (a.reference.empty()) throw UsageError{"--reference/-r is required"};
    if (a.distorted.empty()) throw UsageError{"--distorted/-d is required"};
    a.raw = !w.empty() || !h.empty() || !p.empty() || !b.empty();
    if (a.raw) {
        if (w.empty() || h.empty() || p.empty())
            throw UsageError{"raw YUV input needs all of --width, --height, --pixel_format and --bitdepth"};
        a.geom.width = parse_unsigned("--width", w);
        a.geom.height = parse_unsigned("--height", h);
        if (!a.geom.width || !a.geom.height) throw UsageError{"--width and --height must be positive"};
        if (a.geom.width > kMaxPictureDimension || a.geom.height > kMaxPictureDimension)
            throw UsageError{"--width and --height must be at most " + std::to_string(kMaxPictureDimension) + ", got " +
                             w + "x" + h};
        if (std::uint64_t{a.geom.width} * a.geom.height > kMaxPicturePixels)
            throw UsageError{w + "x" + h + " is too large (at most " + std::to_string(kMaxPicturePixels) + " pixels)"};
        const unsigned named_bpc = parse_pixel_format(p, a.geom.format);
        if (b.empty() && !named_bpc)
            throw UsageError{"raw YUV input needs all of --width, --height, --pixel_format and --bitdepth"};
        a.geom.bpc = b.empty() ? named_bpc : parse_unsigned("--bitdepth", b);
        if (a.geom.bpc != 8 && a.geom.bpc != 10 && a.geom.bpc != 12 && a.geom.bpc != 16)
            throw UsageError{"unsupported --bitdepth " + b + " (expected 8, 10, 12 or 16)"};
        if (named_bpc && a.geom.bpc != named_bpc)
            throw UsageError{"--pixel_format " + p + " is " + std::to_string(named_bpc) + "-bit but --bitdepth is " + b};
    }
    if (!threads.empty()) a.engine.threads = parse_unsigned("--threads", threads);
    if (!decoder_threads.empty()) {
        a.input.decoder_threads = parse_unsigned("--decoder_threads", decoder_threads);
        if (a.input.decoder_threads > kMaxDecoderThreads)
            throw UsageError{"--decoder_threads must be at most " + std::to_string(kMaxDecoderThreads)};
    }
    if (!subsample.empty()) a.engine.subsample = parse_unsigned("--subsample", subsample);
    if (a.engine.subsample == 0) throw UsageError{"--subsample must be at least 1"};
    if (!cpumask.empty()) a.engine.cpumask = parse_unsigned("--cpumask", cpumask);
    // Upstream: a non-zero --gpumask keeps the scoring off the GPU.
    if (!gpumask.empty() && parse_unsigned("--gpumask", gpumask) != 0) {
        if (a.backend != "auto" && a.backend != "cpu")
            throw UsageError{"--gpumask " + gpumask + " keeps scoring off the GPU, but --backend " + a.backend + " asks for it"};
        a.no_cuda = true;
        a.no_hip = true;
    }
    if (!hip_device.empty()) {
        const unsigned d = parse_unsigned("--hip_device", hip_device);
        if (d > 1023) throw UsageError{"--hip_device must be at most 1023"};
        a.hip_device = static_cast<int>(d);
    }
    if (!frame_cnt.empty()) a.limits.frame_count = parse_unsigned("--frame_cnt", frame_cnt);
    if (!skip_ref.empty()) a.limits.skip_ref = parse_unsigned("--frame_skip_ref", skip_ref);
    if (!skip_dist.empty()) a.limits.skip_dist = parse_unsigned("--frame_skip_dist", skip_dist);
    if (!precision.empty()) {
        if (precision == "max" || precision == "full") {
            a.precision = {Precision::Mode::Digits, 17};
        } else if (precision == "legacy") {
            a.precision = {};
        } else {
            const unsigned n = parse_unsigned("--precision", precision);
            if (n < 1 || n > 17) throw UsageError{"--precision must be 1..17, max or legacy"};
            a.precision = {Precision::Mode::Digits, static_cast<int>(n)};
        }
    }
    for (const auto& m : models) a.models.push_back(parse_model(m));
    for (const auto& f : features) a.features.push_back(parse_feature(f));
    if (a.models.size() > 32) throw UsageError{"at most 32 --model options"};
    if (a.features.size() > 32) throw UsageError{"at most 32 --feature options"};
    if (!vmaf::is_backend_name(a.backend))
        throw UsageError{"unsupported backend '" + a.backend + "' (expected " + vmaf::backend_names_text() + ")"};
    return a;
}

}  // namespace vmaf::cli
