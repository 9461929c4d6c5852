// vif_cuda: the CUDA twin of "vif". The device computes the four scales'
// integer sums (exact); the host finishes each scale's float num/den and the
// scores exactly as the CPU kind does.
#include <array>
#include <memory>
#include <span>

#include "backends/cuda/sums_twin.hpp"
#include "backends/cuda/twin_util.hpp"
#include "features/vif/cuda/vif_cuda_kernels.hpp"
#include "features/vif/vif_kernels.hpp"
#include "features/vif/vif_scores.hpp"

namespace vmaf::cuda {

namespace {

struct VifScratch {
    DeviceBuffer memory;
    vif::cuda::Scratch layout{};
};

/// One extractor for one or several option sets that differ only in
/// vif_enhn_gain_limit (a group): the filtered statistics are computed once
/// per frame and each limit finishes its own num_log sums (see launch_vif).
class VifCuda final : public SumsTwin<VifScratch> {
public:
    VifCuda(Session& s, const ExtractorInfo& kind, std::span<const OptionValues* const> sets, const VideoGeometry& g)
        : SumsTwin(s, "vif", g, 4 * vif::cuda::sums_per_scale(static_cast<unsigned>(sets.size())) * sizeof(long long),
                   [this] {
                       VifScratch v;
                       v.memory = DeviceBuffer(vif::cuda::scratch_bytes(w_, h_));
                       v.layout = vif::cuda::scratch_layout(v.memory.get(), w_, h_, table_.get<std::uint16_t>());
                       v.layout.fp64_mma = fp64_mma_;
                       return v;
                   }),
          w_(g.width),
          h_(g.height),
          bpc_(g.bpc),
          outputs_(static_cast<unsigned>(kind.outputs.size())),
          debug_(sets[0]->b(option_index(*sets[0], "debug"))),
          skip0_(sets[0]->b(option_index(*sets[0], "vif_skip_scale0"))),
          fp64_mma_(vif::cuda::fp64_mma_here()) {
        if (sets.empty() || sets.size() > vif::cuda::kMaxGainLimits)
            throw Error(ErrorKind::Internal, "vif_cuda: 1 to 4 option sets in a group");
        egl_.n = static_cast<unsigned>(sets.size());
        for (unsigned j = 0; j < egl_.n; ++j) egl_.v[j] = sets[j]->d(option_index(*sets[j], "vif_enhn_gain_limit"));
        vif::check_geometry(g.bpc, g.width, g.height);
        const auto& t = vif::log2_table();
        table_ = DeviceBuffer(t.size() * sizeof(std::uint16_t));
        check(cudaMemcpy(table_.get(), t.data(), t.size() * sizeof(std::uint16_t), cudaMemcpyHostToDevice),
              "log2 table upload");
    }

private:
    void launch(const DeviceFrame& f, VifScratch& scratch, void* sums, cudaStream_t s,
                FrameState& /*st*/) const override {
        vif::cuda::launch_vif(f.ref[0].data, f.dist[0].data, f.ref[0].pitch, w_, h_, bpc_, egl_, skip0_,
                              scratch.layout, static_cast<long long*>(sums), s);
    }

    /// The CPU's float finishing of the device's exact per-scale sums, per
    /// option set (set j's outputs follow set j-1's).
    void score(const void* sums, FrameState& st) const override {
        const auto* v = static_cast<const long long*>(sums);
        const unsigned per = vif::cuda::sums_per_scale(egl_.n), n = egl_.n;
        ScoreList one;
        for (unsigned j = 0; j < n; ++j) {
            std::array<vif::ScaleStat, vif::kScales> stat;
            for (unsigned k = 0; k < vif::kScales; ++k) {
                const long long* sc = v + per * k;
                stat[k] = vif::finish_statistic(vif::StatSums{sc[j], sc[n], sc[n + 1], sc[n + 2]});
            }
            one.clear();
            vif::append_scores(stat, skip0_, debug_, one);
            for (auto [o, value] : one) st.scores.emplace_back(o + j * outputs_, value);
        }
    }

    const unsigned w_, h_, bpc_, outputs_;
    const bool debug_;
    const bool skip0_;
    const bool fp64_mma_;  ///< the device (current at construction) runs statistic_mma
    vif::cuda::GainLimits egl_{};
    DeviceBuffer table_;
};

std::unique_ptr<FeatureExtractor> make(Session& s, const ExtractorInfo& kind, std::span<const OptionValues* const> sets,
                                       const VideoGeometry& g, const ExtractorContext& /*ctx*/) {
    return std::make_unique<VifCuda>(s, kind, sets, g);
}

}  // namespace

extern const TwinDescriptor kVifCudaTwin;
const TwinDescriptor kVifCudaTwin = GroupTwin<&make, vif::cuda::kMaxGainLimits>::descriptor("vif");

}  // namespace vmaf::cuda
