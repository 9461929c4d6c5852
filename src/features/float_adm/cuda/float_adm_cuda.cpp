// float_adm_cuda: the CUDA twin of "float_adm". Why its scores equal the
// CPU's: the conversion to float, both db2 DWT passes (float sums from 0,
// taps in order, the host's filter values, the CPU's mirrored indices),
// decoupling (its float and double expressions in order; its division as the
// CPU divides: IEEE n / d, or on x86 hosts n times the Newton step of the
// reciprocal estimate, whose rcpss value is read from a table the host makes
// with its own rcpss for every mantissa and whose exponent rule the host
// checks against rcpss before the twin is used), the CSF weighting and the
// masking threshold (the CPU's 3x3 sum in its order, the centre term in
// double) are the CPU's operations, compiled without contraction and with
// IEEE division (the device decouples whole bands, the CPU only the region
// its masking reads; the samples outside it are never read). The CPU pools
// each band by adding, per region row in float from 0 in column order, the
// per-sample p-th powers, then the row sums in
// float in row order: for p = 3 one device thread forms each row's sum of
// cubes (x * x * x, as the CPU) and the host adds the read-back rows in order;
// for any other p the device returns the per-sample arguments and the host
// raises them with the CPU's powf and sums them in the CPU's order. The host
// finishes with the CPU's float_adm_pool, float_adm_combine and
// float_adm_scores. Option sets that differ only in adm_enhn_gain_limit
// (VMAF float + NEG) share one pass: the DWT and den once, decoupling and
// masking once per limit.
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <numbers>
#include <random>
#include <span>
#include <vector>

#include "backends/cuda/sums_twin.hpp"
#include "features/float_adm/cuda/float_adm_cuda_kernels.hpp"
#include "features/float_adm/float_adm.hpp"
#include "features/float_adm/float_adm_math.hpp"
#include "features/float_common/float_kernels.hpp"

namespace vmaf::cuda {

namespace {

namespace fc = floatfeat::cuda;

struct AdmScratchMem {
    DeviceBuffer memory;
    fc::AdmScratch layout{};
};

std::uint32_t bits(float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

float from_bits(std::uint32_t u) {
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}

/// The device's rcp_estimate rule (float_adm_cuda_kernels.cu), on the host.
float emulated_rcp(float d, const std::vector<float>& tab) {
    const std::uint32_t u = bits(d), sign = u & 0x80000000u, e = (u >> 23) & 0xFFu;
    if (e == 0) return from_bits(sign | 0x7F800000u);
    if (e == 0xFFu) return (u & 0x007FFFFFu) ? from_bits(u | 0x00400000u) : from_bits(sign);
    const std::uint32_t t = bits(tab[u & 0x007FFFFFu]);
    const int ne = static_cast<int>((t >> 23) & 0xFFu) + 127 - static_cast<int>(e);
    if (ne <= 0) return from_bits(sign);
    return from_bits(sign | (static_cast<std::uint32_t>(ne) << 23) | (t & 0x007FFFFFu));
}

/// rcpss of every mantissa (1.m), checked: the device rule must reproduce
/// the host's rcpss for every exponent (both signs, zeros, subnormals,
/// infinities, and a sample of mantissas per exponent).
std::vector<float> make_rcp_table() {
    std::vector<float> tab(std::size_t{1} << 23);
    for (std::uint32_t m = 0; m < (1u << 23); ++m)
        tab[m] = floatfeat::float_adm_rcp_estimate(from_bits(0x3F800000u | m));
    std::mt19937 rng(12345);
    std::vector<std::uint32_t> mant = {0, 1, 0x7FFFFFu, 0x400000u, 0x3FFFFFu};
    for (int i = 0; i < 64; ++i) mant.push_back(rng() & 0x7FFFFFu);
    for (std::uint32_t sign : {0u, 0x80000000u})
        for (std::uint32_t e = 0; e < 255; ++e)
            for (std::uint32_t m : mant) {
                const float d = from_bits(sign | (e << 23) | m);
                if (bits(emulated_rcp(d, tab)) != bits(floatfeat::float_adm_rcp_estimate(d)))
                    throw Error(ErrorKind::Internal,
                                "float_adm cuda: this CPU's reciprocal estimate (rcpss) does not follow the rule the "
                                "device reproduces; run float_adm with --backend cpu");
            }
    for (std::uint32_t sign : {0u, 0x80000000u}) {
        const float inf = from_bits(sign | 0x7F800000u);
        if (bits(emulated_rcp(inf, tab)) != bits(floatfeat::float_adm_rcp_estimate(inf)))
            throw Error(ErrorKind::Internal, "float_adm cuda: rcpss of infinity differs from the device rule");
    }
    return tab;
}

/// The checked table, made once per process (32 MiB).
const std::vector<float>& rcp_table() {
    static const std::vector<float> tab = make_rcp_table();
    return tab;
}

class FloatAdmCuda final : public SumsTwin<AdmScratchMem> {
public:
    /// `o`: each option set's options (equal but in enhn_gain_limit).
    FloatAdmCuda(Session& s, const ExtractorInfo& kind, std::vector<floatfeat::FloatAdmOptions> o,
                 const VideoGeometry& g, const fc::AdmGeometry& ag, std::size_t out_floats)
        : SumsTwin(s, "float_adm", g, out_floats * sizeof(float),
                   [this] {
                       AdmScratchMem m;
                       m.memory = DeviceBuffer(fc::adm_scratch_bytes(geom_));
                       m.layout = fc::adm_scratch_layout(m.memory.get(), geom_);
                       return m;
                   }),
          o_(std::move(o)),
          geom_(ag),
          outputs_(static_cast<unsigned>(kind.outputs.size())) {
        if (o_.empty() || o_.size() > static_cast<std::size_t>(fc::kAdmMaxLimits))
            throw Error(ErrorKind::Internal, "float_adm cuda: 1 to 4 option sets in a group");
        const floatfeat::FloatAdmParams& p = o_[0].p;
        for (int t = 0; t < 4; ++t) {
            k_.lo[t] = floatfeat::kAdmDb2Lo[t];
            k_.hi[t] = floatfeat::kAdmDb2Hi[t];
        }
        k_.one_by_30 = floatfeat::kFloatAdmOneBy30;
        k_.one_by_15 = floatfeat::kAdmOneBy15;
        for (int sc = 0; sc < 4; ++sc) floatfeat::float_adm_factors(p, sc, k_.fac[sc]);
        k_.limits = static_cast<int>(o_.size());
        for (std::size_t j = 0; j < o_.size(); ++j) k_.gain_limit[j] = o_[j].p.enhn_gain_limit;
        k_.cos_1deg_sq =
            static_cast<float>(std::cos(1.0 * std::numbers::pi / 180.0) * std::cos(1.0 * std::numbers::pi / 180.0));
        k_.bypass_cm = p.bypass_cm;
        k_.rcp = nullptr;
        if (floatfeat::float_adm_rcp_division()) {
            const std::vector<float>& tab = rcp_table();
            rcp_ = DeviceBuffer(tab.size() * sizeof(float));
            check(cudaMemcpy(rcp_.get(), tab.data(), tab.size() * sizeof(float), cudaMemcpyHostToDevice),
                  "float_adm rcp table upload");
            k_.rcp = rcp_.get<float>();
        }
    }

private:
    void launch(const DeviceFrame& f, AdmScratchMem& scratch, void* sums, cudaStream_t s,
                FrameState& /*st*/) const override {
        fc::launch_float_adm(f.ref[0].data, f.dist[0].data, f.ref[0].pitch, geom_, k_, scratch.layout,
                             static_cast<float*>(sums), s);
    }

    /// A block's float sum over the region: its rows in order, each row's
    /// per-sample p-th powers in column order (p = 3: the device's row sums).
    float block_sum(const float* v, int rw, int rh, double p_norm) const {
        float acc = 0.0f;
        for (int y = 0; y < rh; ++y) {
            if (geom_.cube) {
                acc += v[y];
                continue;
            }
            float in = 0.0f;
            for (int x = 0; x < rw; ++x) in += floatfeat::float_adm_pow(v[std::size_t(y) * rw + x], p_norm);
            acc += in;
        }
        return acc;
    }

    /// Per option set j (its outputs after set j-1's): the CPU's pooling,
    /// combination and scores.
    void score(const void* sums, FrameState& st) const override {
        const auto* out = static_cast<const float*>(sums);
        const floatfeat::FloatAdmParams& p = o_[0].p;
        ScoreList one;
        for (std::size_t j = 0; j < o_.size(); ++j) {
            float num[4] = {0, 0, 0, 0}, den[4] = {0, 0, 0, 0}, aim[4] = {0, 0, 0, 0};
            for (int sc = 0; sc < 4; ++sc) {
                if (sc == 0 && geom_.skip0) {
                    den[0] = 1e-10f;
                    continue;
                }
                const int rw = geom_.right[sc] - geom_.left[sc], rh = geom_.bottom[sc] - geom_.top[sc];
                const std::size_t block = geom_.cube ? static_cast<std::size_t>(rh) : std::size_t(rw) * rh;
                const float* base = out + geom_.out_off[sc];
                float acc[9];
                for (int b = 0; b < 3; ++b) acc[b] = block_sum(base + b * block, rw, rh, p.p_norm);
                for (int b = 0; b < 6; ++b) acc[3 + b] = block_sum(base + (3 + 6 * j + b) * block, rw, rh, p.p_norm);
                den[sc] = floatfeat::float_adm_pool(acc, rw, rh, p.noise_weight, p.p_norm);
                num[sc] = floatfeat::float_adm_pool(acc + 3, rw, rh, p.noise_weight, p.p_norm);
                aim[sc] = floatfeat::float_adm_pool(acc + 6, rw, rh, 0.0, p.p_norm);
            }
            one.clear();
            floatfeat::float_adm_scores(floatfeat::float_adm_combine(num, den, aim, geom_.w, geom_.h, o_[j].p), o_[j],
                                        one);
            for (auto [o, value] : one) st.scores.emplace_back(o + static_cast<unsigned>(j) * outputs_, value);
        }
    }

    const std::vector<floatfeat::FloatAdmOptions> o_;
    const fc::AdmGeometry geom_;
    const unsigned outputs_;
    fc::AdmConstants k_{};
    DeviceBuffer rcp_;
};

std::unique_ptr<FeatureExtractor> make(Session& s, const ExtractorInfo& kind, std::span<const OptionValues* const> sets,
                                       const VideoGeometry& g, const ExtractorContext& ctx) {
    std::vector<floatfeat::FloatAdmOptions> opts;
    for (const OptionValues* o : sets) {
        (void)kind.create(*o, g, ctx);  // the CPU kind's checks of the geometry and options
        opts.push_back(floatfeat::float_adm_options(*o, g));
    }
    fc::AdmGeometry ag{};
    ag.w = g.width;
    ag.h = g.height;
    ag.bpc = g.bpc;
    ag.cube = opts[0].p.p_norm == 3.0;
    ag.skip0 = opts[0].p.skip_scale0;
    std::size_t off = 0;
    unsigned cw = g.width, ch = g.height;
    for (int sc = 0; sc < 4; ++sc) {
        ag.cw[sc] = cw;
        ag.ch[sc] = ch;
        ag.bw[sc] = (cw + 1) / 2;
        ag.bh[sc] = (ch + 1) / 2;
        const floatfeat::AdmRegion r =
            floatfeat::float_adm_region(static_cast<int>(ag.bw[sc]), static_cast<int>(ag.bh[sc]), false);
        ag.left[sc] = r.left;
        ag.top[sc] = r.top;
        ag.right[sc] = r.right;
        ag.bottom[sc] = r.bottom;
        ag.out_off[sc] = off;
        const std::size_t rw = static_cast<std::size_t>(r.right - r.left),
                          rh = static_cast<std::size_t>(r.bottom - r.top);
        off += (3 + 6 * opts.size()) * (ag.cube ? rh : rw * rh);
        cw = ag.bw[sc];
        ch = ag.bh[sc];
    }
    return std::make_unique<FloatAdmCuda>(s, kind, std::move(opts), g, ag, off);
}

}  // namespace

extern const TwinDescriptor kFloatAdmCudaTwin;
const TwinDescriptor kFloatAdmCudaTwin = GroupTwin<&make, static_cast<std::size_t>(fc::kAdmMaxLimits)>::descriptor("float_adm");

}  // namespace vmaf::cuda
