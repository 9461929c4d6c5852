// vif_cuda: the CUDA twin of "vif". The device computes the four scales'
// integer sums (exact); the host finishes each scale's float num/den and the
// scores exactly as the CPU kind does.
#include <array>
#include <memory>

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

class VifCuda final : public SumsTwin<VifScratch> {
public:
    VifCuda(Session& s, const OptionValues& o, const VideoGeometry& g)
        : SumsTwin(s, "vif", g, 16 * sizeof(long long),
                   [this] {
                       VifScratch v;
                       v.memory = DeviceBuffer(vif::cuda::scratch_bytes(w_, h_));
                       v.layout = vif::cuda::scratch_layout(v.memory.get(), w_, h_, table_.get<std::uint16_t>());
                       return v;
                   }),
          w_(g.width),
          h_(g.height),
          bpc_(g.bpc),
          debug_(o.b(option_index(o, "debug"))),
          egl_(o.d(option_index(o, "vif_enhn_gain_limit"))),
          skip0_(o.b(option_index(o, "vif_skip_scale0"))) {
        vif::check_geometry(g.bpc, g.width, g.height);
        const auto& t = vif::log2_table();
        table_ = DeviceBuffer(t.size() * sizeof(std::uint16_t));
        check(cudaMemcpy(table_.get(), t.data(), t.size() * sizeof(std::uint16_t), cudaMemcpyHostToDevice),
              "log2 table upload");
    }

private:
    void launch(const DeviceFrame& f, VifScratch& scratch, void* sums, cudaStream_t s,
                FrameState& /*st*/) const override {
        vif::cuda::launch_vif(f.ref[0].data, f.dist[0].data, f.ref[0].pitch, w_, h_, bpc_, egl_, skip0_, scratch.layout,
                              static_cast<long long*>(sums), s);
    }

    /// The CPU's float finishing of the device's exact per-scale sums.
    void score(const void* sums, FrameState& st) const override {
        const auto* v = static_cast<const long long*>(sums);
        std::array<vif::ScaleStat, vif::kScales> stat;
        for (unsigned k = 0; k < vif::kScales; ++k)
            stat[k] = vif::finish_statistic(vif::StatSums{v[4 * k], v[4 * k + 1], v[4 * k + 2], v[4 * k + 3]});
        vif::append_scores(stat, skip0_, debug_, st.scores);
    }

    const unsigned w_, h_, bpc_;
    const bool debug_;
    const double egl_;
    const bool skip0_;
    DeviceBuffer table_;
};

std::unique_ptr<FeatureExtractor> create(Session& s, const ExtractorInfo& /*kind*/, const OptionValues& o,
                                         const VideoGeometry& g, const ExtractorContext& /*ctx*/) {
    return std::make_unique<VifCuda>(s, o, g);
}

}  // namespace

extern const TwinDescriptor kVifCudaTwin;
const TwinDescriptor kVifCudaTwin{.kind = "vif", .create = &create};

}  // namespace vmaf::cuda
