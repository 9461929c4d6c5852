#include "tune/report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>

#include "tune/grid.hpp"

namespace vmaf::tune {

namespace {

const char* const kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2"};

std::string esc(const std::string& s) {
    std::string out;
    for (char c : s) {
        switch (c) {
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '&':
                out += "&amp;";
                break;
            case '"':
                out += "&quot;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

std::string num(double v, int digits = 6) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    return buf;
}

struct Series {
    std::string label;
    std::vector<const Row*> rows;  ///< successful rows, by CRF
};

/// Axis range with a little margin; a degenerate range is widened.
std::pair<double, double> range_of(const std::vector<double>& v) {
    double lo = *std::min_element(v.begin(), v.end()), hi = *std::max_element(v.begin(), v.end());
    if (hi - lo < 1e-9) {
        lo -= 1;
        hi += 1;
    }
    const double pad = (hi - lo) * 0.05;
    return {lo - pad, hi + pad};
}

/// One SVG line chart: each series a polyline with points; `extra` draws more (hulls).
std::string chart(const std::string& title, const std::string& xlabel, const std::string& ylabel,
                  const std::vector<Series>& series, const std::function<double(const Row&)>& fx,
                  const std::function<double(const Row&)>& fy, bool hulls,
                  const std::function<std::string(const std::function<double(double)>&,
                                                  const std::function<double(double)>&)>& overlay = nullptr) {
    constexpr double W = 560, H = 340, L = 60, R = 16, T = 28, B = 46;
    std::vector<double> xs, ys;
    for (const Series& s : series)
        for (const Row* r : s.rows) {
            xs.push_back(fx(*r));
            ys.push_back(fy(*r));
        }
    std::string svg =
        "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 560 340\" width=\"560\" "
        "height=\"340\">";
    svg += "<text x=\"280\" y=\"18\" text-anchor=\"middle\" class=\"title\">" + esc(title) + "</text>";
    if (xs.empty()) return svg + "<text x=\"280\" y=\"170\" text-anchor=\"middle\">no successful cells</text></svg>";
    // Named variables, not structured bindings: clang 14 cannot capture those in lambdas.
    const auto x_range = range_of(xs), y_range = range_of(ys);
    const double x0 = x_range.first, x1 = x_range.second, y0 = y_range.first, y1 = y_range.second;
    auto px = [&](double x) { return L + (x - x0) / (x1 - x0) * (W - L - R); };
    auto py = [&](double y) { return H - B - (y - y0) / (y1 - y0) * (H - T - B); };
    svg += "<rect x=\"" + num(L) + "\" y=\"" + num(T) + "\" width=\"" + num(W - L - R) + "\" height=\"" +
           num(H - T - B) + "\" class=\"frame\"/>";
    for (int k = 0; k <= 4; ++k) {
        const double xv = x0 + (x1 - x0) * k / 4, yv = y0 + (y1 - y0) * k / 4;
        svg += "<text x=\"" + num(px(xv)) + "\" y=\"" + num(H - B + 16) + "\" text-anchor=\"middle\" class=\"tick\">" +
               num(xv, 4) + "</text>";
        svg += "<text x=\"" + num(L - 6) + "\" y=\"" + num(py(yv) + 4) + "\" text-anchor=\"end\" class=\"tick\">" +
               num(yv, 4) + "</text>";
        svg += "<line x1=\"" + num(L) + "\" x2=\"" + num(W - R) + "\" y1=\"" + num(py(yv)) + "\" y2=\"" + num(py(yv)) +
               "\" class=\"grid\"/>";
    }
    svg += "<text x=\"" + num((L + W - R) / 2) + "\" y=\"" + num(H - 8) + "\" text-anchor=\"middle\">" + esc(xlabel) +
           "</text>";
    svg += "<text transform=\"translate(14," + num((T + H - B) / 2) + ") rotate(-90)\" text-anchor=\"middle\">" +
           esc(ylabel) + "</text>";
    for (std::size_t si = 0; si < series.size(); ++si) {
        const Series& s = series[si];
        const std::string color = kColors[si % (sizeof kColors / sizeof kColors[0])];
        std::vector<std::pair<double, double>> pts;
        for (const Row* r : s.rows) pts.emplace_back(fx(*r), fy(*r));
        std::sort(pts.begin(), pts.end());
        std::string poly;
        for (const auto& [x, y] : pts) poly += num(px(x)) + "," + num(py(y)) + " ";
        svg += "<polyline fill=\"none\" stroke=\"" + color + "\" stroke-width=\"1.5\" points=\"" + poly + "\"/>";
        for (const Row* r : s.rows)
            svg += "<circle cx=\"" + num(px(fx(*r))) + "\" cy=\"" + num(py(fy(*r))) + "\" r=\"3\" fill=\"" + color +
                   "\"><title>" + esc(s.label) + " crf " + crf_text(r->value("crf", 0.0)) + ": " + num(fx(*r), 5) +
                   ", " + num(fy(*r), 5) + "</title></circle>";
        if (hulls) {
            std::string hull;
            for (const auto& [x, y] : upper_hull(pts)) hull += num(px(x)) + "," + num(py(y)) + " ";
            svg += "<polyline class=\"hull\" fill=\"none\" stroke=\"" + color + "\" points=\"" + hull + "\"/>";
        }
        svg += "<rect x=\"" + num(L + 8) + "\" y=\"" + num(T + 8 + 16 * si) + "\" width=\"10\" height=\"10\" fill=\"" +
               color + "\"/><text x=\"" + num(L + 22) + "\" y=\"" + num(T + 17 + 16 * si) + "\" class=\"legend\">" +
               esc(s.label) + "</text>";
    }
    if (overlay) svg += overlay(px, py);
    return svg + "</svg>";
}

double getd(const Row& r, const char* k) {
    return r.contains(k) && r[k].is_number() ? r[k].get<double>() : NAN;
}

}  // namespace

std::vector<std::size_t> upper_hull_indices(const std::vector<std::pair<double, double>>& pts) {
    std::vector<std::size_t> order(pts.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return pts[a] < pts[b]; });
    std::vector<std::size_t> h;
    for (std::size_t i : order) {
        const auto& p = pts[i];
        while (h.size() >= 2) {
            const auto& a = pts[h[h.size() - 2]];
            const auto& b = pts[h.back()];
            // Drop b when it lies on or below the segment a-p.
            if ((b.first - a.first) * (p.second - a.second) - (b.second - a.second) * (p.first - a.first) >= 0)
                h.pop_back();
            else
                break;
        }
        h.push_back(i);
    }
    // The frontier ends at the highest quality: later points only cost bits.
    const auto best = std::max_element(h.begin(), h.end(),
                                       [&](std::size_t a, std::size_t b) { return pts[a].second < pts[b].second; });
    if (best != h.end()) h.erase(best + 1, h.end());
    return h;
}

std::vector<std::pair<double, double>> upper_hull(std::vector<std::pair<double, double>> pts) {
    std::vector<std::pair<double, double>> h;
    for (std::size_t i : upper_hull_indices(pts)) h.push_back(pts[i]);
    return h;
}

std::string render_report(const std::vector<Row>& rows, const std::string& title,
                          const std::vector<std::size_t>& rungs) {
    std::map<std::string, Series> by_label;
    std::vector<std::string> order;
    bool many_sources = false, many_sizes = false;
    for (const Row& r : rows) {
        many_sources |= r.value("src", std::string()) != rows.front().value("src", std::string());
        many_sizes |= r.contains("encode_width");
    }
    // The encode's size: its own when scaled, else the source's.
    const auto size_of = [](const Row& r) {
        const bool scaled = r.contains("encode_width");
        return std::to_string(r.value(scaled ? "encode_width" : "width", 0)) + "x" +
               std::to_string(r.value(scaled ? "encode_height" : "height", 0));
    };
    for (const Row& r : rows) {
        std::string src = r.value("src", std::string());
        src = src.substr(src.find_last_of('/') + 1);
        const std::string label =
            r.value("encoder", std::string("?")) + " " + r.value("preset", std::string("?")) +
            (many_sizes ? " " + size_of(r) : "") + (many_sources ? " · " + src : "") +
            (r.value("clip_mode", std::string()).rfind("frames_", 0) == 0 ? " " + r["clip_mode"].get<std::string>()
                                                                          : std::string());
        if (!by_label.count(label)) {
            order.push_back(label);
            by_label[label].label = label;
        }
        if (r.value("exit_status", -1) == 0 && r["vmaf_score"].is_number() && r["bitrate_kbps"].is_number())
            by_label[label].rows.push_back(&r);
    }
    std::vector<Series> series;
    for (const std::string& l : order) series.push_back(by_label[l]);
    const auto crf = [](const Row& r) { return r.value("crf", 0.0); };
    const auto vmaf = [](const Row& r) { return getd(r, "vmaf_score"); };
    const auto kbps = [](const Row& r) { return getd(r, "bitrate_kbps"); };

    // Per-frame data for the chooser, by row index.
    nlohmann::json frames = nlohmann::json::object();
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (rows[i].contains("vmaf_per_frame") && rows[i]["vmaf_per_frame"].is_array())
            frames[std::to_string(i)] = rows[i]["vmaf_per_frame"];
    std::string frames_json = frames.dump();
    for (std::size_t p = 0; (p = frames_json.find("</", p)) != std::string::npos;) frames_json.replace(p, 2, "<\\/");

    std::string html = R"(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>)" +
                       esc(title) + R"(</title>
<style>
body{font-family:sans-serif;margin:24px;color:#222}
h1{font-size:20px}
.charts{display:flex;flex-wrap:wrap;gap:12px}
svg.chart{background:#fff;border:1px solid #ddd;font-size:11px}
svg .frame{fill:none;stroke:#888}
svg .grid{stroke:#eee}
svg .hull{stroke-dasharray:5 3;stroke-width:1}
svg .title{font-size:13px;font-weight:bold}
table{border-collapse:collapse;margin-top:16px;font-size:12px}
th,td{border:1px solid #ccc;padding:3px 6px;text-align:right}
th{background:#f3f3f3;cursor:pointer;user-select:none}
tr.failed td{color:#a00}
tr.chosen td{background:#fff6d5}
tbody tr{cursor:pointer}
</style></head><body>
<h1>)" + esc(title) + "</h1>\n<p>" +
                       std::to_string(rows.size()) +
                       " cells. Dashed lines: upper convex hull of (bitrate, VMAF). Click a table row to plot its "
                       "per-frame VMAF.</p>\n"
                       "<div class=\"charts\">";
    html += chart("Bitrate vs VMAF", "bitrate (kbps)", "VMAF", series, kbps, vmaf, true);
    if (many_sizes) {
        // Every point of every size, the hull across sizes (thick dashed) and the chosen rungs (rings).
        std::vector<std::pair<double, double>> all;
        for (const Series& s : series)
            for (const Row* r : s.rows) all.emplace_back(kbps(*r), vmaf(*r));
        const auto overlay = [&](const std::function<double(double)>& px, const std::function<double(double)>& py) {
            std::string o, hull;
            for (std::size_t i : upper_hull_indices(all))
                hull += num(px(all[i].first)) + "," + num(py(all[i].second)) + " ";
            o += "<polyline class=\"ladder-hull\" fill=\"none\" stroke=\"#000\" stroke-width=\"2.5\" "
                 "stroke-dasharray=\"7 4\" points=\"" +
                 hull + "\"/>";
            for (std::size_t i : rungs)
                if (i < rows.size() && rows[i]["vmaf_score"].is_number() && rows[i]["bitrate_kbps"].is_number())
                    o += "<circle class=\"rung\" cx=\"" + num(px(kbps(rows[i]))) + "\" cy=\"" + num(py(vmaf(rows[i]))) +
                         "\" r=\"7\" fill=\"none\" stroke=\"#000\" stroke-width=\"2\"><title>rung " + size_of(rows[i]) +
                         " crf " + crf_text(rows[i].value("crf", 0.0)) + "</title></circle>";
            return o;
        };
        html += chart("Ladder: hull across sizes (rungs circled)", "bitrate (kbps)", "VMAF at the source's size",
                      series, kbps, vmaf, false, overlay);
    }
    html += chart("CRF vs VMAF", "CRF", "VMAF", series, crf, vmaf, false);
    html += chart("CRF vs bitrate", "CRF", "bitrate (kbps)", series, crf, kbps, false);
    html +=
        R"(<svg id="perframe" class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 560 340" width="560" height="340"></svg></div>
<table id="cells"><thead><tr>)";
    std::vector<const char*> cols = {
        "src",      "encoder", "preset",         "crf",           "bitrate_kbps", "vmaf_score", "vmaf_harmonic_mean",
        "vmaf_min", "vmaf_p5", "encode_time_ms", "score_time_ms", "backend_used", "exit_status"};
    if (many_sizes) cols.insert(cols.end(), {"encode_width", "encode_height", "scale_filter"});
    for (const char* c : cols) html += std::string("<th>") + c + "</th>";
    html += "</tr></thead><tbody>\n";
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Row& r = rows[i];
        html += "<tr data-row=\"" + std::to_string(i) + "\"" +
                (r.value("exit_status", -1) == 0 ? "" : " class=\"failed\"") + ">";
        for (const char* c : cols) {
            std::string cell;
            if (r.contains(c) && r[c].is_number_float())
                cell = num(r[c].get<double>(), 7);
            else if (r.contains(c) && r[c].is_string())
                cell = r[c].get<std::string>();
            else if (r.contains(c) && !r[c].is_null())
                cell = r[c].dump();
            if (std::string(c) == "src") cell = cell.substr(cell.find_last_of('/') + 1);
            html += "<td>" + esc(cell) + "</td>";
        }
        html += "</tr>\n";
    }
    html += "</tbody></table>\n<script id=\"frames\" type=\"application/json\">" + frames_json + "</script>\n";
    html += R"JS(<script>
"use strict";
const frames = JSON.parse(document.getElementById("frames").textContent);
const NS = "http://www.w3.org/2000/svg";
function el(name, attrs, text) {
  const e = document.createElementNS(NS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}
function plotFrames(idx) {
  const svg = document.getElementById("perframe");
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  const v = frames[idx];
  const tr = document.querySelector('tr[data-row="' + idx + '"]');
  document.querySelectorAll("tr.chosen").forEach(r => r.classList.remove("chosen"));
  if (tr) tr.classList.add("chosen");
  const label = tr ? tr.children[1].textContent + " " + tr.children[2].textContent + " crf " + tr.children[3].textContent : "";
  svg.appendChild(el("text", {x: 280, y: 18, "text-anchor": "middle", "class": "title"}, "Per-frame VMAF " + label));
  if (!v || v.length === 0) { svg.appendChild(el("text", {x: 280, y: 170, "text-anchor": "middle"}, "no per-frame scores")); return; }
  const L = 60, R = 16, T = 28, B = 46, W = 560, H = 340;
  let lo = Math.min(...v), hi = Math.max(...v);
  if (hi - lo < 1e-9) { lo -= 1; hi += 1; }
  const px = i => L + (v.length > 1 ? i / (v.length - 1) : 0.5) * (W - L - R);
  const py = y => H - B - (y - lo) / (hi - lo) * (H - T - B);
  svg.appendChild(el("rect", {x: L, y: T, width: W - L - R, height: H - T - B, "class": "frame"}));
  for (let k = 0; k <= 4; k++) {
    const yv = lo + (hi - lo) * k / 4;
    svg.appendChild(el("text", {x: L - 6, y: py(yv) + 4, "text-anchor": "end", "class": "tick"}, yv.toFixed(2)));
  }
  svg.appendChild(el("text", {x: (L + W - R) / 2, y: H - 8, "text-anchor": "middle"}, "frame (" + v.length + ")"));
  svg.appendChild(el("polyline", {fill: "none", stroke: "#1f77b4", "stroke-width": 1.2,
                                  points: v.map((y, i) => px(i) + "," + py(y)).join(" ")}));
}
function sortBy(col) {
  const body = document.querySelector("#cells tbody");
  const rows = Array.from(body.rows);
  const th = document.querySelectorAll("#cells th")[col];
  const dir = th.dataset.dir === "asc" ? -1 : 1;
  document.querySelectorAll("#cells th").forEach(h => delete h.dataset.dir);
  th.dataset.dir = dir === 1 ? "asc" : "desc";
  const val = r => { const t = r.children[col].textContent; const n = parseFloat(t); return isNaN(n) ? t : n; };
  rows.sort((a, b) => { const x = val(a), y = val(b); return (x < y ? -1 : x > y ? 1 : 0) * dir; });
  rows.forEach(r => body.appendChild(r));
}
document.querySelectorAll("#cells th").forEach((th, i) => th.addEventListener("click", () => sortBy(i)));
document.querySelectorAll("#cells tbody tr").forEach(tr => tr.addEventListener("click", () => plotFrames(tr.dataset.row)));
const first = Object.keys(frames)[0];
plotFrames(first === undefined ? "" : first);
</script>
</body></html>
)JS";
    return html;
}

}  // namespace vmaf::tune
