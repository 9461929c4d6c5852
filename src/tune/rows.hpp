// Rows of a corpus JSONL file: one JSON object per line, one per grid cell.
// The schema is docs/vmaf-tune-row.schema.json; failed cells have a non-zero
// exit_status and null scores (never a bare NaN).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace vmaf::tune {

inline constexpr int kRowSchemaVersion = 1;

using Row = nlohmann::ordered_json;

/// What makes two rows the same cell of a sweep: source, encoder, preset,
/// CRF, extra ffmpeg arguments, clip mode, model and (scaled encodes) the
/// encode size and scale filter.
std::string cell_identity(const Row& row);

/// Reads every row of an existing JSONL file (a missing file has none).
/// Throws std::runtime_error naming the file and line when a line is not a
/// complete row; the file is never modified.
std::vector<Row> read_rows(const std::string& path);

/// Appends rows to a JSONL file, each with one write and flushed to disk
/// before append() returns, so a killed sweep loses no finished row.
class RowWriter {
public:
    explicit RowWriter(const std::string& path);
    ~RowWriter();
    RowWriter(const RowWriter&) = delete;
    RowWriter& operator=(const RowWriter&) = delete;
    void append(const Row& row);

private:
    int fd_ = -1;
    std::string path_;
};

/// Writes `rows` to `path` atomically (temporary file, then rename).
void write_rows(const std::string& path, const std::vector<Row>& rows);

}  // namespace vmaf::tune
