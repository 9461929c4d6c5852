#include "output/writers.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <clocale>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <vector>

#include "output/number_format.hpp"
#include "vmaf/error.hpp"

namespace vmaf {

namespace {

constexpr struct {
    PoolMethod method;
    const char* name;
} kPools[] = {{PoolMethod::Min, "min"},
              {PoolMethod::Max, "max"},
              {PoolMethod::Mean, "mean"},
              {PoolMethod::HarmonicMean, "harmonic_mean"}};

bool frame_listed(const ReportContext& c, unsigned i) { return c.subsample <= 1 || i % c.subsample == 0; }

/// Slots written at frame i, in report order.
std::vector<Slot> slots_at(const ReportContext& c, unsigned i) {
    std::vector<Slot> out;
    for (Slot s : c.fc.written_order())
        if (c.fc.has(s, i)) out.push_back(s);
    return out;
}

std::string json_number(double v, const Precision& p) { return std::isfinite(v) ? format_number(v, p) : "null"; }

/// JSON's \u escape of a control character (they may not appear raw in strings).
std::string control_escape(char ch) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(ch)));
    return buf;
}

/// A key as a JSON string's contents: quote and backslash escaped, control
/// characters as \u00XX; other bytes (UTF-8) as they are.
std::string json_escaped(const std::string& s) {
    std::string out;
    for (char ch : s) {
        if (ch == '"' || ch == '\\') (out += '\\') += ch;
        else if (static_cast<unsigned char>(ch) < 0x20) out += control_escape(ch);
        else out += ch;
    }
    return out;
}

/// A key as an XML attribute value: markup characters as entities; tab, line
/// feed and carriage return as character references; the other control
/// characters, which XML 1.0 cannot carry at all, as U+FFFD.
std::string xml_value(const std::string& s) {
    std::string out;
    for (char ch : s) {
        switch (ch) {
            case '"': out += "&quot;"; break;
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '\t': out += "&#9;"; break;
            case '\n': out += "&#10;"; break;
            case '\r': out += "&#13;"; break;
            default: out += static_cast<unsigned char>(ch) < 0x20 ? "\xEF\xBF\xBD" : std::string(1, ch);
        }
    }
    return out;
}

/// A key as an XML attribute name (the frame and aggregate elements carry
/// scores as attributes, as upstream's report): every byte outside
/// [A-Za-z0-9_.-] becomes '_', and a name that would not start with a letter
/// or '_' gets a leading '_'. Upstream's keys pass unchanged.
std::string xml_name(const std::string& s) {
    std::string out;
    for (char ch : s) {
        const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' ||
                        ch == '.' || ch == '-';
        out += ok ? ch : '_';
    }
    if (out.empty() || !((out[0] >= 'a' && out[0] <= 'z') || (out[0] >= 'A' && out[0] <= 'Z') || out[0] == '_'))
        out.insert(out.begin(), '_');
    return out;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> backends_by_feature(const std::vector<FeatureBackend>& instances) {
    std::vector<std::pair<std::string, std::vector<std::string>>> groups;  // name, distinct backends
    for (const FeatureBackend& fb : instances) {
        auto g = std::find_if(groups.begin(), groups.end(), [&](const auto& e) { return e.first == fb.feature; });
        if (g == groups.end()) g = groups.insert(groups.end(), {fb.feature, {}});
        if (std::find(g->second.begin(), g->second.end(), fb.backend) == g->second.end()) g->second.push_back(fb.backend);
    }
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& [name, backends] : groups) {
        std::string joined;
        for (const std::string& b : backends) joined += (joined.empty() ? "" : ",") + b;
        out.emplace_back(name, std::move(joined));
    }
    return out;
}

void write_json(std::FILE* out, const ReportContext& c) {
    const auto& fc = c.fc;
    std::fprintf(out, "{\n  \"version\": \"%s\",\n", version());
    if (std::isfinite(c.fps))
        std::fprintf(out, "  \"fps\": %.2f,\n", c.fps);
    else
        std::fprintf(out, "  \"fps\": null,\n");
    std::fprintf(out, "  \"frames\": [");
    bool first_frame = true;  // not i == 0: frames without scores are left out
    for (unsigned i = 0; i < fc.frame_span(); ++i) {
        if (!frame_listed(c, i)) continue;
        const auto slots = slots_at(c, i);
        if (slots.empty()) continue;
        std::fprintf(out, "%s    {\n      \"frameNum\": %u,\n      \"metrics\": {\n", first_frame ? "\n" : ",\n", i);
        first_frame = false;
        for (std::size_t k = 0; k < slots.size(); ++k)
            std::fprintf(out, "        \"%s\": %s%s\n", json_escaped(fc.key(slots[k])).c_str(),
                         json_number(fc.get(slots[k], i), c.precision).c_str(), k + 1 < slots.size() ? "," : "");
        std::fprintf(out, "      }\n    }");
    }
    std::fprintf(out, "\n  ],\n  \"pooled_metrics\": {");
    const auto& order = fc.written_order();
    for (std::size_t k = 0; k < order.size(); ++k) {
        std::fprintf(out, "%s    \"%s\": {", k > 0 ? ",\n" : "\n", json_escaped(fc.key(order[k])).c_str());
        bool first = true;
        for (const auto& p : kPools) {
            auto v = fc.pool(order[k], p.method, c.frame_count, c.subsample);
            if (!v) continue;
            std::fprintf(out, "%s      \"%s\": %s", first ? "\n" : ",\n", p.name, json_number(*v, c.precision).c_str());
            first = false;
        }
        std::fprintf(out, "\n    }");
    }
    std::fprintf(out, "\n  },\n  \"aggregate_metrics\": {");
    const auto& agg = fc.aggregates();
    for (std::size_t k = 0; k < agg.size(); ++k)
        std::fprintf(out, "\n    \"%s\": %s%s", json_escaped(agg[k].first).c_str(),
                     json_number(agg[k].second, c.precision).c_str(), k + 1 < agg.size() ? "," : "");
    std::fprintf(out, "\n  },\n");
    if (const PairingReport* p = c.pairing) {
        auto side = [](const GridStats& g) {
            return "{\"repeated\": " + std::to_string(g.repeated) + ", \"skipped\": " + std::to_string(g.skipped) + "}";
        };
        std::fprintf(out, "  \"pairing\": {\"mode\": \"%s\", \"reference\": %s, \"distorted\": %s},\n",
                     json_escaped(p->mode).c_str(), side(p->reference).c_str(), side(p->distorted).c_str());
    }
    std::fprintf(out, "  \"backend_used\": \"%s\",\n  \"feature_backends\": {", c.backend_used.c_str());
    const auto backends = backends_by_feature(c.feature_backends);
    for (std::size_t k = 0; k < backends.size(); ++k)
        std::fprintf(out, "%s\"%s\": \"%s\"", k ? ", " : "", json_escaped(backends[k].first).c_str(),
                     json_escaped(backends[k].second).c_str());
    std::fprintf(out, "}\n}\n");
}

void write_xml(std::FILE* out, const ReportContext& c) {
    const auto& fc = c.fc;
    std::fprintf(out, "<VMAF version=\"%s\" backend_used=\"%s\">\n", version(), c.backend_used.c_str());
    std::fprintf(out, "  <params qualityWidth=\"%u\" qualityHeight=\"%u\" />\n", c.width, c.height);
    std::fprintf(out, "  <fyi fps=\"%.2f\" />\n", c.fps);
    std::fprintf(out, "  <feature_backends ");
    for (const auto& [name, backend] : backends_by_feature(c.feature_backends))
        std::fprintf(out, "%s=\"%s\" ", xml_name(name).c_str(), xml_value(backend).c_str());
    std::fprintf(out, "/>\n");
    if (const PairingReport* p = c.pairing)
        std::fprintf(out,
                     "  <pairing mode=\"%s\" reference_repeated=\"%llu\" reference_skipped=\"%llu\" "
                     "distorted_repeated=\"%llu\" distorted_skipped=\"%llu\" />\n",
                     p->mode.c_str(), static_cast<unsigned long long>(p->reference.repeated),
                     static_cast<unsigned long long>(p->reference.skipped),
                     static_cast<unsigned long long>(p->distorted.repeated),
                     static_cast<unsigned long long>(p->distorted.skipped));
    std::fprintf(out, "  <frames>\n");
    for (unsigned i = 0; i < fc.frame_span(); ++i) {
        if (!frame_listed(c, i)) continue;
        const auto slots = slots_at(c, i);
        if (slots.empty()) continue;
        std::fprintf(out, "    <frame frameNum=\"%u\" ", i);
        for (Slot s : slots)
            std::fprintf(out, "%s=\"%s\" ", xml_name(fc.key(s)).c_str(), format_number(fc.get(s, i), c.precision).c_str());
        std::fprintf(out, "/>\n");
    }
    std::fprintf(out, "  </frames>\n  <pooled_metrics>\n");
    for (Slot s : fc.written_order()) {
        std::fprintf(out, "    <metric name=\"%s\" ", xml_value(fc.key(s)).c_str());
        for (const auto& p : kPools)
            if (auto v = fc.pool(s, p.method, c.frame_count, c.subsample))
                std::fprintf(out, "%s=\"%s\" ", p.name, format_number(*v, c.precision).c_str());
        std::fprintf(out, "/>\n");
    }
    std::fprintf(out, "  </pooled_metrics>\n  <aggregate_metrics ");
    for (const auto& [k, v] : fc.aggregates())
        std::fprintf(out, "%s=\"%s\" ", xml_name(k).c_str(), format_number(v, c.precision).c_str());
    std::fprintf(out, "/>\n</VMAF>\n");
}

void write_csv(std::FILE* out, const ReportContext& c) {
    const auto& fc = c.fc;
    std::fprintf(out, "Frame,");
    for (Slot s : fc.written_order()) std::fprintf(out, "%s,", fc.key(s).c_str());
    std::fprintf(out, "\n");
    for (unsigned i = 0; i < fc.frame_span(); ++i) {
        if (!frame_listed(c, i)) continue;
        const auto slots = slots_at(c, i);
        if (slots.empty()) continue;
        std::fprintf(out, "%u,", i);
        for (Slot s : slots) std::fprintf(out, "%s,", format_number(fc.get(s, i), c.precision).c_str());
        std::fprintf(out, "\n");
    }
}

void write_sub(std::FILE* out, const ReportContext& c) {
    const auto& fc = c.fc;
    for (unsigned i = 0; i < fc.frame_span(); ++i) {
        if (!frame_listed(c, i)) continue;
        const auto slots = slots_at(c, i);
        if (slots.empty()) continue;
        std::fprintf(out, "{%u}{%u}frame: %u|", i, i + 1, i);
        for (Slot s : slots) std::fprintf(out, "%s: %s|", fc.key(s).c_str(), format_number(fc.get(s, i), c.precision).c_str());
        std::fprintf(out, "\n");
    }
}

namespace {

[[noreturn]] void report_error(const std::string& path, int err) {
    throw Error(ErrorKind::Input, "cannot write report '" + path + "': " + std::strerror(err));
}

void write_format(std::FILE* f, OutputFormat fmt, const ReportContext& ctx) {
    // Reports use '.' as the decimal separator whatever the user's locale.
    const std::string saved_locale = std::setlocale(LC_NUMERIC, nullptr);
    std::setlocale(LC_NUMERIC, "C");
    switch (fmt) {
        case OutputFormat::Json: write_json(f, ctx); break;
        case OutputFormat::Xml: write_xml(f, ctx); break;
        case OutputFormat::Csv: write_csv(f, ctx); break;
        case OutputFormat::Sub: write_sub(f, ctx); break;
    }
    std::setlocale(LC_NUMERIC, saved_locale.c_str());
}

}  // namespace

void write_report_file(const std::string& path, OutputFormat fmt, const ReportContext& ctx) {
    // A path that exists and is not a regular file (/dev/stdout, /dev/null, a
    // FIFO) is written in place: replacing it by rename would destroy it.
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
        std::FILE* f = std::fopen(path.c_str(), "w");
        if (!f) report_error(path, errno);
        write_format(f, fmt, ctx);
        const bool ok = std::fflush(f) == 0 && !std::ferror(f);
        const int err = errno;
        if (std::fclose(f) != 0 || !ok) report_error(path, err);
        return;
    }
    namespace fs = std::filesystem;
    const fs::path target(path);
    fs::path dir = target.parent_path();
    if (dir.empty()) dir = ".";
    std::string hidden = ".";  // ".NAME.tmp-XXXXXX" (appended: GCC 12 misreports "." + string as -Wrestrict)
    hidden += target.filename().string();
    hidden += ".tmp-XXXXXX";
    std::string tmpl = (dir / hidden).string();
    std::vector<char> name(tmpl.begin(), tmpl.end());
    name.push_back('\0');
    const int fd = ::mkstemp(name.data());
    if (fd < 0) report_error(path, errno);
    std::FILE* f = ::fdopen(fd, "w");
    if (!f) {
        const int err = errno;
        ::close(fd);
        ::unlink(name.data());
        report_error(path, err);
    }
    write_format(f, fmt, ctx);
    const bool ok = std::fflush(f) == 0 && !std::ferror(f) && ::fsync(fd) == 0;
    const int err = errno;
    if (std::fclose(f) != 0 || !ok) {
        ::unlink(name.data());
        report_error(path, err);
    }
    // mkstemp creates 0600; give the report the permissions a new file gets.
    const mode_t mask = ::umask(0);
    ::umask(mask);
    ::chmod(name.data(), 0666 & ~mask);
    if (std::rename(name.data(), path.c_str()) != 0) {
        const int e = errno;
        ::unlink(name.data());
        report_error(path, e);
    }
}

}  // namespace vmaf
