#include "tune/compare.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <stdexcept>

namespace vmaf::tune {

namespace {

std::string fmt(double v, const char* f) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

}  // namespace

Comparison compare_rows(const std::vector<Row>& rows, const std::vector<std::pair<std::string, std::string>>& curves,
                        const std::vector<double>& targets, double min_overlap) {
    Comparison c;
    c.targets = targets;
    std::map<std::pair<std::string, std::string>, std::vector<RdPoint>> pts;
    std::vector<std::pair<std::string, std::string>> order;
    for (const auto& key : curves)
        for (const Row& r : rows) {
            if (r.value("encoder", std::string()) != key.first || r.value("preset", std::string()) != key.second ||
                r.value("exit_status", -1) != 0 || !r["vmaf_score"].is_number())
                continue;
            if (!pts.count(key)) order.push_back(key);
            pts[key].push_back({r["bitrate_kbps"].get<double>(), r["vmaf_score"].get<double>()});
        }
    for (const auto& key : order) {
        EncoderCurve curve;
        curve.encoder = key.first;
        curve.preset = key.second;
        auto p = pts[key];
        std::sort(p.begin(), p.end(), [](const RdPoint& a, const RdPoint& b) { return a.rate < b.rate; });
        for (const RdPoint& q : p)
            if (curve.points.empty() || (q.rate > curve.points.back().rate && q.quality > curve.points.back().quality))
                curve.points.push_back(q);
        for (double t : targets) {
            std::optional<double> k;
            try {
                k = rate_at_quality(curve.points, t);
            } catch (const std::invalid_argument&) {
            }
            curve.kbps_at.push_back(k);
        }
        c.curves.push_back(std::move(curve));
    }
    if (c.curves.empty()) throw std::invalid_argument("no successful cells to compare");
    const std::vector<RdPoint>& anchor = c.curves[0].points;
    for (std::size_t i = 1; i < c.curves.size(); ++i) {
        const std::vector<RdPoint>& p = c.curves[i].points;
        if (!anchor.empty() && !p.empty())
            c.curves[i].overlap_vmaf = std::max(0.0, std::min(anchor.back().quality, p.back().quality) -
                                                         std::max(anchor.front().quality, p.front().quality));
        if (c.curves[i].overlap_vmaf < min_overlap) {
            c.curves[i].bd_note = "the curves share " + fmt(c.curves[i].overlap_vmaf, "%.2f") +
                                  " VMAF points, fewer than " + fmt(min_overlap, "%g") +
                                  ": widen the CRF ranges so that the curves cover the same qualities "
                                  "(per encoder: ENCODER:PRESET:FIRST-LAST)";
            continue;
        }
        try {
            c.curves[i].bd_rate = bd_rate(c.curves[0].points, c.curves[i].points);
            c.curves[i].bd_vmaf = bd_quality(c.curves[0].points, c.curves[i].points);
        } catch (const std::invalid_argument& e) {
            c.curves[i].bd_note = e.what();
        }
    }
    return c;
}

std::string render_comparison(const Comparison& c, const std::string& format) {
    const EncoderCurve& anchor = c.curves.front();
    const std::string vs = anchor.encoder + " " + anchor.preset;
    std::vector<std::string> head = {"encoder", "preset", "points", "BD-rate vs " + vs, "BD-VMAF vs " + vs};
    for (double t : c.targets) head.push_back("kbps at VMAF " + fmt(t, "%g"));
    std::vector<std::vector<std::string>> body;
    for (std::size_t i = 0; i < c.curves.size(); ++i) {
        const EncoderCurve& e = c.curves[i];
        std::vector<std::string> row = {e.encoder, e.preset, std::to_string(e.points.size())};
        if (i == 0) {
            row.insert(row.end(), {"anchor", "anchor"});
        } else if (e.bd_rate) {
            row.push_back(fmt(*e.bd_rate * 100, "%+.2f%%"));
            row.push_back(fmt(*e.bd_vmaf, "%+.3f"));
        } else {
            row.insert(row.end(), {"n/a: " + e.bd_note, "n/a"});
        }
        for (const auto& k : e.kbps_at) row.push_back(k ? fmt(*k, "%.1f") : "-");
        body.push_back(row);
    }
    std::string out;
    if (format == "markdown") {
        auto line = [&](const std::vector<std::string>& cells) {
            out += "|";
            for (const auto& s : cells) out += " " + s + " |";
            out += "\n";
        };
        line(head);
        out += "|";
        for (std::size_t i = 0; i < head.size(); ++i) out += i < 2 ? "---|" : "---:|";
        out += "\n";
        for (const auto& r : body) line(r);
    } else if (format == "csv") {
        auto line = [&](const std::vector<std::string>& cells) {
            for (std::size_t i = 0; i < cells.size(); ++i) {
                std::string s = cells[i];
                if (s.find_first_of(",\"") != std::string::npos) {
                    std::string q = "\"";
                    for (char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
                    s = q + "\"";
                }
                out += (i ? "," : "") + s;
            }
            out += "\n";
        };
        line(head);
        for (const auto& r : body) line(r);
    } else if (format == "html") {
        auto esc = [](const std::string& t) {
            std::string o;
            for (char ch : t) o += ch == '<' ? "&lt;" : ch == '>' ? "&gt;" : ch == '&' ? "&amp;" : std::string(1, ch);
            return o;
        };
        out = "<table class=\"bd\"><thead><tr>";
        for (const auto& h : head) out += "<th>" + esc(h) + "</th>";
        out += "</tr></thead><tbody>\n";
        for (const auto& r : body) {
            out += "<tr>";
            for (const auto& cell : r) out += "<td>" + esc(cell) + "</td>";
            out += "</tr>\n";
        }
        out += "</tbody></table>\n";
    } else if (format == "json") {
        nlohmann::ordered_json j;
        j["anchor"] = {{"encoder", anchor.encoder}, {"preset", anchor.preset}};
        j["targets_vmaf"] = c.targets;
        j["encoders"] = nlohmann::ordered_json::array();
        for (const EncoderCurve& e : c.curves) {
            nlohmann::ordered_json x;
            x["encoder"] = e.encoder;
            x["preset"] = e.preset;
            x["curve"] = nlohmann::ordered_json::array();
            for (const RdPoint& p : e.points) x["curve"].push_back({{"kbps", p.rate}, {"vmaf", p.quality}});
            x["bd_rate"] = e.bd_rate ? nlohmann::ordered_json(*e.bd_rate) : nlohmann::ordered_json(nullptr);
            x["bd_vmaf"] = e.bd_vmaf ? nlohmann::ordered_json(*e.bd_vmaf) : nlohmann::ordered_json(nullptr);
            if (!e.bd_note.empty()) x["bd_note"] = e.bd_note;
            x["kbps_at_target"] = nlohmann::ordered_json::array();
            for (const auto& k : e.kbps_at) x["kbps_at_target"].push_back(k ? nlohmann::ordered_json(*k) : nullptr);
            j["encoders"].push_back(x);
        }
        out = j.dump(2) + "\n";
    } else {
        throw std::invalid_argument("--format '" + format + "': expected markdown, json, csv or html");
    }
    return out;
}

}  // namespace vmaf::tune
