#include "tune/corpus.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "tune/interrupt.hpp"
#include "tune/sweep.hpp"

namespace fs = std::filesystem;

namespace vmaf::tune {

namespace {

/// A job whose encode has ended (successfully or not).
struct Encoded {
    Job job;
    ProcessResult encode;
};

std::string fmt_duration(double s) {
    char buf[32];
    const long t = std::lround(std::max(0.0, s));
    std::snprintf(buf, sizeof buf, "%02ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    return buf;
}

/// " at WxH" for a scaled encode, else "".
std::string size_tag(const Job& j) {
    if (j.scale_filter.empty()) return {};
    return " at " + std::to_string(j.stream.width) + "x" + std::to_string(j.stream.height);
}

}  // namespace

int run_corpus(const CorpusOptions& opt, std::vector<Row>* grid_rows) {
    Sweep sweep(opt);
    // Every cell, sources outermost, then each encoder with its presets and the CRFs.
    std::vector<Cell> grid;
    for (const SweepRun& run : sweep.runs())
        for (const Cell& c : make_grid(opt.sources.size(), {run.adapter->name}, {run.preset}, run.crfs))
            for (std::size_t k = 0; k < std::max<std::size_t>(1, opt.shapes.size()); ++k) {
                grid.push_back(c);
                grid.back().shape = k;
            }
    std::stable_sort(grid.begin(), grid.end(), [](const Cell& x, const Cell& y) { return x.source < y.source; });
    // The jobs of this shard that have no row yet.
    std::deque<Job> todo;
    std::set<std::string> identities;
    std::size_t in_shard = 0;
    for (std::size_t i = 0; i < grid.size(); ++i) {
        if (!opt.shard.takes(i)) continue;
        ++in_shard;
        Job j = sweep.make_job(i, grid[i], opt.shapes.empty() ? EncodeShape{} : opt.shapes[grid[i].shape]);
        identities.insert(cell_identity(j.row));
        if (!sweep.done(j)) todo.push_back(std::move(j));
    }
    // The grid's rows once the sweep ends: those of its cells, old and new.
    auto collect = [&](int rc) {
        if (grid_rows)
            for (Row& r : read_rows(opt.out))
                if (identities.count(cell_identity(r))) grid_rows->push_back(std::move(r));
        return rc;
    };
    const std::size_t total = todo.size();
    std::fprintf(stderr, "vmaf-tune: %zu cells in this %s, %zu already in %s, %zu to run\n", in_shard,
                 opt.shard.count > 1 ? "shard" : "sweep", in_shard - total, opt.out.c_str(), total);
    if (total == 0) return collect(0);

    InterruptScope interrupt_scope;

    // Encoders take jobs; the calling thread scores what they finish, in the order they finish.
    std::mutex mu;
    std::condition_variable cv;
    std::deque<Encoded> finished;
    unsigned encoding = 0;
    std::vector<std::thread> workers;
    auto next_job = [&]() -> std::optional<Job> {
        std::lock_guard<std::mutex> lock(mu);
        if (todo.empty() || interrupted()) return std::nullopt;
        Job j = std::move(todo.front());
        todo.pop_front();
        ++encoding;
        return j;
    };
    for (unsigned w = 0; w < std::min<std::size_t>(opt.jobs, total); ++w)
        workers.emplace_back([&] {
            while (auto j = next_job()) {
                Encoded e{std::move(*j), {}};
                e.encode = sweep.encode(e.job);
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
            cv.wait_for(lock, std::chrono::milliseconds(200),
                        [&] { return !finished.empty() || ((todo.empty() || interrupted()) && encoding == 0); });
            if (!finished.empty()) {
                e = std::move(finished.front());
                finished.pop_front();
            } else if ((todo.empty() || interrupted()) && encoding == 0) {
                break;
            } else {
                continue;
            }
        }
        // An encode that ended because of Ctrl-C is not a result: its cell is
        // left for the resumed run, its partial file removed.
        if (interrupted() && e->encode.exit_code != 0) {
            sweep.discard(e->job);
            continue;
        }
        const Job& j = e->job;
        Row row = sweep.finish(j, e->encode);
        sweep.append(row);
        ++written;
        if (row["exit_status"] != 0) ++failed;
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const double eta = elapsed / static_cast<double>(written) * static_cast<double>(total - written);
        char score[64] = "failed";
        if (row["exit_status"] == 0)
            std::snprintf(score, sizeof score, "VMAF %.3f at %.0f kbps%s", row["vmaf_score"].get<double>(),
                          row["bitrate_kbps"].get<double>(), row["cache_hit"] == true ? " (cached)" : "");
        if (tty)
            std::fprintf(stderr, "\r\033[Kvmaf-tune: %zu/%zu cells, ETA %s — %s %s crf %s%s: %s", written, total,
                         fmt_duration(eta).c_str(), j.cell.encoder.c_str(), j.cell.preset.c_str(),
                         crf_text(j.cell.crf).c_str(), size_tag(j).c_str(), score);
        else
            std::fprintf(stderr, "vmaf-tune: [%zu/%zu] %s %s %s crf %s%s: %s\n", written, total,
                         fs::path(opt.sources[j.cell.source].path).filename().c_str(), j.cell.encoder.c_str(),
                         j.cell.preset.c_str(), crf_text(j.cell.crf).c_str(), size_tag(j).c_str(), score);
        if (row["exit_status"] != 0)
            std::fprintf(stderr, "%svmaf-tune: %s\n", tty ? "\n" : "", row["error"].get<std::string>().c_str());
    }
    for (auto& w : workers) w.join();
    if (tty) std::fprintf(stderr, "\n");
    if (interrupted()) {
        std::fprintf(stderr, "vmaf-tune: interrupted after %zu of %zu cells; run the same command again to resume\n",
                     written, total);
        return 130;
    }
    std::fprintf(stderr, "vmaf-tune: %zu cells written to %s (%zu failed)\n", written, opt.out.c_str(), failed);
    return collect(failed ? 1 : 0);
}

}  // namespace vmaf::tune
