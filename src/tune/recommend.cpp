#include "tune/recommend.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <set>
#include <stdexcept>

#include "tune/cached_search.hpp"
#include "tune/metrics.hpp"
#include "tune/sweep.hpp"

namespace fs = std::filesystem;

namespace vmaf::tune {

namespace {

void check_targets(const RecommendOptions& opt, const TargetMetric& m) {
    if (opt.target.has_value() == opt.target_bitrate.has_value())
        throw std::invalid_argument("give exactly one of --target (or --target-vmaf) and --target-bitrate");
    if (opt.target && !(*opt.target >= m.lo && *opt.target <= m.hi)) {
        const bool vmaf = std::string(m.name) == "vmaf";
        char range[96];
        std::snprintf(range, sizeof range, "[%g, %g]", m.lo, m.hi);
        throw std::invalid_argument(std::string(vmaf ? "--target-vmaf" : "--target") + " must be within " + range +
                                    (vmaf ? "" : std::string(" for ") + m.name));
    }
    if (opt.target_bitrate && !(*opt.target_bitrate > 0))
        throw std::invalid_argument("--target-bitrate must be positive (kbps)");
}

/// What makes rows comparable along one CRF axis: the same source, frames,
/// model, extra arguments and encode size.
std::string setup_of(const Row& r) {
    nlohmann::ordered_json id;
    for (const char* k : {"src", "clip_mode", "vmaf_model", "extra_params", "encode_width", "encode_height"})
        id[k] = r.contains(k) ? r[k] : nullptr;
    return id.dump();
}

Recommendation from_rows(const std::vector<Row>& rows, const RecommendOptions& opt,
                         const std::function<double(const Row&)>& value, const TargetMetric& m) {
    Recommendation rec;
    const Row* best = nullptr;
    double best_gap = INFINITY;
    std::set<std::string> setups;
    const std::string& enc = opt.corpus.encoders.empty() ? std::string() : opt.corpus.encoders.front();
    for (const Row& r : rows) {
        if (r.value("exit_status", -1) != 0 || !r["crf"].is_number()) continue;
        if (!enc.empty() && r["encoder"] != enc) continue;
        if (!opt.corpus.presets.empty() && r["preset"] != opt.corpus.presets.front()) continue;
        if (!opt.corpus.sources.empty() && r.value("src", std::string()) != opt.corpus.sources.front().path) continue;
        const double v = value(r);
        if (!std::isfinite(v)) continue;
        setups.insert(setup_of(r));
        ++rec.known;
        const double crf = r["crf"].get<double>();
        double gap = 0;
        bool meets = true;
        if (opt.target) {
            meets = m.higher_is_better ? v >= *opt.target : v <= *opt.target;
            // Met: the highest CRF that meets; not met: the closest to the target.
            gap = meets ? -crf : 1000 + std::fabs(*opt.target - v);
        } else {
            gap = std::fabs(std::log(v / *opt.target_bitrate));
        }
        if (gap < best_gap) {
            best_gap = gap;
            best = &r;
            rec.met = meets;
            rec.value = v;
        }
    }
    if (!best)
        throw std::invalid_argument("no successful rows to answer from" +
                                    std::string(opt.target && m.name != std::string("vmaf")
                                                    ? std::string(" (rows with ") + m.name +
                                                          " come from sweeps run with --target-metric " + m.name + ")"
                                                    : ""));
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
    const TargetMetric& metric = find_metric(opt.metric);
    check_targets(opt, metric);
    check_pool(metric, opt.pool);
    const auto value = [&](const Row& r) {
        return opt.target ? pooled_value(r, metric, opt.pool) : row_number(r, "bitrate_kbps");
    };
    if (!opt.from_corpus.empty()) return from_rows(read_rows(opt.from_corpus), opt, value, metric);

    if (opt.corpus.sources.size() != 1) throw std::invalid_argument("recommend takes exactly one --source");
    if (opt.corpus.encoders.size() > 1) throw std::invalid_argument("recommend takes one --encoder");
    const EncoderAdapter* adapter = find_encoder(opt.corpus.encoders.empty() ? "libx264" : opt.corpus.encoders.front());
    if (!adapter) throw std::invalid_argument("unknown --encoder '" + opt.corpus.encoders.front() + "'");
    const double lo = opt.crf_min >= 0 ? opt.crf_min : adapter->crf_min;
    const double hi = opt.crf_max >= 0 ? opt.crf_max : adapter->crf_max;
    if (lo > hi) throw std::invalid_argument("empty CRF range: --crf-min above --crf-max");
    if (!(opt.crf_step > 0)) throw std::invalid_argument("--crf-step must be positive");
    CorpusOptions co = opt.corpus;
    // The range and step are checked as a --crf list would be (encoder range, whole CRFs).
    co.crf_specs = {crf_text(lo) + ":" + crf_text(hi) + ":" + crf_text(opt.crf_step)};
    if (opt.target && std::string(metric.name) != "vmaf") co.metrics = {metric.name};
    if (co.presets.size() > 1) throw std::invalid_argument("recommend takes one --preset");
    Sweep sweep(co);
    const std::string preset = co.presets.empty() ? adapter->default_preset : co.presets.front();

    const SourceFacts& facts = sweep.facts(0);
    const double source_bytes = static_cast<double>(fs::file_size(co.sources[0].path));
    const double size_cap = opt.max_encoded_percent > 0 ? source_bytes * opt.max_encoded_percent / 100 : INFINITY;
    // A sample's bitrate stands for the whole source's.
    const auto full_bytes = [&](const Row& r) { return row_number(r, "bitrate_kbps") * 1000 / 8 * facts.duration_s; };
    const bool lower_better = opt.target && !metric.higher_is_better;
    const auto meets = [&](double v) { return lower_better ? v <= *opt.target : v >= *opt.target; };

    CellSearch search;
    search.sweep = &sweep;
    search.job = [&](double crf) { return sweep.make_job(0, Cell{0, adapter->name, preset, crf}); };
    search.value = value;
    search.lo = lo;
    search.hi = hi;
    search.step = opt.crf_step;
    search.label = opt.target ? std::string(metric.name) + " (" + opt.pool + ")" : "kbps";
    // --max-encoded-percent: a probe that misses the target while already over the size cap stops the
    // search, as every CRF that could meet the target encodes larger still.
    struct TooLarge {
        Row row;
    };
    unsigned probed = 0;  // encodes made before a stop
    if (opt.target && opt.max_encoded_percent > 0)
        search.on_probe = [&](const Row& r) {
            probed += r["cache_hit"] != true;
            if (!meets(value(r)) && full_bytes(r) > size_cap) throw TooLarge{r};
        };
    const Goal goal = !opt.target ? Goal::Closest : lower_better ? Goal::AtMost : Goal::AtLeast;
    const double target = opt.target ? *opt.target : *opt.target_bitrate;
    const std::string cap_text = "--max-encoded-percent " + crf_text(opt.max_encoded_percent) + " of the source's " +
                                 std::to_string(std::llround(source_bytes)) + " bytes";
    Recommendation rec;
    std::optional<CellSearchResult> s;
    try {
        s = cached_search(search, goal, target);
    } catch (const TooLarge& stop) {
        rec.row = stop.row;
        rec.value = value(stop.row);
        rec.why_not = "CRF " + crf_text(stop.row["crf"].get<double>()) + " misses the target and already exceeds " +
                      cap_text + "; lower CRFs only grow";
        rec.predicted_kbps = row_number(rec.row, "bitrate_kbps");
        rec.predicted_bytes = full_bytes(rec.row);
        rec.encodes = probed;
        return rec;
    }
    rec.met = s->met();
    rec.row = s->row();
    rec.value = value(rec.row);
    rec.encodes = s->encodes;
    rec.known = s->known;
    if (!rec.met) rec.why_not = "out of reach in the CRF range";

    // --verify: the whole source at the answer; if it misses there, the whole source is searched below it.
    if (opt.verify && opt.target && rec.met && rec.row["clip_mode"] != "full") {
        CellSearch full = search;
        full.on_probe = nullptr;
        full.what = "whole source";
        full.job = [&](double crf) {
            EncodeShape whole;
            whole.frames = std::make_pair(0u, facts.frames);
            return sweep.make_job(0, Cell{0, adapter->name, preset, crf}, whole);
        };
        full.lo = full.hi = s->crf();
        CellSearchResult f = cached_search(full, goal, target);
        if (!f.met() && s->crf() > lo) {
            std::fprintf(stderr, "vmaf-tune: CRF %s misses the target on the whole source; searching it below\n",
                         crf_text(s->crf()).c_str());
            full.lo = lo;
            full.hi = round_crf(s->crf() - opt.crf_step);
            f = cached_search(full, goal, target);
        }
        rec.sample_row = rec.row;
        rec.row = f.row();
        rec.value = value(rec.row);
        rec.encodes += f.encodes;
        rec.met = f.met();
        if (!rec.met) rec.why_not = "the whole source does not reach the target in the CRF range";
    }
    const Row& sampled = rec.sample_row ? *rec.sample_row : rec.row;
    rec.predicted_kbps = row_number(sampled, "bitrate_kbps");
    rec.predicted_bytes = full_bytes(sampled);
    if (rec.met && full_bytes(rec.row) > size_cap) {
        rec.met = false;
        rec.why_not =
            "its full encode (" + std::to_string(std::llround(full_bytes(rec.row))) + " bytes) exceeds " + cap_text;
    }
    return rec;
}

}  // namespace vmaf::tune
