// Encoder adapters: how `vmaf-tune` asks Debian's ffmpeg CLI for one encode
// of each supported encoder at a preset and a CRF.
#pragma once

#include <string>
#include <vector>

namespace vmaf::tune {

struct EncoderAdapter {
    std::string name;            ///< ffmpeg encoder name, e.g. "libx264"
    std::string default_preset;  ///< when --preset is not given
    int crf_min = 0, crf_max = 51;
    std::string extension;  ///< container of the encode: "mp4", "mkv", "webm"
    /// ffmpeg output options for `preset` and `crf` (codec, rate control;
    /// the CRF as crf_text writes it). Throws std::invalid_argument for a
    /// preset the encoder does not have.
    std::vector<std::string> (*args)(const std::string& preset, const std::string& crf) = nullptr;
    bool fractional_crf = false;  ///< the encoder's CRF takes fractions (ffmpeg's -crf is a float)
    /// How frames reach a hardware encoder: None (software, or NVENC, which
    /// takes the source's layout), Nv12 (system-memory NV12/P010 frames: QSV,
    /// AMF), Vaapi (uploaded to a VAAPI device the command initialises).
    enum class Input { None, Nv12, Vaapi } input = Input::None;
    /// What its quality value is called, for messages ("CRF", "QP", "ICQ").
    const char* quality_name = "CRF";
};

/// The ffmpeg options around the encoder's own for frames of bit depth `bpc`:
/// `before_input` goes before -i (a hardware device), `filters` at the end of
/// the filter graph (hwupload), `pix_fmt` the output -pix_fmt (empty: none).
struct HardwareInput {
    std::vector<std::string> before_input;
    std::string filters, pix_fmt;
};
HardwareInput hardware_input(const EncoderAdapter& a, unsigned bpc, const std::string& source_pix_fmt);

/// Why a hardware encoder's ffmpeg run most likely failed (no device, no
/// driver, a size or format the device refuses), read from ffmpeg's stderr;
/// "" for software encoders and for failures it does not recognise.
std::string hardware_failure_hint(const EncoderAdapter& a, const std::string& ffmpeg_stderr);

/// The adapter for `name`, or nullptr when vmaf-tune does not know it.
const EncoderAdapter* find_encoder(const std::string& name);
/// Names of every known encoder.
std::vector<std::string> encoder_names();

/// Encoders the ffmpeg at `ffmpeg` offers (`ffmpeg -encoders`), by name.
std::vector<std::string> ffmpeg_encoders(const std::string& ffmpeg);
/// First line of `ffmpeg -version`'s version, e.g. "5.1.9-0+deb12u1"; "unknown" on failure.
std::string ffmpeg_version(const std::string& ffmpeg);
/// The encoder library's own version as written into the bitstream (x264
/// "core 164 r3095", x265 "3.5+1"), read from the first bytes of an encode;
/// "" when the encoder leaves none.
std::string bitstream_encoder_version(const std::string& encoder, const std::string& path);

}  // namespace vmaf::tune
