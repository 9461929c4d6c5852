// vmaf-tune: encode sweeps scored in-process (src/tune).
//   vmaf-tune corpus --source SRC ... --encoder E --crf 18:40:2 --out corpus.jsonl
//   vmaf-tune merge SHARD.jsonl ... -o corpus.jsonl
//   vmaf-tune report corpus.jsonl -o report.html
// Exit status: 0 done, 1 some cell failed, 2 bad options or input (nothing
// encoded), 130 interrupted (rerun the same command to resume).
#include <CLI/CLI.hpp>

#include <cstdio>
#include <fstream>

#include "tune/corpus.hpp"
#include "tune/merge.hpp"
#include "tune/report.hpp"
#include "vmaf/error.hpp"

namespace {

using namespace vmaf::tune;

/// "yuv420p" / "yuv422p10le" ... to the raw geometry the reader needs.
vmaf::VideoGeometry raw_geometry(unsigned w, unsigned h, const std::string& pix_fmt) {
    vmaf::VideoGeometry g;
    g.width = w;
    g.height = h;
    std::string base = pix_fmt;
    g.bpc = 8;
    for (unsigned bits : {10u, 12u, 16u}) {
        const std::string suffix = std::to_string(bits) + "le";
        if (base.size() > suffix.size() && base.compare(base.size() - suffix.size(), suffix.size(), suffix) == 0) {
            g.bpc = bits;
            base.resize(base.size() - suffix.size());
        }
    }
    if (base == "yuv420p") g.format = vmaf::PixelFormat::Yuv420;
    else if (base == "yuv422p") g.format = vmaf::PixelFormat::Yuv422;
    else if (base == "yuv444p") g.format = vmaf::PixelFormat::Yuv444;
    else throw std::invalid_argument("--pix-fmt '" + pix_fmt + "': expected yuv420p/yuv422p/yuv444p, optionally 10le/12le/16le");
    return g;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"vmaf-tune: encode sweeps scored with VMAF in-process"};
    app.require_subcommand(1);

    CorpusOptions c;
    std::vector<std::string> sources;
    unsigned width = 0, height = 0;
    std::string pix_fmt = "yuv420p", shard = "0/1", extra;
    double framerate = 24, cache_mb = 256;
    bool no_cache = false;
    auto* corpus = app.add_subcommand("corpus", "encode a grid of cells and score each encode against its source");
    corpus->add_option("--source", sources, "source video (repeatable): raw YUV with --width --height, or Y4M / containers")
        ->required();
    corpus->add_option("--width", width, "raw source width");
    corpus->add_option("--height", height, "raw source height");
    corpus->add_option("--pix-fmt", pix_fmt, "raw source pixel format (yuv420p, yuv422p10le, ...)");
    corpus->add_option("--framerate", framerate, "raw source frame rate");
    corpus->add_option("--encoder", c.encoders, "libx264, libx265, libsvtav1, libaom-av1, libvpx-vp9, h264_nvenc, hevc_nvenc, av1_nvenc (repeatable)");
    corpus->add_option("--preset", c.presets, "encoder preset (repeatable; default: each encoder's own)");
    corpus->add_option("--crf", c.crf_specs, "CRF (repeatable) or FIRST:LAST[:STEP]")->required();
    corpus->add_option("--vmaf-model", c.model, "built-in model name or model .json path (default vmaf_v0.6.1; vmaf_4k_v0.6.1 at >= 2160p)");
    corpus->add_option("--score-backend", c.score_backend, "auto (cuda, sycl, hip, then cpu), cuda, sycl, hip or cpu");
    corpus->add_option("--jobs", c.jobs, "encodes at a time");
    corpus->add_option("--threads", c.threads, "scoring threads (default: every core)");
    corpus->add_option("--sample-seconds", c.sample_seconds, "encode and score only the centre S seconds of each source");
    corpus->add_option("--extra-ffmpeg-args", extra, "more ffmpeg output options, one string split at spaces");
    corpus->add_flag("--keep-encodes", c.keep_encodes, "keep the encoded files (default: deleted once scored)");
    corpus->add_option("--encode-dir", c.encode_dir, "where encodes go (default OUT.encodes)");
    corpus->add_option("--out", c.out, "JSONL file rows are appended to (cells already in it are skipped)");
    corpus->add_option("--shard", shard, "I/N: this process takes grid cells i with i % N == I");
    corpus->add_flag("--no-cache", no_cache, "neither read nor write the score cache");
    corpus->add_option("--cache-dir", c.cache_dir, "score cache (default $XDG_CACHE_HOME/vmaf-tune)");
    corpus->add_option("--cache-size-mb", cache_mb, "score cache size cap");
    corpus->add_option("--ffmpeg", c.ffmpeg, "ffmpeg program");

    std::vector<std::string> merge_in;
    std::string merge_out;
    auto* merge = app.add_subcommand("merge", "join the JSONL files of a sharded sweep, one row per cell");
    merge->add_option("inputs", merge_in, "JSONL files")->required();
    merge->add_option("-o,--out", merge_out, "merged JSONL file")->required();

    std::string report_in, report_out, report_title;
    auto* report = app.add_subcommand("report", "one self-contained HTML page with plots and a table of a corpus");
    report->add_option("corpus", report_in, "JSONL file")->required();
    report->add_option("-o,--out", report_out, "HTML file")->required();
    report->add_option("--title", report_title, "page title");

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) return app.exit(e);
        std::fprintf(stderr, "vmaf-tune: %s (see --help)\n", e.what());
        return 2;
    }
    try {
        if (*corpus) {
            for (const std::string& s : sources) {
                SourceSpec spec;
                spec.path = s;
                if (width || height) {
                    if (!width || !height) throw std::invalid_argument("raw sources need both --width and --height");
                    spec.raw = raw_geometry(width, height, pix_fmt);
                    spec.raw_pix_fmt = pix_fmt;
                    if (!(framerate > 0)) throw std::invalid_argument("--framerate must be positive");
                    spec.raw_fps = framerate;
                }
                c.sources.push_back(spec);
            }
            for (std::size_t a = 0, b; a < extra.size(); a = b + 1) {
                b = extra.find(' ', a);
                if (b == std::string::npos) b = extra.size();
                if (b > a) c.extra_ffmpeg_args.push_back(extra.substr(a, b - a));
            }
            c.shard = parse_shard(shard);
            c.use_cache = !no_cache;
            if (!(cache_mb > 0)) throw std::invalid_argument("--cache-size-mb must be positive");
            c.cache_max_bytes = static_cast<std::uint64_t>(cache_mb * 1024 * 1024);
            return run_corpus(c);
        }
        if (*merge) {
            const auto rows = merge_rows(merge_in);
            write_rows(merge_out, rows);
            std::fprintf(stderr, "vmaf-tune: %zu rows from %zu files written to %s\n", rows.size(), merge_in.size(),
                         merge_out.c_str());
            return 0;
        }
        if (*report) {
            const auto rows = read_rows(report_in);
            if (rows.empty()) throw std::invalid_argument(report_in + " has no rows");
            const std::string html = render_report(rows, report_title.empty() ? "vmaf-tune: " + report_in : report_title);
            const std::string tmp = report_out + ".tmp";
            {
                std::ofstream out(tmp, std::ios::binary);
                out << html;
                if (!out) throw std::runtime_error("cannot write " + tmp);
            }
            if (std::rename(tmp.c_str(), report_out.c_str()) != 0) throw std::runtime_error("cannot write " + report_out);
            return 0;
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vmaf-tune: %s\n", e.what());
        return 2;
    }
    return 2;
}
