#include "core/options.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>

#include "vmaf/error.hpp"

namespace vmaf {

namespace {

[[noreturn]] void fail(std::string_view owner, const std::string& what) {
    throw Error(ErrorKind::Usage, std::string(owner) + ": " + what);
}

OptValue parse_value(const OptionSpec& spec, const std::string& text, std::string_view owner) {
    const std::string key(spec.name);
    switch (spec.type) {
        case OptType::Bool:
            if (text == "true" || text == "1") return true;
            if (text == "false" || text == "0") return false;
            fail(owner, "option " + key + " expects true or false, got '" + text + "'");
        case OptType::Int: {
            errno = 0;
            char* end = nullptr;
            const long v = std::strtol(text.c_str(), &end, 0);
            if (text.empty() || *end || errno) fail(owner, "option " + key + " expects an integer, got '" + text + "'");
            if (spec.min <= spec.max && (v < spec.min || v > spec.max))
                fail(owner, "option " + key + "=" + text + " is out of range [" + format_option_value(spec.min) +
                                ", " + format_option_value(spec.max) + "]");
            return static_cast<int>(v);
        }
        case OptType::Double: {
            errno = 0;
            char* end = nullptr;
            const double v = std::strtod(text.c_str(), &end);
            if (text.empty() || *end || errno) fail(owner, "option " + key + " expects a number, got '" + text + "'");
            if (spec.min <= spec.max && (v < spec.min || v > spec.max))
                fail(owner, "option " + key + "=" + text + " is out of range [" + format_option_value(spec.min) +
                                ", " + format_option_value(spec.max) + "]");
            return v;
        }
        case OptType::String: return text;
    }
    fail(owner, "bad option type");
}

}  // namespace

std::string format_option_value(const OptValue& v) {
    char buf[64];
    switch (v.index()) {
        case 0: return std::get<bool>(v) ? "true" : "false";
        case 1: std::snprintf(buf, sizeof buf, "%d", std::get<int>(v)); return buf;
        case 2: std::snprintf(buf, sizeof buf, "%g", std::get<double>(v)); return buf;
        default: return std::get<std::string>(v);
    }
}

OptionValues::OptionValues(std::span<const OptionSpec> specs, const OptionDict& dict, std::string_view owner)
    : specs_(specs) {
    values_.reserve(specs.size());
    for (const auto& s : specs) values_.push_back(s.def);
    for (const auto& entry : dict) {
        const std::string& key = entry.first;  // a named variable: clang 14 cannot capture structured bindings
        const std::string& text = entry.second;
        auto it = std::find_if(specs.begin(), specs.end(), [&](const OptionSpec& s) { return s.name == key; });
        if (it == specs.end()) fail(owner, "unknown option '" + key + "'");
        values_[static_cast<std::size_t>(it - specs.begin())] = parse_value(*it, text, owner);
    }
}

std::string OptionValues::key_suffix() const {
    // Upstream sorts the non-default feature parameters by option name.
    std::vector<std::size_t> idx;
    for (std::size_t k = 0; k < specs_.size(); ++k)
        if (specs_[k].feature_param && values_[k] != specs_[k].def) idx.push_back(k);
    std::sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return specs_[a].name < specs_[b].name; });
    std::string out;
    for (std::size_t k : idx) {
        const auto& spec = specs_[k];
        out += '_';
        out += spec.alias.empty() ? spec.name : spec.alias;
        if (spec.type != OptType::Bool) out += '_' + format_option_value(values_[k]);
    }
    return out;
}

std::string OptionValues::identity(std::span<const std::string_view> except) const {
    std::string out;
    for (std::size_t k = 0; k < specs_.size(); ++k) {
        if (std::find(except.begin(), except.end(), specs_[k].name) != except.end()) continue;
        out += specs_[k].name;
        out += '=';
        out += format_option_value(values_[k]);
        if (values_[k].index() == 2) {  // exact double, not %g
            char buf[40];
            std::snprintf(buf, sizeof buf, "%a", std::get<double>(values_[k]));
            out += buf;
        }
        out += ';';
    }
    return out;
}

}  // namespace vmaf
