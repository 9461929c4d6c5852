#include "tune/cache.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <system_error>
#include <vector>

#include "tune/atomic_file.hpp"
#include "tune/source.hpp"

namespace fs = std::filesystem;

namespace vmaf::tune {

ScoreCache::ScoreCache(std::string dir, std::uint64_t max_bytes) : dir_(std::move(dir)), max_bytes_(max_bytes) {
    if (dir_.empty()) {
        if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x)
            dir_ = std::string(x) + "/vmaf-tune";
        else if (const char* h = std::getenv("HOME"); h && *h)
            dir_ = std::string(h) + "/.cache/vmaf-tune";
        else
            dir_ = ".vmaf-tune-cache";
    }
    std::error_code ec;
    fs::create_directories(dir_, ec);
}

std::string ScoreCache::key(const nlohmann::ordered_json& parts) {
    return text_sha256(parts.dump());
}

std::string ScoreCache::path(const std::string& key) const {
    return dir_ + "/" + key.substr(0, 2) + "/" + key + ".json";
}

std::optional<Row> ScoreCache::get(const std::string& key) const {
    std::ifstream in(path(key));
    if (!in) return std::nullopt;
    Row r = Row::parse(in, nullptr, false);
    if (r.is_discarded() || !r.is_object()) return std::nullopt;  // a damaged entry is a miss
    std::error_code ec;
    fs::last_write_time(path(key), fs::file_time_type::clock::now(), ec);
    return r;
}

void ScoreCache::put(const std::string& key, const Row& result) {
    const std::string p = path(key);
    std::error_code ec;
    fs::create_directories(fs::path(p).parent_path(), ec);
    try {
        write_file_atomic(p, result.dump());
    } catch (const std::runtime_error&) {
        return;  // the cache is an optimisation: a full disk must not fail the sweep
    }
    trim();
}

void ScoreCache::trim() const {
    struct Entry {
        fs::path path;
        std::uintmax_t size;
        fs::file_time_type time;
    };
    std::vector<Entry> entries;
    std::uintmax_t total = 0;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(dir_, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec)) {
        if (!it->is_regular_file(ec) || it->path().extension() != ".json") continue;
        entries.push_back({it->path(), it->file_size(ec), it->last_write_time(ec)});
        total += entries.back().size;
    }
    if (total <= max_bytes_) return;
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.time < b.time; });
    for (const Entry& e : entries) {
        if (total <= max_bytes_ * 9 / 10) break;
        if (fs::remove(e.path, ec)) total -= e.size;
    }
}

}  // namespace vmaf::tune
