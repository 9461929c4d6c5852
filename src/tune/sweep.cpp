#include "tune/sweep.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <thread>

#include "tune/interrupt.hpp"
#include "vmaf/catalog.hpp"

namespace fs = std::filesystem;

namespace vmaf::tune {

namespace {

std::string utc_now() {
    char buf[32];
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

std::string random_run_id() {
    std::random_device rd;
    char buf[33];
    std::snprintf(buf, sizeof buf, "%08x%08x%08x%08x", rd(), rd(), rd(), rd());
    return buf;
}

std::string join(const std::vector<std::string>& v, const char* sep) {
    std::string out;
    for (const auto& s : v) out += (out.empty() ? "" : sep) + s;
    return out;
}

/// The model a source is scored with: the user's, else v0.6.1 (4K model for >= 2160p).
std::string model_for(const std::string& requested, const SourceFacts& f, const std::string& src, bool& announced) {
    if (!requested.empty()) return requested;
    if (f.height >= 2160) {
        if (!announced)
            std::fprintf(stderr,
                         "vmaf-tune: %s is %ux%u: scoring with vmaf_4k_v0.6.1 (give --vmaf-model to override)\n",
                         src.c_str(), f.width, f.height);
        announced = true;
        return "vmaf_4k_v0.6.1";
    }
    return "vmaf_v0.6.1";
}

ScoreSetup setup_for(const std::string& model, const BackendChoice& backend, unsigned threads,
                     const std::vector<const TargetMetric*>& metrics) {
    ScoreSetup s;
    if (model.size() > 5 && model.compare(model.size() - 5, 5, ".json") == 0) {
        s.model_version.clear();
        s.model_path = model;
    } else {
        s.model_version = model;
    }
    s.backend = backend.name;
    s.backend_state = backend.state;
    s.threads = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
    s.metrics = metrics;
    return s;
}

void fill_scores(Row& row, const ScoreSummary& s) {
    row["vmaf_score"] = s.mean;
    row["vmaf_mean"] = s.mean;
    row["vmaf_harmonic_mean"] = s.harmonic_mean;
    row["vmaf_min"] = s.min;
    row["vmaf_p1"] = s.p1;
    row["vmaf_p5"] = s.p5;
    row["score_time_ms"] = s.score_time_ms;
    row["backend_used"] = s.backend_used;
    Row feats = Row::object();
    for (const auto& [k, v] : s.feature_means) feats[k] = v;
    row["features"] = feats;
    row["vmaf_per_frame"] = s.vmaf;
    if (!s.metric_frames.empty()) {
        Row metrics = Row::object();
        for (const auto& [name, frames] : s.metric_frames) {
            metrics[name] = pool_frames(frames);
            metrics[name]["per_frame"] = frames;
        }
        row["metric_scores"] = metrics;
    }
}

void null_scores(Row& row) {
    for (const char* k : {"vmaf_score", "vmaf_mean", "vmaf_harmonic_mean", "vmaf_min", "vmaf_p1", "vmaf_p5",
                          "score_time_ms", "features", "vmaf_per_frame"})
        row[k] = nullptr;
    if (row.contains("score_metrics")) row["metric_scores"] = nullptr;
}

/// The window's part of a cache key: [first, count] for the whole source
/// ([0, 0]) or one range (as keys were before several ranges existed), else
/// one such pair per range.
nlohmann::ordered_json window_key(const FrameWindow& w) {
    if (w.ranges.size() <= 1)
        return w.whole() ? nlohmann::ordered_json{0, 0}
                         : nlohmann::ordered_json{w.ranges[0].first, w.ranges[0].frames()};
    nlohmann::ordered_json key = nlohmann::ordered_json::array();
    for (const FrameRange& r : w.ranges) key.push_back({r.first, r.frames()});
    return key;
}

/// Splits --extra-ffmpeg-args into its video filters (-vf, -filter:v; they
/// join vmaf-tune's own in one graph) and every other argument.
void split_video_filters(const std::vector<std::string>& args, std::vector<std::string>& other, std::string& vf) {
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "-i" || a == "-y") throw std::invalid_argument("--extra-ffmpeg-args must not contain " + a);
        if (a == "-filter_complex" || a == "-lavfi" || a.rfind("-filter_complex_script", 0) == 0 ||
            a.rfind("-filter_script", 0) == 0)
            throw std::invalid_argument("--extra-ffmpeg-args: " + a +
                                        " cannot join vmaf-tune's frame selection and scaling; give the filters "
                                        "with -vf (they run after the frame selection, before any scaling)");
        if (a == "-vf" || a == "-filter:v" || a == "-filter:v:0" || a == "-filter") {
            if (i + 1 == args.size()) throw std::invalid_argument("--extra-ffmpeg-args: " + a + " needs a value");
            if (!vf.empty())
                throw std::invalid_argument("--extra-ffmpeg-args: give the video filters in one -vf, not two");
            vf = args[++i];
            if (vf.empty()) throw std::invalid_argument("--extra-ffmpeg-args: " + a + " needs a value");
            continue;
        }
        other.push_back(a);
    }
}

/// The fields a cache entry carries: everything a finished cell measured.
const char* const kResultKeys[] = {
    "encoder_version",    "encode_size_bytes", "bitrate_kbps", "encode_time_ms", "vmaf_score",    "vmaf_mean",
    "vmaf_harmonic_mean", "vmaf_min",          "vmaf_p1",      "vmaf_p5",        "score_time_ms", "backend_used",
    "features",           "vmaf_per_frame",    "codecs",       "metric_scores"};

}  // namespace

Sweep::Sweep(const CorpusOptions& opt) : opt_(opt) {
    if (opt_.sources.empty()) throw std::invalid_argument("--source is required");
    if (opt_.jobs == 0) throw std::invalid_argument("--jobs must be at least 1");
    if (opt_.sample_seconds < 0) throw std::invalid_argument("--sample-seconds must not be negative");
    const std::vector<std::string> available = ffmpeg_encoders(opt_.ffmpeg);
    if (available.empty())
        throw std::invalid_argument("cannot run '" + opt_.ffmpeg + " -encoders': is ffmpeg installed?");
    std::vector<EncoderRun> wanted = opt_.runs;
    if (wanted.empty())
        for (const std::string& e : opt_.encoders.empty() ? std::vector<std::string>{"libx264"} : opt_.encoders)
            for (const std::string& p : opt_.presets.empty() ? std::vector<std::string>{""} : opt_.presets)
                wanted.push_back({e, p, {}});
    for (const EncoderRun& w : wanted) {
        const EncoderAdapter* a = find_encoder(w.encoder);
        if (!a)
            throw std::invalid_argument("unknown --encoder '" + w.encoder + "' (known: " + join(encoder_names(), ", ") +
                                        ")");
        if (std::find(available.begin(), available.end(), w.encoder) == available.end())
            throw std::invalid_argument("--encoder " + w.encoder + ": " + opt_.ffmpeg + " has no such encoder");
        SweepRun run{a, w.preset.empty() ? (opt_.presets.empty() ? a->default_preset : opt_.presets.front()) : w.preset,
                     parse_crf_list(w.crf_specs.empty() ? opt_.crf_specs : w.crf_specs, a->crf_min, a->crf_max, a->name,
                                    !a->fractional_crf)};
        a->args(run.preset, crf_text(run.crfs.front()));  // preset check
        runs_.push_back(std::move(run));
    }
    split_video_filters(opt_.extra_ffmpeg_args, other_args_, user_filters_);
    for (const std::string& name : opt_.metrics)
        if (name != "vmaf") metrics_.push_back(&find_metric(name));
    if (opt_.samples == 0) throw std::invalid_argument("--samples must be at least 1");
    const RowFile out_file = read_row_file(opt_.out);
    existing_ = out_file.rows;
    for (const Row& r : existing_) done_.insert(cell_identity(r));

    // Sources first: an unreadable one is then the only line.
    for (const SourceSpec& s : opt_.sources) facts_.push_back(inspect_source(s));
    backend_ = choose_backend(opt_.score_backend);
    std::fprintf(stderr, "vmaf-tune: scoring backend = %s (%s)\n", backend_.name.c_str(), backend_.probes.c_str());
    announced_.assign(opt_.sources.size(), false);
    ffmpeg_ver_ = ffmpeg_version(opt_.ffmpeg);
    const BuildInfo build = build_info();
    vmaf_ver_ = build.upstream_version + " (vmaf-engine " + build.engine_version + ", " + build.commit + ")";
    run_id_ = random_run_id();
    encode_dir_ = opt_.encode_dir.empty() ? opt_.out + ".encodes" : opt_.encode_dir;
    fs::create_directories(encode_dir_);
    if (opt_.use_cache) cache_.emplace(opt_.cache_dir, opt_.cache_max_bytes);
    drop_torn_line(opt_.out, out_file);  // a killed run's half row: its cell runs again
}

ScoreSetup Sweep::score_setup(const std::string& model) const {
    return setup_for(model, backend_, opt_.threads, metrics_);
}

Job Sweep::make_job(std::size_t index, const Cell& cell, const EncodeShape& shape) {
    Job j;
    j.cell_index = index;
    j.cell = cell;
    j.adapter = find_encoder(j.cell.encoder);
    const SourceSpec& src = opt_.sources[j.cell.source];
    const SourceFacts& f = facts_[j.cell.source];
    std::unique_lock<std::mutex> lock(mu_);
    bool announced = announced_[j.cell.source];
    const std::string model = model_for(opt_.model, f, src.path, announced);
    announced_[j.cell.source] = announced;
    lock.unlock();
    j.clip_mode = "full";
    if (shape.frames) {
        const auto [first, end] = *shape.frames;
        if (!(first < end && end <= f.frames))
            throw std::invalid_argument("frames " + std::to_string(first) + ".." + std::to_string(end) +
                                        " are not within the source's " + std::to_string(f.frames));
        if (end - first < f.frames) {
            j.window.ranges = {{first, end}};
            j.clip_mode = "frames_" + std::to_string(first) + "-" + std::to_string(end);
        }
    } else if (opt_.sample_seconds > 0) {
        const unsigned n = static_cast<unsigned>(std::lround(opt_.sample_seconds * f.fps));
        if (n == 0) throw std::invalid_argument("--sample-seconds is shorter than one frame");
        j.window = spread_windows(f.frames, opt_.samples, n);
        if (!j.window.whole()) {
            char mode[48];
            if (opt_.samples > 1)
                std::snprintf(mode, sizeof mode, "samples_%ux%gs", opt_.samples, opt_.sample_seconds);
            else
                std::snprintf(mode, sizeof mode, "sample_%gs", opt_.sample_seconds);
            j.clip_mode = mode;
        }
    }
    const unsigned enc_w = shape.width ? shape.width : f.width, enc_h = shape.height ? shape.height : f.height;
    const bool scaled = enc_w != f.width || enc_h != f.height;
    j.stream = StreamShape{enc_w, enc_h, f.fps, f.geometry.format, f.geometry.bpc};
    // One filter graph: the frames to encode first, then the user's own
    // filters (--extra-ffmpeg-args -vf ...), then the ladder's scale.
    std::vector<std::string> filters;
    if (!j.window.whole()) filters.push_back(j.window.ffmpeg_filter());
    if (!user_filters_.empty()) filters.push_back(user_filters_);
    if (scaled) {
        j.scale_filter = shape.scale_filter;
        filters.push_back("scale=" + std::to_string(enc_w) + ":" + std::to_string(enc_h) + ":flags=" + j.scale_filter);
    }
    // A hardware encoder's frames: its surface layout, or an upload to its device, last in the graph.
    const HardwareInput hw = hardware_input(*j.adapter, f.geometry.bpc, f.pix_fmt);
    if (!hw.filters.empty()) filters.push_back(hw.filters);
    std::vector<std::string> trim;
    if (!filters.empty()) trim = {"-vf", join(filters, ",")};
    const std::string stem = fs::path(src.path).stem().string();
    char name[256];
    const std::string size_tag =
        scaled ? "__" + std::to_string(enc_w) + "x" + std::to_string(enc_h) + "_" + j.scale_filter : std::string();
    std::snprintf(
        name, sizeof name, "%s__%s__%s__crf%s%s%s%s.%s", stem.c_str(), j.cell.encoder.c_str(), j.cell.preset.c_str(),
        crf_text(j.cell.crf).c_str(), j.clip_mode == "full" ? "" : ("__" + j.clip_mode).c_str(), size_tag.c_str(),
        opt_.extra_ffmpeg_args.empty() ? ""
                                       : ("__x" + text_sha256(join(opt_.extra_ffmpeg_args, " ")).substr(0, 8)).c_str(),
        j.adapter->extension.c_str());
    j.encode_path = (fs::path(encode_dir_) / name).string();
    j.argv = {opt_.ffmpeg, "-nostdin", "-hide_banner", "-loglevel", "error", "-y"};
    if (src.raw) {
        char fps[32];
        std::snprintf(fps, sizeof fps, "%.17g", src.raw_fps);
        j.argv.insert(j.argv.end(),
                      {"-f", "rawvideo", "-pix_fmt", src.raw_pix_fmt, "-s",
                       std::to_string(src.raw->width) + "x" + std::to_string(src.raw->height), "-r", fps});
    }
    j.argv.insert(j.argv.end(), hw.before_input.begin(), hw.before_input.end());
    j.argv.insert(j.argv.end(), {"-i", src.path});
    j.argv.insert(j.argv.end(), trim.begin(), trim.end());
    j.argv.insert(j.argv.end(), {"-an", "-sn", "-dn"});
    if (!hw.pix_fmt.empty()) j.argv.insert(j.argv.end(), {"-pix_fmt", hw.pix_fmt});
    const auto codec = j.adapter->args(j.cell.preset, crf_text(j.cell.crf));
    j.argv.insert(j.argv.end(), codec.begin(), codec.end());
    j.argv.insert(j.argv.end(), other_args_.begin(), other_args_.end());
    j.argv.push_back(j.encode_path);

    Row& r = j.row;
    r["schema_version"] = kRowSchemaVersion;
    r["run_id"] = run_id_;
    r["timestamp"] = nullptr;
    r["src"] = src.path;
    r["src_sha256"] = f.sha256;
    r["width"] = f.width;
    r["height"] = f.height;
    r["pix_fmt"] = f.pix_fmt;
    r["framerate"] = f.fps;
    r["duration_s"] = j.window.whole() ? f.duration_s : j.window.frames() / f.fps;
    r["encoder"] = j.cell.encoder;
    r["encoder_version"] = nullptr;
    r["preset"] = j.cell.preset;
    r["crf"] = crf_value(j.cell.crf);
    r["extra_params"] = join(opt_.extra_ffmpeg_args, " ");
    r["encode_path"] = j.encode_path;
    r["encode_command"] = shell_quote(j.argv);
    r["encode_size_bytes"] = nullptr;
    r["bitrate_kbps"] = nullptr;
    r["encode_time_ms"] = nullptr;
    null_scores(r);
    r["vmaf_model"] = model;
    nlohmann::ordered_json metric_names = nlohmann::ordered_json::array();
    for (const TargetMetric* m : metrics_) metric_names.push_back(m->name);
    if (!metrics_.empty()) r["score_metrics"] = metric_names;
    r["ffmpeg_version"] = ffmpeg_ver_;
    r["vmaf_binary_version"] = vmaf_ver_;
    r["exit_status"] = nullptr;
    r["clip_mode"] = j.clip_mode;
    if (scaled) {
        r["encode_width"] = enc_w;
        r["encode_height"] = enc_h;
        r["scale_filter"] = j.scale_filter;
    }
    r["codecs"] = nullptr;
    r["backend_used"] = backend_.name;
    r["cache_hit"] = false;
    r["error"] = nullptr;
    // Everything that decides the result; paths are replaced by what they hold.
    std::vector<std::string> key_argv = j.argv;
    key_argv.back() = "<out>." + j.adapter->extension;
    for (auto& a : key_argv)
        if (a == src.path) a = "<src>";
    nlohmann::ordered_json key_parts = {{"src_sha256", f.sha256},
                                        {"encoder", j.cell.encoder},
                                        {"ffmpeg_version", ffmpeg_ver_},
                                        {"argv", key_argv},
                                        {"model", model},
                                        {"features", metrics_.empty() ? nlohmann::ordered_json("model")
                                                                      : nlohmann::ordered_json{"model", metric_names}},
                                        {"backend", backend_.name},
                                        {"window", window_key(j.window)}};
    if (scaled) key_parts["score_scale"] = j.scale_filter;  // the scale back to the source's size
    j.cache_key = ScoreCache::key(key_parts);
    return j;
}

ProcessResult Sweep::encode(const Job& j) const {
    if (cache_ && cache_->get(j.cache_key)) {
        ProcessResult none;
        none.exit_code = 0;  // answered from the cache: nothing to encode
        return none;
    }
    return run_process(j.argv);
}

Row Sweep::finish(const Job& j, const ProcessResult& encode) {
    Row row = j.row;
    row["timestamp"] = utc_now();
    std::optional<Row> cached = cache_ ? cache_->get(j.cache_key) : std::nullopt;
    if (cached) {
        for (const char* k : kResultKeys)
            if (cached->contains(k)) row[k] = (*cached)[k];
        row["exit_status"] = 0;
        row["cache_hit"] = true;
    } else if (encode.exit_code != 0) {
        row["exit_status"] = encode.exit_code;
        row["encode_time_ms"] = encode.elapsed_ms;
        std::string err = encode.err_tail;
        while (!err.empty() && (err.back() == '\n' || err.back() == '\r')) err.pop_back();
        if (const auto nl = err.rfind('\n'); nl != std::string::npos) err = err.substr(nl + 1);
        // A hardware encoder's failure names its likely cause (no device, no driver) before ffmpeg's words.
        const std::string hint = hardware_failure_hint(*j.adapter, encode.err_tail);
        row["error"] = "encode failed (ffmpeg exit " + std::to_string(encode.exit_code) +
                       "): " + (hint.empty() ? err : hint + " (ffmpeg: " + err + ")");
        discard(j);  // whatever ffmpeg wrote before it failed is no encode
    } else {
        row["encode_time_ms"] = encode.elapsed_ms;
        std::error_code ec;
        const auto size = fs::file_size(j.encode_path, ec);
        row["encode_size_bytes"] = ec ? 0 : size;
        row["bitrate_kbps"] = ec ? 0.0 : static_cast<double>(size) * 8.0 / 1000.0 / row["duration_s"].get<double>();
        const std::string bv = bitstream_encoder_version(j.cell.encoder, j.encode_path);
        row["encoder_version"] = bv.empty() ? j.cell.encoder + " (ffmpeg " + ffmpeg_ver_ + ")" : bv;
        const std::string codecs = codecs_string(j.cell.encoder, j.encode_path, j.stream);
        if (!codecs.empty()) row["codecs"] = codecs;
        try {
            // One score at a time (as corpus scores): engines on one backend state do not run side by side.
            std::lock_guard<std::mutex> scoring(score_mu_);
            const ScoreSummary s = score_encode(
                opt_.sources[j.cell.source], j.window, j.encode_path,
                setup_for(row["vmaf_model"].get<std::string>(), backend_, opt_.threads, metrics_), j.scale_filter);
            fill_scores(row, s);
            row["exit_status"] = 0;
            if (cache_) {
                Row result = Row::object();
                for (const char* k : kResultKeys)
                    if (row.contains(k)) result[k] = row[k];
                cache_->put(j.cache_key, result);
            }
        } catch (const std::exception& ex) {
            row["exit_status"] = 3;
            row["error"] = std::string("scoring failed: ") + ex.what();
        }
        if (!opt_.keep_encodes) fs::remove(j.encode_path, ec);
    }
    if (!opt_.keep_encodes) row["encode_path"] = nullptr;
    return row;
}

void Sweep::append(const Row& row) {
    std::lock_guard<std::mutex> lock(mu_);
    if (!writer_) writer_.emplace(opt_.out);
    writer_->append(row);
    done_.insert(cell_identity(row));
    existing_.push_back(row);
}

Row Sweep::run(const Job& j) {
    const ProcessResult encoded = encode(j);
    if (interrupted() && encoded.exit_code != 0) {
        discard(j);
        throw Interrupted();
    }
    Row row = finish(j, encoded);
    append(row);
    return row;
}

std::vector<Row> Sweep::existing() const {
    std::lock_guard<std::mutex> lock(mu_);
    return existing_;
}

bool Sweep::done(const Job& j) const {
    std::lock_guard<std::mutex> lock(mu_);
    return done_.count(cell_identity(j.row)) != 0;
}

void Sweep::discard(const Job& j) const {
    std::error_code ec;
    fs::remove(j.encode_path, ec);
}

}  // namespace vmaf::tune
