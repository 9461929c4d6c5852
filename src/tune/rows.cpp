#include "tune/rows.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include "tune/atomic_file.hpp"

namespace vmaf::tune {

namespace {

const char* const kIdentityKeys[] = {"src",           "encoder",      "preset",       "crf",
                                     "extra_params",  "clip_mode",    "vmaf_model",   "encode_width",
                                     "encode_height", "scale_filter", "score_metrics"};

void write_all(int fd, const std::string& text, const std::string& path) {
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
        done += static_cast<std::size_t>(n);
    }
}

}  // namespace

std::string cell_identity(const Row& row) {
    nlohmann::ordered_json id;
    for (const char* k : kIdentityKeys) id[k] = row.contains(k) ? row[k] : nullptr;
    return id.dump();
}

Row crf_value(double crf) {
    if (crf == std::floor(crf) && std::fabs(crf) < 1e9) return static_cast<long>(crf);
    return crf;
}

double row_number(const Row& row, const std::string& key) {
    const auto it = row.find(key);
    return it != row.end() && it->is_number() ? it->get<double>() : std::nan("");
}

RowFile read_row_file(const std::string& path) {
    RowFile file;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        if (::access(path.c_str(), F_OK) == 0) throw std::runtime_error("cannot read " + path);
        return file;
    }
    std::string line;
    for (unsigned n = 1; std::getline(in, line); ++n) {
        const bool whole_line = !in.eof();  // getline stopped at a newline
        Row row = line.empty() ? Row() : Row::parse(line, nullptr, false);
        const bool ok = !row.is_discarded() && row.is_object() && row.contains("schema_version") &&
                        row.contains("exit_status") && row.contains("encoder") && row.contains("crf");
        if (!whole_line && !ok) {
            if (!line.empty()) file.torn = line;
            break;
        }
        if (!line.empty() && !ok)
            throw std::runtime_error(path + " line " + std::to_string(n) +
                                     " is not a vmaf-tune row (the file is left as it is)");
        file.complete_bytes += line.size() + (whole_line ? 1 : 0);
        if (!line.empty()) file.rows.push_back(std::move(row));
    }
    return file;
}

std::vector<Row> read_rows(const std::string& path) {
    RowFile file = read_row_file(path);
    if (!file.torn.empty())
        std::fprintf(stderr,
                     "vmaf-tune: %s: the last line is cut short (%zu bytes, an interrupted write): left out, "
                     "the %zu complete rows read\n",
                     path.c_str(), file.torn.size(), file.rows.size());
    return std::move(file.rows);
}

void drop_torn_line(const std::string& path, const RowFile& file) {
    if (file.torn.empty()) return;
    if (::truncate(path.c_str(), static_cast<off_t>(file.complete_bytes)) != 0)
        throw std::runtime_error("cannot cut the torn last line off " + path + ": " + std::strerror(errno));
    std::fprintf(stderr,
                 "vmaf-tune: %s: the last line was cut short (%zu bytes, an interrupted write): removed, "
                 "its cell runs again\n",
                 path.c_str(), file.torn.size());
}

RowWriter::RowWriter(const std::string& path) : path_(path) {
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd_ < 0) throw std::runtime_error("cannot open " + path + " for appending: " + std::strerror(errno));
    // A last row whose newline was never written: end its line first.
    const off_t size = ::lseek(fd_, 0, SEEK_END);
    char last = '\n';
    if (size > 0 && ::pread(fd_, &last, 1, size - 1) == 1 && last != '\n') write_all(fd_, "\n", path_);
}

RowWriter::~RowWriter() {
    if (fd_ >= 0) ::close(fd_);
}

void RowWriter::append(const Row& row) {
    write_all(fd_, row.dump() + "\n", path_);  // one write: a line is whole or absent
    ::fsync(fd_);
}

void write_rows(const std::string& path, const std::vector<Row>& rows) {
    std::string text;
    for (const Row& r : rows) text += r.dump() + "\n";
    write_file_atomic(path, text);
}

}  // namespace vmaf::tune
