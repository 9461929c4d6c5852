#include "tune/corpus.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <deque>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <stdexcept>
#include <thread>

#include "tune/backend_choice.hpp"
#include "tune/cache.hpp"
#include "tune/encoders.hpp"
#include "tune/process.hpp"
#include "tune/rows.hpp"
#include "vmaf/catalog.hpp"
#include "vmaf/error.hpp"

namespace fs = std::filesystem;

namespace vmaf::tune {

namespace {

std::atomic<bool> g_interrupted{false};

extern "C" void on_interrupt(int) { g_interrupted = true; }

/// Everything about one cell the sweep knows before encoding it.
struct Job {
    std::size_t cell_index = 0;
    Cell cell;
    const EncoderAdapter* adapter = nullptr;
    FrameWindow window;
    std::string clip_mode;
    std::vector<std::string> argv;  ///< the ffmpeg command
    std::string encode_path;
    std::string cache_key;
    Row row;  ///< the identity and source part, filled before encoding
};

/// A job whose encode has ended (successfully or not).
struct Encoded {
    Job job;
    ProcessResult encode;
};

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

std::string fmt_duration(double s) {
    char buf[32];
    const long t = std::lround(std::max(0.0, s));
    std::snprintf(buf, sizeof buf, "%02ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    return buf;
}

/// The model a source is scored with: the user's, else v0.6.1 (4K model for >= 2160p).
std::string model_for(const std::string& requested, const SourceFacts& f, const std::string& src, bool& announced) {
    if (!requested.empty()) return requested;
    if (f.height >= 2160) {
        if (!announced)
            std::fprintf(stderr, "vmaf-tune: %s is %ux%u: scoring with vmaf_4k_v0.6.1 (give --vmaf-model to override)\n",
                         src.c_str(), f.width, f.height);
        announced = true;
        return "vmaf_4k_v0.6.1";
    }
    return "vmaf_v0.6.1";
}

ScoreSetup setup_for(const std::string& model, const BackendChoice& backend, unsigned threads) {
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
}

void null_scores(Row& row) {
    for (const char* k : {"vmaf_score", "vmaf_mean", "vmaf_harmonic_mean", "vmaf_min", "vmaf_p1", "vmaf_p5",
                          "score_time_ms", "features", "vmaf_per_frame"})
        row[k] = nullptr;
}

/// The fields a cache entry carries: everything a finished cell measured.
const char* const kResultKeys[] = {"encoder_version", "encode_size_bytes", "bitrate_kbps", "encode_time_ms",
                                   "vmaf_score", "vmaf_mean", "vmaf_harmonic_mean", "vmaf_min", "vmaf_p1",
                                   "vmaf_p5", "score_time_ms", "backend_used", "features", "vmaf_per_frame"};

}  // namespace

int run_corpus(const CorpusOptions& opt) {
    if (opt.sources.empty()) throw std::invalid_argument("--source is required");
    if (opt.jobs == 0) throw std::invalid_argument("--jobs must be at least 1");
    if (opt.sample_seconds < 0) throw std::invalid_argument("--sample-seconds must not be negative");
    const std::vector<std::string> encoders = opt.encoders.empty() ? std::vector<std::string>{"libx264"} : opt.encoders;

    // Everything that can be wrong with the options is found before any encode.
    const std::vector<std::string> available = ffmpeg_encoders(opt.ffmpeg);
    if (available.empty()) throw std::invalid_argument("cannot run '" + opt.ffmpeg + " -encoders': is ffmpeg installed?");
    std::vector<int> crfs = parse_crf_list(opt.crf_specs, 0, 63);
    for (const std::string& e : encoders) {
        const EncoderAdapter* a = find_encoder(e);
        if (!a) throw std::invalid_argument("unknown --encoder '" + e + "' (known: " + join(encoder_names(), ", ") + ")");
        if (std::find(available.begin(), available.end(), e) == available.end())
            throw std::invalid_argument("--encoder " + e + ": " + opt.ffmpeg + " has no such encoder");
        parse_crf_list(opt.crf_specs, a->crf_min, a->crf_max);  // range check per encoder
        for (const std::string& p : opt.presets) a->args(p, crfs.front());  // preset check
    }
    for (const std::string& a : opt.extra_ffmpeg_args)
        if (a == "-i" || a == "-y") throw std::invalid_argument("--extra-ffmpeg-args must not contain " + a);
    // An existing output must be a valid corpus (left untouched otherwise).
    const std::vector<Row> existing = read_rows(opt.out);
    std::set<std::string> done;
    for (const Row& r : existing) done.insert(cell_identity(r));

    const BackendChoice backend = choose_backend(opt.score_backend);
    std::fprintf(stderr, "vmaf-tune: scoring backend = %s (%s)\n", backend.name.c_str(), backend.probes.c_str());

    std::vector<SourceFacts> facts;
    for (const SourceSpec& s : opt.sources) facts.push_back(inspect_source(s));
    const std::string ffmpeg_ver = ffmpeg_version(opt.ffmpeg);
    const BuildInfo build = build_info();
    const std::string vmaf_ver = build.upstream_version + " (vmaf-engine " + build.engine_version + ", " + build.commit + ")";
    const std::string run_id = random_run_id();
    const std::string encode_dir = opt.encode_dir.empty() ? opt.out + ".encodes" : opt.encode_dir;
    fs::create_directories(encode_dir);
    std::optional<ScoreCache> cache;
    if (opt.use_cache) cache.emplace(opt.cache_dir, opt.cache_max_bytes);

    // The jobs of this shard that have no row yet.
    const std::vector<Cell> grid = [&] {
        std::vector<Cell> all;
        for (const std::string& e : encoders) {
            const EncoderAdapter* a = find_encoder(e);
            const std::vector<std::string> presets = opt.presets.empty() ? std::vector<std::string>{a->default_preset} : opt.presets;
            for (const Cell& c : make_grid(opt.sources.size(), {e}, presets, crfs)) all.push_back(c);
        }
        std::stable_sort(all.begin(), all.end(), [](const Cell& x, const Cell& y) { return x.source < y.source; });
        return all;
    }();
    std::deque<Job> todo;
    std::vector<bool> model_announced(opt.sources.size(), false);
    std::size_t in_shard = 0;
    for (std::size_t i = 0; i < grid.size(); ++i) {
        if (!opt.shard.takes(i)) continue;
        ++in_shard;
        Job j;
        j.cell_index = i;
        j.cell = grid[i];
        j.adapter = find_encoder(j.cell.encoder);
        const SourceSpec& src = opt.sources[j.cell.source];
        const SourceFacts& f = facts[j.cell.source];
        bool announced = model_announced[j.cell.source];
        const std::string model = model_for(opt.model, f, src.path, announced);
        model_announced[j.cell.source] = announced;
        std::vector<std::string> trim;
        j.clip_mode = "full";
        if (opt.sample_seconds > 0) {
            const unsigned n = static_cast<unsigned>(std::lround(opt.sample_seconds * f.fps));
            if (n == 0) throw std::invalid_argument("--sample-seconds is shorter than one frame");
            if (n < f.frames) {
                j.window.skip = (f.frames - n) / 2;
                j.window.count = n;
                char mode[32];
                std::snprintf(mode, sizeof mode, "sample_%gs", opt.sample_seconds);
                j.clip_mode = mode;
                trim = {"-vf", "trim=start_frame=" + std::to_string(j.window.skip) +
                                   ":end_frame=" + std::to_string(j.window.skip + n) + ",setpts=PTS-STARTPTS"};
            }
        }
        const std::string stem = fs::path(src.path).stem().string();
        char name[256];
        std::snprintf(name, sizeof name, "%s__%s__%s__crf%d%s%s.%s", stem.c_str(), j.cell.encoder.c_str(),
                      j.cell.preset.c_str(), j.cell.crf, j.clip_mode == "full" ? "" : ("__" + j.clip_mode).c_str(),
                      opt.extra_ffmpeg_args.empty() ? "" : ("__x" + text_sha256(join(opt.extra_ffmpeg_args, " ")).substr(0, 8)).c_str(),
                      j.adapter->extension.c_str());
        j.encode_path = (fs::path(encode_dir) / name).string();
        j.argv = {opt.ffmpeg, "-nostdin", "-hide_banner", "-loglevel", "error", "-y"};
        if (src.raw) {
            char fps[32];
            std::snprintf(fps, sizeof fps, "%.17g", src.raw_fps);
            j.argv.insert(j.argv.end(), {"-f", "rawvideo", "-pix_fmt", src.raw_pix_fmt, "-s",
                                         std::to_string(src.raw->width) + "x" + std::to_string(src.raw->height), "-r", fps});
        }
        j.argv.insert(j.argv.end(), {"-i", src.path});
        j.argv.insert(j.argv.end(), trim.begin(), trim.end());
        j.argv.insert(j.argv.end(), {"-an", "-sn", "-dn", "-pix_fmt", f.pix_fmt});
        const auto codec = j.adapter->args(j.cell.preset, j.cell.crf);
        j.argv.insert(j.argv.end(), codec.begin(), codec.end());
        j.argv.insert(j.argv.end(), opt.extra_ffmpeg_args.begin(), opt.extra_ffmpeg_args.end());
        j.argv.push_back(j.encode_path);

        Row& r = j.row;
        r["schema_version"] = kRowSchemaVersion;
        r["run_id"] = run_id;
        r["timestamp"] = nullptr;
        r["src"] = src.path;
        r["src_sha256"] = f.sha256;
        r["width"] = f.width;
        r["height"] = f.height;
        r["pix_fmt"] = f.pix_fmt;
        r["framerate"] = f.fps;
        r["duration_s"] = j.window.count ? *j.window.count / f.fps : f.duration_s;
        r["encoder"] = j.cell.encoder;
        r["encoder_version"] = nullptr;
        r["preset"] = j.cell.preset;
        r["crf"] = j.cell.crf;
        r["extra_params"] = join(opt.extra_ffmpeg_args, " ");
        r["encode_path"] = j.encode_path;
        r["encode_command"] = shell_quote(j.argv);
        r["encode_size_bytes"] = nullptr;
        r["bitrate_kbps"] = nullptr;
        r["encode_time_ms"] = nullptr;
        null_scores(r);
        r["vmaf_model"] = model;
        r["ffmpeg_version"] = ffmpeg_ver;
        r["vmaf_binary_version"] = vmaf_ver;
        r["exit_status"] = nullptr;
        r["clip_mode"] = j.clip_mode;
        r["backend_used"] = backend.name;
        r["cache_hit"] = false;
        r["error"] = nullptr;
        if (done.count(cell_identity(r))) continue;
        // Everything that decides the result; paths are replaced by what they hold.
        std::vector<std::string> key_argv = j.argv;
        key_argv.back() = "<out>." + j.adapter->extension;
        for (auto& a : key_argv)
            if (a == src.path) a = "<src>";
        j.cache_key = ScoreCache::key({{"src_sha256", f.sha256}, {"encoder", j.cell.encoder},
                                       {"ffmpeg_version", ffmpeg_ver}, {"argv", key_argv}, {"model", model},
                                       {"features", "model"}, {"backend", backend.name},
                                       {"window", {j.window.skip, j.window.count ? *j.window.count : 0}}});
        todo.push_back(std::move(j));
    }
    const std::size_t total = todo.size();
    std::fprintf(stderr, "vmaf-tune: %zu cells in this %s, %zu already in %s, %zu to run\n", in_shard,
                 opt.shard.count > 1 ? "shard" : "sweep", in_shard - total, opt.out.c_str(), total);
    if (total == 0) return 0;

    RowWriter writer(opt.out);
    g_interrupted = false;
    struct sigaction sa{}, old_int{}, old_term{};
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGINT, &sa, &old_int);
    ::sigaction(SIGTERM, &sa, &old_term);

    // Encoders take jobs; the calling thread scores what they finish, in the order they finish.
    std::mutex mu;
    std::condition_variable cv;
    std::deque<Encoded> finished;
    unsigned encoding = 0;
    std::vector<std::thread> workers;
    auto next_job = [&]() -> std::optional<Job> {
        std::lock_guard<std::mutex> lock(mu);
        if (todo.empty() || g_interrupted) return std::nullopt;
        Job j = std::move(todo.front());
        todo.pop_front();
        ++encoding;
        return j;
    };
    for (unsigned w = 0; w < std::min<std::size_t>(opt.jobs, total); ++w)
        workers.emplace_back([&] {
            while (auto j = next_job()) {
                Encoded e{std::move(*j), {}};
                if (!(cache && cache->get(e.job.cache_key))) e.encode = run_process(e.job.argv);
                else e.encode.exit_code = 0;  // answered from the cache: nothing to encode
                std::lock_guard<std::mutex> lock(mu);
                --encoding;
                finished.push_back(std::move(e));
                cv.notify_all();
            }
            std::lock_guard<std::mutex> lock(mu);
            cv.notify_all();
        });

    const bool tty = ::isatty(STDERR_FILENO);
    const auto t0 = std::chrono::steady_clock::now();
    std::size_t written = 0, failed = 0;
    for (;;) {
        std::optional<Encoded> e;
        {
            std::unique_lock<std::mutex> lock(mu);
            cv.wait_for(lock, std::chrono::milliseconds(200), [&] {
                return !finished.empty() || ((todo.empty() || g_interrupted) && encoding == 0);
            });
            if (!finished.empty()) {
                e = std::move(finished.front());
                finished.pop_front();
            } else if ((todo.empty() || g_interrupted) && encoding == 0) {
                break;
            } else {
                continue;
            }
        }
        // An encode that ended because of Ctrl-C is not a result: it is left for the resumed run.
        if (g_interrupted && e->encode.exit_code != 0) continue;
        Job& j = e->job;
        Row row = j.row;
        row["timestamp"] = utc_now();
        std::optional<Row> cached = cache ? cache->get(j.cache_key) : std::nullopt;
        if (cached) {
            for (const char* k : kResultKeys)
                if (cached->contains(k)) row[k] = (*cached)[k];
            row["exit_status"] = 0;
            row["cache_hit"] = true;
        } else if (e->encode.exit_code != 0) {
            row["exit_status"] = e->encode.exit_code;
            row["encode_time_ms"] = e->encode.elapsed_ms;
            std::string err = e->encode.err_tail;
            while (!err.empty() && (err.back() == '\n' || err.back() == '\r')) err.pop_back();
            if (const auto nl = err.rfind('\n'); nl != std::string::npos) err = err.substr(nl + 1);
            row["error"] = "encode failed (ffmpeg exit " + std::to_string(e->encode.exit_code) + "): " + err;
        } else {
            row["encode_time_ms"] = e->encode.elapsed_ms;
            std::error_code ec;
            const auto size = fs::file_size(j.encode_path, ec);
            row["encode_size_bytes"] = ec ? 0 : size;
            row["bitrate_kbps"] = ec ? 0.0 : static_cast<double>(size) * 8.0 / 1000.0 / row["duration_s"].get<double>();
            const std::string bv = bitstream_encoder_version(j.cell.encoder, j.encode_path);
            row["encoder_version"] = bv.empty() ? j.cell.encoder + " (ffmpeg " + ffmpeg_ver + ")" : bv;
            try {
                const ScoreSummary s = score_encode(opt.sources[j.cell.source], j.window, j.encode_path,
                                                    setup_for(row["vmaf_model"].get<std::string>(), backend, opt.threads));
                fill_scores(row, s);
                row["exit_status"] = 0;
                if (cache) {
                    Row result = Row::object();
                    for (const char* k : kResultKeys) result[k] = row[k];
                    cache->put(j.cache_key, result);
                }
            } catch (const std::exception& ex) {
                row["exit_status"] = 3;
                row["error"] = std::string("scoring failed: ") + ex.what();
            }
            if (!opt.keep_encodes) fs::remove(j.encode_path, ec);
        }
        if (!opt.keep_encodes) row["encode_path"] = nullptr;
        writer.append(row);
        ++written;
        if (row["exit_status"] != 0) ++failed;
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const double eta = elapsed / static_cast<double>(written) * static_cast<double>(total - written);
        char score[64] = "failed";
        if (row["exit_status"] == 0)
            std::snprintf(score, sizeof score, "VMAF %.3f at %.0f kbps%s", row["vmaf_score"].get<double>(),
                          row["bitrate_kbps"].get<double>(), row["cache_hit"] == true ? " (cached)" : "");
        if (tty)
            std::fprintf(stderr, "\r\033[Kvmaf-tune: %zu/%zu cells, ETA %s — %s %s crf %d: %s", written, total,
                         fmt_duration(eta).c_str(), j.cell.encoder.c_str(), j.cell.preset.c_str(), j.cell.crf, score);
        else
            std::fprintf(stderr, "vmaf-tune: [%zu/%zu] %s %s %s crf %d: %s\n", written, total,
                         fs::path(opt.sources[j.cell.source].path).filename().c_str(), j.cell.encoder.c_str(),
                         j.cell.preset.c_str(), j.cell.crf, score);
        if (row["exit_status"] != 0) std::fprintf(stderr, "%svmaf-tune: %s\n", tty ? "\n" : "", row["error"].get<std::string>().c_str());
    }
    for (auto& w : workers) w.join();
    if (tty) std::fprintf(stderr, "\n");
    ::sigaction(SIGINT, &old_int, nullptr);
    ::sigaction(SIGTERM, &old_term, nullptr);
    if (g_interrupted) {
        std::fprintf(stderr, "vmaf-tune: interrupted after %zu of %zu cells; run the same command again to resume\n",
                     written, total);
        return 130;
    }
    std::fprintf(stderr, "vmaf-tune: %zu cells written to %s (%zu failed)\n", written, opt.out.c_str(), failed);
    return failed ? 1 : 0;
}

}  // namespace vmaf::tune
