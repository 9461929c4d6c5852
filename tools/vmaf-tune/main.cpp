// vmaf-tune: encode sweeps scored in-process (src/tune).
//   vmaf-tune corpus --source SRC ... --encoder E --crf 18:40:2 --out corpus.jsonl
//   vmaf-tune recommend / compare / per-shot / ladder --source SRC ... (docs/vmaf-tune.md)
//   vmaf-tune merge SHARD.jsonl ... -o corpus.jsonl
//   vmaf-tune report corpus.jsonl -o report.html
// Exit status: 0 done, 1 some cell failed, 2 bad options or input (nothing
// encoded), 130 interrupted (rerun the same command to resume).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>

#include "tune/compare.hpp"
#include "tune/corpus.hpp"
#include "tune/ladder.hpp"
#include "tune/merge.hpp"
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

/// The options every encoding subcommand shares, as given on the command line.
struct SweepArgs {
    CorpusOptions c;
    std::vector<std::string> sources;
    unsigned width = 0, height = 0;
    std::string pix_fmt = "yuv420p", extra;
    double framerate = 24, cache_mb = 256;
    bool no_cache = false;

    void declare(CLI::App* cmd) {
        cmd->add_option("--source", sources, "source video: raw YUV with --width --height, or Y4M / any container")
            ->required();
        cmd->add_option("--width", width, "raw source width");
        cmd->add_option("--height", height, "raw source height");
        cmd->add_option("--pix-fmt", pix_fmt, "raw source pixel format (yuv420p, yuv422p10le, ...)");
        cmd->add_option("--framerate", framerate, "raw source frame rate");
        cmd->add_option("--encoder", c.encoders,
                        "libx264, libx265, libsvtav1, libaom-av1, libvpx-vp9, h264_nvenc, hevc_nvenc, av1_nvenc");
        cmd->add_option("--preset", c.presets, "encoder preset (default: the encoder's own)");
        cmd->add_option("--vmaf-model", c.model,
                        "built-in model name or model .json path (default vmaf_v0.6.1; vmaf_4k_v0.6.1 at >= 2160p)");
        cmd->add_option("--score-backend", c.score_backend, "auto (cuda, sycl, hip, then cpu), cuda, sycl, hip or cpu");
        cmd->add_option("--threads", c.threads, "scoring threads (default: every core)");
        cmd->add_option("--sample-seconds", c.sample_seconds,
                        "encode and score only the centre S seconds of the source");
        cmd->add_option("--extra-ffmpeg-args", extra, "more ffmpeg output options, one string split at spaces");
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

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"vmaf-tune: encode sweeps scored with VMAF in-process"};
    app.require_subcommand(1);
    const vmaf::BuildInfo build = vmaf::build_info();
    app.set_version_flag("--version", "vmaf-tune (vmaf-engine " + build.engine_version + ", commit " + build.commit +
                                          ", libvmaf " + build.upstream_version + ")");

    SweepArgs sw;
    std::string shard = "0/1";
    auto* corpus = app.add_subcommand("corpus", "encode a grid of cells and score each encode against its source");
    sw.declare(corpus);
    corpus->add_option("--crf", sw.c.crf_specs, "CRF (repeatable) or FIRST:LAST[:STEP]")->required();
    corpus->add_option("--jobs", sw.c.jobs, "encodes at a time");
    corpus->add_option("--shard", shard, "I/N: this process takes grid cells i with i % N == I");

    SweepArgs rw;
    RecommendOptions ro;
    double target_vmaf = -1, target_bitrate = -1;
    bool as_json = false;
    auto* rec = app.add_subcommand("recommend",
                                   "the highest CRF meeting --target-vmaf, or the CRF closest to --target-bitrate");
    rw.declare(rec);
    rec->get_option("--source")->required(false);
    rw.c.out = "recommend.jsonl";
    auto* tv = rec->add_option("--target-vmaf", target_vmaf, "pooled VMAF to reach");
    auto* tb = rec->add_option("--target-bitrate", target_bitrate, "bitrate to approach, kbps");
    rec->add_option("--pool", ro.pool, "mean, harmonic, p1, p5 or min (default mean)");
    rec->add_option("--crf-min", ro.crf_min, "lowest CRF to try (default: the encoder's)");
    rec->add_option("--crf-max", ro.crf_max, "highest CRF to try (default: the encoder's)");
    rec->add_option("--from-corpus", ro.from_corpus, "answer from this JSONL without encoding");
    rec->add_flag("--json", as_json, "print the recommended row as JSON");

    SweepArgs cw;
    std::string cmp_encoders, cmp_format = "markdown", cmp_out;
    std::vector<double> cmp_targets = {80, 85, 90, 95};
    auto* cmp = app.add_subcommand("compare",
                                   "encoders' curves, BD-rate and BD-VMAF against the first, bitrate at VMAF targets");
    cw.declare(cmp);
    cw.c.out = "compare.jsonl";
    cmp->add_option("--encoders", cmp_encoders, "comma-separated encoders; the first is the anchor")->required();
    cmp->add_option("--crf", cw.c.crf_specs, "CRF (repeatable) or FIRST:LAST[:STEP]")->required();
    cmp->add_option("--jobs", cw.c.jobs, "encodes at a time");
    cmp->add_option("--target-vmaf", cmp_targets, "VMAF targets of the bitrate table (repeatable)");
    cmp->add_option("--format", cmp_format, "markdown, json or csv");
    cmp->add_option("-o,--output", cmp_out, "write the table here instead of stdout");

    SweepArgs pw;
    PerShotOptions po;
    auto* per_shot = app.add_subcommand(
        "per-shot", "shots by scene-change detection, the highest CRF per shot meeting --target-vmaf, an encode plan");
    pw.declare(per_shot);
    pw.c.out = "per-shot.jsonl";
    per_shot->add_option("--target-vmaf", po.target_vmaf, "pooled VMAF every shot must reach")->required();
    per_shot->add_option("--pool", po.pool, "mean, harmonic, p1, p5 or min (default mean)");
    per_shot->add_option("--scene-threshold", po.scene_threshold,
                         "scene-change score (0, 100] that starts a shot, as FFmpeg's scdet (default 10)");
    per_shot->add_option("--min-shot-frames", po.min_shot_frames, "shortest shot, frames (default 6)");
    per_shot->add_option("--crf-min", po.crf_min, "lowest CRF to try (default: the encoder's)");
    per_shot->add_option("--crf-max", po.crf_max, "highest CRF to try (default: the encoder's)");
    per_shot->add_option("--plan-dir", po.plan_dir, "where plan.json, encode.sh, concat.txt go (default per-shot)");
    per_shot->add_flag("--execute", po.execute,
                       "run the plan, join the segments, score the result and compare it with one CRF of similar size");

    SweepArgs lw;
    LadderOptions lo;
    std::string target_vmafs;
    auto* ladder = app.add_subcommand(
        "ladder", "sizes x CRFs scored at the source's size, the hull across sizes, rungs, HLS and DASH manifests");
    lw.declare(ladder);
    lw.c.out = "ladder.jsonl";
    ladder->add_option("--resolutions", lo.resolutions, "encode sizes, e.g. 1920x1080,1280x720,640x360")->required();
    ladder->add_option("--crf", lw.c.crf_specs, "CRF (repeatable) or FIRST:LAST[:STEP]");
    ladder->add_option("--scale-filter", lo.scale_filter,
                       "libswscale filter down and back up: bicubic (default), lanczos, bilinear, spline, area, ...");
    ladder->add_option("--rungs", lo.rungs, "rungs spread along the hull (default: one per resolution)");
    ladder->add_option("--target-vmafs", target_vmafs, "one rung per VMAF target instead, e.g. 95,90,80");
    ladder->add_option("--jobs", lw.c.jobs, "encodes at a time");
    ladder->add_option("--ladder-dir", lo.ladder_dir,
                       "where ladder.json, master.m3u8, manifest.mpd, report.html go (default ladder)");

    std::vector<std::string> merge_in;
    std::string merge_out;
    auto* merge = app.add_subcommand("merge", "join the JSONL files of a sharded sweep, one row per cell");
    merge->add_option("inputs", merge_in, "JSONL files");  // checked below, to name what is missing
    merge->add_option("-o,--out", merge_out, "merged JSONL file")->required();

    std::string report_in, report_out, report_title;
    auto* report = app.add_subcommand("report", "one self-contained HTML page with plots and a table of a corpus");
    report->add_option("corpus", report_in, "JSONL file");  // these two checked below, to name what is missing
    report->add_option("-o,--out", report_out, "HTML file");
    report->add_option("--title", report_title, "page title");

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) return app.exit(e);
        std::fprintf(stderr, "vmaf-tune: %s (see --help)\n", e.what());
        return 2;
    }
    try {
        if (*corpus) {
            CorpusOptions c = sw.resolve();
            c.shard = parse_shard(shard);
            return run_corpus(c);
        }
        if (*rec) {
            ro.corpus = rw.resolve();
            if (tv->count()) ro.target_vmaf = target_vmaf;
            if (tb->count()) ro.target_bitrate = target_bitrate;
            if (ro.from_corpus.empty() && ro.corpus.sources.empty())
                throw std::invalid_argument("--source is required");
            const Recommendation r = recommend(ro);
            const Row& row = r.row;
            if (as_json) std::printf("%s\n", row.dump().c_str());
            char what_buf[64];
            if (ro.target_vmaf)
                std::snprintf(what_buf, sizeof what_buf, "VMAF %g (%s)", *ro.target_vmaf, ro.pool.c_str());
            else
                std::snprintf(what_buf, sizeof what_buf, "%g kbps", *ro.target_bitrate);
            const std::string what = what_buf;
            std::fprintf(
                stderr,
                "vmaf-tune: %s %s: %s CRF %d: VMAF %.3f (%s %.3f) at %.1f kbps; %u encodes, %u cells known before\n",
                row["encoder"].get<std::string>().c_str(), row["preset"].get<std::string>().c_str(),
                r.met ? ("meets " + what + " at").c_str() : ("cannot reach " + what + "; best candidate").c_str(),
                row["crf"].get<int>(), row["vmaf_score"].get<double>(), ro.pool.c_str(),
                row[pool_key(ro.pool)].get<double>(), row["bitrate_kbps"].get<double>(), r.encodes, r.known);
            if (!as_json) std::printf("%d\n", row["crf"].get<int>());
            return r.met ? 0 : 1;
        }
        if (*cmp) {
            CorpusOptions c = cw.resolve();
            if (c.sources.size() != 1) throw std::invalid_argument("compare takes exactly one --source");
            c.encoders.clear();
            for (std::size_t a = 0, b; a <= cmp_encoders.size(); a = b + 1) {
                b = cmp_encoders.find(',', a);
                if (b == std::string::npos) b = cmp_encoders.size();
                if (b > a) c.encoders.push_back(cmp_encoders.substr(a, b - a));
            }
            if (c.encoders.size() < 2)
                throw std::invalid_argument("--encoders needs at least two encoders, comma-separated");
            for (double t : cmp_targets)
                if (!(t >= 0 && t <= 100)) throw std::invalid_argument("--target-vmaf must be within [0, 100]");
            render_comparison(Comparison{{}, {EncoderCurve{}}}, cmp_format);  // the format is checked before encoding
            const int rc = run_corpus(c);
            if (rc == 130) return rc;
            std::vector<Row> rows;
            for (Row& r : read_rows(c.out))
                if (r.value("src", std::string()) == c.sources[0].path) rows.push_back(std::move(r));
            const std::string text = render_comparison(compare_rows(rows, c.encoders, cmp_targets), cmp_format);
            if (cmp_out.empty()) {
                std::fputs(text.c_str(), stdout);
            } else {
                std::ofstream o(cmp_out);
                o << text;
                if (!o) throw std::runtime_error("cannot write " + cmp_out);
            }
            return rc;
        }
        if (*per_shot) {
            po.corpus = pw.resolve();
            return run_per_shot(po);
        }
        if (*ladder) {
            lo.corpus = lw.resolve();
            for (std::size_t a = 0, b; a < target_vmafs.size(); a = b + 1) {
                b = target_vmafs.find(',', a);
                if (b == std::string::npos) b = target_vmafs.size();
                const std::string item = target_vmafs.substr(a, b - a);
                if (item.empty()) continue;
                std::size_t used = 0;
                double v = 0;
                try {
                    v = std::stod(item, &used);
                } catch (const std::exception&) {
                    used = 0;
                }
                if (used != item.size()) throw std::invalid_argument("--target-vmafs: '" + item + "' is not a number");
                lo.target_vmafs.push_back(v);
            }
            if (!target_vmafs.empty() && lo.target_vmafs.empty())
                throw std::invalid_argument("--target-vmafs is empty: give values like 95,90,80");
            return run_ladder(lo);
        }
        if (*merge) {
            if (merge_in.empty())
                throw std::invalid_argument("merge: no JSONL files given (vmaf-tune merge SHARD.jsonl ... -o OUT.jsonl)");
            const auto rows = merge_rows(merge_in);
            write_rows(merge_out, rows);
            std::fprintf(stderr, "vmaf-tune: %zu rows from %zu files written to %s\n", rows.size(), merge_in.size(),
                         merge_out.c_str());
            return 0;
        }
        if (*report) {
            if (report_in.empty())
                throw std::invalid_argument("report: no JSONL file given (vmaf-tune report CORPUS.jsonl -o report.html)");
            if (report_out.empty()) throw std::invalid_argument("report: no -o/--out HTML file given");
            const auto rows = read_rows(report_in);
            if (rows.empty()) throw std::invalid_argument(report_in + " has no rows");
            const std::string html =
                render_report(rows, report_title.empty() ? "vmaf-tune: " + report_in : report_title);
            const std::string tmp = report_out + ".tmp";
            {
                std::ofstream out(tmp, std::ios::binary);
                out << html;
                if (!out) throw std::runtime_error("cannot write " + tmp);
            }
            if (std::rename(tmp.c_str(), report_out.c_str()) != 0)
                throw std::runtime_error("cannot write " + report_out);
            return 0;
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vmaf-tune: %s\n", e.what());
        return 2;
    }
    return 2;
}
