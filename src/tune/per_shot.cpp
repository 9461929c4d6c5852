#include "tune/per_shot.hpp"

#include <atomic>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <stdexcept>
#include <thread>

#include "tune/atomic_file.hpp"
#include "tune/cached_search.hpp"
#include "tune/interrupt.hpp"
#include "tune/metrics.hpp"
#include "tune/shots.hpp"
#include "tune/sweep.hpp"

namespace fs = std::filesystem;

namespace vmaf::tune {

namespace {

/// The concat demuxer's entry for a segment of source frames [first, end):
/// 'file' (quote escaped) and its exact duration, so that the next segment
/// starts on the frame grid rather than at the container's rounded length.
/// Durations are differences of microsecond-rounded start times, so their sum
/// never drifts from the frame times.
std::string concat_entry(const std::string& path, unsigned first, unsigned end, double fps) {
    std::string q;
    for (char c : path) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    const long long us = std::llround(end * 1e6 / fps) - std::llround(first * 1e6 / fps);
    char dur[48];
    std::snprintf(dur, sizeof dur, "duration %lld.%06lld\n", us / 1000000, us % 1000000);
    return "file '" + q + "'\n" + dur;
}

/// Runs one plan step; throws with ffmpeg's last line when it fails.
void run_step(const std::vector<std::string>& argv, const std::string& what) {
    const ProcessResult r = run_process(argv);
    if (r.exit_code != 0 && interrupted()) throw Interrupted();
    if (r.exit_code != 0) {
        std::string err = r.err_tail;
        while (!err.empty() && (err.back() == '\n' || err.back() == '\r')) err.pop_back();
        if (const auto nl = err.rfind('\n'); nl != std::string::npos) err = err.substr(nl + 1);
        throw std::runtime_error(what + " failed (ffmpeg exit " + std::to_string(r.exit_code) + "): " + err);
    }
}

/// fn(0) .. fn(n - 1) on up to `jobs` threads, the results in index order.
/// After a failure no new index starts; the first failure (by index) is
/// rethrown once every started call has ended.
template <typename T, typename F>
std::vector<T> run_parallel(std::size_t n, unsigned jobs, F fn) {
    std::vector<std::optional<T>> out(n);
    std::vector<std::exception_ptr> errors(n);
    std::atomic<std::size_t> next{0};
    std::atomic<bool> failed{false};
    auto worker = [&] {
        for (std::size_t i; !failed && (i = next++) < n;) {
            try {
                out[i].emplace(fn(i));
            } catch (...) {
                errors[i] = std::current_exception();
                failed = true;
            }
        }
    };
    std::vector<std::thread> threads;
    for (unsigned t = 1; t < std::min<std::size_t>(std::max(1u, jobs), n); ++t) threads.emplace_back(worker);
    worker();
    for (std::thread& t : threads) t.join();
    for (const std::exception_ptr& e : errors)
        if (e) std::rethrow_exception(e);
    std::vector<T> results;
    for (auto& r : out) results.push_back(std::move(*r));
    return results;
}

double bitrate_kbps(std::uintmax_t bytes, double seconds) {
    return static_cast<double>(bytes) * 8.0 / 1000.0 / seconds;
}

/// Everything the searches, the plan and its execution share.
struct PerShotRun {
    const PerShotOptions& opt;
    const TargetMetric& metric;
    const EncoderAdapter* adapter = nullptr;
    std::string preset;
    double lo = 0, hi = 0;
    CorpusOptions co;
    fs::path dir;
    std::string src_abs;

    /// A row's pooled score of the target metric.
    double score(const Row& r) const { return pooled_value(r, metric, opt.pool); }
    bool meets(double v) const { return metric.higher_is_better ? v >= opt.target : v <= opt.target; }
    std::string target_text() const {
        char b[96];
        std::snprintf(b, sizeof b, "%s %g (%s)", metric.name, opt.target, opt.pool.c_str());
        return b;
    }
    CellSearch search(Sweep& sweep, std::size_t index, const EncodeShape& shape,
                      std::function<double(const Row&)> value, std::string what, std::string label) const {
        return CellSearch{&sweep,
                          [&sweep, index, shape, this](double crf) {
                              return sweep.make_job(index, Cell{0, adapter->name, preset, crf}, shape);
                          },
                          std::move(value),
                          std::move(what),
                          std::move(label),
                          lo,
                          hi,
                          opt.crf_step,
                          nullptr};
    }
};

/// Checks the options; the encoder's range fills in the CRFs not given.
PerShotRun prepare(const PerShotOptions& opt) {
    const TargetMetric& metric = find_metric(opt.metric);
    if (!(opt.target >= metric.lo && opt.target <= metric.hi)) {
        const bool vmaf = std::string(metric.name) == "vmaf";
        char range[96];
        std::snprintf(range, sizeof range, "[%g, %g]", metric.lo, metric.hi);
        throw std::invalid_argument(std::string(vmaf ? "--target-vmaf" : "--target") + " must be within " + range +
                                    (vmaf ? "" : std::string(" for ") + metric.name));
    }
    if (!(opt.scene_threshold > 0 && opt.scene_threshold <= 100))
        throw std::invalid_argument("--scene-threshold must be within (0, 100]");
    if (opt.min_shot_frames == 0) throw std::invalid_argument("--min-shot-frames must be at least 1");
    check_pool(metric, opt.pool);
    if (opt.corpus.sources.size() != 1) throw std::invalid_argument("per-shot takes exactly one --source");
    if (opt.corpus.encoders.size() > 1) throw std::invalid_argument("per-shot takes one --encoder");
    if (opt.corpus.presets.size() > 1) throw std::invalid_argument("per-shot takes one --preset");
    if (opt.corpus.sample_seconds != 0)
        throw std::invalid_argument("per-shot encodes whole shots: --sample-seconds does not apply");
    if (!opt.corpus.extra_ffmpeg_args.empty())
        throw std::invalid_argument("per-shot does not take --extra-ffmpeg-args (the plan's commands would differ)");
    PerShotRun run{opt, metric, nullptr, {}, 0, 0, {}, {}, {}};
    const std::string enc_name = opt.corpus.encoders.empty() ? "libx264" : opt.corpus.encoders.front();
    run.adapter = find_encoder(enc_name);
    if (!run.adapter) throw std::invalid_argument("unknown --encoder '" + enc_name + "'");
    run.lo = opt.crf_min >= 0 ? opt.crf_min : run.adapter->crf_min;
    run.hi = opt.crf_max >= 0 ? opt.crf_max : run.adapter->crf_max;
    if (run.lo > run.hi) throw std::invalid_argument("empty CRF range: --crf-min above --crf-max");
    if (!(opt.crf_step > 0)) throw std::invalid_argument("--crf-step must be positive");
    run.co = opt.corpus;
    run.co.crf_specs = {crf_text(run.lo) + ":" + crf_text(run.hi) + ":" + crf_text(opt.crf_step)};
    if (std::string(metric.name) != "vmaf") run.co.metrics = {metric.name};
    run.preset = run.co.presets.empty() ? run.adapter->default_preset : run.co.presets.front();
    run.dir = fs::absolute(opt.plan_dir);
    run.src_abs = fs::absolute(run.co.sources[0].path).string();
    return run;
}

/// One shot's part of the plan: its search's answer and the segment encode.
struct ShotPlan {
    nlohmann::ordered_json json;
    std::vector<std::string> argv;
    std::string concat;
    double bytes = 0, vmaf_mean = 0;
    unsigned encodes = 0;
    bool met = false;
};

ShotPlan plan_shot(const PerShotRun& run, Sweep& sweep, std::size_t si, const Shot& shot) {
    const SourceFacts& facts = sweep.facts(0);
    EncodeShape shape;
    shape.frames = std::make_pair(shot.first, shot.end);
    const CellSearch search = run.search(
        sweep, si, shape, [&run](const Row& r) { return run.score(r); }, "shot " + std::to_string(si),
        std::string(run.metric.name) + " (" + run.opt.pool + ")");
    const CellSearchResult found =
        cached_search(search, run.metric.higher_is_better ? Goal::AtLeast : Goal::AtMost, run.opt.target);
    const double crf = found.crf();
    const Row& row = found.row();
    const double score = run.score(row);
    if (!found.met())
        std::fprintf(stderr, "vmaf-tune: shot %zu (frames %u..%u) cannot reach %s: planned at CRF %s (%.3f)\n", si,
                     shot.first, shot.end, run.target_text().c_str(), crf_text(crf).c_str(), score);

    ShotPlan p;
    p.met = found.met();
    p.encodes = found.encodes;
    Job seg = search.job(crf);
    char name[64];
    std::snprintf(name, sizeof name, "shot_%03zu.%s", si, run.adapter->extension.c_str());
    const std::string seg_path = (run.dir / name).string();
    for (auto& a : seg.argv)
        if (a == run.co.sources[0].path) a = run.src_abs;
    seg.argv.back() = seg_path;
    p.argv = seg.argv;
    p.concat = concat_entry(seg_path, shot.first, shot.end, facts.fps);
    p.bytes = row["encode_size_bytes"].get<double>();
    p.vmaf_mean = row["vmaf_mean"].get<double>();
    const unsigned n = shot.end - shot.first;
    p.json = {{"index", si},
              {"first_frame", shot.first},
              {"end_frame", shot.end},
              {"start_s", shot.first / facts.fps},
              {"duration_s", n / facts.fps},
              {"scene_score", shot.score},
              {"crf", crf_value(crf)},
              {"met", found.met()},
              {"vmaf", pooled_value(row, find_metric("vmaf"), run.opt.pool)},
              {"vmaf_mean", row["vmaf_mean"]},
              {"score", score},
              {"bitrate_kbps", row["bitrate_kbps"]},
              {"size_bytes", row["encode_size_bytes"]},
              {"probes", found.search.values.size()},
              {"segment", seg_path},
              {"command", shell_quote(seg.argv)}};
    std::printf("shot %zu frames %u..%u: CRF %s, %s %.3f (%s), %.1f kbps%s\n", si, shot.first, shot.end,
                crf_text(crf).c_str(), run.metric.name, score, run.opt.pool.c_str(), row["bitrate_kbps"].get<double>(),
                found.met() ? "" : " (target not reached)");
    return p;
}

/// --execute: the segments, their concatenation, the joined encode scored
/// against the whole source, and the single CRF of the closest size.
nlohmann::ordered_json execute_plan(const PerShotRun& run, Sweep& sweep, const std::vector<ShotPlan>& shots,
                                    const std::vector<std::string>& concat_argv, const fs::path& out_path) {
    const SourceFacts& facts = sweep.facts(0);
    run_parallel<int>(shots.size(), run.opt.corpus.jobs, [&](std::size_t i) {
        run_step(shots[i].argv, "shot " + std::to_string(i) + "'s encode");
        return 0;
    });
    run_step(concat_argv, "the concatenation");
    const std::string model =
        sweep.make_job(0, Cell{0, run.adapter->name, run.preset, run.lo}).row["vmaf_model"].get<std::string>();
    const ScoreSummary joined =
        score_encode(run.co.sources[0], FrameWindow{}, out_path.string(), sweep.score_setup(model));
    if (joined.frames != facts.frames)
        throw std::runtime_error(out_path.string() + " has " + std::to_string(joined.frames) + " frames, the source " +
                                 std::to_string(facts.frames));
    const auto joined_bytes = fs::file_size(out_path);
    const double joined_kbps = bitrate_kbps(joined_bytes, facts.duration_s);
    // The joined encode as a row, so that its score pools as any row's does.
    Row joined_row = {{"vmaf_mean", joined.mean},
                      {"vmaf_harmonic_mean", joined.harmonic_mean},
                      {"vmaf_p1", joined.p1},
                      {"vmaf_p5", joined.p5},
                      {"vmaf_min", joined.min}};
    for (const auto& [name, frames] : joined.metric_frames) joined_row["metric_scores"][name] = pool_frames(frames);

    const CellSearch whole = run.search(
        sweep, shots.size(), EncodeShape{}, [](const Row& r) { return row_number(r, "bitrate_kbps"); },
        "the whole source", "kbps");
    const CellSearchResult found = cached_search(whole, Goal::Closest, joined_kbps);
    const Row& single = found.row();
    nlohmann::ordered_json ex = {{"output", out_path.string()},
                                 {"size_bytes", joined_bytes},
                                 {"bitrate_kbps", joined_kbps},
                                 {"frames", joined.frames},
                                 {"vmaf_mean", joined.mean},
                                 {"vmaf_harmonic_mean", joined.harmonic_mean},
                                 {"vmaf_min", joined.min},
                                 {"vmaf_p1", joined.p1},
                                 {"vmaf_p5", joined.p5},
                                 {"vmaf_per_frame", joined.vmaf},
                                 {"score", run.score(joined_row)},
                                 {"backend_used", joined.backend_used},
                                 {"single_crf",
                                  {{"crf", single["crf"]},
                                   {"size_bytes", single["encode_size_bytes"]},
                                   {"bitrate_kbps", single["bitrate_kbps"]},
                                   {"vmaf_mean", single["vmaf_mean"]},
                                   {"vmaf_harmonic_mean", single["vmaf_harmonic_mean"]},
                                   {"vmaf_min", single["vmaf_min"]},
                                   {"vmaf_p1", single["vmaf_p1"]},
                                   {"vmaf_p5", single["vmaf_p5"]},
                                   {"score", run.score(single)},
                                   {"encodes", found.encodes}}}};
    if (joined_row.contains("metric_scores")) ex["metric_scores"] = joined_row["metric_scores"];
    std::printf("per-shot: %.1f kbps, VMAF %.3f (%s %s %.3f)\n", joined_kbps, joined.mean, run.metric.name,
                run.opt.pool.c_str(), run.score(joined_row));
    std::printf("single CRF %s: %.1f kbps, VMAF %.3f (%s %s %.3f)\n", crf_text(found.crf()).c_str(),
                single["bitrate_kbps"].get<double>(), single["vmaf_mean"].get<double>(), run.metric.name,
                run.opt.pool.c_str(), run.score(single));
    return ex;
}

}  // namespace

int run_per_shot(const PerShotOptions& opt) {
    const PerShotRun run = prepare(opt);
    Sweep sweep(run.co);
    const SourceFacts& facts = sweep.facts(0);
    const unsigned need = std::max(2u, opt.min_shot_frames);
    if (facts.frames < need)
        throw std::invalid_argument(run.co.sources[0].path + " has " + std::to_string(facts.frames) +
                                    " frames: too short to split into shots (per-shot needs at least " +
                                    std::to_string(need) + ", see --min-shot-frames)");

    std::vector<double> scores;
    {
        auto src = open_source(run.co.sources[0]);
        scores = scene_scores(*src);
    }
    const std::vector<Shot> shots = split_shots(scores, opt.scene_threshold, opt.min_shot_frames);
    std::fprintf(stderr, "vmaf-tune: %zu shots in %u frames (scene threshold %g, shots of at least %u frames)\n",
                 shots.size(), facts.frames, opt.scene_threshold, opt.min_shot_frames);

    fs::create_directories(run.dir);
    // Shots searched `--jobs` at a time (each shot's probes one after another).
    const std::vector<ShotPlan> planned = run_parallel<ShotPlan>(
        shots.size(), opt.corpus.jobs, [&](std::size_t si) { return plan_shot(run, sweep, si, shots[si]); });
    unsigned encodes = 0;
    bool all_met = true;
    double predicted_bytes = 0, predicted_vmaf_sum = 0;
    nlohmann::ordered_json plan_shots = nlohmann::ordered_json::array();
    std::string concat;
    for (std::size_t si = 0; si < shots.size(); ++si) {
        const ShotPlan& p = planned[si];
        encodes += p.encodes;
        all_met &= p.met;
        predicted_bytes += p.bytes;
        predicted_vmaf_sum += p.vmaf_mean * (shots[si].end - shots[si].first);
        plan_shots.push_back(p.json);
        concat += p.concat;
    }

    const fs::path& dir = run.dir;
    const fs::path out_path = dir / ("per_shot." + run.adapter->extension);
    const std::vector<std::string> concat_argv = {
        run.co.ffmpeg, "-nostdin", "-hide_banner",   "-loglevel", "error", "-y",
        "-f",          "concat",   "-safe",          "0",         "-i",    (dir / "concat.txt").string(),
        "-c",          "copy",     out_path.string()};
    nlohmann::ordered_json boundaries = nlohmann::ordered_json::array();
    for (std::size_t i = 1; i < shots.size(); ++i) boundaries.push_back(shots[i].first);
    nlohmann::ordered_json plan = {{"source", run.co.sources[0].path},
                                   {"source_sha256", facts.sha256},
                                   {"width", facts.width},
                                   {"height", facts.height},
                                   {"framerate", facts.fps},
                                   {"frames", facts.frames},
                                   {"encoder", run.adapter->name},
                                   {"preset", run.preset},
                                   {"target_metric", run.metric.name},
                                   {"target", opt.target},
                                   {"pool", opt.pool},
                                   {"scene_threshold", opt.scene_threshold},
                                   {"min_shot_frames", opt.min_shot_frames},
                                   {"boundaries", boundaries},
                                   {"scene_scores", scores},
                                   {"shots", plan_shots},
                                   {"predicted",
                                    {{"size_bytes", predicted_bytes},
                                     {"bitrate_kbps", predicted_bytes * 8.0 / 1000.0 / facts.duration_s},
                                     {"vmaf_mean_frame_weighted", predicted_vmaf_sum / facts.frames}}},
                                   {"concat_list", (dir / "concat.txt").string()},
                                   {"concat_command", shell_quote(concat_argv)},
                                   {"output", out_path.string()},
                                   {"script", (dir / "encode.sh").string()},
                                   {"all_met", all_met},
                                   {"encodes", encodes}};
    if (std::string(run.metric.name) == "vmaf") plan["target_vmaf"] = opt.target;
    std::string script = "#!/bin/sh\n# vmaf-tune per-shot plan: " + run.co.sources[0].path + ", " + run.adapter->name +
                         " " + run.preset + ", target " + run.target_text() +
                         "\n# One encode per shot, then the segments joined without re-encoding.\nset -eu\n";
    for (std::size_t i = 0; i < planned.size(); ++i)
        script += "# shot " + std::to_string(i) + ": frames " + std::to_string(shots[i].first) + ".." +
                  std::to_string(shots[i].end) + ", CRF " + plan_shots[i]["crf"].dump() + "\n" +
                  shell_quote(planned[i].argv) + "\n";
    script += shell_quote(concat_argv) + "\n";
    write_file_atomic(dir / "concat.txt", concat);
    write_file_atomic(dir / "encode.sh", script,
                      fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec | fs::perms::others_read |
                          fs::perms::others_exec);
    write_file_atomic(dir / "plan.json", plan.dump(2) + "\n");
    std::fprintf(stderr, "vmaf-tune: plan written to %s (encode.sh, concat.txt); %u encodes\n",
                 (dir / "plan.json").c_str(), encodes);
    if (!opt.execute) return all_met ? 0 : 1;

    plan["execution"] = execute_plan(run, sweep, planned, concat_argv, out_path);
    write_file_atomic(dir / "plan.json", plan.dump(2) + "\n");
    return all_met ? 0 : 1;
}

}  // namespace vmaf::tune
