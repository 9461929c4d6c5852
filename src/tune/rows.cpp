#include "tune/rows.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace vmaf::tune {

namespace {

const char* const kIdentityKeys[] = {"src",       "encoder",    "preset",       "crf",           "extra_params",
                                     "clip_mode", "vmaf_model", "encode_width", "encode_height", "scale_filter"};

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

std::vector<Row> read_rows(const std::string& path) {
    std::vector<Row> rows;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        if (::access(path.c_str(), F_OK) == 0) throw std::runtime_error("cannot read " + path);
        return rows;
    }
    std::string line;
    for (unsigned n = 1; std::getline(in, line); ++n) {
        if (line.empty()) continue;
        Row row = Row::parse(line, nullptr, false);
        const bool ok = !row.is_discarded() && row.is_object() && row.contains("schema_version") &&
                        row.contains("exit_status") && row.contains("encoder") && row.contains("crf");
        if (!ok)
            throw std::runtime_error(path + " line " + std::to_string(n) +
                                     " is not a vmaf-tune row (the file is left as it is)");
        rows.push_back(std::move(row));
    }
    return rows;
}

RowWriter::RowWriter(const std::string& path) : path_(path) {
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd_ < 0) throw std::runtime_error("cannot open " + path + " for appending: " + std::strerror(errno));
}

RowWriter::~RowWriter() {
    if (fd_ >= 0) ::close(fd_);
}

void RowWriter::append(const Row& row) {
    write_all(fd_, row.dump() + "\n", path_);  // one write: a line is whole or absent
    ::fsync(fd_);
}

void write_rows(const std::string& path, const std::vector<Row>& rows) {
    const std::string tmp = path + ".tmp";
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) throw std::runtime_error("cannot write " + tmp + ": " + std::strerror(errno));
    std::string text;
    for (const Row& r : rows) text += r.dump() + "\n";
    try {
        write_all(fd, text, tmp);
    } catch (...) {
        ::close(fd);
        ::unlink(tmp.c_str());
        throw;
    }
    ::fsync(fd);
    ::close(fd);
    if (std::rename(tmp.c_str(), path.c_str()) != 0) throw std::runtime_error("cannot rename " + tmp + " to " + path);
}

}  // namespace vmaf::tune
