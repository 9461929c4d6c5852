#include "tune/cached_search.hpp"

#include <cmath>
#include <stdexcept>

namespace vmaf::tune {

CellSearchResult cached_search(const CellSearch& s, Goal goal, double target) {
    CellSearchResult out;
    std::map<int, double> known;
    for (const Row& r : s.sweep->existing()) {
        if (r.value("exit_status", -1) != 0 || !r["crf"].is_number_integer()) continue;
        const int crf = r["crf"].get<int>();
        if (crf < s.lo || crf > s.hi || cell_identity(r) != cell_identity(s.job(crf).row)) continue;
        const double v = s.value(r);
        if (!std::isfinite(v)) continue;
        known[crf] = v;
        out.rows[crf] = r;
    }
    out.known = static_cast<unsigned>(known.size());
    const Probe probe = [&](int crf) {
        const Row r = s.sweep->run(s.job(crf));
        if (r["exit_status"] != 0)
            throw std::runtime_error((s.what.empty() ? "" : s.what + ": ") + "the encode at CRF " + std::to_string(crf) +
                                     " failed: " + r["error"].get<std::string>());
        if (r["cache_hit"] != true) ++out.encodes;
        out.rows[crf] = r;
        return s.value(r);
    };
    out.search = goal == Goal::AtLeast ? search_quality(probe, s.lo, s.hi, target, known)
                                       : search_bitrate(probe, s.lo, s.hi, target, known);
    return out;
}

}  // namespace vmaf::tune
