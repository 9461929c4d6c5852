#include "tune/grid.hpp"

#include <algorithm>
#include <charconv>
#include <set>
#include <stdexcept>

namespace vmaf::tune {

namespace {

int parse_int(const std::string& s, const std::string& what) {
    int v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty())
        throw std::invalid_argument("--crf: '" + s + "' is not an integer (in '" + what + "')");
    return v;
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= s.size(); ++i)
        if (i == s.size() || s[i] == sep) {
            out.push_back(s.substr(start, i - start));
            start = i + 1;
        }
    return out;
}

}  // namespace

std::vector<int> parse_crf_list(const std::vector<std::string>& specs, int lo, int hi, const std::string& encoder) {
    if (specs.empty()) throw std::invalid_argument("--crf: no values given");
    std::set<int> values;
    for (const std::string& spec : specs) {
        const auto parts = split(spec, ':');
        if (parts.size() == 1) {
            values.insert(parse_int(parts[0], spec));
        } else if (parts.size() == 2 || parts.size() == 3) {
            const int first = parse_int(parts[0], spec), last = parse_int(parts[1], spec);
            const int step = parts.size() == 3 ? parse_int(parts[2], spec) : 1;
            if (step <= 0) throw std::invalid_argument("--crf: step must be positive in '" + spec + "'");
            if (last < first) throw std::invalid_argument("--crf: empty range '" + spec + "' (last < first)");
            for (long v = first; v <= last; v += step) values.insert(static_cast<int>(v));
        } else {
            throw std::invalid_argument("--crf: expected N or FIRST:LAST[:STEP], got '" + spec + "'");
        }
    }
    for (int v : values)
        if (v < lo || v > hi)
            throw std::invalid_argument("--crf " + std::to_string(v) + " is outside " +
                                        (encoder.empty() ? "the range" : encoder + "'s range") + " [" +
                                        std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return {values.begin(), values.end()};
}

Shard parse_shard(const std::string& text) {
    const auto parts = split(text, '/');
    int i = -1, n = 0;
    if (parts.size() == 2) {
        const auto a = std::from_chars(parts[0].data(), parts[0].data() + parts[0].size(), i);
        const auto b = std::from_chars(parts[1].data(), parts[1].data() + parts[1].size(), n);
        if (a.ec != std::errc() || a.ptr != parts[0].data() + parts[0].size() || b.ec != std::errc() ||
            b.ptr != parts[1].data() + parts[1].size() || parts[0].empty() || parts[1].empty())
            i = -1;
    }
    if (i < 0 || n <= 0 || i >= n)
        throw std::invalid_argument("--shard: expected I/N with 0 <= I < N, got '" + text + "'");
    return {static_cast<unsigned>(i), static_cast<unsigned>(n)};
}

std::vector<Cell> make_grid(std::size_t sources, const std::vector<std::string>& encoders,
                            const std::vector<std::string>& presets, const std::vector<int>& crfs) {
    std::vector<Cell> cells;
    for (std::size_t s = 0; s < sources; ++s)
        for (const std::string& e : encoders)
            for (const std::string& p : presets)
                for (int q : crfs) cells.push_back({s, e, p, q});
    return cells;
}

}  // namespace vmaf::tune
