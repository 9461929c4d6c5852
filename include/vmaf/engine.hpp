// The library's public entry point: configure features and models, feed a
// reference/distorted pair of sources, write or query the scores.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "vmaf/error.hpp"
#include "vmaf/picture.hpp"
#include "vmaf/video_source.hpp"

namespace vmaf {

using KeyValues = std::vector<std::pair<std::string, std::string>>;

/// Library version as reported in outputs (upstream-compatible "3.x.y").
const char* version();

struct EngineConfig {
    unsigned threads = 0;    ///< 0: everything on the calling thread; N: N worker threads
    unsigned subsample = 1;  ///< compute only frames i with i % subsample == 0
    unsigned cpumask = 0;    ///< set bits disable ISAs (upstream bit meanings)
    bool no_prediction = false;  ///< models select features but are not evaluated
    /// Compute backend: "cpu", "auto" (the first GPU backend that starts, else
    /// the CPU) or a GPU backend name ("cuda", "sycl", "hip", "metal"), which
    /// must start or the run fails with BackendError. Never read from the environment.
    std::string backend = "cpu";
    bool no_cuda = false;  ///< never use CUDA (auto then means the CPU)
    int device = 0;        ///< GPU device index for a GPU backend
    /// With every extractor on a GPU backend, let sources decode on that GPU
    /// (VideoSource::decode_on_device); false keeps decoding on the CPU.
    bool gpu_decode = true;
    /// Caller-created backend state, e.g. from vmaf::cuda::create_state(); the
    /// backend uses it instead of creating its own. Its type is backend-specific.
    std::shared_ptr<void> backend_state;
    bool no_hip = false;  ///< never use HIP (auto then skips it)
    int hip_device = -1;  ///< device index when the HIP backend is chosen (-1: `device`)
};

/// A requested backend (or a GPU-pinned feature's backend, e.g. psnr_cuda)
/// could not be used: not compiled in, no device, or its start failed.
class BackendError : public Error {
public:
    BackendError(std::string backend, int err, const std::string& msg)
        : Error(ErrorKind::Backend, msg), backend_(std::move(backend)), errno_(err) {}
    /// The backend that was asked for ("cuda", ...).
    const std::string& backend() const { return backend_; }
    /// Negative errno: -ENOSYS not compiled in, -ENODEV no usable device, -EIO other start failures.
    int error_number() const { return errno_; }

private:
    std::string backend_;
    int errno_;
};

/// Creates backend state the caller owns and hands to EngineConfig::backend_state
/// (several engines can share it), e.g. create_backend_state("cuda", 1) for GPU 1.
/// `native_context`, when not null, is the backend's own context handle the
/// work must run in instead of the device's default (CUDA: a CUcontext made
/// with the driver API; `device` is then ignored). It is not owned: it must
/// outlive the state, every engine using it and every picture from it.
/// Checks that the device works; throws BackendError when it does not or the
/// backend is not compiled in (-ENOSYS), -ENODEV without a usable device,
/// -EINVAL for a native context that is not valid.
std::shared_ptr<void> create_backend_state(const std::string& backend, int device, void* native_context = nullptr);

/// Whether `name` is a backend name the library accepts (auto, cpu or a GPU
/// backend's, compiled in or not), and those names as one phrase for messages.
bool is_backend_name(std::string_view name);
const char* backend_names_text();

/// What to choose a backend from.
struct BackendRequest {
    std::string name = "cpu";  ///< auto, cpu or a GPU backend name
    int device = 0;            ///< GPU device index
    bool no_cuda = false;      ///< never CUDA: auto skips it, "cuda" is refused
    /// With auto: the GPU backends to try, in order, compiled in or not
    /// (empty: every compiled one, in the build's priority order).
    std::vector<std::string> probe_order;
    /// State the caller made for the named backend (create_backend_state), used instead of new state.
    std::shared_ptr<void> state;
    bool no_hip = false;  ///< never HIP: auto skips it, "hip" is refused
    int hip_device = -1;  ///< device index for the HIP backend (-1: `device`)
};

struct BackendChoice {
    std::string name = "cpu";     ///< the backend chosen
    std::shared_ptr<void> state;  ///< its state, for EngineConfig::backend_state (null for the CPU)
    std::string fallback_reason;  ///< auto on the CPU: why the first GPU candidate could not start
    std::string probes;           ///< what each candidate gave, one clause each ("cuda: device 0 works")
};

/// The one place a backend is chosen (the engine, and so the CLI and the C
/// API, and vmaf-tune): auto takes the first candidate that starts, else the
/// CPU; a named GPU backend must start. Throws Error(Usage) for an unknown
/// name and BackendError when a named backend cannot start (-ENOSYS not
/// compiled in, -ENODEV no usable device or disabled, -EIO other failures).
BackendChoice choose_backend(const BackendRequest& req);

/// While alive, keeps what GPU backends change on the calling thread (CUDA:
/// its current context, which the backend sets before its calls on every
/// thread it runs on) as it was at construction. An API layer wraps each call
/// in one so that its caller's thread is left as found. Does nothing, and
/// starts no GPU runtime, while no backend has run in the process, unless
/// `starting` (a call that is about to start one).
class BackendThreadGuard {
public:
    explicit BackendThreadGuard(bool starting = false);
    ~BackendThreadGuard();
    BackendThreadGuard(const BackendThreadGuard&) = delete;
    BackendThreadGuard& operator=(const BackendThreadGuard&) = delete;

private:
    static constexpr unsigned kMax = 4;  ///< compiled backends
    void* saved_[kMax] = {};
    bool have_[kMax] = {};
};

/// Outcome of backend selection.
struct BackendSelection {
    std::string used = "cpu";  ///< what runs the features that have a twin on it
    /// With backend "auto": why no GPU backend was used (empty when one was, or none is compiled in).
    std::string fallback_reason;
};

/// Where one configured extractor ran (Engine::feature_backends).
struct FeatureBackend {
    std::string feature;  ///< the extractor's name ("float_ssim"; a pinned "psnr_cuda" is "psnr")
    std::string backend;  ///< "cpu", or the GPU backend whose twin ran it ("cuda")
};

/// `--feature NAME[=k=v:k=v...]`
struct FeatureRequest {
    std::string name;
    KeyValues options;
};

/// `--model version=NAME|path=FILE[:name=N][:disable_clip][:enable_transform][:feat.opt=v...]`
struct ModelRequest {
    std::string version;  ///< built-in model name (exclusive with path)
    std::string path;     ///< model file
    std::string name;     ///< report key; empty = "vmaf"
    bool disable_clip = false;
    bool enable_transform = false;
    KeyValues overrides;  ///< ("vif.vif_enhn_gain_limit", "1.0") ...
};

struct RunLimits {
    std::optional<unsigned> frame_count;  ///< stop after this many pairs
    unsigned skip_ref = 0, skip_dist = 0;
};

enum class OutputFormat { Xml, Json, Csv, Sub };

/// How the inputs' frames were paired by time (align_to_grid), for the
/// report: JSON and XML reports carry it as a "pairing" entry.
struct PairingReport {
    std::string mode;  ///< "timestamps" or "nearest"
    GridStats reference, distorted;
};

/// Number format of reports: upstream's default (%.6f, %.16f for tiny
/// values), a fixed %.Ng, or %.17g (round-trip exact).
struct Precision {
    enum class Mode { Upstream, Digits } mode = Mode::Upstream;
    int digits = 17;
};

class Engine {
public:
    explicit Engine(EngineConfig cfg = {});
    ~Engine();
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    /// Throws vmaf::Error(Usage) for an unknown feature or option. A name
    /// ending in _cuda/_sycl/_hip/_metal pins the feature to that backend.
    void add_feature(const FeatureRequest& req);
    /// Throws vmaf::Error(Usage) for an unknown model, Error(Model) for a bad file.
    void add_model(const ModelRequest& req);

    /// Starts the configured backend (run() calls it when not called before;
    /// later calls return the first result). Throws BackendError.
    const BackendSelection& select_backend();

    /// Scores every frame pair; returns the number of frames read. Streams:
    /// pictures are released as soon as every feature is done with them.
    unsigned run(VideoSource& ref, VideoSource& dist, const RunLimits& limits = {});

    // Push mode (the C API): the caller hands over pairs one at a time
    // instead of run() pulling them from sources. Same extractors, same scores.

    /// Prepares the extractors for pictures of `geom`. Throws Error / BackendError.
    void push_begin(const VideoGeometry& geom);
    /// Scores the next pair (index = pairs pushed before). Both pictures must
    /// have push_begin()'s geometry (Error(Input) otherwise); they are released
    /// when every feature is done with them. Worker threads (EngineConfig::threads)
    /// compute the features of the pair in parallel.
    void push(Picture ref, Picture dist);
    /// Finishes the last frames (temporal features); returns the pairs pushed.
    /// push() is an error afterwards.
    unsigned push_flush();
    /// Pairs pushed so far.
    unsigned pushed() const;
    /// True between push_begin() and push_flush().
    bool pushing() const;
    /// Stores a score computed elsewhere under `key` at frame `index`.
    void import_score(const std::string& key, unsigned index, double value);

    enum class Pool { Min, Max, Mean, HarmonicMean };
    /// A score written so far, if any (e.g. "vmaf", "psnr_y", "vmaf_bagging").
    std::optional<double> score_at(const std::string& key, unsigned index) const;
    /// Pools `key` over frames low..high inclusive, skipping frames the
    /// subsample leaves out; nullopt when a frame in the range has no score.
    std::optional<double> pooled(const std::string& key, Pool method, unsigned low, unsigned high) const;

    /// Writes the report atomically (temporary file + rename).
    /// `pairing`, when given, is reported too.
    void write_report(const std::string& path, OutputFormat fmt, const Precision& prec,
                      const PairingReport* pairing = nullptr) const;

    /// Pooled mean of a reported key (e.g. "vmaf"), if present.
    std::optional<double> pooled_mean(const std::string& key) const;
    /// Per-frame score keys of the last run, in report order.
    std::vector<std::string> score_keys() const;
    /// Values of `key` for every frame of the last run, in frame order; NaN
    /// for a frame without one (e.g. skipped by subsample). Empty for an unknown key.
    std::vector<double> frame_scores(const std::string& key) const;
    /// Report keys of every model added, in order, with whether it is a bootstrap collection.
    std::vector<std::pair<std::string, bool>> model_keys() const;
    /// Non-fatal conditions of the last run (e.g. one input ended first), one line each.
    const std::vector<std::string>& warnings() const;
    /// Informational lines of the last run that change no score (e.g. an
    /// input decoded in software where the GPU's decoder could not take it).
    const std::vector<std::string>& notices() const;
    /// Frames per second of the last run (wall clock).
    double fps() const;
    /// Name of the backend that computed the scores ("cpu", "cuda", ...).
    std::string backend_used() const;
    /// Where each extractor of the last run (run() or push_begin()) ran: one
    /// entry per extractor instance in configuration order (a kind added
    /// with two option sets, e.g. by a model and by add_feature, is two
    /// entries of the same name). A kind without a twin on backend_used()
    /// runs on the CPU. Before the first run every entry says "cpu".
    std::vector<FeatureBackend> feature_backends() const;

    /// Pictures of `geom` in the started GPU backend's memory `kind`
    /// (MemoryKind::Device: device pointers in the backend's context;
    /// MemoryKind::PinnedHost: page-locked host memory), for a caller that
    /// fills them itself and hands them to push(). Each call of the returned
    /// function gives one picture (samples zeroed when first allocated); its
    /// storage is reused once every copy is released; `keep` are allocated now
    /// and kept for reuse. Starts the backend (select_backend()). Throws
    /// BackendError(-ENODEV) when no GPU backend runs, (-ENOSYS) when it has
    /// no memory of that kind.
    std::function<Picture()> backend_pictures(const VideoGeometry& geom, MemoryKind kind, unsigned keep);

    struct Impl;
    struct PushState;

private:
    std::unique_ptr<Impl> impl_;
    std::unique_ptr<PushState> push_;
};

}  // namespace vmaf
