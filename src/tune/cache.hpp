// Content-addressed cache of finished cells: the key hashes everything that
// decides a cell's result (source bytes, encoder and ffmpeg version, the full
// ffmpeg argument list, frame window, model, backend), the value is the row's
// result part. Shared by every sweep of a user; capped in size (oldest first out).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "tune/rows.hpp"

namespace vmaf::tune {

class ScoreCache {
public:
    /// `dir` empty: $XDG_CACHE_HOME/vmaf-tune, else ~/.cache/vmaf-tune.
    ScoreCache(std::string dir, std::uint64_t max_bytes);
    const std::string& dir() const { return dir_; }

    /// The stored result for `key`, if any (touching it, for the size cap).
    std::optional<Row> get(const std::string& key) const;
    /// Stores `result` under `key` atomically, then trims the cache to its cap.
    void put(const std::string& key, const Row& result);

    /// sha256 of the canonical JSON of `parts`.
    static std::string key(const nlohmann::ordered_json& parts);

private:
    std::string path(const std::string& key) const;
    void trim() const;
    std::string dir_;
    std::uint64_t max_bytes_;
};

}  // namespace vmaf::tune
