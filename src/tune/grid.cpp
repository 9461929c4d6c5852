#include "tune/grid.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <set>
#include <stdexcept>

namespace vmaf::tune {

namespace {

double parse_number(const std::string& s, const std::string& what) {
    double v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty() || !std::isfinite(v))
        throw std::invalid_argument("--crf: '" + s + "' is not a number (in '" + what + "')");
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

double round_crf(double crf) {
    return std::round(crf * 1e6) / 1e6;
}

std::string crf_text(double crf) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", round_crf(crf));
    return buf;
}

std::vector<double> parse_crf_list(const std::vector<std::string>& specs, int lo, int hi, const std::string& encoder,
                                   bool whole_only) {
    if (specs.empty()) throw std::invalid_argument("--crf: no values given");
    std::set<double> values;
    for (const std::string& spec : specs) {
        const auto parts = split(spec, ':');
        if (parts.size() == 1) {
            values.insert(round_crf(parse_number(parts[0], spec)));
        } else if (parts.size() == 2 || parts.size() == 3) {
            const double first = parse_number(parts[0], spec), last = parse_number(parts[1], spec);
            const double step = parts.size() == 3 ? parse_number(parts[2], spec) : 1;
            if (!(step > 0)) throw std::invalid_argument("--crf: step must be positive in '" + spec + "'");
            if (last < first) throw std::invalid_argument("--crf: empty range '" + spec + "' (last < first)");
            if ((last - first) / step > 10000) throw std::invalid_argument("--crf: too many values in '" + spec + "'");
            for (long k = 0; first + static_cast<double>(k) * step <= last + 1e-9; ++k)
                values.insert(round_crf(first + static_cast<double>(k) * step));
        } else {
            throw std::invalid_argument("--crf: expected N or FIRST:LAST[:STEP], got '" + spec + "'");
        }
    }
    for (double v : values) {
        if (v < lo || v > hi)
            throw std::invalid_argument("--crf " + crf_text(v) + " is outside " +
                                        (encoder.empty() ? "the range" : encoder + "'s range") + " [" +
                                        std::to_string(lo) + ", " + std::to_string(hi) + "]");
        if (whole_only && v != std::floor(v))
            throw std::invalid_argument("--crf " + crf_text(v) + ": " + (encoder.empty() ? "this encoder" : encoder) +
                                        " takes whole CRFs only (fractional ones: libx264, libx265, NVENC)");
    }
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
                            const std::vector<std::string>& presets, const std::vector<double>& crfs) {
    std::vector<Cell> cells;
    for (std::size_t s = 0; s < sources; ++s)
        for (const std::string& e : encoders)
            for (const std::string& p : presets)
                for (double q : crfs) cells.push_back({s, e, p, q});
    return cells;
}

}  // namespace vmaf::tune
