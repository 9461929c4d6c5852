#include "support/testdata.hpp"


#include <cstdio>
#include <string>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>

namespace fs = std::filesystem;

namespace vmaf::test {

std::string testdata_dir() {
    if (const char* env = std::getenv("VMAF_TESTDATA_DIR")) return env;
    return VMAF_TESTDATA_DIR;
}

std::string clip_path(const std::string& name) {
    const char* env = std::getenv("VMAF_TEST_CLIP_CACHE");
    const fs::path cache = fs::path(env ? env : VMAF_TEST_CLIP_CACHE);
    const fs::path out = cache / name;
    if (!fs::exists(out)) {
        // Generates the clip's pair with testdata/make_corpus.sh (the script
        // serialises concurrent test processes and checks the sha256).
        const std::string prefix = name.substr(0, name.find('_'));
        const std::string cmd = "bash '" + std::string(VMAF_PREPARE_CORPUS) + "' '" + testdata_dir() + "' '" +
                                cache.string() + "' '" + prefix + "' >&2";
        if (std::system(cmd.c_str()) != 0) throw std::runtime_error("failed: " + cmd);
        if (!fs::exists(out)) throw std::runtime_error("clip not in corpus: " + name);
    }
    std::ifstream mismatch(cache / "MISMATCH");
    for (std::string line; std::getline(mismatch, line);)
        if (line.compare(0, name.size() + 1, name + " ") == 0)
            throw std::runtime_error(std::string(kCorpusSkipTag) + ": " + name +
                                     " as this ffmpeg makes it differs from the recorded sha256 (expected got: " +
                                     line.substr(name.size() + 1) + "); goldens were computed from other bytes");
    return out.string();
}

static nlohmann::json load_json(const fs::path& p) {
    std::ifstream in(p);
    if (!in) throw std::runtime_error("cannot open " + p.string());
    return nlohmann::json::parse(in);
}

bool intel_host() {
#if defined(__x86_64__) || defined(__i386__)
    return __builtin_cpu_is("intel");
#else
    return false;
#endif
}

nlohmann::json golden_full(const std::string& stem) {
    const fs::path dir(testdata_dir());
    // Upstream's float ADM divides with the CPU's rcpss estimate, whose bits
    // differ between Intel and AMD: on Intel, upstream's own Intel output.
    if (intel_host() && fs::exists(dir / "golden-full-intel" / (stem + ".json")))
        return load_json(dir / "golden-full-intel" / (stem + ".json"));
    return load_json(dir / "golden-full" / (stem + ".json"));
}

const nlohmann::json& manifest() {
    static const nlohmann::json m = load_json(fs::path(testdata_dir()) / "manifest.json");
    return m;
}

static PixelFormat parse_fmt(const std::string& s) {
    if (s == "420") return PixelFormat::Yuv420;
    if (s == "422") return PixelFormat::Yuv422;
    if (s == "444") return PixelFormat::Yuv444;
    return PixelFormat::Yuv400;
}

PairInfo pair_info(const std::string& id) {
    for (const auto& p : manifest()["pairs"]) {
        if (p["id"] != id) continue;
        PairInfo info;
        info.id = id;
        info.ref = p["ref"];
        info.dist = p["dist"];
        info.geom.format = parse_fmt(p["vmaf_pixel_format"]);
        info.geom.bpc = p["bitdepth"];
        info.geom.width = p["width"];
        info.geom.height = p["height"];
        info.frames = p["frames"];
        return info;
    }
    throw std::runtime_error("unknown pair " + id);
}

std::vector<std::string> stored_pair_ids() {
    std::vector<std::string> ids;
    for (const auto& p : manifest()["pairs"]) {
        const std::string id = p["id"];
        if (id.rfind("p02", 0) != 0 && id.rfind("p06", 0) != 0) ids.push_back(id);
    }
    return ids;
}

Picture load_raw_frame(const std::string& path, const VideoGeometry& geom, unsigned index) {
    Picture pic(geom.format, geom.bpc, geom.width, geom.height);
    const unsigned bps = pic.bytes_per_sample();
    std::size_t frame_bytes = 0;
    for (unsigned p = 0; p < pic.planes(); ++p)
        frame_bytes += std::size_t{pic.plane(p).width} * pic.plane(p).height * bps;
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot open " + path);
    in.seekg(static_cast<std::streamoff>(frame_bytes * index));
    for (unsigned p = 0; p < pic.planes(); ++p) {
        const Plane& pl = pic.plane(p);
        for (unsigned y = 0; y < pl.height; ++y) {
            in.read(pl.row<char>(y), static_cast<std::streamsize>(std::size_t{pl.width} * bps));
            if (!in) throw std::runtime_error("short read in " + path);
        }
    }
    return pic;
}

double golden_value(const nlohmann::json& golden, unsigned frame, const std::string& key) {
    const auto& m = golden.at("frames").at(frame).at("metrics");
    if (!m.contains(key)) throw std::runtime_error("golden has no " + key + " at frame " + std::to_string(frame));
    const auto& v = m.at(key);
    if (v.is_null()) return std::numeric_limits<double>::quiet_NaN();
    return v.get<double>();
}

}  // namespace vmaf::test
