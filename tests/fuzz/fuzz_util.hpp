// Helpers shared by the libFuzzer targets of this folder.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

namespace vmaf::fuzz {

/// Consumes the fuzz input from the front: fixed-size values, then the rest.
/// Reading past the end yields zeros, so every input is usable.
class Bytes {
public:
    Bytes(const std::uint8_t* data, std::size_t size) : p_(data), n_(size) {}

    std::uint8_t u8() {
        if (!n_) return 0;
        --n_;
        return *p_++;
    }
    std::uint16_t u16() { return static_cast<std::uint16_t>(u8() | (u8() << 8)); }
    std::uint32_t u32() { return u16() | (std::uint32_t{u16()} << 16); }
    double f64() {
        std::uint64_t bits = u32() | (std::uint64_t{u32()} << 32);
        double d;
        std::memcpy(&d, &bits, sizeof d);
        return d;
    }
    /// Bytes up to the next NUL (consumed), or the rest of the input.
    std::string_view cstr() {
        const void* nul = std::memchr(p_, 0, n_);
        const std::size_t len = nul ? static_cast<std::size_t>(static_cast<const std::uint8_t*>(nul) - p_) : n_;
        std::string_view s(reinterpret_cast<const char*>(p_), len);
        p_ += len + (nul ? 1 : 0);
        n_ -= len + (nul ? 1 : 0);
        return s;
    }
    std::string_view rest() const { return {reinterpret_cast<const char*>(p_), n_}; }
    bool empty() const { return n_ == 0; }

private:
    const std::uint8_t* p_;
    std::size_t n_;
};

/// A regular in-memory file (memfd) reachable by path, reused across runs:
/// the readers take paths, and a memfd keeps the disk out of the loop.
class MemFile {
public:
    MemFile() {
        fd_ = ::memfd_create("vmaf_fuzz", 0);
        if (fd_ < 0) std::abort();
        path_ = "/proc/self/fd/" + std::to_string(fd_);
    }
    /// Replaces the file's content with `data`.
    const std::string& set(std::string_view data) {
        if (::ftruncate(fd_, 0) != 0) std::abort();
        if (!data.empty() && ::pwrite(fd_, data.data(), data.size(), 0) != static_cast<ssize_t>(data.size()))
            std::abort();
        return path_;
    }

private:
    int fd_ = -1;
    std::string path_;
};

}  // namespace vmaf::fuzz
