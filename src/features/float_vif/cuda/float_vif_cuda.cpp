// float_vif_cuda: the CUDA twin of "float_vif". Why its scores equal the
// CPU's: the conversion to float, the resampling of vif_prescale (per-axis
// source indices and weights computed by the host with the CPU's own
// functions, floatfeat::scale_axis / bilinear_axis, then combined on the
// device in scale_frame's order), the separable mirrored convolutions (each
// output a float sum from 0 over the taps in order, vertical pass then
// horizontal, with the host's filter values), the decimation and the
// per-pixel statistic (vif_stat_row's float and double expressions, its
// log2 polynomial) are the CPU's operations in the CPU's order, compiled
// without contraction and with IEEE division. The CPU sums the statistic of
// each row in float from 0 in column order, then adds the row sums in float
// in row order: on the device one thread forms each row's sum in column order
// (row_sums), and the host adds the read-back row sums in row order, then
// scores them with the CPU kind's float_vif_scores. Option sets that differ
// only in vif_enhn_gain_limit (VMAF float + NEG) share one pass: the limit
// enters only the per-pixel statistic, which the device evaluates per limit.
#include <array>
#include <bit>
#include <memory>
#include <span>
#include <vector>

#include "backends/cuda/sums_twin.hpp"
#include "features/float_common/float_kernels.hpp"
#include "features/float_common/float_scale.hpp"
#include "features/float_vif/cuda/float_vif_cuda_kernels.hpp"
#include "features/float_vif/float_vif.hpp"
#include "features/float_vif/float_vif_math.hpp"

namespace vmaf::cuda {

namespace {

namespace fc = floatfeat::cuda;

struct VifScratchMem {
    DeviceBuffer memory;
    fc::VifScratch layout{};
};

class FloatVifCuda final : public SumsTwin<VifScratchMem> {
public:
    /// `p`: each option set's parameters (equal but in gain_limit).
    FloatVifCuda(Session& s, const ExtractorInfo& kind, std::vector<floatfeat::FloatVifParams> p,
                 const VideoGeometry& g, const fc::VifGeometry& vg)
        : SumsTwin(s, "float_vif", g, (vg.row_off[3] + 2 * p.size() * vg.hs[3]) * sizeof(float),
                   [this] {
                       VifScratchMem m;
                       m.memory = DeviceBuffer(fc::vif_scratch_bytes(geom_, prescale_.method != 0));
                       m.layout = fc::vif_scratch_layout(m.memory.get(), geom_, prescale_.method != 0);
                       return m;
                   }),
          p_(std::move(p)),
          geom_(vg),
          outputs_(static_cast<unsigned>(kind.outputs.size())) {
        if (p_.empty() || p_.size() > static_cast<std::size_t>(fc::kVifMaxLimits))
            throw Error(ErrorKind::Internal, "float_vif cuda: 1 to 4 option sets in a group");
        const floatfeat::FloatVifParams& p0 = p_[0];
        for (int sc = 0; sc < 4; ++sc) {
            const std::vector<float> f = floatfeat::vif_filter(sc, p0.kernelscale);
            if (f.size() > static_cast<std::size_t>(fc::kVifMaxTaps))
                throw Error(ErrorKind::Internal, "float_vif cuda: filter longer than kVifMaxTaps");
            k_.taps[sc] = static_cast<int>(f.size());
            for (std::size_t t = 0; t < f.size(); ++t) k_.f[sc][t] = f[t];
        }
        k_.limits = static_cast<int>(p_.size());
        for (std::size_t j = 0; j < p_.size(); ++j) {
            const floatfeat::VifStatParams sp = floatfeat::vif_stat_params(p_[j].sigma_nsq, p_[j].gain_limit);
            k_.sigma_nsq = sp.sigma_nsq;
            k_.sigma_max_inv = sp.sigma_max_inv;
            k_.gain_limit[j] = sp.gain_limit;
        }
        if (p0.sw != g.width || p0.sh != g.height) upload_prescale(g);
    }

private:
    /// The resampling tables of vif_prescale (the CPU's, from its functions).
    void upload_prescale(const VideoGeometry& g) {
        std::vector<int> idx[2];
        std::vector<float> wt[2];
        int taps = 0;
        const floatfeat::FloatVifParams& p0 = p_[0];
        const unsigned src[2] = {g.width, g.height}, dst[2] = {p0.sw, p0.sh};
        for (int a = 0; a < 2; ++a) {
            if (p0.method == floatfeat::ScaleMethod::Bilinear) {
                const floatfeat::BilinearAxis ax = floatfeat::bilinear_axis(src[a], dst[a]);
                idx[a] = ax.lo;
                idx[a].insert(idx[a].end(), ax.hi.begin(), ax.hi.end());
                wt[a] = ax.d;
            } else {
                floatfeat::ScaleAxis ax = floatfeat::scale_axis(p0.method, src[a], dst[a]);
                taps = ax.taps;
                idx[a] = std::move(ax.idx);
                wt[a] = std::move(ax.w);
            }
        }
        std::vector<int> all;
        std::size_t at[4];
        for (int a = 0; a < 2; ++a) {
            at[a] = all.size();
            all.insert(all.end(), idx[a].begin(), idx[a].end());
        }
        for (int a = 0; a < 2; ++a) {
            at[2 + a] = all.size();
            for (float v : wt[a]) all.push_back(std::bit_cast<int>(v));
        }
        tables_ = DeviceBuffer(std::max<std::size_t>(all.size(), 1) * sizeof(int));
        check(cudaMemcpy(tables_.get(), all.data(), all.size() * sizeof(int), cudaMemcpyHostToDevice),
              "float_vif tables upload");
        const int* t = tables_.get<int>();
        switch (p0.method) {
            case floatfeat::ScaleMethod::Nearest:
                prescale_.method = 1;
                break;
            case floatfeat::ScaleMethod::Bilinear:
                prescale_.method = 2;
                break;
            case floatfeat::ScaleMethod::Bicubic:
                prescale_.method = 3;
                break;
            case floatfeat::ScaleMethod::Lanczos4:
                prescale_.method = 4;
                break;
        }
        prescale_.taps = taps;
        prescale_.x_idx = t + at[0];
        prescale_.y_idx = t + at[1];
        prescale_.x_w = reinterpret_cast<const float*>(t + at[2]);
        prescale_.y_w = reinterpret_cast<const float*>(t + at[3]);
    }

    void launch(const DeviceFrame& f, VifScratchMem& scratch, void* sums, cudaStream_t s,
                FrameState& /*st*/) const override {
        fc::launch_float_vif(f.ref[0].data, f.dist[0].data, f.ref[0].pitch, geom_, k_, prescale_, scratch.layout,
                             static_cast<float*>(sums), s);
    }

    /// Per option set j (its outputs after set j-1's): statistic()'s float
    /// accumulation of the row sums in row order, then the CPU kind's scores.
    void score(const void* sums, FrameState& st) const override {
        const auto* rows = static_cast<const float*>(sums);
        ScoreList one;
        for (std::size_t j = 0; j < p_.size(); ++j) {
            std::array<double, 8> v{};
            for (int sc = geom_.first_scale; sc < 4; ++sc) {
                const float* num = rows + geom_.row_off[sc] + 2 * j * geom_.hs[sc];
                const float* den = num + geom_.hs[sc];
                float acc_num = 0.0f, acc_den = 0.0f;
                for (unsigned y = 0; y < geom_.hs[sc]; ++y) {
                    acc_num += num[y];
                    acc_den += den[y];
                }
                v[2 * sc] = acc_num;
                v[2 * sc + 1] = acc_den;
            }
            one.clear();
            floatfeat::float_vif_scores(v, p_[j], one);
            for (auto [o, value] : one) st.scores.emplace_back(o + static_cast<unsigned>(j) * outputs_, value);
        }
    }

    const std::vector<floatfeat::FloatVifParams> p_;
    const fc::VifGeometry geom_;
    const unsigned outputs_;
    fc::VifConstants k_{};
    fc::VifPrescale prescale_{};
    DeviceBuffer tables_;
};

std::unique_ptr<FeatureExtractor> make(Session& s, const ExtractorInfo& kind, std::span<const OptionValues* const> sets,
                                       const VideoGeometry& g, const ExtractorContext& ctx) {
    std::vector<floatfeat::FloatVifParams> p;
    for (const OptionValues* o : sets) {
        (void)kind.create(*o, g, ctx);  // the CPU kind's checks of the geometry and options
        p.push_back(floatfeat::float_vif_params(*o, g));
    }
    fc::VifGeometry vg{};
    vg.w = g.width;
    vg.h = g.height;
    vg.bpc = g.bpc;
    vg.first_scale = p[0].skip0 ? 1 : 0;
    vg.ws[0] = p[0].sw;
    vg.hs[0] = p[0].sh;
    for (int sc = 1; sc < 4; ++sc) {
        vg.ws[sc] = vg.ws[sc - 1] / 2;
        vg.hs[sc] = vg.hs[sc - 1] / 2;
    }
    unsigned off = 0;
    for (int sc = 0; sc < 4; ++sc) {
        vg.row_off[sc] = off;
        off += 2 * static_cast<unsigned>(p.size()) * vg.hs[sc];
    }
    return std::make_unique<FloatVifCuda>(s, kind, std::move(p), g, vg);
}

}  // namespace

extern const TwinDescriptor kFloatVifCudaTwin;
const TwinDescriptor kFloatVifCudaTwin = GroupTwin<&make, static_cast<std::size_t>(fc::kVifMaxLimits)>::descriptor("float_vif");

}  // namespace vmaf::cuda
