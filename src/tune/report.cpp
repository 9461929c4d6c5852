#include "tune/report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>

#include "tune/compare.hpp"
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

/// Axis range with a little margin (in log space for a log axis); a degenerate range is widened.
std::pair<double, double> range_of(const std::vector<double>& v, bool log_scale) {
    double lo = *std::min_element(v.begin(), v.end()), hi = *std::max_element(v.begin(), v.end());
    if (log_scale) {
        lo = std::log10(lo);
        hi = std::log10(hi);
    }
    if (hi - lo < 1e-9) {
        lo -= log_scale ? 0.1 : 1;
        hi += log_scale ? 0.1 : 1;
    }
    const double pad = (hi - lo) * 0.05;
    return {lo - pad, hi + pad};
}

/// A bitrate in kbps as people read it: "800 kbit/s", "1.5 Mbit/s".
std::string rate_text(double kbps) {
    return kbps >= 1000 ? num(kbps / 1000, 3) + " Mbit/s" : num(kbps, 3) + " kbit/s";
}

/// Tick values of a log axis over [10^lo, 10^hi]: 1-2-5 steps (finer for a
/// narrow range, decades only for a wide one), at least two when possible.
std::vector<double> log_ticks(double lo, double hi) {
    static const std::vector<std::vector<double>> kMantissas = {
        {1}, {1, 2, 5}, {1, 1.5, 2, 3, 5, 7}, {1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8, 9}};
    std::vector<double> ticks;
    for (const auto& set : kMantissas) {
        ticks.clear();
        for (int e = static_cast<int>(std::floor(lo)); e <= static_cast<int>(std::ceil(hi)); ++e)
            for (double m : set) {
                const double v = m * std::pow(10.0, e);
                if (std::log10(v) >= lo && std::log10(v) <= hi) ticks.push_back(v);
            }
        if (ticks.size() >= 3 && ticks.size() <= 9) return ticks;
        if (ticks.size() > 9) break;  // finer sets only add more
    }
    return ticks;
}

/// Tick values of a linear axis over [lo, hi]: multiples of a 1-2-5 step, about five.
std::vector<double> linear_ticks(double lo, double hi) {
    const double raw = (hi - lo) / 5, mag = std::pow(10.0, std::floor(std::log10(raw))), r = raw / mag;
    const double step = mag * (r <= 1 ? 1 : r <= 2 ? 2 : r <= 5 ? 5 : 10);
    std::vector<double> ticks;
    for (double k = std::ceil(lo / step); k * step <= hi; ++k) ticks.push_back(k * step);
    return ticks;
}

/// One axis of a chart: linear with numeric labels, or logarithmic (bitrate) with units.
struct Axis {
    std::string label;
    bool log_scale = false;
    std::function<std::string(double)> text = [](double v) { return num(v, 4); };
};

/// One SVG line chart: each series a polyline with points and, with `hulls`,
/// its upper convex hull (dashed, drawn only where it differs from the
/// curve); `targets` are horizontal lines (VMAF targets); the legend sits
/// below the plot, never over the data; `overlay` draws more (a ladder's
/// hull). The SVG scales to its container (viewBox, CSS width 100%).
std::string chart(const std::string& title, const Axis& xa, const Axis& ya, const std::vector<Series>& series,
                  const std::function<double(const Row&)>& fx, const std::function<double(const Row&)>& fy, bool hulls,
                  const std::vector<double>& targets = {},
                  const std::function<std::string(const std::function<double(double)>&,
                                                  const std::function<double(double)>&)>& overlay = nullptr) {
    constexpr double W = 600, L = 86, R = 30, T = 30, B = 48, PH = 300;  // PH: plot area bottom
    const double legend_rows = std::ceil(series.size() / 2.0);
    const double H = PH + B + 16 * legend_rows + 8;
    std::vector<double> xs, ys;
    for (const Series& s : series)
        for (const Row* r : s.rows) {
            xs.push_back(fx(*r));
            ys.push_back(fy(*r));
        }
    std::string svg = "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " + num(W) + " " +
                      num(H) + "\" preserveAspectRatio=\"xMinYMin meet\">";
    svg += "<text x=\"" + num(W / 2) + "\" y=\"18\" text-anchor=\"middle\" class=\"title\">" + esc(title) + "</text>";
    if (xs.empty())
        return svg + "<text x=\"" + num(W / 2) + "\" y=\"170\" text-anchor=\"middle\">no successful cells</text></svg>";
    for (double t : targets) ys.push_back(t);
    // Named variables, not structured bindings: clang 14 cannot capture those in lambdas.
    const auto x_range = range_of(xs, xa.log_scale), y_range = range_of(ys, ya.log_scale);
    const double x0 = x_range.first, x1 = x_range.second, y0 = y_range.first, y1 = y_range.second;
    const bool xlog = xa.log_scale, ylog = ya.log_scale;
    std::function<double(double)> px = [=](double x) {
        return L + ((xlog ? std::log10(x) : x) - x0) / (x1 - x0) * (W - L - R);
    };
    std::function<double(double)> py = [=](double y) {
        return PH - ((ylog ? std::log10(y) : y) - y0) / (y1 - y0) * (PH - T);
    };
    svg += "<rect x=\"" + num(L) + "\" y=\"" + num(T) + "\" width=\"" + num(W - L - R) + "\" height=\"" + num(PH - T) +
           "\" class=\"frame\"/>";
    auto ticks = [](const Axis& a, double lo, double hi) {
        return a.log_scale ? log_ticks(lo, hi) : linear_ticks(lo, hi);
    };
    for (double xv : ticks(xa, x0, x1)) {
        svg += "<text x=\"" + num(px(xv)) + "\" y=\"" + num(PH + 16) + "\" text-anchor=\"middle\" class=\"tick x\">" +
               esc(xa.text(xv)) + "</text>";
        if (xlog)
            svg += "<line x1=\"" + num(px(xv)) + "\" x2=\"" + num(px(xv)) + "\" y1=\"" + num(T) + "\" y2=\"" + num(PH) +
                   "\" class=\"grid\"/>";
    }
    for (double yv : ticks(ya, y0, y1)) {
        svg += "<text x=\"" + num(L - 6) + "\" y=\"" + num(py(yv) + 4) + "\" text-anchor=\"end\" class=\"tick y\">" +
               esc(ya.text(yv)) + "</text>";
        svg += "<line x1=\"" + num(L) + "\" x2=\"" + num(W - R) + "\" y1=\"" + num(py(yv)) + "\" y2=\"" + num(py(yv)) +
               "\" class=\"grid\"/>";
    }
    svg += "<text x=\"" + num((L + W - R) / 2) + "\" y=\"" + num(PH + 36) + "\" text-anchor=\"middle\">" +
           esc(xa.label) + "</text>";
    svg += "<text transform=\"translate(14," + num((T + PH) / 2) + ") rotate(-90)\" text-anchor=\"middle\">" +
           esc(ya.label) + "</text>";
    for (double t : targets)
        svg += "<line class=\"target\" x1=\"" + num(L) + "\" x2=\"" + num(W - R) + "\" y1=\"" + num(py(t)) +
               "\" y2=\"" + num(py(t)) + "\"/><text class=\"target-label\" x=\"" + num(W - R - 4) + "\" y=\"" +
               num(py(t) - 4) + "\" text-anchor=\"end\">" + esc(ya.label) + " " + num(t, 4) + "</text>";
    for (std::size_t si = 0; si < series.size(); ++si) {
        const Series& s = series[si];
        const std::string color = kColors[si % (sizeof kColors / sizeof kColors[0])];
        std::vector<std::pair<double, double>> pts;
        for (const Row* r : s.rows) pts.emplace_back(fx(*r), fy(*r));
        std::sort(pts.begin(), pts.end());
        std::string poly;
        for (const auto& [x, y] : pts) poly += num(px(x)) + "," + num(py(y)) + " ";
        svg += "<polyline class=\"curve\" fill=\"none\" stroke=\"" + color + "\" stroke-width=\"1.5\" points=\"" +
               poly + "\"/>";
        for (const Row* r : s.rows)
            svg += "<circle cx=\"" + num(px(fx(*r))) + "\" cy=\"" + num(py(fy(*r))) + "\" r=\"3\" fill=\"" + color +
                   "\"><title>" + esc(s.label) + " crf " + crf_text(r->value("crf", 0.0)) + ": " +
                   esc(xa.text(fx(*r))) + ", " + esc(ya.text(fy(*r))) + "</title></circle>";
        // The hull only where it differs from the curve (some point lies under it): then thick and dashed.
        const auto hull = hulls ? upper_hull(pts) : std::vector<std::pair<double, double>>{};
        if (hulls && hull.size() < pts.size()) {
            std::string h;
            for (const auto& [x, y] : hull) h += num(px(x)) + "," + num(py(y)) + " ";
            svg += "<polyline class=\"hull\" fill=\"none\" stroke=\"" + color + "\" points=\"" + h + "\"/>";
        }
        // The legend: two columns under the plot.
        const double lx = L + (si % 2) * (W - L - R) / 2, ly = PH + B + 4 + 16 * std::floor(si / 2.0);
        svg += "<rect class=\"legend-key\" x=\"" + num(lx) + "\" y=\"" + num(ly) +
               "\" width=\"10\" height=\"10\" fill=\"" + color + "\"/><text x=\"" + num(lx + 14) + "\" y=\"" +
               num(ly + 9) + "\" class=\"legend\">" + esc(s.label) + "</text>";
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

std::string render_report(const std::vector<Row>& rows, const std::string& title, const std::vector<std::size_t>& rungs,
                          const std::vector<double>& target_vmafs) {
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
h2{font-size:16px;margin-top:20px}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(340px,1fr));gap:12px;max-width:1860px}
svg.chart{background:#fff;border:1px solid #ddd;font-size:11px;width:100%;height:auto}
svg .frame{fill:none;stroke:#888}
svg .grid{stroke:#eee}
svg .hull{stroke-dasharray:7 4;stroke-width:2.5;opacity:.75}
svg .target{stroke:#555;stroke-dasharray:2 3;stroke-width:1.2}
svg .target-label{fill:#555}
svg .title{font-size:13px;font-weight:bold}
table.bd td:first-child,table.bd td:nth-child(2){text-align:left}
table{border-collapse:collapse;margin-top:16px;font-size:12px}
th,td{border:1px solid #ccc;padding:3px 6px;text-align:right}
th{background:#f3f3f3;cursor:pointer;user-select:none}
tr.failed td{color:#a00}
tr.chosen td{background:#fff6d5}
tbody tr{cursor:pointer}
</style></head><body>
<h1>)" + esc(title) + "</h1>\n<p>" +
                       std::to_string(rows.size()) +
                       " cells. Bitrate on a log scale. Thick dashed lines: the upper convex hull of (bitrate, VMAF), "
                       "drawn where it leaves the curve; dotted: VMAF targets. Click a table row to plot its "
                       "per-frame VMAF.</p>\n"
                       "<div class=\"charts\">";
    const Axis rate_axis{"bitrate", true, rate_text}, vmaf_axis{"VMAF"}, crf_axis{"CRF"};
    html += chart("Bitrate vs VMAF", rate_axis, vmaf_axis, series, kbps, vmaf, true, target_vmafs);
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
        html += chart("Ladder: hull across sizes (rungs circled)", rate_axis, Axis{"VMAF at the source's size"}, series,
                      kbps, vmaf, false, target_vmafs, overlay);
    }
    html += chart("CRF vs VMAF", crf_axis, vmaf_axis, series, crf, vmaf, false, target_vmafs);
    html += chart("CRF vs bitrate", crf_axis, rate_axis, series, crf, kbps, false);
    html +=
        R"(<svg id="perframe" class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 560 340"></svg></div>
)";
    // Several encoders (or presets) of one source and size: their Bjøntegaard deltas against the first.
    bool one_setup = !many_sizes && !many_sources;
    std::vector<std::pair<std::string, std::string>> curves;
    for (const Row& r : rows) {
        one_setup &= r.value("clip_mode", std::string()) == rows.front().value("clip_mode", std::string());
        const auto key = std::make_pair(r.value("encoder", std::string()), r.value("preset", std::string()));
        if (std::find(curves.begin(), curves.end(), key) == curves.end()) curves.push_back(key);
    }
    if (one_setup && curves.size() >= 2) {
        try {
            const std::vector<double> t = target_vmafs.empty() ? std::vector<double>{80, 85, 90, 95} : target_vmafs;
            html += "<h2>Bjøntegaard deltas</h2>\n" + render_comparison(compare_rows(rows, curves, t), "html");
        } catch (const std::invalid_argument&) {
            // no successful cells: nothing to compare
        }
    }
    html += R"(<table id="cells"><thead><tr>)";
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
