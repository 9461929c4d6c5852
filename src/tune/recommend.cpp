#include "tune/recommend.hpp"

#include <cmath>
#include <map>
#include <stdexcept>

#include "tune/search.hpp"
#include "tune/sweep.hpp"

namespace vmaf::tune {

std::string pool_key(const std::string& pool) {
    if (pool == "mean") return "vmaf_mean";
    if (pool == "harmonic") return "vmaf_harmonic_mean";
    if (pool == "p1") return "vmaf_p1";
    if (pool == "p5") return "vmaf_p5";
    if (pool == "min") return "vmaf_min";
    throw std::invalid_argument("--pool '" + pool + "': expected mean, harmonic, p1, p5 or min");
}

namespace {

void check_targets(const RecommendOptions& opt) {
    if (opt.target_vmaf.has_value() == opt.target_bitrate.has_value())
        throw std::invalid_argument("give exactly one of --target-vmaf and --target-bitrate");
    if (opt.target_vmaf && !(*opt.target_vmaf >= 0 && *opt.target_vmaf <= 100))
        throw std::invalid_argument("--target-vmaf must be within [0, 100]");
    if (opt.target_bitrate && !(*opt.target_bitrate > 0))
        throw std::invalid_argument("--target-bitrate must be positive (kbps)");
}

/// The value a search compares for a successful row.
double value_of(const Row& r, const RecommendOptions& opt, const std::string& key) {
    return opt.target_vmaf ? r[key].get<double>() : r["bitrate_kbps"].get<double>();
}

Recommendation from_rows(const std::vector<Row>& rows, const RecommendOptions& opt, const std::string& key) {
    Recommendation rec;
    const Row* best = nullptr;
    double best_gap = INFINITY;
    for (const Row& r : rows) {
        if (r.value("exit_status", -1) != 0 || !r[key].is_number()) continue;
        const std::string& enc = opt.corpus.encoders.empty() ? std::string() : opt.corpus.encoders.front();
        if (!enc.empty() && r["encoder"] != enc) continue;
        if (!opt.corpus.presets.empty() && r["preset"] != opt.corpus.presets.front()) continue;
        ++rec.known;
        const double v = value_of(r, opt, key);
        if (opt.target_vmaf) {
            const bool meets = v >= *opt.target_vmaf;
            // Met: the highest CRF that meets; not met: the closest below the target.
            const double gap = meets ? -r["crf"].get<double>() : 1000 + (*opt.target_vmaf - v);
            if (gap < best_gap) {
                best_gap = gap;
                best = &r;
                rec.met = meets;
            }
        } else {
            const double gap = std::fabs(std::log(v / *opt.target_bitrate));
            if (gap < best_gap) {
                best_gap = gap;
                best = &r;
                rec.met = true;
            }
        }
    }
    if (!best) throw std::invalid_argument("no successful rows to answer from");
    rec.row = *best;
    return rec;
}

}  // namespace

Recommendation recommend(const RecommendOptions& opt) {
    check_targets(opt);
    const std::string key = pool_key(opt.pool);
    if (!opt.from_corpus.empty()) return from_rows(read_rows(opt.from_corpus), opt, key);

    if (opt.corpus.sources.size() != 1) throw std::invalid_argument("recommend takes exactly one --source");
    if (opt.corpus.encoders.size() > 1) throw std::invalid_argument("recommend takes one --encoder");
    const EncoderAdapter* adapter = find_encoder(opt.corpus.encoders.empty() ? "libx264" : opt.corpus.encoders.front());
    if (!adapter) throw std::invalid_argument("unknown --encoder '" + opt.corpus.encoders.front() + "'");
    const int lo = opt.crf_min >= 0 ? opt.crf_min : adapter->crf_min;
    const int hi = opt.crf_max >= 0 ? opt.crf_max : adapter->crf_max;
    if (lo > hi) throw std::invalid_argument("empty CRF range: --crf-min above --crf-max");
    CorpusOptions co = opt.corpus;
    co.crf_specs = {std::to_string(lo) + ":" + std::to_string(hi)};
    if (co.presets.size() > 1) throw std::invalid_argument("recommend takes one --preset");
    Sweep sweep(co);
    const std::string preset = co.presets.empty() ? adapter->default_preset : co.presets.front();

    // Cells already measured (this output file, or the cache through the sweep) seed the search.
    std::map<int, double> known;
    std::map<int, Row> rows;
    auto job_for = [&](int crf) { return sweep.make_job(0, Cell{0, adapter->name, preset, crf}); };
    for (const Row& r : sweep.existing()) {
        if (r.value("exit_status", -1) != 0 || !r[key].is_number()) continue;
        const int crf = r["crf"].get<int>();
        if (crf < lo || crf > hi || cell_identity(r) != cell_identity(job_for(crf).row)) continue;
        known[crf] = value_of(r, opt, key);
        rows[crf] = r;
    }
    Recommendation rec;
    rec.known = static_cast<unsigned>(known.size());
    const Probe probe = [&](int crf) {
        const Row r = sweep.run(job_for(crf));
        if (r["exit_status"] != 0)
            throw std::runtime_error("the encode at CRF " + std::to_string(crf) +
                                     " failed: " + r["error"].get<std::string>());
        if (r["cache_hit"] != true) ++rec.encodes;
        rows[crf] = r;
        return value_of(r, opt, key);
    };
    const SearchResult s = opt.target_vmaf ? search_quality(probe, lo, hi, *opt.target_vmaf, known)
                                           : search_bitrate(probe, lo, hi, *opt.target_bitrate, known);
    rec.met = s.crf.has_value();
    rec.row = rows.at(s.crf ? *s.crf : s.best_crf);
    return rec;
}

}  // namespace vmaf::tune
