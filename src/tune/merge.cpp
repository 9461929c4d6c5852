#include "tune/merge.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace vmaf::tune {

std::vector<Row> merge_rows(const std::vector<std::string>& inputs) {
    std::vector<Row> out;
    std::map<std::string, std::size_t> at;
    for (const std::string& path : inputs) {
        for (Row& r : read_rows(path)) {
            const std::string id = cell_identity(r);
            const auto it = at.find(id);
            if (it == at.end()) {
                at.emplace(id, out.size());
                out.push_back(std::move(r));
            } else if (out[it->second]["exit_status"] != 0 && r["exit_status"] == 0) {
                out[it->second] = std::move(r);
            }
        }
    }
    auto key = [](const Row& r) {
        return std::make_tuple(r.value("src", std::string()), r.value("encoder", std::string()),
                               r.value("preset", std::string()), r.value("crf", 0.0), cell_identity(r));
    };
    std::stable_sort(out.begin(), out.end(), [&](const Row& a, const Row& b) { return key(a) < key(b); });
    return out;
}

}  // namespace vmaf::tune
