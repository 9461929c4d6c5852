#include "tune/recommend.hpp"

#include <cmath>
#include <map>
#include <set>
#include <stdexcept>

#include "tune/cached_search.hpp"
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
    return row_number(r, opt.target_vmaf ? key : "bitrate_kbps");
}

/// What makes rows comparable along one CRF axis: the same source, frames,
/// model, extra arguments and encode size.
std::string setup_of(const Row& r) {
    nlohmann::ordered_json id;
    for (const char* k : {"src", "clip_mode", "vmaf_model", "extra_params", "encode_width", "encode_height"})
        id[k] = r.contains(k) ? r[k] : nullptr;
    return id.dump();
}

Recommendation from_rows(const std::vector<Row>& rows, const RecommendOptions& opt, const std::string& key) {
    Recommendation rec;
    const Row* best = nullptr;
    double best_gap = INFINITY;
    std::set<std::string> setups;
    for (const Row& r : rows) {
        if (r.value("exit_status", -1) != 0 || !r[key].is_number()) continue;
        const std::string& enc = opt.corpus.encoders.empty() ? std::string() : opt.corpus.encoders.front();
        if (!enc.empty() && r["encoder"] != enc) continue;
        if (!opt.corpus.presets.empty() && r["preset"] != opt.corpus.presets.front()) continue;
        if (!opt.corpus.sources.empty() && r.value("src", std::string()) != opt.corpus.sources.front().path) continue;
        setups.insert(setup_of(r));
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
    // Rows of several sources (or samples, models, sizes) are no one curve: the answer would mix them.
    if (setups.size() > 1)
        throw std::invalid_argument(opt.from_corpus + ": the matching rows come from " + std::to_string(setups.size()) +
                                    " different setups (source, clip_mode, model, extra arguments or size); give "
                                    "--source, --encoder and --preset to pick one, or answer from a file of one");
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

    CellSearch search;
    search.sweep = &sweep;
    search.job = [&](int crf) { return sweep.make_job(0, Cell{0, adapter->name, preset, crf}); };
    search.value = [&](const Row& r) { return value_of(r, opt, key); };
    search.lo = lo;
    search.hi = hi;
    const CellSearchResult s = opt.target_vmaf ? cached_search(search, Goal::AtLeast, *opt.target_vmaf)
                                               : cached_search(search, Goal::Closest, *opt.target_bitrate);
    Recommendation rec;
    rec.met = s.met();
    rec.row = s.row();
    rec.encodes = s.encodes;
    rec.known = s.known;
    return rec;
}

}  // namespace vmaf::tune
