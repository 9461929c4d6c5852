// libFuzzer target: the model loader. The first input byte picks the mode:
//   < 0xc0  the rest is a model JSON document (single model or bootstrap
//           collection), loaded, configured and used for a prediction;
//   >= 0xc0 the rest is libsvm model text, parsed and used for a prediction.
// Every failure must be a vmaf::Error.
#include <cstdint>
#include <vector>

#include "fuzz_util.hpp"
#include "model/model.hpp"
#include "model/svm.hpp"
#include "vmaf/error.hpp"

namespace {

std::vector<double> sample(std::size_t n) {
    std::vector<double> x(n);
    for (std::size_t i = 0; i < n; ++i) x[i] = 0.25 * static_cast<double>(i) - 0.5;
    return x;
}

template <typename M>
void exercise(M& m, std::uint8_t mode) {
    m.set_clip_enabled(mode & 1);
    m.set_transform_enabled(mode & 2);
    if (mode & 4) m.set_name("score");
    if (mode & 8) m.override_option("vif", "vif_enhn_gain_limit", "1.0");
    (void)m.predict(sample(m.features().size()));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    vmaf::fuzz::Bytes in(data, size);
    const std::uint8_t mode = in.u8();
    const std::string_view text = in.rest();
    try {
        if (mode >= 0xc0) {
            const auto svm = vmaf::detail::SvmModel::parse(text, "fuzz");
            (void)svm.predict(sample(mode & 7));
        } else if (vmaf::ModelCollection::is_collection_json(text)) {
            auto c = vmaf::ModelCollection::from_json(text, "fuzz");
            exercise(c, mode);
        } else {
            auto m = vmaf::Model::from_json(text, "fuzz");
            exercise(m, mode);
        }
    } catch (const vmaf::Error&) {
    }
    return 0;
}
