// Typed extractor options: each extractor declares a table of OptionSpec;
// user strings ("key=value") are parsed and range-checked against it once, at
// the edge, into an OptionValues that the extractor reads by index.
#pragma once

#include <map>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace vmaf {

enum class OptType { Bool, Int, Double, String };
using OptValue = std::variant<bool, int, double, std::string>;

struct OptionSpec {
    std::string_view name;
    std::string_view alias;  ///< used in feature-key suffixes; empty = name
    OptType type;
    OptValue def;
    double min = 0, max = 0;     ///< inclusive range for Int/Double (ignored if min > max)
    bool feature_param = false;  ///< non-default value suffixes emitted keys
    std::string_view help;
};

/// Raw user options, key -> value text, in insertion order.
using OptionDict = std::vector<std::pair<std::string, std::string>>;

/// Resolved option values for one extractor instance; index = position in the spec table.
class OptionValues {
public:
    OptionValues() = default;
    /// Applies `dict` over the defaults of `specs`. Throws vmaf::Error(Usage)
    /// naming `owner` on an unknown key, an unparsable value or one out of range.
    OptionValues(std::span<const OptionSpec> specs, const OptionDict& dict, std::string_view owner);

    bool b(std::size_t i) const { return std::get<bool>(values_.at(i)); }
    int i(std::size_t i) const { return std::get<int>(values_.at(i)); }
    double d(std::size_t i) const { return std::get<double>(values_.at(i)); }
    const std::string& s(std::size_t i) const { return std::get<std::string>(values_.at(i)); }

    /// Key suffix upstream appends for non-default feature parameters, e.g. "_egl_1".
    std::string key_suffix() const;
    /// Canonical identity: equal for two instances that compute the same thing.
    /// Options named in `except` are left out (equal for instances that differ only in them).
    std::string identity(std::span<const std::string_view> except = {}) const;
    std::span<const OptionSpec> specs() const { return specs_; }
    const std::vector<OptValue>& values() const { return values_; }

private:
    std::span<const OptionSpec> specs_;
    std::vector<OptValue> values_;
};

/// Formats a value the way upstream prints option values in key suffixes
/// (bool "true"/"false", int "%d", double "%g").
std::string format_option_value(const OptValue& v);

}  // namespace vmaf
