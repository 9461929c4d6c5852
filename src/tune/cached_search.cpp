#include "tune/cached_search.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace vmaf::tune {

double CellSearchResult::crf_at(int k) const {
    return round_crf(lo + k * step);
}

CellSearchResult cached_search(const CellSearch& s, Goal goal, double target) {
    if (!(s.step > 0)) throw std::invalid_argument("--crf-step must be positive");
    if (s.lo > s.hi) throw std::invalid_argument("empty CRF range: --crf-min above --crf-max");
    CellSearchResult out;
    out.lo = s.lo;
    out.step = s.step;
    const int last = static_cast<int>(std::floor((s.hi - s.lo) / s.step + 1e-9));
    // AtMost searches the negated values: the highest CRF whose -value reaches -target.
    const double sign = goal == Goal::AtMost ? -1 : 1;
    auto value = [&](const Row& r) { return sign * s.value(r); };
    std::map<int, double> known;
    const std::vector<Row> rows = s.sweep->existing();
    for (const Row& r : rows) {
        if (r.value("exit_status", -1) != 0 || !r["crf"].is_number()) continue;
        const double crf = r["crf"].get<double>();
        const long k = std::lround((crf - s.lo) / s.step);
        if (k < 0 || k > last || out.crf_at(static_cast<int>(k)) != round_crf(crf)) continue;
        if (cell_identity(r) != cell_identity(s.job(crf).row)) continue;
        const double v = value(r);
        if (!std::isfinite(v)) continue;
        known[static_cast<int>(k)] = v;
        out.rows[static_cast<int>(k)] = r;
    }
    out.known = static_cast<unsigned>(known.size());
    const Probe probe = [&](int k) {
        const double crf = out.crf_at(k);
        const Row r = s.sweep->run(s.job(crf));
        if (r["exit_status"] != 0)
            throw std::runtime_error((s.what.empty() ? "" : s.what + ": ") + "the encode at CRF " + crf_text(crf) +
                                     " failed: " + r["error"].get<std::string>());
        if (r["cache_hit"] != true) ++out.encodes;
        out.rows[k] = r;
        const double v = value(r);
        const double secs = (row_number(r, "encode_time_ms") + row_number(r, "score_time_ms")) / 1000;
        std::fprintf(stderr, "vmaf-tune: %sprobe CRF %s: %s %.4g, %.1f kbps, %.1f s%s\n",
                     s.what.empty() ? "" : (s.what + ": ").c_str(), crf_text(crf).c_str(),
                     s.label.empty() ? "value" : s.label.c_str(), sign * v, row_number(r, "bitrate_kbps"),
                     std::isfinite(secs) ? secs : 0.0, r["cache_hit"] == true ? " (cached)" : "");
        if (s.on_probe) s.on_probe(r);
        if (!std::isfinite(v))
            throw std::runtime_error((s.what.empty() ? "" : s.what + ": ") + "the cell at CRF " + crf_text(crf) +
                                     " has no value to search on");
        return v;
    };
    out.search = goal == Goal::Closest ? search_bitrate(probe, 0, last, target, known)
                                       : search_quality(probe, 0, last, sign * target, known);
    if (goal == Goal::AtMost) {
        out.search.best_value = -out.search.best_value;
        for (auto& [k, v] : out.search.values) v = -v;
    }
    return out;
}

}  // namespace vmaf::tune
