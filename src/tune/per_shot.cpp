#include "tune/per_shot.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>

#include "tune/atomic_file.hpp"
#include "tune/recommend.hpp"
#include "tune/cached_search.hpp"
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
    if (r.exit_code != 0) {
        std::string err = r.err_tail;
        while (!err.empty() && (err.back() == '\n' || err.back() == '\r')) err.pop_back();
        if (const auto nl = err.rfind('\n'); nl != std::string::npos) err = err.substr(nl + 1);
        throw std::runtime_error(what + " failed (ffmpeg exit " + std::to_string(r.exit_code) + "): " + err);
    }
}

double bitrate_kbps(std::uintmax_t bytes, double seconds) {
    return static_cast<double>(bytes) * 8.0 / 1000.0 / seconds;
}

}  // namespace

int run_per_shot(const PerShotOptions& opt) {
    if (!(opt.target_vmaf >= 0 && opt.target_vmaf <= 100))
        throw std::invalid_argument("--target-vmaf must be within [0, 100]");
    if (!(opt.scene_threshold > 0 && opt.scene_threshold <= 100))
        throw std::invalid_argument("--scene-threshold must be within (0, 100]");
    if (opt.min_shot_frames == 0) throw std::invalid_argument("--min-shot-frames must be at least 1");
    const std::string key = pool_key(opt.pool);
    if (opt.corpus.sources.size() != 1) throw std::invalid_argument("per-shot takes exactly one --source");
    if (opt.corpus.encoders.size() > 1) throw std::invalid_argument("per-shot takes one --encoder");
    if (opt.corpus.presets.size() > 1) throw std::invalid_argument("per-shot takes one --preset");
    if (opt.corpus.sample_seconds != 0)
        throw std::invalid_argument("per-shot encodes whole shots: --sample-seconds does not apply");
    if (!opt.corpus.extra_ffmpeg_args.empty())
        throw std::invalid_argument("per-shot does not take --extra-ffmpeg-args (the plan's commands would differ)");
    const std::string enc_name = opt.corpus.encoders.empty() ? "libx264" : opt.corpus.encoders.front();
    const EncoderAdapter* adapter = find_encoder(enc_name);
    if (!adapter) throw std::invalid_argument("unknown --encoder '" + enc_name + "'");
    const int lo = opt.crf_min >= 0 ? opt.crf_min : adapter->crf_min;
    const int hi = opt.crf_max >= 0 ? opt.crf_max : adapter->crf_max;
    if (lo > hi) throw std::invalid_argument("empty CRF range: --crf-min above --crf-max");
    CorpusOptions co = opt.corpus;
    co.crf_specs = {std::to_string(lo) + ":" + std::to_string(hi)};
    Sweep sweep(co);
    const SourceFacts& facts = sweep.facts(0);
    const unsigned need = std::max(2u, opt.min_shot_frames);
    if (facts.frames < need)
        throw std::invalid_argument(co.sources[0].path + " has " + std::to_string(facts.frames) +
                                    " frames: too short to split into shots (per-shot needs at least " +
                                    std::to_string(need) + ", see --min-shot-frames)");
    const std::string preset = co.presets.empty() ? adapter->default_preset : co.presets.front();

    // Shots.
    std::vector<double> scores;
    {
        auto src = open_source(co.sources[0]);
        scores = scene_scores(*src);
    }
    const std::vector<Shot> shots = split_shots(scores, opt.scene_threshold, opt.min_shot_frames);
    std::fprintf(stderr, "vmaf-tune: %zu shots in %u frames (scene threshold %g, shots of at least %u frames)\n",
                 shots.size(), facts.frames, opt.scene_threshold, opt.min_shot_frames);

    // One search per shot over that shot's frames.
    const fs::path dir = fs::absolute(opt.plan_dir);
    fs::create_directories(dir);
    const std::string src_abs = fs::absolute(co.sources[0].path).string();
    nlohmann::ordered_json plan_shots = nlohmann::ordered_json::array();
    std::vector<std::vector<std::string>> steps;
    std::string concat;
    unsigned encodes = 0;
    bool all_met = true;
    double predicted_bytes = 0, predicted_vmaf_sum = 0;
    for (std::size_t si = 0; si < shots.size(); ++si) {
        const Shot& shot = shots[si];
        EncodeShape shape;
        shape.frames = std::make_pair(shot.first, shot.end);
        auto job_for = [&](int crf) { return sweep.make_job(si, Cell{0, adapter->name, preset, crf}, shape); };
        CellSearch search{&sweep, job_for, [&](const Row& r) { return row_number(r, key); },
                          "shot " + std::to_string(si), lo, hi};
        const CellSearchResult found = cached_search(search, Goal::AtLeast, opt.target_vmaf);
        const SearchResult& s = found.search;
        encodes += found.encodes;
        const int crf = s.crf ? *s.crf : s.best_crf;
        all_met &= found.met();
        const Row& row = found.row();
        if (!s.crf)
            std::fprintf(stderr, "vmaf-tune: shot %zu (frames %u..%u) cannot reach VMAF %g: planned at CRF %d (%.3f)\n",
                         si, shot.first, shot.end, opt.target_vmaf, crf, row[key].get<double>());

        Job seg = job_for(crf);
        char name[64];
        std::snprintf(name, sizeof name, "shot_%03zu.%s", si, adapter->extension.c_str());
        const std::string seg_path = (dir / name).string();
        for (auto& a : seg.argv)
            if (a == co.sources[0].path) a = src_abs;
        seg.argv.back() = seg_path;
        steps.push_back(seg.argv);
        concat += concat_entry(seg_path, shot.first, shot.end, facts.fps);
        const unsigned n = shot.end - shot.first;
        predicted_bytes += row["encode_size_bytes"].get<double>();
        predicted_vmaf_sum += row["vmaf_mean"].get<double>() * n;
        plan_shots.push_back({{"index", si},
                              {"first_frame", shot.first},
                              {"end_frame", shot.end},
                              {"start_s", shot.first / facts.fps},
                              {"duration_s", n / facts.fps},
                              {"scene_score", shot.score},
                              {"crf", crf},
                              {"met", s.crf.has_value()},
                              {"vmaf", row[key]},
                              {"vmaf_mean", row["vmaf_mean"]},
                              {"bitrate_kbps", row["bitrate_kbps"]},
                              {"size_bytes", row["encode_size_bytes"]},
                              {"probes", s.values.size()},
                              {"segment", seg_path},
                              {"command", shell_quote(seg.argv)}});
        std::printf("shot %zu frames %u..%u: CRF %d, VMAF %.3f (%s), %.1f kbps%s\n", si, shot.first, shot.end, crf,
                    row[key].get<double>(), opt.pool.c_str(), row["bitrate_kbps"].get<double>(),
                    s.crf ? "" : " (target not reached)");
    }

    const fs::path out_path = dir / ("per_shot." + adapter->extension);
    const std::vector<std::string> concat_argv = {
        co.ffmpeg, "-nostdin", "-hide_banner",   "-loglevel", "error", "-y",
        "-f",      "concat",   "-safe",          "0",         "-i",    (dir / "concat.txt").string(),
        "-c",      "copy",     out_path.string()};
    nlohmann::ordered_json boundaries = nlohmann::ordered_json::array();
    for (std::size_t i = 1; i < shots.size(); ++i) boundaries.push_back(shots[i].first);
    nlohmann::ordered_json plan = {{"source", co.sources[0].path},
                                   {"source_sha256", facts.sha256},
                                   {"width", facts.width},
                                   {"height", facts.height},
                                   {"framerate", facts.fps},
                                   {"frames", facts.frames},
                                   {"encoder", adapter->name},
                                   {"preset", preset},
                                   {"target_vmaf", opt.target_vmaf},
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
    std::string script = "#!/bin/sh\n# vmaf-tune per-shot plan: " + co.sources[0].path + ", " + adapter->name + " " +
                         preset + ", target VMAF " + nlohmann::json(opt.target_vmaf).dump() + " (" + opt.pool +
                         ")\n# One encode per shot, then the segments joined without re-encoding.\nset -eu\n";
    for (std::size_t i = 0; i < steps.size(); ++i)
        script += "# shot " + std::to_string(i) + ": frames " + std::to_string(shots[i].first) + ".." +
                  std::to_string(shots[i].end) + ", CRF " + plan_shots[i]["crf"].dump() + "\n" + shell_quote(steps[i]) +
                  "\n";
    script += shell_quote(concat_argv) + "\n";
    write_file_atomic(dir / "concat.txt", concat);
    write_file_atomic(dir / "encode.sh", script,
               fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec | fs::perms::others_read |
                   fs::perms::others_exec);
    write_file_atomic(dir / "plan.json", plan.dump(2) + "\n");
    std::fprintf(stderr, "vmaf-tune: plan written to %s (encode.sh, concat.txt); %u encodes\n",
                 (dir / "plan.json").c_str(), encodes);
    if (!opt.execute) return all_met ? 0 : 1;

    // Execute: the segments, the concatenation, then the whole encode scored against the whole source.
    for (std::size_t i = 0; i < steps.size(); ++i) run_step(steps[i], "shot " + std::to_string(i) + "'s encode");
    run_step(concat_argv, "the concatenation");
    const Job full = sweep.make_job(0, Cell{0, adapter->name, preset, lo});
    const std::string model = full.row["vmaf_model"].get<std::string>();
    const ScoreSummary joined = score_encode(co.sources[0], FrameWindow{}, out_path.string(), sweep.score_setup(model));
    if (joined.frames != facts.frames)
        throw std::runtime_error(out_path.string() + " has " + std::to_string(joined.frames) + " frames, the source " +
                                 std::to_string(facts.frames));
    const auto joined_bytes = fs::file_size(out_path);
    const double joined_kbps = bitrate_kbps(joined_bytes, facts.duration_s);
    const std::map<std::string, double> pooled = {{"vmaf_mean", joined.mean},
                                                  {"vmaf_harmonic_mean", joined.harmonic_mean},
                                                  {"vmaf_p1", joined.p1},
                                                  {"vmaf_p5", joined.p5},
                                                  {"vmaf_min", joined.min}};

    // The single CRF over the whole source whose size is closest to the joined encode's.
    CellSearch whole{&sweep, [&](int crf) { return sweep.make_job(shots.size(), Cell{0, adapter->name, preset, crf}); },
                     [](const Row& r) { return row_number(r, "bitrate_kbps"); }, "the whole source", lo, hi};
    const CellSearchResult found = cached_search(whole, Goal::Closest, joined_kbps);
    const Row& single = found.row();
    const unsigned single_encodes = found.encodes;
    plan["execution"] = {{"output", out_path.string()},
                         {"size_bytes", joined_bytes},
                         {"bitrate_kbps", joined_kbps},
                         {"frames", joined.frames},
                         {"vmaf_mean", joined.mean},
                         {"vmaf_harmonic_mean", joined.harmonic_mean},
                         {"vmaf_min", joined.min},
                         {"vmaf_p1", joined.p1},
                         {"vmaf_p5", joined.p5},
                         {"vmaf_per_frame", joined.vmaf},
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
                           {"encodes", single_encodes}}}};
    write_file_atomic(dir / "plan.json", plan.dump(2) + "\n");
    std::printf("per-shot: %.1f kbps, VMAF %.3f (%s %.3f)\n", joined_kbps, joined.mean, opt.pool.c_str(),
                pooled.at(key));
    std::printf("single CRF %d: %.1f kbps, VMAF %.3f (%s %.3f)\n", single["crf"].get<int>(),
                single["bitrate_kbps"].get<double>(), single["vmaf_mean"].get<double>(), opt.pool.c_str(),
                single[key].get<double>());
    return all_met ? 0 : 1;
}

}  // namespace vmaf::tune
