#include "names.hpp"

#include <algorithm>
#include <cctype>

#include "vmaf/catalog.hpp"
#include "vmaf/error.hpp"

namespace vmaf::cli {

namespace {

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

/// Levenshtein distance (insertions, deletions, substitutions).
std::size_t edits(const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diag = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diag = up;
        }
    }
    return row[b.size()];
}

/// " (did you mean 'X'?) " part and the listing hint, as one tail.
std::string hint(const std::string& nearest, const char* listing) {
    return (nearest.empty() ? std::string() : "; did you mean '" + nearest + "'?") + " (" + listing + ")";
}

constexpr const char* kGpuSuffixes[] = {"_cuda", "_sycl", "_hip", "_metal"};

}  // namespace

std::string nearest_name(const std::string& name, const std::vector<std::string>& candidates) {
    const std::string n = lower(name);
    const std::size_t limit = std::max<std::size_t>(1, n.size() / 3);
    std::string best;
    std::size_t best_edits = limit + 1;
    for (const std::string& c : candidates) {
        const std::size_t d = edits(n, lower(c));
        if (d < best_edits) {
            best_edits = d;
            best = c;
        }
    }
    return best;
}

bool is_builtin_model(const std::string& version) {
    for (const ModelInfo& m : list_models())
        if (m.version == version) return true;
    return false;
}

void check_feature_name(const std::string& name) {
    std::vector<std::string> names;
    for (const FeatureInfo& f : list_features()) names.push_back(f.name);
    auto known = [&](const std::string& n) { return std::find(names.begin(), names.end(), n) != names.end(); };
    if (known(name)) return;
    std::string base = name, suffix;
    for (const std::string s : kGpuSuffixes)
        if (name.size() > s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0) {
            base = name.substr(0, name.size() - s.size());
            suffix = s;
        }
    if (!suffix.empty() && known(base)) return;
    const std::string nearest = nearest_name(base, names);
    throw Error(ErrorKind::Usage, "unknown feature '" + name + "'" +
                                      hint(nearest.empty() ? "" : nearest + suffix, "vmaf --list-features lists them"));
}

void check_model_version(const std::string& version) {
    if (is_builtin_model(version)) return;
    std::vector<std::string> names;
    for (const ModelInfo& m : list_models()) names.push_back(m.version);
    throw Error(ErrorKind::Usage, "no built-in model '" + version + "'" +
                                      hint(nearest_name(version, names), "vmaf --list-models lists them"));
}

}  // namespace vmaf::cli
