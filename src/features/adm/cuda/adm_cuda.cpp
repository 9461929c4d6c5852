// adm_cuda: the CUDA twin of "adm". The device runs the integer pipeline of
// all four scales and sums each scale's rows exactly; the host finishes the
// per-scale float math as the CPU kind does (adm_finish.*) and writes the CPU
// kind's outputs in its order.
#include <memory>
#include <span>
#include <vector>

#include "backends/cuda/sums_twin.hpp"
#include "features/adm/adm_kernels.hpp"
#include "features/adm/adm_scores.hpp"
#include "features/adm/adm_simd.hpp"
#include "features/adm/cuda/adm_cuda_kernels.hpp"
#include "features/adm/cuda/adm_finish.hpp"

namespace vmaf::cuda {

namespace {

/// One extractor for one or several option sets that differ only in
/// adm_enhn_gain_limit (a group): the DWT and den are computed once per
/// frame, decouple, CSF and masking once per limit (see launch_adm).
class AdmCuda final : public SumsTwin<DeviceBuffer> {
public:
    AdmCuda(Session& s, const ExtractorInfo& kind, std::span<const OptionValues* const> sets, const VideoGeometry& g)
        : SumsTwin(s, "adm", g, sets.size() * adm::cuda::kSums * sizeof(unsigned long long),
                   [this] {
                       // Zeroed once: the kernels leave their row sums zero after each frame. The
                       // lane's stream does not wait for the default stream: the zeroing must be
                       // done before its first frame's kernels are enqueued.
                       DeviceBuffer b(adm::cuda::scratch_bytes(w_, h_));
                       check(cudaMemsetAsync(b.get(), 0, b.size(), nullptr), "adm scratch");
                       check(cudaStreamSynchronize(nullptr), "adm scratch");
                       return b;
                   },
                   lanes_within_budget(adm::cuda::scratch_bytes(g.width, g.height))),
          w_(g.width),
          h_(g.height),
          outputs_(static_cast<unsigned>(kind.outputs.size())) {
        if (sets.empty() || sets.size() > adm::cuda::kMaxGainLimits)
            throw Error(ErrorKind::Internal, "adm_cuda: 1 to 4 option sets in a group");
        for (const OptionValues* o : sets) settings_.push_back(adm::settings_from(*o, g));
        egl_.n = static_cast<unsigned>(sets.size());
        for (unsigned j = 0; j < egl_.n; ++j) egl_.v[j] = settings_[j].params.enhn_gain_limit;
        fp_ = adm::cuda::make_params(settings_[0].params, w_, h_, g.bpc);
        // The CPU's reciprocal table, entries -32768..32768.
        const std::int32_t* lut = adm::div_lut() - 32768;
        lut_ = DeviceBuffer(65537 * sizeof(std::int32_t));
        check(cudaMemcpy(lut_.get(), lut, 65537 * sizeof(std::int32_t), cudaMemcpyHostToDevice), "div table upload");
    }

private:
    void launch(const DeviceFrame& f, DeviceBuffer& scratch, void* sums, cudaStream_t s,
                FrameState& /*st*/) const override {
        adm::cuda::launch_adm(f.ref[0].data, f.dist[0].data, f.ref[0].pitch, fp_, egl_, scratch.get(),
                              lut_.get<std::int32_t>() + 32768, static_cast<unsigned long long*>(sums), s);
    }

    /// The CPU's float finishing of the device's exact per-scale sums, per
    /// option set (set j's outputs follow set j-1's); den comes from the
    /// first set's sums.
    void score(const void* sums, FrameState& st) const override {
        using adm::cuda::kSums;
        using adm::cuda::kSumsPerScale;
        const auto* v = static_cast<const unsigned long long*>(sums);
        unsigned long long one[kSums];
        ScoreList scores;
        for (unsigned j = 0; j < egl_.n; ++j) {
            for (unsigned k = 0; k < kSums; ++k) one[k] = k % kSumsPerScale < 3 ? v[k] : v[j * kSums + k];
            scores.clear();
            adm::append_scores(adm::cuda::finish(settings_[j].params, fp_, one, w_, h_), settings_[j], scores);
            for (auto [o, value] : scores) st.scores.emplace_back(o + j * outputs_, value);
        }
    }

    const unsigned w_, h_, outputs_;
    std::vector<adm::Settings> settings_;
    adm::cuda::GainLimits egl_{};
    adm::cuda::FrameParams fp_{};
    DeviceBuffer lut_;
};

std::unique_ptr<FeatureExtractor> make(Session& s, const ExtractorInfo& kind, std::span<const OptionValues* const> sets,
                                       const VideoGeometry& g, const ExtractorContext& /*ctx*/) {
    return std::make_unique<AdmCuda>(s, kind, sets, g);
}

}  // namespace

extern const TwinDescriptor kAdmCudaTwin;
const TwinDescriptor kAdmCudaTwin = GroupTwin<&make, adm::cuda::kMaxGainLimits>::descriptor("adm");

}  // namespace vmaf::cuda
