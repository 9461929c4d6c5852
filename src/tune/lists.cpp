#include "tune/lists.hpp"

#include <stdexcept>

namespace vmaf::tune {

std::vector<std::string> split_list(const std::string& text) {
    std::vector<std::string> out;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i) {
        if (i < text.size() && text[i] != ',') continue;
        if (i > start) out.push_back(text.substr(start, i - start));
        start = i + 1;
    }
    return out;
}

std::vector<double> parse_number_list(const std::string& text, const std::string& option) {
    std::vector<double> out;
    for (const std::string& item : split_list(text)) {
        std::size_t used = 0;
        double v = 0;
        try {
            v = std::stod(item, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != item.size()) throw std::invalid_argument(option + ": '" + item + "' is not a number");
        out.push_back(v);
    }
    if (out.empty()) throw std::invalid_argument(option + " is empty: give values like 95,90,80");
    return out;
}

EncoderRun parse_encoder_run(const std::string& item) {
    EncoderRun run;
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= item.size(); ++i)
        if (i == item.size() || item[i] == ':') {
            parts.push_back(item.substr(start, i - start));
            start = i + 1;
        }
    if (parts.size() > 3 || parts[0].empty())
        throw std::invalid_argument("'" + item + "' is not ENCODER[:PRESET[:CRFS]] (e.g. libx264:veryfast:18-36)");
    run.encoder = parts[0];
    if (parts.size() > 1) run.preset = parts[1];
    if (parts.size() > 2) {
        // FIRST-LAST[/STEP] is --crf's FIRST:LAST[:STEP]; parse_crf_list checks the numbers.
        std::string spec = parts[2];
        if (spec.empty()) throw std::invalid_argument("'" + item + "': the CRFs after the second ':' are missing");
        for (char& c : spec)
            if (c == '-' || c == '/') c = ':';
        run.crf_specs = {spec};
    }
    return run;
}

}  // namespace vmaf::tune
