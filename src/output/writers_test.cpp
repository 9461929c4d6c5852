#include "output/writers.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "output/number_format.hpp"
#include "vmaf/error.hpp"

namespace vmaf {
namespace {

std::string capture(void (*fn)(std::FILE*, const ReportContext&), const ReportContext& ctx) {
    char* buf = nullptr;
    std::size_t len = 0;
    std::FILE* f = open_memstream(&buf, &len);
    fn(f, ctx);
    std::fclose(f);
    std::string s(buf, len);
    std::free(buf);
    return s;
}

TEST(NumberFormat, UpstreamDefault) {
    const Precision up;
    EXPECT_EQ(format_number(0.957928, up), "0.957928");
    EXPECT_EQ(format_number(85.29207123, up), "85.292071");
    EXPECT_EQ(format_number(0.0, up), "0.000000");
    EXPECT_EQ(format_number(1.5e-8, up), "0.0000000150000000");  // > 6 leading zeros: 16 decimals
    EXPECT_EQ(format_number(-1.5e-8, up), "-0.0000000150000000");
    EXPECT_EQ(format_number(0.0000012, up), "0.000001");
}

// Found by report_fuzz: the fraction test cast |v| to int, undefined beyond INT_MAX.
TEST(NumberFormat, UpstreamDefaultLargeValues) {
    const Precision up;
    EXPECT_EQ(format_number(3e9, up), "3000000000.000000");
    EXPECT_EQ(format_number(-2.5e12, up), "-2500000000000.000000");
    EXPECT_EQ(format_number(2147483648.5, up), "2147483648.500000");
    // Found by report_fuzz: the text was cut at 63 characters above 1e56.
    EXPECT_EQ(format_number(2e61, up), "19999999999999998987742705941480377339272900220268201461678080.000000");
    EXPECT_EQ(format_number(-1.7976931348623157e308, up).size(), 317u);
}

TEST(NumberFormat, Digits) {
    EXPECT_EQ(format_number(0.1, {Precision::Mode::Digits, 17}), "0.10000000000000001");
    EXPECT_EQ(format_number(85.292071234, {Precision::Mode::Digits, 4}), "85.29");
    // Found by report_fuzz: rounding must not carry a finite value past DBL_MAX.
    EXPECT_EQ(format_number(-1.7976931348623157e308, {Precision::Mode::Digits, 1}), "-1.7976931348623157e+308");
    EXPECT_EQ(format_number(1.5e308, {Precision::Mode::Digits, 1}), "1.5e+308");
    EXPECT_EQ(format_number(1.2e308, {Precision::Mode::Digits, 1}), "1e+308");
}

struct Fixture {
    FeatureCollector fc;
    Fixture() {
        const Slot a = fc.slot("integer_adm2"), v = fc.slot("vmaf");
        fc.write(a, 0, 0.5);
        fc.write(a, 1, 0.25);
        fc.write(v, 0, 90.0);
        fc.write(v, 1, NAN);
        fc.write_aggregate("apsnr_y", 40.0);
    }
    ReportContext ctx() { return {fc, 2, 1, 12.345, 64, 48, "cpu", {}}; }
};

TEST(Writers, JsonLayout) {
    Fixture fx;
    const std::string s = capture(write_json, fx.ctx());
    const std::string expect_head =
        "{\n  \"version\": \"3.2.0\",\n  \"fps\": 12.35,\n  \"frames\": [\n    {\n      \"frameNum\": 0,\n"
        "      \"metrics\": {\n        \"integer_adm2\": 0.500000,\n        \"vmaf\": 90.000000\n      }\n    },\n";
    EXPECT_EQ(s.substr(0, expect_head.size()), expect_head);
    EXPECT_NE(s.find("\"vmaf\": null"), std::string::npos);  // NaN -> null
    EXPECT_NE(s.find("  \"aggregate_metrics\": {\n    \"apsnr_y\": 40.000000\n  },\n  \"backend_used\": \"cpu\",\n"
                     "  \"feature_backends\": {}\n}\n"),
              std::string::npos);
    EXPECT_NE(s.find("\"integer_adm2\": {\n      \"min\": 0.250000,\n      \"max\": 0.500000,\n      \"mean\": 0.375000,"),
              std::string::npos);
}

// Found by report_fuzz: a report whose first scored frame is not frame 0 (C
// API imports) began the frame list with a comma; control characters in a
// key were written raw. Both made invalid JSON.
TEST(Writers, JsonStaysValidForLateFramesAndOddKeys) {
    FeatureCollector fc;
    const Slot a = fc.slot("late"), b = fc.slot("tab\there \"q\"");
    fc.write(a, 2, 1.0);
    fc.write(b, 3, 2.0);
    const ReportContext ctx{fc, 4, 1, 1.0, 64, 48, "cpu", {}};
    const auto doc = nlohmann::json::parse(capture(write_json, ctx));
    ASSERT_EQ(doc["frames"].size(), 2u);
    EXPECT_EQ(doc["frames"][0]["frameNum"], 2);
    EXPECT_EQ(doc["frames"][1]["metrics"]["tab\there \"q\""], 2.0);
}

// Where each extractor ran: one entry per name in order of first appearance;
// two instances of one kind (other options) on different backends name both.
TEST(Writers, FeatureBackendsByName) {
    using Entries = std::vector<std::pair<std::string, std::string>>;
    EXPECT_EQ(backends_by_feature({}), Entries{});
    EXPECT_EQ(backends_by_feature({{"adm", "cuda"}, {"cambi", "cpu"}, {"adm", "cuda"}, {"vif", "cuda"}}),
              (Entries{{"adm", "cuda"}, {"cambi", "cpu"}, {"vif", "cuda"}}));
    EXPECT_EQ(backends_by_feature({{"psnr", "cuda"}, {"psnr", "cpu"}, {"psnr", "cuda"}}), (Entries{{"psnr", "cuda,cpu"}}));
}

TEST(Writers, FeatureBackendsInJsonAndXml) {
    Fixture fx;
    ReportContext ctx = fx.ctx();
    ctx.backend_used = "cuda";
    ctx.feature_backends = {{"adm", "cuda"}, {"float_ssim", "cpu"}, {"adm", "cuda"}, {"motion", "cuda"}};
    const std::string json = capture(write_json, ctx);
    EXPECT_NE(json.find("  \"backend_used\": \"cuda\",\n"
                        "  \"feature_backends\": {\"adm\": \"cuda\", \"float_ssim\": \"cpu\", \"motion\": \"cuda\"}\n}\n"),
              std::string::npos)
        << json;
    const auto doc = nlohmann::json::parse(json);
    EXPECT_EQ(doc["feature_backends"]["float_ssim"], "cpu");
    const std::string xml = capture(write_xml, ctx);
    EXPECT_NE(xml.find("  <fyi fps=\"12.35\" />\n  <feature_backends adm=\"cuda\" float_ssim=\"cpu\" motion=\"cuda\" />\n"),
              std::string::npos)
        << xml;
    // CSV and SUB stay upstream's layout.
    EXPECT_EQ(capture(write_csv, ctx), capture(write_csv, fx.ctx()));
    EXPECT_EQ(capture(write_sub, ctx), capture(write_sub, fx.ctx()));
}

TEST(Writers, CsvAndSub) {
    Fixture fx;
    EXPECT_EQ(capture(write_csv, fx.ctx()), "Frame,integer_adm2,vmaf,\n0,0.500000,90.000000,\n1,0.250000,nan,\n");
    EXPECT_EQ(capture(write_sub, fx.ctx()).substr(0, 53), "{0}{1}frame: 0|integer_adm2: 0.500000|vmaf: 90.000000");
}

TEST(Writers, XmlLayout) {
    Fixture fx;
    const std::string s = capture(write_xml, fx.ctx());
    EXPECT_NE(s.find("<params qualityWidth=\"64\" qualityHeight=\"48\" />"), std::string::npos);
    EXPECT_NE(s.find("<frame frameNum=\"0\" integer_adm2=\"0.500000\" vmaf=\"90.000000\" />"), std::string::npos);
    EXPECT_NE(s.find("<aggregate_metrics apsnr_y=\"40.000000\" />"), std::string::npos);
}

// Keys from the C API (vmaf_import_feature_score) or model names may hold any
// bytes: XML names and values stay well-formed, upstream's keys unchanged.
TEST(Writers, XmlOddKeys) {
    FeatureCollector fc;
    const Slot a = fc.slot("9 a\"<&>\x01\tb"), b = fc.slot("psnr_y");
    fc.write(a, 0, 1.0);
    fc.write(b, 0, 2.0);
    const ReportContext ctx{fc, 1, 1, 1.0, 64, 48, "cpu", {}};
    const std::string s = capture(write_xml, ctx);
    EXPECT_NE(s.find("<frame frameNum=\"0\" _9_a______b=\"1.000000\" psnr_y=\"2.000000\" />"), std::string::npos) << s;
    EXPECT_NE(s.find("<metric name=\"9 a&quot;&lt;&amp;&gt;\xEF\xBF\xBD&#9;b\" "), std::string::npos) << s;
    EXPECT_NE(s.find("<metric name=\"psnr_y\" "), std::string::npos) << s;
}

TEST(Writers, AtomicReplaceAndFailure) {
    Fixture fx;
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / "vmaf_writers_test";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string path = (dir / "r.json").string();
    write_report_file(path, OutputFormat::Json, fx.ctx());
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    EXPECT_EQ(ss.str(), capture(write_json, fx.ctx()));
    EXPECT_THROW(write_report_file((dir / "no/such/dir/r.json").string(), OutputFormat::Json, fx.ctx()), Error);
    unsigned files = 0;
    for (auto& e : fs::directory_iterator(dir)) files += e.is_regular_file();
    EXPECT_EQ(files, 1u);
    fs::remove_all(dir);
}

}  // namespace
}  // namespace vmaf
