// libFuzzer target: the report writers (JSON, XML, CSV, SUB) over fuzzed
// score names, frame indices, values (NaN, infinities and huge magnitudes
// included), aggregates, subsampling and precision. Checks: no crash, and the
// JSON report is valid JSON whose pooled keys are the names written (when the
// names are valid UTF-8, which JSON needs).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "fuzz_util.hpp"
#include "output/writers.hpp"

namespace {

std::string render(void (*fn)(std::FILE*, const vmaf::ReportContext&), const vmaf::ReportContext& ctx) {
    char* buf = nullptr;
    std::size_t len = 0;
    std::FILE* f = open_memstream(&buf, &len);
    if (!f) std::abort();
    fn(f, ctx);
    std::fclose(f);
    std::string s(buf, len);
    std::free(buf);
    return s;
}

bool valid_utf8(const std::string& s) {
    try {
        (void)nlohmann::json(s).dump();
        return true;
    } catch (const nlohmann::json::exception&) {
        return false;
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    vmaf::fuzz::Bytes in(data, size);
    vmaf::FeatureCollector fc;
    const std::uint8_t mode = in.u8();
    const unsigned subsample = 1 + (in.u8() & 3);
    vmaf::Precision prec;
    if (mode & 1) prec = {vmaf::Precision::Mode::Digits, 1 + (mode >> 1) % 17};
    std::set<std::string> names;
    bool utf8 = true;
    // Records: op byte, then a name (NUL-terminated) and/or a frame and a value.
    for (unsigned n = 0; !in.empty() && n < 256; ++n) {
        const std::uint8_t op = in.u8();
        if (op & 0x80) {
            const std::string name(in.cstr());
            if (name.empty()) continue;
            const vmaf::Slot s = fc.slot(name);
            const unsigned frames = 1 + (op & 7);
            for (unsigned f = 0; f < frames; ++f) fc.write(s, (in.u8() & 31), in.f64());
            if (op & 0x40) fc.order_after_frames(s);
            names.insert(name);
            utf8 &= valid_utf8(name);
        } else if (op & 0x40) {
            const std::string name(in.cstr());
            fc.write_aggregate(name, in.f64());
            utf8 &= valid_utf8(name);
        }
    }
    const vmaf::ReportContext ctx{fc, (mode >> 4) & 0x1f ? fc.frame_span() : fc.frame_span() / 2, subsample,
                                  in.f64(), 64, 48, "cpu", prec};
    const std::string json = render(vmaf::write_json, ctx);
    (void)render(vmaf::write_xml, ctx);
    (void)render(vmaf::write_csv, ctx);
    (void)render(vmaf::write_sub, ctx);
    if (utf8) {
        const auto doc = nlohmann::json::parse(json, nullptr, false);
        std::set<std::string> pooled;
        if (!doc.is_discarded())
            for (const auto& [k, v] : doc["pooled_metrics"].items()) pooled.insert(k);
        if (doc.is_discarded() || pooled != names) {  // the JSON report must parse and name every score
            std::fprintf(stderr, "bad JSON report:\n%s\n", json.c_str());
            std::abort();
        }
    }
    return 0;
}
