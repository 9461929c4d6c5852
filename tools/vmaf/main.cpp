// vmaf: command-line front end of the library, flag-compatible with upstream's CLI.
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "cli_args.hpp"
#include "listing.hpp"
#include "names.hpp"
#include "progress.hpp"
#include "vmaf/engine.hpp"
#include "vmaf/error.hpp"
#include "vmaf/video_source.hpp"

namespace {

constexpr int kExitUsage = 1;
constexpr int kExitFailure = 1;
constexpr int kExitBackendInitFailed = 100;

/// Where a requested backend cannot start: one stderr line, exit 100, and the
/// report path (if any) replaced by a one-line JSON error descriptor.
int backend_failure(const vmaf::BackendError& e, const std::string& backend_arg, const std::string& output) {
    const std::string& requested = e.backend();
    if (backend_arg == requested)
        std::fprintf(stderr, "vmaf: --backend %s requested but init failed: %s; refusing to silently fall back to CPU\n",
                     requested.c_str(), e.what());
    else
        std::fprintf(stderr, "vmaf: %s; refusing to silently fall back to CPU\n", e.what());
    if (!output.empty()) {
        if (std::FILE* f = std::fopen(output.c_str(), "w")) {
            std::string msg;
            for (char c : std::string(e.what())) {
                if (c == '"' || c == '\\') msg += '\\';
                if (static_cast<unsigned char>(c) >= 0x20) msg += c;
            }
            std::fprintf(f,
                         "{\"error\": \"vmaf_%s_state_init failed: %s\", \"backend_requested\": \"%s\", "
                         "\"errno\": %d, \"adr\": \"ADR-0498\", \"exit_code\": %d}\n",
                         requested.c_str(), msg.c_str(), requested.c_str(), e.error_number(), kExitBackendInitFailed);
            std::fclose(f);
        }
    }
    return kExitBackendInitFailed;
}

/// Features the selected GPU backend has no twin for run on the CPU: one
/// stderr line naming them (the report's "feature_backends" says it per feature).
void cpu_fallback_notice(const vmaf::Engine& engine) {
    const std::string used = engine.backend_used();
    std::string names;
    std::vector<std::string> listed;
    for (const vmaf::FeatureBackend& fb : engine.feature_backends()) {
        if (fb.backend == used || std::find(listed.begin(), listed.end(), fb.feature) != listed.end()) continue;
        listed.push_back(fb.feature);
        names += (names.empty() ? "" : ", ") + fb.feature;
    }
    if (!names.empty())
        std::fprintf(stderr, "vmaf: the %s backend has no twin for %s: ran on the CPU\n", used.c_str(), names.c_str());
}

/// Frame pairing by time: the mode and the live counters of both inputs.
struct TimePairing {
    std::string mode;
    std::shared_ptr<vmaf::GridStats> ref = std::make_shared<vmaf::GridStats>(),
                                     dist = std::make_shared<vmaf::GridStats>();
};

/// Sets up frame pairing. Timed inputs (containers) are aligned to one frame
/// rate grid by presentation time; untimed ones (Y4M, raw) are read in order.
/// Returns the counters; nullopt when nothing is timed or frames pair in order.
std::optional<TimePairing> pair_by_time(const vmaf::cli::Args& args, std::unique_ptr<vmaf::VideoSource>& ref,
                                                std::unique_ptr<vmaf::VideoSource>& dist) {
    const vmaf::StreamInfo &ri = ref->info(), &di = dist->info();
    if (args.pair_in_order) return std::nullopt;
    const bool same_rate = !ri.fps_den || !di.fps_den ||
                           std::uint64_t{ri.fps_num} * di.fps_den == std::uint64_t{di.fps_num} * ri.fps_den;
    if (!args.pair_nearest && !same_rate)
        throw vmaf::Error(vmaf::ErrorKind::Input,
                          ref->name() + " is " + std::to_string(ri.fps_num) + "/" + std::to_string(ri.fps_den) + " fps but " +
                              dist->name() + " is " + std::to_string(di.fps_num) + "/" + std::to_string(di.fps_den) +
                              " fps: frames would pair wrongly (resample one, or pass --pair_nearest or --pair_in_order)");
    const bool timed = ri.time_base_den || di.time_base_den;
    if (!timed) return std::nullopt;
    // The grid: the reference's frame rate (the distorted one's when the reference declares none).
    const unsigned num = ri.fps_den ? ri.fps_num : di.fps_num, den = ri.fps_den ? ri.fps_den : di.fps_den;
    if (!den) return std::nullopt;
    TimePairing p;
    p.mode = args.pair_nearest ? "nearest" : "timestamps";
    const vmaf::GridMode mode = args.pair_nearest ? vmaf::GridMode::Nearest : vmaf::GridMode::Exact;
    ref = vmaf::align_to_grid(std::move(ref), mode, num, den, p.ref);
    dist = vmaf::align_to_grid(std::move(dist), mode, num, den, p.dist);
    return p;
}

/// Inputs of different sizes: the error names both sizes and the option that
/// resizes the distorted video (the engine checks the rest of the geometry).
void require_same_size(const vmaf::VideoSource& ref, const vmaf::VideoSource& dist) {
    const vmaf::VideoGeometry &r = ref.geometry(), &d = dist.geometry();
    if (r.width == d.width && r.height == d.height) return;
    auto size = [](const vmaf::VideoGeometry& g) { return std::to_string(g.width) + "x" + std::to_string(g.height); };
    throw vmaf::Error(vmaf::ErrorKind::Input, "reference and distorted differ in size: " + ref.name() + " is " + size(r) +
                                                  ", " + dist.name() + " is " + size(d) +
                                                  " (--scale_dist_to_ref bicubic resizes the distorted video to the "
                                                  "reference's size)");
}

/// Inputs of different bit depths: named, with the option that scores them.
void require_same_depth(const vmaf::VideoSource& ref, const vmaf::VideoSource& dist) {
    const unsigned r = ref.geometry().bpc, d = dist.geometry().bpc;
    if (r == d) return;
    throw vmaf::Error(vmaf::ErrorKind::Input, "reference and distorted differ in bit depth: " + ref.name() + " is " +
                                                  std::to_string(r) + "-bit, " + dist.name() + " is " +
                                                  std::to_string(d) +
                                                  "-bit (--common_bitdepth scores both at the deeper one, as "
                                                  "upstream's common_bitdepth does)");
}

int run(const vmaf::cli::Args& args) {
    // Names first: a typo is reported before any file is opened.
    for (const auto& m : args.models)
        if (!m.version.empty()) vmaf::cli::check_model_version(m.version);
    for (const auto& f : args.features) vmaf::cli::check_feature_name(f.name);
    // Raw flags describe the inputs that have no header; files that announce
    // their format (Y4M, containers) are read by content.
    const vmaf::VideoGeometry* raw = args.raw ? &args.geom : nullptr;
    std::unique_ptr<vmaf::VideoSource> ref = vmaf::open_input(args.reference, raw, args.input);
    std::unique_ptr<vmaf::VideoSource> dist = vmaf::open_input(args.distorted, raw, args.input);
    const std::optional<TimePairing> pairing = pair_by_time(args, ref, dist);
    if (!args.scale_dist.empty())
        dist = vmaf::scale_video(std::move(dist), ref->geometry().width, ref->geometry().height, args.scale_dist);
    else
        require_same_size(*ref, *dist);
    if (args.common_bitdepth)
        vmaf::common_bitdepth(ref, dist);
    else
        require_same_depth(*ref, *dist);
    for (const vmaf::VideoSource* s : {ref.get(), dist.get()})
        if (!s->info().conversion.empty() && !args.quiet)
            std::fprintf(stderr, "vmaf: %s: %s\n", s->name().c_str(), s->info().conversion.c_str());

    vmaf::EngineConfig cfg = args.engine;
    cfg.no_prediction = args.no_prediction;
    cfg.backend = args.backend;
    cfg.no_cuda = args.no_cuda;
    cfg.no_hip = args.no_hip;
    cfg.hip_device = args.hip_device;
    vmaf::Engine engine(cfg);
    // Models first, then extra features: this fixes upstream's report key order.
    if (args.models.empty() && !args.no_prediction) {
        vmaf::ModelRequest def;
        def.version = "vmaf_v0.6.1";
        engine.add_model(def);
    }
    for (const auto& m : args.models) engine.add_model(m);
    for (const auto& f : args.features) engine.add_feature(f);
    const bool tty = ::isatty(STDERR_FILENO);
    if (tty && !args.quiet) std::fprintf(stderr, "VMAF version %s\n", vmaf::version());
    // On a terminal: a live line of frames, fps and (frame count known) the ETA.
    std::shared_ptr<vmaf::cli::ProgressLine> progress;
    if (tty && !args.quiet) {
        std::optional<std::uint64_t> total;
        const auto rl = ref->frames_left(), dl = dist->frames_left();
        if (rl && dl)
            total = std::min(*rl - std::min<std::uint64_t>(*rl, args.limits.skip_ref),
                             *dl - std::min<std::uint64_t>(*dl, args.limits.skip_dist));
        if (args.limits.frame_count) total = std::min<std::uint64_t>(total.value_or(UINT64_MAX), *args.limits.frame_count);
        progress = std::make_shared<vmaf::cli::ProgressLine>(total);
        dist = vmaf::cli::with_progress(std::move(dist), progress);
    }
    // The engine has been starting the backend since its construction; run()
    // takes it (an explicit backend or GPU-pinned feature that cannot run:
    // exit 100, before any frame is read).
    unsigned frames = 0;
    try {
        frames = engine.run(*ref, *dist, args.limits);
    } catch (const vmaf::BackendError& e) {
        return backend_failure(e, args.backend, args.output);
    }
    if (progress) progress->clear();
    const std::string fallback = engine.select_backend().fallback_reason;
    // -q: every stderr line but errors goes (warnings, notices, counts; the report keeps the pairing).
    if (!args.quiet) {
        for (const auto& w : engine.warnings()) std::fprintf(stderr, "vmaf: warning: %s\n", w.c_str());
        for (const auto& n : engine.notices()) std::fprintf(stderr, "vmaf: %s\n", n.c_str());
        cpu_fallback_notice(engine);
    }
    for (const vmaf::VideoSource* s : {ref.get(), dist.get()})
        if (s->decode_errors() && !args.quiet)
            std::fprintf(stderr, "vmaf: %s: %llu packet(s)/frame(s) failed to decode and were left out\n",
                         s->name().c_str(), static_cast<unsigned long long>(s->decode_errors()));
    // Frames repeated or skipped to pair by time: one line per input, and in the report.
    std::optional<vmaf::PairingReport> pairing_report;
    if (pairing) {
        pairing_report = vmaf::PairingReport{pairing->mode, *pairing->ref, *pairing->dist};
        const std::pair<const vmaf::VideoSource*, const vmaf::GridStats*> sides[] = {{ref.get(), pairing->ref.get()},
                                                                                     {dist.get(), pairing->dist.get()}};
        for (const auto& [src, st] : sides)
            if ((st->repeated || st->skipped) && !args.quiet)
                std::fprintf(stderr, "vmaf: %s: paired by %s: %llu frame(s) missing (previous one repeated), %llu frame(s) skipped\n",
                             src->name().c_str(), pairing->mode == "nearest" ? "nearest timestamp" : "timestamp",
                             static_cast<unsigned long long>(st->repeated), static_cast<unsigned long long>(st->skipped));
    }
    // The report names the pairing when it was by nearest timestamp or changed anything.
    const bool report_pairing = pairing_report && (pairing_report->mode == "nearest" ||
                                                   pairing_report->reference.repeated || pairing_report->reference.skipped ||
                                                   pairing_report->distorted.repeated || pairing_report->distorted.skipped);
    if (!args.output.empty())
        engine.write_report(args.output, args.format, args.precision, report_pairing ? &*pairing_report : nullptr);
    // auto found no usable GPU: a notice, after the run so that an error stays the only line.
    if (!fallback.empty() && !args.quiet) std::fprintf(stderr, "vmaf: ran on the CPU: %s\n", fallback.c_str());

    if (tty && (!args.quiet || args.output.empty())) {
        if (!args.quiet) std::fprintf(stderr, "%u frames %.2f FPS\n", frames, engine.fps());
        // Labelled as upstream: the model's version, or its path.
        std::vector<std::string> labels;
        if (args.models.empty()) labels.push_back("vmaf_v0.6.1");
        for (const auto& m : args.models) labels.push_back(m.version.empty() ? m.path : m.version);
        const auto keys = engine.model_keys();
        for (std::size_t i = 0; i < keys.size(); ++i) {
            const auto& [key, collection] = keys[i];
            const auto mean = engine.pooled_mean(key);
            if (!mean) continue;
            std::fprintf(stderr, "%s: %f", (i < labels.size() ? labels[i] : key).c_str(), *mean);
            if (collection) {
                const auto lo = engine.pooled_mean(key + "_ci_p95_lo"), hi = engine.pooled_mean(key + "_ci_p95_hi"),
                           sd = engine.pooled_mean(key + "_stddev");
                if (lo && hi && sd) std::fprintf(stderr, ", ci.p95: [%f, %f], stddev: %f", *lo, *hi, *sd);
            }
            std::fprintf(stderr, "\n");
        }
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    vmaf::cli::Args args;
    try {
        args = vmaf::cli::parse_args(argc, argv);
    } catch (const vmaf::cli::UsageError& e) {
        std::fprintf(stderr, "vmaf: %s (see --help)\n", e.message.c_str());
        return kExitUsage;
    }
    if (args.help) {
        std::fputs(vmaf::cli::usage_text().c_str(), stdout);
        return 0;
    }
    if (args.version) {
        std::fputs(vmaf::cli::version_text().c_str(), stderr);  // stderr, as upstream
        return 0;
    }
    if (args.list_features || args.list_models) {
        if (args.list_features) std::fputs(vmaf::cli::features_text().c_str(), stdout);
        if (args.list_models) std::fputs(vmaf::cli::models_text().c_str(), stdout);
        return 0;
    }
    try {
        return run(args);
    } catch (const vmaf::Error& e) {
        std::fprintf(stderr, "vmaf: %s\n", e.what());
        return e.kind() == vmaf::ErrorKind::Usage ? kExitUsage : kExitFailure;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vmaf: internal error: %s\n", e.what());
        return kExitFailure;
    }
}
