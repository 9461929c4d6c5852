#include "tune/ladder.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <set>
#include <stdexcept>

#include "tune/atomic_file.hpp"
#include "tune/encoders.hpp"
#include "tune/lists.hpp"
#include "tune/report.hpp"
#include "tune/source.hpp"

namespace fs = std::filesystem;

namespace vmaf::tune {

namespace {

bool parse_dim(const std::string& s, unsigned& v) {
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return !s.empty() && ec == std::errc() && end == s.data() + s.size() && v > 0;
}

std::string xml_escape(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '<')
            out += "&lt;";
        else if (c == '>')
            out += "&gt;";
        else if (c == '&')
            out += "&amp;";
        else if (c == '"')
            out += "&quot;";
        else
            out += c;
    }
    return out;
}

std::string fmt(const char* f, double v) {
    char b[64];
    std::snprintf(b, sizeof b, f, v);
    return b;
}

}  // namespace

std::string dash_frame_rate(double fps) {
    for (long den : {1L, 1001L, 1000L, 100L}) {
        const long num = std::lround(fps * static_cast<double>(den));
        if (num > 0 && std::fabs(static_cast<double>(num) / static_cast<double>(den) - fps) < 1e-6) {
            const long g = std::gcd(num, den);
            return den == g ? std::to_string(num / g) : std::to_string(num / g) + "/" + std::to_string(den / g);
        }
    }
    const long num = std::lround(fps * 1000), g = std::gcd(num, 1000L);
    return std::to_string(num / g) + "/" + std::to_string(1000 / g);
}

std::vector<std::pair<unsigned, unsigned>> parse_resolutions(const std::string& text, unsigned src_w, unsigned src_h,
                                                             bool even_w, bool even_h) {
    std::vector<std::pair<unsigned, unsigned>> out;
    for (const std::string& item : split_list(text)) {
        const auto x = item.find('x');
        unsigned w = 0, h = 0;
        if (x == std::string::npos || !parse_dim(item.substr(0, x), w) || !parse_dim(item.substr(x + 1), h))
            throw std::invalid_argument("--resolutions: '" + item + "' is not WIDTHxHEIGHT (e.g. 1280x720)");
        if (w > src_w || h > src_h)
            throw std::invalid_argument("--resolutions: " + item + " is larger than the source's " +
                                        std::to_string(src_w) + "x" + std::to_string(src_h));
        if ((even_w && w % 2) || (even_h && h % 2))
            throw std::invalid_argument("--resolutions: " + item +
                                        ": the source's chroma is subsampled, so the size must be even");
        if (std::find(out.begin(), out.end(), std::make_pair(w, h)) == out.end()) out.emplace_back(w, h);
    }
    if (out.empty()) throw std::invalid_argument("--resolutions is empty: give sizes like 1280x720,640x360");
    return out;
}

std::vector<std::size_t> ladder_hull(const std::vector<LadderPoint>& points) {
    std::vector<std::pair<double, double>> xy;
    for (const LadderPoint& p : points) xy.emplace_back(p.kbps, p.vmaf);
    return upper_hull_indices(xy);
}

std::vector<std::size_t> rungs_by_count(const std::vector<LadderPoint>& points, const std::vector<std::size_t>& hull,
                                        unsigned n) {
    if (n == 0) throw std::invalid_argument("--rungs must be at least 1");
    if (hull.size() <= n) return hull;
    std::vector<bool> taken(hull.size(), false);
    taken.back() = true;  // the best point is always a rung
    if (n >= 2) taken.front() = true;
    const double lo = std::log(points[hull.front()].kbps), hi = std::log(points[hull.back()].kbps);
    for (unsigned k = 1; k + 1 < n; ++k) {
        const double want = lo + (hi - lo) * k / (n - 1);
        std::size_t best = hull.size();
        for (std::size_t i = 0; i < hull.size(); ++i) {
            if (taken[i]) continue;
            if (best == hull.size() ||
                std::fabs(std::log(points[hull[i]].kbps) - want) < std::fabs(std::log(points[hull[best]].kbps) - want))
                best = i;
        }
        taken[best] = true;
    }
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < hull.size(); ++i)
        if (taken[i]) out.push_back(hull[i]);
    return out;
}

std::vector<TargetRung> rungs_by_targets(const std::vector<LadderPoint>& points, const std::vector<std::size_t>& hull,
                                         const std::vector<double>& targets) {
    if (hull.empty()) throw std::invalid_argument("no successful encodes to build a ladder from");
    std::vector<TargetRung> out;
    for (double t : targets) {
        TargetRung r{t, hull.back(), false};
        for (std::size_t i : hull)  // by rising bitrate: the first that reaches t is the cheapest
            if (points[i].vmaf >= t) {
                r.point = i;
                r.met = true;
                break;
            }
        out.push_back(r);
    }
    return out;
}

std::string hls_master(const std::vector<Rung>& rungs, double fps) {
    std::string m = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-INDEPENDENT-SEGMENTS\n";
    for (const Rung& r : rungs) {
        const long bw = std::lround(std::ceil(r.kbps * 1000));
        m += "#EXT-X-STREAM-INF:BANDWIDTH=" + std::to_string(bw) + ",AVERAGE-BANDWIDTH=" + std::to_string(bw) +
             ",RESOLUTION=" + std::to_string(r.width) + "x" + std::to_string(r.height) +
             ",FRAME-RATE=" + fmt("%.3f", fps) + (r.codecs.empty() ? "" : ",CODECS=\"" + r.codecs + "\"") + "\n" +
             r.uri + "\n";
    }
    return m;
}

std::string dash_mpd(const std::vector<Rung>& rungs, double fps, double duration_s, const std::string& mime_type) {
    unsigned max_w = 0, max_h = 0;
    for (const Rung& r : rungs) {
        max_w = std::max(max_w, r.width);
        max_h = std::max(max_h, r.height);
    }
    std::string m =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<MPD xmlns=\"urn:mpeg:dash:schema:mpd:2011\" type=\"static\" "
        "profiles=\"urn:mpeg:dash:profile:isoff-on-demand:2011\" minBufferTime=\"PT2S\" "
        "mediaPresentationDuration=\"" +
        fmt("PT%.3fS", duration_s) + "\">\n  <Period id=\"0\" start=\"PT0S\">\n" +
        "    <AdaptationSet id=\"0\" contentType=\"video\" mimeType=\"" + xml_escape(mime_type) +
        "\" segmentAlignment=\"true\" startWithSAP=\"1\" maxWidth=\"" + std::to_string(max_w) + "\" maxHeight=\"" +
        std::to_string(max_h) + "\" frameRate=\"" + dash_frame_rate(fps) + "\">\n";
    for (const Rung& r : rungs) {
        m += "      <Representation id=\"" + xml_escape(r.id) + "\" bandwidth=\"" +
             std::to_string(std::lround(std::ceil(r.kbps * 1000))) + "\" width=\"" + std::to_string(r.width) +
             "\" height=\"" + std::to_string(r.height) + "\"" +
             (r.codecs.empty() ? "" : " codecs=\"" + xml_escape(r.codecs) + "\"") + ">\n        <BaseURL>" +
             xml_escape(r.uri) + "</BaseURL>\n      </Representation>\n";
    }
    return m + "    </AdaptationSet>\n  </Period>\n</MPD>\n";
}

int run_ladder(const LadderOptions& opt) {
    if (opt.corpus.sources.size() != 1) throw std::invalid_argument("ladder takes exactly one --source");
    if (opt.corpus.encoders.size() > 1) throw std::invalid_argument("ladder takes one --encoder");
    if (opt.corpus.presets.size() > 1) throw std::invalid_argument("ladder takes one --preset");
    if (opt.corpus.crf_specs.empty()) throw std::invalid_argument("ladder needs --crf (e.g. --crf 22:38:4)");
    if (opt.rungs && !opt.target_vmafs.empty()) throw std::invalid_argument("give --rungs or --target-vmafs, not both");
    for (double t : opt.target_vmafs)
        if (!(t >= 0 && t <= 100)) throw std::invalid_argument("--target-vmafs must be within [0, 100]");
    const VideoGeometry g = open_source(opt.corpus.sources[0])->geometry();
    const ChromaShift cs = chroma_shift(g.format);
    const auto sizes = parse_resolutions(opt.resolutions, g.width, g.height, cs.x > 0, cs.y > 0);
    const unsigned n_rungs = opt.rungs ? opt.rungs : static_cast<unsigned>(sizes.size());
    {
        // The filter name is checked before anything is encoded.
        static const std::set<std::string> kFilters = {"fast_bilinear", "bilinear", "bicubic", "neighbor", "area",
                                                       "bicublin",      "gauss",    "sinc",    "lanczos",  "spline"};
        if (!kFilters.count(opt.scale_filter))
            throw std::invalid_argument("--scale-filter '" + opt.scale_filter +
                                        "': expected bicubic, lanczos, bilinear, spline, area, neighbor, gauss, "
                                        "sinc, bicublin or fast_bilinear");
    }
    CorpusOptions co = opt.corpus;
    for (const auto& [w, h] : sizes) {
        EncodeShape s;
        s.width = w;
        s.height = h;
        s.scale_filter = opt.scale_filter;
        co.shapes.push_back(s);
    }
    std::vector<Row> grid_rows;
    const int rc = run_corpus(co, &grid_rows);
    if (rc == 130) return rc;

    // The sweep's own cells: every size at every CRF.
    std::vector<Row> rows;
    std::vector<LadderPoint> points;
    for (const Row& r : grid_rows) {
        if (r.value("exit_status", -1) != 0) continue;
        const bool scaled = r.contains("encode_width");
        const unsigned w = scaled ? r["encode_width"].get<unsigned>() : r["width"].get<unsigned>();
        const unsigned h = scaled ? r["encode_height"].get<unsigned>() : r["height"].get<unsigned>();
        points.push_back(
            LadderPoint{w, h, r["crf"].get<double>(), r["bitrate_kbps"].get<double>(), r["vmaf_score"].get<double>()});
        rows.push_back(r);
    }
    if (points.empty()) throw std::runtime_error("no successful encodes to build a ladder from");
    const EncoderAdapter* adapter = find_encoder(co.encoders.empty() ? "libx264" : co.encoders.front());
    const std::string preset = co.presets.empty() ? adapter->default_preset : co.presets.front();
    nlohmann::ordered_json crfs = nlohmann::ordered_json::array();
    for (double c :
         parse_crf_list(co.crf_specs, adapter->crf_min, adapter->crf_max, adapter->name, !adapter->fractional_crf))
        crfs.push_back(crf_value(c));
    const std::vector<std::size_t> hull = ladder_hull(points);
    std::vector<std::size_t> chosen;
    std::vector<TargetRung> by_target;
    bool all_met = true;
    if (opt.target_vmafs.empty()) {
        chosen = rungs_by_count(points, hull, n_rungs);
    } else {
        by_target = rungs_by_targets(points, hull, opt.target_vmafs);
        for (const TargetRung& t : by_target) {
            all_met &= t.met;
            if (std::find(chosen.begin(), chosen.end(), t.point) == chosen.end()) chosen.push_back(t.point);
            if (!t.met)
                std::fprintf(stderr, "vmaf-tune: no encode reaches VMAF %g; the best (%.3f) stands in\n", t.target,
                             points[t.point].vmaf);
        }
        std::sort(chosen.begin(), chosen.end(),
                  [&](std::size_t a, std::size_t b) { return points[a].kbps < points[b].kbps; });
    }

    const SourceFacts facts = [&] {
        SourceFacts f;
        const Row& r = rows.front();
        f.fps = r["framerate"].get<double>();
        f.duration_s = r["duration_s"].get<double>();
        f.width = r["width"].get<unsigned>();
        f.height = r["height"].get<unsigned>();
        return f;
    }();
    const fs::path dir = opt.ladder_dir;
    fs::create_directories(dir);
    std::vector<Rung> rungs;
    nlohmann::ordered_json jr = nlohmann::ordered_json::array();
    bool codecs_missing = false;
    for (std::size_t i : chosen) {
        const LadderPoint& p = points[i];
        Rung r;
        r.id = std::to_string(p.width) + "x" + std::to_string(p.height) + "_crf" + crf_text(p.crf);
        r.width = p.width;
        r.height = p.height;
        r.kbps = p.kbps;
        r.codecs = rows[i]["codecs"].is_string() ? rows[i]["codecs"].get<std::string>() : std::string();
        codecs_missing |= r.codecs.empty();
        r.uri = "rung_" + r.id + "/index.m3u8";
        rungs.push_back(r);
        nlohmann::ordered_json targets = nlohmann::ordered_json::array();
        for (const TargetRung& t : by_target)
            if (t.point == i) targets.push_back({{"target_vmaf", t.target}, {"met", t.met}});
        jr.push_back({{"id", r.id},
                      {"width", p.width},
                      {"height", p.height},
                      {"crf", crf_value(p.crf)},
                      {"bitrate_kbps", p.kbps},
                      {"vmaf", p.vmaf},
                      {"codecs", r.codecs.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(r.codecs)},
                      {"targets", targets},
                      {"encode_command", rows[i]["encode_command"]}});
    }
    if (codecs_missing)
        std::fprintf(stderr,
                     "vmaf-tune: some rungs have no codecs string (rows from an older cache?): "
                     "CODECS is left out for them\n");
    nlohmann::ordered_json jpoints = nlohmann::ordered_json::array(), jhull = nlohmann::ordered_json::array();
    for (const LadderPoint& p : points)
        jpoints.push_back({{"width", p.width},
                           {"height", p.height},
                           {"crf", crf_value(p.crf)},
                           {"bitrate_kbps", p.kbps},
                           {"vmaf", p.vmaf}});
    for (std::size_t i : hull) jhull.push_back(i);
    nlohmann::ordered_json sizes_json = nlohmann::ordered_json::array();
    for (const auto& [w, h] : sizes) sizes_json.push_back(std::to_string(w) + "x" + std::to_string(h));
    const nlohmann::ordered_json ladder = {
        {"source", co.sources[0].path},
        {"width", facts.width},
        {"height", facts.height},
        {"framerate", facts.fps},
        {"duration_s", facts.duration_s},
        {"encoder", adapter->name},
        {"preset", preset},
        {"scale_filter", opt.scale_filter},
        {"scored_at", std::to_string(facts.width) + "x" + std::to_string(facts.height)},
        {"resolutions", sizes_json},
        {"crfs", crfs},
        {"rule", opt.target_vmafs.empty() ? "rungs" : "target_vmafs"},
        {"rungs_requested",
         opt.target_vmafs.empty() ? nlohmann::ordered_json(n_rungs) : nlohmann::ordered_json(nullptr)},
        {"target_vmafs", opt.target_vmafs},
        {"points", jpoints},
        {"hull", jhull},
        {"rungs", jr},
        {"hls", (dir / "master.m3u8").string()},
        {"dash", (dir / "manifest.mpd").string()}};
    const std::string mime = adapter->extension == "webm"  ? "video/webm"
                             : adapter->extension == "mkv" ? "video/x-matroska"
                                                           : "video/mp4";
    std::vector<Rung> dash_rungs = rungs;
    for (Rung& r : dash_rungs) r.uri = "rung_" + r.id + "." + adapter->extension;
    write_file_atomic(dir / "ladder.json", ladder.dump(2) + "\n");
    write_file_atomic(dir / "master.m3u8", hls_master(rungs, facts.fps));
    write_file_atomic(dir / "manifest.mpd", dash_mpd(dash_rungs, facts.fps, facts.duration_s, mime));
    std::vector<std::size_t> rung_rows(chosen.begin(), chosen.end());
    write_file_atomic(dir / "report.html",
                      render_report(rows, "vmaf-tune ladder: " + co.sources[0].path, rung_rows, opt.target_vmafs));
    for (const Rung& r : rungs)
        std::printf("%s: %.1f kbps, VMAF %.3f%s\n", r.id.c_str(), r.kbps,
                    points[chosen[static_cast<std::size_t>(&r - rungs.data())]].vmaf,
                    r.codecs.empty() ? "" : (", " + r.codecs).c_str());
    std::fprintf(stderr, "vmaf-tune: %zu points, %zu on the hull, %zu rungs; ladder written to %s\n", points.size(),
                 hull.size(), rungs.size(), dir.c_str());
    return rc != 0 ? rc : all_met ? 0 : 1;
}

}  // namespace vmaf::tune
