// Report writers: JSON, XML, CSV and SUB in upstream's layout and key order.
#pragma once

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

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
    /// Where each extractor instance ran (Engine::feature_backends): JSON's
    /// "feature_backends" object and XML's <feature_backends> element.
    std::vector<FeatureBackend> feature_backends = {};
};

/// The reported feature_backends: one entry per extractor name, in order of
/// first appearance. Instances of one name (the same kind with other
/// options) that ran on different backends give those backends joined by
/// ",", in order of appearance ("cuda,cpu"); a name never hides a CPU run.
std::vector<std::pair<std::string, std::string>> backends_by_feature(const std::vector<FeatureBackend>& instances);

void write_json(std::FILE* out, const ReportContext& ctx);
void write_xml(std::FILE* out, const ReportContext& ctx);
void write_csv(std::FILE* out, const ReportContext& ctx);
void write_sub(std::FILE* out, const ReportContext& ctx);

/// Writes to `path` + ".tmp-XXXXXX" in the same directory, then renames over
/// `path`: a failure never leaves a partial report. Throws vmaf::Error on I/O failure.
void write_report_file(const std::string& path, OutputFormat fmt, const ReportContext& ctx);

}  // namespace vmaf
