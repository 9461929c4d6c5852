#include "backends/cuda/device_ledger.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <mutex>
#include <vector>

namespace vmaf::cuda {
namespace {

struct Made {
    std::size_t bytes = 0;
    unsigned count = 0;
};

struct Book {
    std::mutex m;
    std::size_t live = 0, peak = 0;
    std::map<std::string, Made, std::less<>> made;
};

Book& book() {
    static Book b;
    return b;
}

thread_local std::string_view current_label;

}  // namespace

DeviceLedger::Scope::Scope(std::string_view label) : previous_(current_label) { current_label = label; }
DeviceLedger::Scope::~Scope() { current_label = previous_; }

void DeviceLedger::allocated(std::size_t bytes) {
    Book& b = book();
    std::lock_guard lk(b.m);
    b.live += bytes;
    b.peak = std::max(b.peak, b.live);
    const std::string_view label = current_label.empty() ? std::string_view("while scoring") : current_label;
    auto it = b.made.find(label);
    if (it == b.made.end()) it = b.made.emplace(std::string(label), Made{}).first;
    it->second.bytes += bytes;
    ++it->second.count;
}

void DeviceLedger::freed(std::size_t bytes) {
    Book& b = book();
    std::lock_guard lk(b.m);
    b.live -= std::min(b.live, bytes);
}

std::size_t DeviceLedger::live() {
    std::lock_guard lk(book().m);
    return book().live;
}

std::size_t DeviceLedger::peak() {
    std::lock_guard lk(book().m);
    return book().peak;
}

std::string DeviceLedger::report() {
    Book& b = book();
    std::lock_guard lk(b.m);
    std::vector<std::pair<std::string, Made>> rows(b.made.begin(), b.made.end());
    std::stable_sort(rows.begin(), rows.end(), [](const auto& x, const auto& y) { return x.second.bytes > y.second.bytes; });
    constexpr double kMiB = 1024.0 * 1024.0;
    char buf[128];
    std::snprintf(buf, sizeof buf, "peak %.1f MiB", static_cast<double>(b.peak) / kMiB);
    std::string out = buf;
    const char* sep = "; made: ";
    for (const auto& [label, m] : rows) {
        std::snprintf(buf, sizeof buf, "%s %.1f MiB in %u", label.c_str(), static_cast<double>(m.bytes) / kMiB, m.count);
        out += sep;
        out += buf;
        sep = ", ";
    }
    return out;
}

}  // namespace vmaf::cuda
