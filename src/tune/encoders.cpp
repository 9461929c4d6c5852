#include "tune/encoders.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <regex>
#include <stdexcept>

#include "tune/process.hpp"

namespace vmaf::tune {

namespace {

std::string require_one_of(const std::string& encoder, const std::string& preset,
                           const std::vector<std::string>& allowed) {
    if (std::find(allowed.begin(), allowed.end(), preset) == allowed.end()) {
        std::string list;
        for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
        throw std::invalid_argument("--preset '" + preset + "' is not a preset of " + encoder + " (" + list + ")");
    }
    return preset;
}

std::string require_int(const std::string& encoder, const std::string& preset, int lo, int hi) {
    std::vector<std::string> allowed;
    for (int i = lo; i <= hi; ++i) allowed.push_back(std::to_string(i));
    return require_one_of(encoder, preset, allowed);
}

const std::vector<std::string> kX26xPresets = {"ultrafast", "superfast", "veryfast", "faster",   "fast",
                                               "medium",    "slow",      "slower",   "veryslow", "placebo"};
const std::vector<std::string> kNvencPresets = {"p1", "p2", "p3", "p4", "p5", "p6", "p7"};

std::vector<std::string> nvenc(const char* codec, const std::string& preset, const std::string& crf) {
    return {"-c:v", codec,  "-preset", require_one_of(codec, preset, kNvencPresets), "-rc", "vbr", "-cq",
            crf,    "-b:v", "0"};
}

const std::vector<std::string> kQsvPresets = {"veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow"};
const std::vector<std::string> kAmfPresets = {"speed", "balanced", "quality"};

/// Intel Quick Sync: ICQ (intelligent constant quality) at -global_quality.
std::vector<std::string> qsv(const char* codec, const std::string& preset, const std::string& q) {
    return {"-c:v", codec, "-preset", require_one_of(codec, preset, kQsvPresets), "-global_quality", q};
}

/// VAAPI: constant QP; the preset is the driver's -compression_level (1 best quality .. 7 fastest).
std::vector<std::string> vaapi(const char* codec, const std::string& preset, const std::string& q) {
    return {"-c:v", codec, "-compression_level", require_int(codec, preset, 1, 7), "-rc_mode", "CQP", "-qp", q};
}

/// AMD AMF: constant QP on every frame type, -quality as the preset.
std::vector<std::string> amf(const char* codec, const std::string& preset, const std::string& q) {
    return {"-c:v", codec,   "-quality", require_one_of(codec, preset, kAmfPresets), "-rc", "cqp", "-qp_i", q, "-qp_p",
            q,      "-qp_b", q};
}

using In = EncoderAdapter::Input;

const EncoderAdapter kAdapters[] = {
    {"libx264", "medium", 0, 51, "mp4",
     [](const std::string& p, const std::string& q) -> std::vector<std::string> {
         return {"-c:v", "libx264", "-preset", require_one_of("libx264", p, kX26xPresets), "-crf", q};
     },
     true},
    {"libx265", "medium", 0, 51, "mp4",
     [](const std::string& p, const std::string& q) -> std::vector<std::string> {
         return {"-c:v",   "libx265", "-preset",      require_one_of("libx265", p, kX26xPresets),
                 "-crf",   q,         "-x265-params", "log-level=error",
                 "-tag:v", "hvc1"};
     },
     true},
    {"libsvtav1", "8", 1, 63, "mkv",
     [](const std::string& p, const std::string& q) -> std::vector<std::string> {
         return {"-c:v", "libsvtav1", "-preset", require_int("libsvtav1", p, 0, 13), "-crf", q};
     }},
    {"libaom-av1", "6", 0, 63, "mkv",
     [](const std::string& p, const std::string& q) -> std::vector<std::string> {
         return {"-c:v", "libaom-av1", "-cpu-used", require_int("libaom-av1", p, 0, 8), "-crf", q, "-b:v",
                 "0",    "-row-mt",    "1"};
     }},
    {"libvpx-vp9", "4", 0, 63, "webm",
     [](const std::string& p, const std::string& q) -> std::vector<std::string> {
         return {"-c:v", "libvpx-vp9", "-deadline", "good",    "-cpu-used", require_int("libvpx-vp9", p, 0, 8), "-crf",
                 q,      "-b:v",       "0",         "-row-mt", "1"};
     }},
    {"h264_nvenc", "p4", 0, 51, "mp4",
     [](const std::string& p, const std::string& q) { return nvenc("h264_nvenc", p, q); }, true},
    {"hevc_nvenc", "p4", 0, 51, "mp4",
     [](const std::string& p, const std::string& q) { return nvenc("hevc_nvenc", p, q); }, true},
    {"av1_nvenc", "p4", 0, 63, "mkv",
     [](const std::string& p, const std::string& q) { return nvenc("av1_nvenc", p, q); }, true},
    {"h264_qsv", "medium", 1, 51, "mp4",
     [](const std::string& p, const std::string& q) { return qsv("h264_qsv", p, q); }, false, In::Nv12, "ICQ"},
    {"hevc_qsv", "medium", 1, 51, "mp4",
     [](const std::string& p, const std::string& q) { return qsv("hevc_qsv", p, q); }, false, In::Nv12, "ICQ"},
    {"av1_qsv", "medium", 1, 255, "mkv",
     [](const std::string& p, const std::string& q) { return qsv("av1_qsv", p, q); }, false, In::Nv12, "ICQ"},
    {"h264_vaapi", "4", 0, 51, "mp4",
     [](const std::string& p, const std::string& q) { return vaapi("h264_vaapi", p, q); }, false, In::Vaapi, "QP"},
    {"hevc_vaapi", "4", 0, 51, "mp4",
     [](const std::string& p, const std::string& q) { return vaapi("hevc_vaapi", p, q); }, false, In::Vaapi, "QP"},
    {"av1_vaapi", "4", 0, 255, "mkv",
     [](const std::string& p, const std::string& q) { return vaapi("av1_vaapi", p, q); }, false, In::Vaapi, "QP"},
    {"h264_amf", "balanced", 0, 51, "mp4",
     [](const std::string& p, const std::string& q) { return amf("h264_amf", p, q); }, false, In::Nv12, "QP"},
    {"hevc_amf", "balanced", 0, 51, "mp4",
     [](const std::string& p, const std::string& q) { return amf("hevc_amf", p, q); }, false, In::Nv12, "QP"},
    {"av1_amf", "balanced", 0, 255, "mkv",
     [](const std::string& p, const std::string& q) { return amf("av1_amf", p, q); }, false, In::Nv12, "QP"},
};

/// Lower-case copy.
std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

}  // namespace

const EncoderAdapter* find_encoder(const std::string& name) {
    for (const EncoderAdapter& a : kAdapters)
        if (a.name == name) return &a;
    return nullptr;
}

std::vector<std::string> encoder_names() {
    std::vector<std::string> out;
    for (const EncoderAdapter& a : kAdapters) out.push_back(a.name);
    return out;
}

HardwareInput hardware_input(const EncoderAdapter& a, unsigned bpc, const std::string& source_pix_fmt) {
    HardwareInput h;
    const std::string surface = bpc > 8 ? "p010le" : "nv12";
    switch (a.input) {
        case EncoderAdapter::Input::None:
            h.pix_fmt = source_pix_fmt;
            break;
        case EncoderAdapter::Input::Nv12:
            h.pix_fmt = surface;
            break;
        case EncoderAdapter::Input::Vaapi:
            h.before_input = {"-init_hw_device", "vaapi=va", "-filter_hw_device", "va"};
            h.filters = "format=" + surface + ",hwupload";
            break;
    }
    return h;
}

std::string hardware_failure_hint(const EncoderAdapter& a, const std::string& ffmpeg_stderr) {
    const std::string e = lower(ffmpeg_stderr);
    auto has = [&](std::initializer_list<const char*> words) {
        for (const char* w : words)
            if (e.find(w) != std::string::npos) return true;
        return false;
    };
    const std::string& n = a.name;
    const bool nvenc = n.find("_nvenc") != std::string::npos, qsv = n.find("_qsv") != std::string::npos,
               vaapi = n.find("_vaapi") != std::string::npos, amf = n.find("_amf") != std::string::npos;
    if (nvenc && has({"libcuda", "cannot load cuda", "no nvenc capable devices", "no capable devices found", "cuinit",
                      "driver does not support the required nvenc api"}))
        return n + " needs an NVIDIA GPU with its driver (libcuda, NVENC); this machine has none usable";
    if (nvenc && has({"openencodesessionex failed", "out of memory", "incompatible client key"}))
        return n +
               ": the NVIDIA driver refused an encode session (too many sessions, or a driver older than "
               "this ffmpeg's NVENC API)";
    if (qsv && has({"mfx session", "error initializing an mfx session", "unsupported", "error creating a mfx session",
                    "libmfx", "libvpl", "device creation failed", "failed to create a qsv device"}))
        return n +
               " needs an Intel GPU with its media driver (oneVPL/libmfx, intel-media-va-driver); none is usable "
               "here";
    if (vaapi && has({"no va display", "failed to initialise vaapi", "device creation failed",
                      "failed to set value 'vaapi", "cannot open", "vainitialize failed"}))
        return n +
               " needs a VAAPI device (/dev/dri/renderD*) with its driver (mesa-va-drivers or "
               "intel-media-va-driver); none is usable here";
    if (vaapi && has({"no usable encoding entrypoint", "profile", "not supported"}))
        return n + ": the VAAPI driver cannot encode this profile, size or bit depth";
    if (amf && has({"amf", "dll", "failed to initialise", "load library"}))
        return n + " needs an AMD GPU with the AMF runtime (AMD's driver); none is usable here";
    return {};
}

std::vector<std::string> ffmpeg_encoders(const std::string& ffmpeg) {
    const ProcessResult r = run_process({ffmpeg, "-hide_banner", "-encoders"}, true);
    std::vector<std::string> out;
    // Lines like " V....D libx264              libx264 H.264 ..."
    static const std::regex line(R"(^ [VAS][A-Z.]{5} (\S+) )");
    std::size_t start = 0;
    while (start < r.out.size()) {
        std::size_t end = r.out.find('\n', start);
        if (end == std::string::npos) end = r.out.size();
        std::smatch m;
        const std::string l = r.out.substr(start, end - start);
        if (std::regex_search(l, m, line)) out.push_back(m[1]);
        start = end + 1;
    }
    return out;
}

std::string ffmpeg_version(const std::string& ffmpeg) {
    const ProcessResult r = run_process({ffmpeg, "-hide_banner", "-version"}, true);
    static const std::regex re(R"(ffmpeg version (\S+))");
    std::smatch m;
    if (r.exit_code == 0 && std::regex_search(r.out, m, re)) return m[1];
    return "unknown";
}

std::string bitstream_encoder_version(const std::string& encoder, const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::string head(1 << 16, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(in.gcount()));
    std::smatch m;
    if (encoder == "libx264") {
        static const std::regex re(R"(x264 - (core \d+(?: r\d+ [0-9a-f]+)?))");
        if (std::regex_search(head, m, re)) return m[1];
    } else if (encoder == "libx265") {
        static const std::regex re(R"(x265 \(build \d+\) - ([0-9][0-9A-Za-z.+:-]*))");
        if (std::regex_search(head, m, re)) return m[1];
    }
    return {};
}

}  // namespace vmaf::tune
