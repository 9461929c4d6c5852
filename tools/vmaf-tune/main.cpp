// vmaf-tune: encode sweeps scored in-process (src/tune).
//   vmaf-tune corpus --source SRC ... --encoder E --crf 18:40:2 --out corpus.jsonl
//   vmaf-tune recommend / compare / per-shot / ladder --source SRC ... (docs/vmaf-tune.md)
//   vmaf-tune merge SHARD.jsonl ... -o corpus.jsonl
//   vmaf-tune report corpus.jsonl -o report.html
// Exit status: 0 done, 1 some cell failed, 2 bad options or input (nothing
// encoded), 130 interrupted (rerun the same command to resume).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <optional>

#include "tune/atomic_file.hpp"
#include "tune/compare.hpp"
#include "tune/corpus.hpp"
#include "tune/encoders.hpp"
#include "tune/interrupt.hpp"
#include "tune/ladder.hpp"
#include "tune/lists.hpp"
#include "tune/merge.hpp"
#include "tune/metrics.hpp"
#include "tune/per_shot.hpp"
#include "tune/recommend.hpp"
#include "tune/report.hpp"
#include "vmaf/catalog.hpp"
#include "vmaf/error.hpp"

namespace {

using namespace vmaf::tune;

/// "yuv420p" / "yuv422p10le" ... to the raw geometry the reader needs.
vmaf::VideoGeometry raw_geometry(unsigned w, unsigned h, const std::string& pix_fmt) {
    vmaf::VideoGeometry g;
    g.width = w;
    g.height = h;
    std::string base = pix_fmt;
    g.bpc = 8;
    for (unsigned bits : {10u, 12u, 16u}) {
        const std::string suffix = std::to_string(bits) + "le";
        if (base.size() > suffix.size() && base.compare(base.size() - suffix.size(), suffix.size(), suffix) == 0) {
            g.bpc = bits;
            base.resize(base.size() - suffix.size());
        }
    }
    if (base == "yuv420p")
        g.format = vmaf::PixelFormat::Yuv420;
    else if (base == "yuv422p")
        g.format = vmaf::PixelFormat::Yuv422;
    else if (base == "yuv444p")
        g.format = vmaf::PixelFormat::Yuv444;
    else
        throw std::invalid_argument("--pix-fmt '" + pix_fmt +
                                    "': expected yuv420p/yuv422p/yuv444p, optionally 10le/12le/16le");
    return g;
}

/// Throws std::invalid_argument naming the first of `names` given on `cmd`'s
/// command line: options a subcommand declares but does not use this time.
void reject_given(const CLI::App* cmd, std::initializer_list<const char*> names, const std::string& why) {
    for (const char* n : names)
        if (cmd->get_option(n)->count()) throw std::invalid_argument(std::string(n) + " " + why);
}

/// The options every encoding subcommand shares, as given on the command line.
struct SweepArgs {
    CorpusOptions c;
    std::vector<std::string> sources;
    unsigned width = 0, height = 0;
    std::string pix_fmt = "yuv420p", extra;
    double framerate = 24, cache_mb = 256;
    bool no_cache = false;

    void declare(CLI::App* cmd) {
        std::string encoders;
        for (const std::string& e : encoder_names()) encoders += (encoders.empty() ? "" : ", ") + e;
        cmd->add_option("--source", sources, "source video: raw YUV with --width --height, or Y4M / any container")
            ->required();
        cmd->add_option("--width", width, "raw source width");
        cmd->add_option("--height", height, "raw source height");
        cmd->add_option("--pix-fmt", pix_fmt, "raw source pixel format (yuv420p, yuv422p10le, ...)");
        cmd->add_option("--framerate", framerate, "raw source frame rate");
        cmd->add_option("--encoder", c.encoders, encoders);
        cmd->add_option("--preset", c.presets, "encoder preset (default: the encoder's own)");
        cmd->add_option("--vmaf-model", c.model,
                        "built-in model name or model .json path (default vmaf_v0.6.1; vmaf_4k_v0.6.1 at >= 2160p)");
        cmd->add_option("--score-backend", c.score_backend, "auto (cuda, sycl, hip, then cpu), cuda, sycl, hip or cpu");
        cmd->add_option("--threads", c.threads, "scoring threads (default: every core)");
        cmd->add_option("--sample-seconds", c.sample_seconds,
                        "encode and score only samples of S seconds each (see --samples)");
        cmd->add_option("--samples", c.samples,
                        "with --sample-seconds: this many samples spread evenly over the source (default 1: its "
                        "centre), encoded and scored as one");
        cmd->add_option("--extra-ffmpeg-args", extra,
                        "more ffmpeg output options, one string split at spaces; a -vf runs after the frame selection");
        cmd->add_flag("--keep-encodes", c.keep_encodes, "keep the encoded files (default: deleted once scored)");
        cmd->add_option("--encode-dir", c.encode_dir, "where encodes go (default OUT.encodes)");
        cmd->add_option("--out", c.out, "JSONL file rows are appended to (cells already in it are skipped)");
        cmd->add_flag("--no-cache", no_cache, "neither read nor write the score cache");
        cmd->add_option("--cache-dir", c.cache_dir, "score cache (default $XDG_CACHE_HOME/vmaf-tune)");
        cmd->add_option("--cache-size-mb", cache_mb, "score cache size cap");
        cmd->add_option("--ffmpeg", c.ffmpeg, "ffmpeg program");
    }

    /// The options with sources, extra arguments and the cache resolved.
    CorpusOptions resolve() {
        for (const std::string& s : sources) {
            SourceSpec spec;
            spec.path = s;
            if (width || height) {
                if (!width || !height) throw std::invalid_argument("raw sources need both --width and --height");
                spec.raw = raw_geometry(width, height, pix_fmt);
                spec.raw_pix_fmt = pix_fmt;
                if (!(framerate > 0)) throw std::invalid_argument("--framerate must be positive");
                spec.raw_fps = framerate;
            }
            c.sources.push_back(spec);
        }
        for (std::size_t a = 0, b; a < extra.size(); a = b + 1) {
            b = extra.find(' ', a);
            if (b == std::string::npos) b = extra.size();
            if (b > a) c.extra_ffmpeg_args.push_back(extra.substr(a, b - a));
        }
        c.use_cache = !no_cache;
        if (!(cache_mb > 0)) throw std::invalid_argument("--cache-size-mb must be positive");
        c.cache_max_bytes = static_cast<std::uint64_t>(cache_mb * 1024 * 1024);
        return c;
    }
};

/// A subcommand: declares its options on construction, runs once parsed.
struct Command {
    CLI::App* cmd = nullptr;
    virtual ~Command() = default;
    /// Whether it runs encodes (then Ctrl-C stops it cleanly: exit 130).
    virtual bool encodes() const { return true; }
    virtual int run() = 0;
};

struct CorpusCommand : Command {
    SweepArgs sw;
    std::string shard = "0/1", metrics;
    explicit CorpusCommand(CLI::App& app) {
        cmd = app.add_subcommand("corpus", "encode a grid of cells and score each encode against its source");
        sw.declare(cmd);
        cmd->add_option("--crf", sw.c.crf_specs, "CRF (repeatable) or FIRST:LAST[:STEP]")->required();
        cmd->add_option("--jobs", sw.c.jobs, "encodes at a time");
        cmd->add_option("--shard", shard, "I/N: this process takes grid cells i with i % N == I");
        cmd->add_option("--metrics", metrics,
                        "comma-separated metrics scored beside VMAF, for recommend --from-corpus --target-metric "
                        "(psnr, float_ssim, cambi, ...)");
    }
    int run() override {
        CorpusOptions c = sw.resolve();
        c.shard = parse_shard(shard);
        for (const std::string& m : split_list(metrics)) c.metrics.push_back(find_metric(m).name);
        return run_corpus(c);
    }
};

/// The quality target of a search: --target-metric with --target, or --target-vmaf.
struct TargetArgs {
    std::string metric;
    double target = 0, target_vmaf = 0;
    CLI::Option *metric_opt = nullptr, *target_opt = nullptr, *vmaf_opt = nullptr;

    void declare(CLI::App* cmd, const char* what) {
        std::string names;
        for (const std::string& n : metric_names()) names += (names.empty() ? "" : ", ") + n;
        metric_opt =
            cmd->add_option("--target-metric", metric, "what --target is a score of: " + names + " (default vmaf)");
        target_opt = cmd->add_option(
            "--target", target,
            std::string("pooled score ") + what + " must reach (for cambi, where lower is better: stay at or below)");
        vmaf_opt = cmd->add_option("--target-vmaf", target_vmaf, "shorthand for --target-metric vmaf --target T");
    }
    bool given() const { return target_opt->count() || vmaf_opt->count(); }
    /// The metric and the target; nullopt when neither --target nor --target-vmaf is given.
    std::optional<double> resolve(std::string& metric_out) const {
        if (vmaf_opt->count() && target_opt->count())
            throw std::invalid_argument("give --target or --target-vmaf, not both");
        if (vmaf_opt->count() && metric_opt->count() && metric != "vmaf")
            throw std::invalid_argument("--target-vmaf sets the metric to vmaf: give --target-metric " + metric +
                                        " --target VALUE instead");
        if (metric_opt->count() && !target_opt->count() && !vmaf_opt->count())
            throw std::invalid_argument("--target-metric " + metric + " needs --target VALUE");
        metric_out = metric_opt->count() ? metric : "vmaf";
        if (vmaf_opt->count()) return target_vmaf;
        if (target_opt->count()) return target;
        return std::nullopt;
    }
};

struct RecommendCommand : Command {
    SweepArgs sw;
    RecommendOptions ro;
    TargetArgs target;
    double target_bitrate = -1;
    bool as_json = false;
    CLI::Option* tb = nullptr;
    bool encodes() const override { return ro.from_corpus.empty(); }
    explicit RecommendCommand(CLI::App& app) {
        cmd = app.add_subcommand("recommend",
                                 "the highest CRF whose pooled score reaches --target (--target-vmaf), or the CRF "
                                 "closest to --target-bitrate");
        sw.declare(cmd);
        cmd->get_option("--source")->required(false);
        sw.c.out = "recommend.jsonl";
        target.declare(cmd, "the recommended CRF");
        tb = cmd->add_option("--target-bitrate", target_bitrate, "bitrate to approach, kbps");
        cmd->add_option("--pool", ro.pool,
                        "mean, harmonic, p1, p5 or min: how frames pool (p1, p5, min: the worst frames; default mean)");
        cmd->add_option("--crf-min", ro.crf_min, "lowest CRF to try (default: the encoder's)");
        cmd->add_option("--crf-max", ro.crf_max, "highest CRF to try (default: the encoder's)");
        cmd->add_option("--crf-step", ro.crf_step,
                        "CRF grid the search walks (default 1; fractions such as 0.25 for libx264 and libx265)");
        cmd->add_option("--from-corpus", ro.from_corpus, "answer from this JSONL without encoding");
        cmd->add_flag("--verify", ro.verify,
                      "with --sample-seconds: encode the whole source at the answer and, if it misses the target "
                      "there, search the whole source below it");
        cmd->add_option("--max-encoded-percent", ro.max_encoded_percent,
                        "no answer whose full encode exceeds this percentage of the source file's size; stops the "
                        "search early once a CRF that misses the target is already larger (as ab-av1's)");
        cmd->add_flag("--json", as_json, "print the recommended row as JSON");
    }
    int run() override {
        if (!ro.from_corpus.empty())
            reject_given(cmd, {"--width",        "--height",
                               "--pix-fmt",      "--framerate",
                               "--vmaf-model",   "--score-backend",
                               "--threads",      "--sample-seconds",
                               "--samples",      "--extra-ffmpeg-args",
                               "--keep-encodes", "--encode-dir",
                               "--out",          "--no-cache",
                               "--cache-dir",    "--cache-size-mb",
                               "--ffmpeg",       "--crf-min",
                               "--crf-max",      "--crf-step",
                               "--verify",       "--max-encoded-percent"},
                         "does not apply with --from-corpus (it answers from the rows without encoding)");
        ro.corpus = sw.resolve();
        ro.target = target.resolve(ro.metric);
        if (tb->count()) ro.target_bitrate = target_bitrate;
        if (ro.from_corpus.empty() && ro.corpus.sources.empty()) throw std::invalid_argument("--source is required");
        const Recommendation r = recommend(ro);
        const Row& row = r.row;
        if (as_json) std::printf("%s\n", row.dump().c_str());
        char what_buf[96];
        if (ro.target)
            std::snprintf(what_buf, sizeof what_buf, "%s %g (%s)", ro.metric.c_str(), *ro.target, ro.pool.c_str());
        else
            std::snprintf(what_buf, sizeof what_buf, "%g kbps", *ro.target_bitrate);
        const std::string what = what_buf, crf = crf_text(row["crf"].get<double>());
        char score[96] = "";
        if (ro.target && (ro.metric != "vmaf" || ro.pool != "mean"))
            std::snprintf(score, sizeof score, ", %s %.4g (%s)", ro.metric.c_str(), r.value, ro.pool.c_str());
        std::fprintf(
            stderr, "vmaf-tune: %s %s: %s CRF %s: VMAF %.3f%s at %.1f kbps; %u encodes, %u cells known before\n",
            row["encoder"].get<std::string>().c_str(), row["preset"].get<std::string>().c_str(),
            r.met ? ("meets " + what + " at").c_str()
                  : ("cannot reach " + what + " (" + r.why_not + "); best candidate").c_str(),
            crf.c_str(), row["vmaf_score"].get<double>(), score, row["bitrate_kbps"].get<double>(), r.encodes, r.known);
        // From samples: what the full encode will be; with --verify, how far that prediction was off.
        const Row& sampled = r.sample_row ? *r.sample_row : row;
        if (sampled["clip_mode"] != "full") {
            std::fprintf(stderr, "vmaf-tune: predicted full encode at CRF %s: %.1f kbps, %.0f bytes (from %s)\n",
                         crf_text(sampled["crf"].get<double>()).c_str(), r.predicted_kbps, r.predicted_bytes,
                         sampled["clip_mode"].get<std::string>().c_str());
            if (r.sample_row && sampled["crf"] == row["crf"])
                std::fprintf(stderr,
                             "vmaf-tune: the whole source at CRF %s: %.1f kbps, the prediction off by %+.1f%%\n",
                             crf.c_str(), row["bitrate_kbps"].get<double>(),
                             (r.predicted_kbps / row["bitrate_kbps"].get<double>() - 1) * 100);
        }
        if (!as_json) std::printf("%s\n", crf.c_str());
        return r.met ? 0 : 1;
    }
};

struct CompareCommand : Command {
    SweepArgs sw;
    std::string encoders, format = "markdown", output;
    std::vector<double> targets = {80, 85, 90, 95};
    double min_overlap = kMinOverlapVmaf;
    explicit CompareCommand(CLI::App& app) {
        cmd = app.add_subcommand("compare",
                                 "encoders' curves, BD-rate and BD-VMAF against the first, bitrate at VMAF targets");
        sw.declare(cmd);
        sw.c.out = "compare.jsonl";
        cmd->add_option("--encoders", encoders,
                        "comma-separated ENCODER[:PRESET[:CRFS]] (CRFS: N or FIRST-LAST[/STEP], else --preset and "
                        "--crf); the first is the anchor")
            ->required();
        cmd->add_option("--crf", sw.c.crf_specs, "CRF (repeatable) or FIRST:LAST[:STEP] of encoders without their own");
        cmd->add_option("--jobs", sw.c.jobs, "encodes at a time");
        cmd->add_option("--target-vmaf", targets, "VMAF targets of the bitrate table (repeatable)");
        cmd->add_option("--format", format, "markdown, json, csv or html");
        cmd->add_option("--min-overlap", min_overlap,
                        "VMAF points two curves must share for BD values (default 5; fewer: no BD, exit 1)");
        cmd->add_option("-o,--output", output, "write the table here instead of stdout");
    }
    int run() override {
        reject_given(cmd, {"--encoder"}, "is not used by compare: give every encoder in --encoders");
        CorpusOptions c = sw.resolve();
        if (c.sources.size() != 1) throw std::invalid_argument("compare takes exactly one --source");
        for (const std::string& item : split_list(encoders)) c.runs.push_back(parse_encoder_run(item));
        if (c.runs.size() < 2)
            throw std::invalid_argument("--encoders needs at least two encoders (or presets), comma-separated");
        for (double t : targets)
            if (!(t >= 0 && t <= 100)) throw std::invalid_argument("--target-vmaf must be within [0, 100]");
        if (!(min_overlap >= 0)) throw std::invalid_argument("--min-overlap must not be negative");
        render_comparison(Comparison{{}, {EncoderCurve{}}}, format);  // the format is checked before encoding
        std::vector<Row> rows;
        const int rc = run_corpus(c, &rows);
        if (rc == 130) return rc;
        // One curve per encoder run, its preset resolved as the sweep resolved it.
        std::vector<std::pair<std::string, std::string>> curves;
        for (const EncoderRun& run : c.runs) {
            std::string preset = run.preset;
            if (preset.empty()) preset = c.presets.empty() ? find_encoder(run.encoder)->default_preset : c.presets[0];
            curves.emplace_back(run.encoder, preset);
        }
        const Comparison cmp = compare_rows(rows, curves, targets, min_overlap);
        const std::string text = render_comparison(cmp, format);
        if (output.empty())
            std::fputs(text.c_str(), stdout);
        else
            write_file_atomic(output, text);
        bool refused = false;
        for (const EncoderCurve& e : cmp.curves)
            if (&e != &cmp.curves.front() && !e.bd_rate && e.overlap_vmaf < min_overlap) {
                std::fprintf(stderr, "vmaf-tune: %s %s against %s %s: no BD values: %s\n", e.encoder.c_str(),
                             e.preset.c_str(), cmp.curves[0].encoder.c_str(), cmp.curves[0].preset.c_str(),
                             e.bd_note.c_str());
                refused = true;
            }
        return rc ? rc : refused ? 1 : 0;
    }
};

struct PerShotCommand : Command {
    SweepArgs sw;
    PerShotOptions po;
    TargetArgs target;
    explicit PerShotCommand(CLI::App& app) {
        cmd = app.add_subcommand("per-shot",
                                 "shots by scene-change detection, the highest CRF per shot whose pooled score reaches "
                                 "--target (--target-vmaf), an encode plan");
        sw.declare(cmd);
        sw.c.out = "per-shot.jsonl";
        target.declare(cmd, "every shot");
        cmd->add_option("--pool", po.pool, "mean, harmonic, p1, p5 or min (default mean)");
        cmd->add_option("--scene-threshold", po.scene_threshold,
                        "scene-change score (0, 100] that starts a shot, as FFmpeg's scdet (default 10)");
        cmd->add_option("--min-shot-frames", po.min_shot_frames, "shortest shot, frames (default 6)");
        cmd->add_option("--crf-min", po.crf_min, "lowest CRF to try (default: the encoder's)");
        cmd->add_option("--crf-max", po.crf_max, "highest CRF to try (default: the encoder's)");
        cmd->add_option("--crf-step", po.crf_step,
                        "CRF grid the searches walk (default 1; libx264/libx265: fractions)");
        cmd->add_option("--jobs", sw.c.jobs,
                        "shots searched at a time (and segments encoded at a time with --execute; scoring stays one "
                        "at a time)");
        cmd->add_option("--plan-dir", po.plan_dir, "where plan.json, encode.sh, concat.txt go (default per-shot)");
        cmd->add_flag("--execute", po.execute,
                      "run the plan, join the segments, score the result and compare it with one CRF of similar size");
    }
    int run() override {
        const std::optional<double> t = target.resolve(po.metric);
        if (!t) throw std::invalid_argument("per-shot needs --target-vmaf T (or --target-metric M --target T)");
        po.target = *t;
        po.corpus = sw.resolve();
        return run_per_shot(po);
    }
};

struct LadderCommand : Command {
    SweepArgs sw;
    LadderOptions lo;
    std::string target_vmafs;
    explicit LadderCommand(CLI::App& app) {
        cmd = app.add_subcommand(
            "ladder", "sizes x CRFs scored at the source's size, the hull across sizes, rungs, HLS and DASH manifests");
        sw.declare(cmd);
        sw.c.out = "ladder.jsonl";
        cmd->add_option("--resolutions", lo.resolutions, "encode sizes, e.g. 1920x1080,1280x720,640x360")->required();
        cmd->add_option("--crf", sw.c.crf_specs, "CRF (repeatable) or FIRST:LAST[:STEP]");
        cmd->add_option("--scale-filter", lo.scale_filter,
                        "libswscale filter down and back up: bicubic (default), lanczos, bilinear, spline, area, ...");
        cmd->add_option("--rungs", lo.rungs, "rungs spread along the hull (default: one per resolution)");
        cmd->add_option("--target-vmafs", target_vmafs, "one rung per VMAF target instead, e.g. 95,90,80");
        cmd->add_option("--jobs", sw.c.jobs, "encodes at a time");
        cmd->add_option("--ladder-dir", lo.ladder_dir,
                        "where ladder.json, master.m3u8, manifest.mpd, report.html go (default ladder)");
    }
    int run() override {
        lo.corpus = sw.resolve();
        if (cmd->get_option("--target-vmafs")->count())
            lo.target_vmafs = parse_number_list(target_vmafs, "--target-vmafs");
        return run_ladder(lo);
    }
};

struct MergeCommand : Command {
    std::vector<std::string> inputs;
    std::string out;
    bool encodes() const override { return false; }
    explicit MergeCommand(CLI::App& app) {
        cmd = app.add_subcommand("merge", "join the JSONL files of a sharded sweep, one row per cell");
        cmd->add_option("inputs", inputs, "JSONL files");  // checked in run(), to name what is missing
        cmd->add_option("-o,--out", out, "merged JSONL file")->required();
    }
    int run() override {
        if (inputs.empty())
            throw std::invalid_argument("merge: no JSONL files given (vmaf-tune merge SHARD.jsonl ... -o OUT.jsonl)");
        const auto rows = merge_rows(inputs);
        write_rows(out, rows);
        std::fprintf(stderr, "vmaf-tune: %zu rows from %zu files written to %s\n", rows.size(), inputs.size(),
                     out.c_str());
        return 0;
    }
};

struct ReportCommand : Command {
    std::string in, out, title;
    std::vector<double> targets;
    bool encodes() const override { return false; }
    explicit ReportCommand(CLI::App& app) {
        cmd = app.add_subcommand("report", "one self-contained HTML page with plots and a table of a corpus");
        cmd->add_option("corpus", in, "JSONL file");  // these two checked in run(), to name what is missing
        cmd->add_option("-o,--out", out, "HTML file");
        cmd->add_option("--title", title, "page title");
        cmd->add_option("--target-vmaf", targets, "VMAF targets drawn as lines (repeatable; the BD table's bitrates)");
    }
    int run() override {
        if (in.empty())
            throw std::invalid_argument("report: no JSONL file given (vmaf-tune report CORPUS.jsonl -o report.html)");
        if (out.empty()) throw std::invalid_argument("report: no -o/--out HTML file given");
        const auto rows = read_rows(in);
        if (rows.empty()) throw std::invalid_argument(in + " has no rows");
        for (double t : targets)
            if (!(t >= 0 && t <= 100)) throw std::invalid_argument("--target-vmaf must be within [0, 100]");
        write_file_atomic(out, render_report(rows, title.empty() ? "vmaf-tune: " + in : title, {}, targets));
        return 0;
    }
};

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"vmaf-tune: encode sweeps scored with VMAF in-process"};
    app.require_subcommand(1);
    const vmaf::BuildInfo build = vmaf::build_info();
    app.set_version_flag("--version", "vmaf-tune (vmaf-engine " + build.engine_version + ", commit " + build.commit +
                                          ", libvmaf " + build.upstream_version + ")");
    std::unique_ptr<Command> commands[] = {
        std::make_unique<CorpusCommand>(app),  std::make_unique<RecommendCommand>(app),
        std::make_unique<CompareCommand>(app), std::make_unique<PerShotCommand>(app),
        std::make_unique<LadderCommand>(app),  std::make_unique<MergeCommand>(app),
        std::make_unique<ReportCommand>(app)};
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) return app.exit(e);
        std::fprintf(stderr, "vmaf-tune: %s (see --help)\n", e.what());
        return 2;
    }
    for (const auto& c : commands) {
        if (!*c->cmd) continue;
        try {
            // Ctrl-C during encodes: the run stops cleanly and stays resumable.
            std::optional<InterruptScope> scope;
            if (c->encodes()) scope.emplace();
            return c->run();
        } catch (const Interrupted& e) {
            std::fprintf(stderr, "vmaf-tune: %s\n", e.what());
            return 130;
        } catch (const std::exception& e) {
            std::fprintf(stderr, "vmaf-tune: %s\n", e.what());
            return 2;
        }
    }
    return 2;
}
