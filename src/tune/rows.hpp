// Rows of a corpus JSONL file: one JSON object per line, one per grid cell.
// The schema is docs/vmaf-tune-row.schema.json; failed cells have a non-zero
// exit_status and null scores (never a bare NaN).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace vmaf::tune {

inline constexpr int kRowSchemaVersion = 1;

using Row = nlohmann::ordered_json;

/// What makes two rows the same cell of a sweep: source, encoder, preset,
/// CRF, extra ffmpeg arguments, clip mode, model, the metrics scored beside
/// VMAF (when any) and (scaled encodes) the encode size and scale filter.
std::string cell_identity(const Row& row);

/// A CRF as rows record it: an integer when whole (as rows always had), else
/// the fraction (23.25).
Row crf_value(double crf);

/// `row[key]` as a number; NaN when the row has none there (a failed cell's null).
double row_number(const Row& row, const std::string& key);

/// The rows of a JSONL file, and what a killed writer may have left after them.
struct RowFile {
    std::vector<Row> rows;
    std::uint64_t complete_bytes = 0;  ///< bytes up to the end of the last complete line
    std::string torn;                  ///< a last line without its newline that is not a row (else empty)
};

/// Reads every row of an existing JSONL file (a missing file has none). A
/// last line that lacks its newline and is not a complete row is the torn
/// write of a killed run: it is left out (RowFile::torn), the complete rows
/// kept. Throws std::runtime_error naming the file and line when any other
/// line is not a complete row. The file is never modified.
RowFile read_row_file(const std::string& path);

/// read_row_file()'s rows; a torn last line is reported in one stderr line
/// ("vmaf-tune: PATH: ...") and left out.
std::vector<Row> read_rows(const std::string& path);

/// Cuts a torn last line (read_row_file) off the file so that rows can be
/// appended after the complete ones; says so in one stderr line. Does nothing
/// when the file has none.
void drop_torn_line(const std::string& path, const RowFile& file);

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
