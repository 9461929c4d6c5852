// Report writers: JSON, XML, CSV and SUB in upstream's layout and key order.
#pragma once

#include <cstdio>
#include <string>

#include "core/collector.hpp"
#include "vmaf/engine.hpp"

namespace vmaf {

struct ReportContext {
    const FeatureCollector& fc;
    unsigned frame_count;  ///< frames read (pooling covers [0, frame_count))
    unsigned subsample;
    double fps;
    unsigned width, height;
    std::string backend_used;
    Precision precision;
    const PairingReport* pairing = nullptr;  ///< reported when given (JSON, XML)
};

void write_json(std::FILE* out, const ReportContext& ctx);
void write_xml(std::FILE* out, const ReportContext& ctx);
void write_csv(std::FILE* out, const ReportContext& ctx);
void write_sub(std::FILE* out, const ReportContext& ctx);

/// Writes to `path` + ".tmp-XXXXXX" in the same directory, then renames over
/// `path`: a failure never leaves a partial report. Throws vmaf::Error on I/O failure.
void write_report_file(const std::string& path, OutputFormat fmt, const ReportContext& ctx);

}  // namespace vmaf
