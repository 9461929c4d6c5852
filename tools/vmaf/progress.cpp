#include "progress.hpp"

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <mutex>

namespace vmaf::cli {

struct ProgressLine::State {
    std::optional<std::uint64_t> total;
    std::atomic<std::uint64_t> frames{0};
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now(), last = start;
    std::mutex mu;
    bool drawn = false;  ///< the line is on screen
    bool ever = false;   ///< it has been drawn once
};

ProgressLine::ProgressLine(std::optional<std::uint64_t> total) : s_(std::make_unique<State>()) {
    s_->total = total;
}

ProgressLine::~ProgressLine() {
    clear();
}

void ProgressLine::tick() {
    const std::uint64_t n = ++s_->frames;
    const auto now = std::chrono::steady_clock::now();
    std::unique_lock<std::mutex> lock(s_->mu, std::try_to_lock);
    // The first frame draws the line at once, then at most four redraws a second.
    if (!lock || (s_->ever && now - s_->last < std::chrono::milliseconds(250))) return;
    s_->last = now;
    const double secs = std::chrono::duration<double>(now - s_->start).count();
    const double fps = secs > 0 ? static_cast<double>(n) / secs : 0;
    char line[160];
    if (s_->total && *s_->total >= n && fps > 0) {
        const long eta = std::lround(static_cast<double>(*s_->total - n) / fps);
        std::snprintf(line, sizeof line, "vmaf: %llu/%llu frames, %.1f fps, ETA %ld:%02ld",
                      static_cast<unsigned long long>(n), static_cast<unsigned long long>(*s_->total), fps, eta / 60,
                      eta % 60);
    } else {
        std::snprintf(line, sizeof line, "vmaf: %llu frames, %.1f fps", static_cast<unsigned long long>(n), fps);
    }
    std::fprintf(stderr, "\r\033[K%s", line);
    s_->drawn = s_->ever = true;
}

void ProgressLine::clear() {
    std::lock_guard<std::mutex> lock(s_->mu);
    if (s_->drawn) std::fprintf(stderr, "\r\033[K");
    s_->drawn = false;
}

namespace {

class ProgressSource final : public VideoSource {
public:
    ProgressSource(std::unique_ptr<VideoSource> inner, std::shared_ptr<ProgressLine> line)
        : inner_(std::move(inner)), line_(std::move(line)) {}
    const VideoGeometry& geometry() const override { return inner_->geometry(); }
    const StreamInfo& info() const override { return inner_->info(); }
    const std::string& name() const override { return inner_->name(); }
    std::optional<Picture> read() override {
        std::optional<Picture> p = inner_->read();
        if (p) line_->tick();
        return p;
    }
    void skip(unsigned n) override { inner_->skip(n); }
    void plan(const ReadPlan& p) override { inner_->plan(p); }
    std::optional<std::uint64_t> frames_left() const override { return inner_->frames_left(); }
    Picture read_frame(std::uint64_t index) override {
        Picture p = inner_->read_frame(index);
        line_->tick();
        return p;
    }
    std::optional<std::int64_t> timestamp() const override { return inner_->timestamp(); }
    std::uint64_t decode_errors() const override { return inner_->decode_errors(); }
    bool decode_on_device(const DeviceTarget& t, std::string& why) override { return inner_->decode_on_device(t, why); }

private:
    std::unique_ptr<VideoSource> inner_;
    std::shared_ptr<ProgressLine> line_;
};

}  // namespace

std::unique_ptr<VideoSource> with_progress(std::unique_ptr<VideoSource> src, std::shared_ptr<ProgressLine> line) {
    return std::make_unique<ProgressSource>(std::move(src), std::move(line));
}

}  // namespace vmaf::cli
