// adm_cuda: the CUDA twin of "adm". The device runs the integer pipeline of
// all four scales and sums each scale's rows exactly; the host finishes the
// per-scale float math as the CPU kind does (adm_finish.*) and writes the CPU
// kind's outputs in its order.
#include <cstdlib>
#include <memory>
#include <string>

#include "backends/cuda/dispatch.hpp"
#include "backends/cuda/session.hpp"
#include "backends/cuda/twin_util.hpp"
#include "features/adm/adm_kernels.hpp"
#include "features/adm/adm_simd.hpp"
#include "features/adm/cuda/adm_cuda_kernels.hpp"
#include "features/adm/cuda/adm_finish.hpp"

namespace vmaf::cuda {

namespace {

struct Work {
    Stream stream;
    DeviceBuffer scratch;
    DeviceBuffer sums{adm::cuda::kSums * sizeof(unsigned long long)};
    PinnedBuffer host{adm::cuda::kSums * sizeof(unsigned long long)};
    Event done;
};

/// Batched dispatch: the frame's work in flight, finished in finish().
struct Pending final : FrameState {
    std::unique_ptr<Work> work;
};

class AdmCuda final : public FeatureExtractor {
public:
    AdmCuda(Session& s, const ExtractorInfo& kind, const OptionValues& o, const VideoGeometry& g)
        : session_(s),
          w_(g.width),
          h_(g.height),
          out_adm2_(output_index(kind, "VMAF_integer_feature_adm2_score")),
          out_aim_(output_index(kind, "VMAF_integer_feature_aim_score")),
          out_adm3_(output_index(kind, "VMAF_integer_feature_adm3_score")),
          out_scale0_(output_index(kind, "integer_adm_scale0")),
          out_dbg_(output_index(kind, "integer_adm")),
          out_num_(output_index(kind, "integer_adm_num")),
          out_den_(output_index(kind, "integer_adm_den")),
          out_num0_(output_index(kind, "integer_adm_num_scale0")),
          mode_(dispatch_for(std::getenv("VMAF_CUDA_DISPATCH"), "adm", g.width, g.height)),
          pool_([this] {
              session_.bind();
              auto w = std::make_unique<Work>();
              w->scratch = DeviceBuffer(adm::cuda::scratch_bytes(w_, h_));
              return w;
          }) {
        p_.csf_scale = o.d(option_index(o, "adm_csf_scale"));
        p_.csf_diag_scale = o.d(option_index(o, "adm_csf_diag_scale"));
        p_.enhn_gain_limit = o.d(option_index(o, "adm_enhn_gain_limit"));
        p_.norm_view_dist = o.d(option_index(o, "adm_norm_view_dist"));
        p_.ref_display_height = o.i(option_index(o, "adm_ref_display_height"));
        p_.csf_mode = static_cast<adm::CsfMode>(o.i(option_index(o, "adm_csf_mode")));
        p_.noise_weight = o.d(option_index(o, "adm_noise_weight"));
        p_.skip_aim = o.b(option_index(o, "adm_skip_aim"));
        p_.skip_scale0 = o.b(option_index(o, "adm_skip_scale0"));
        dlm_weight_ = o.d(option_index(o, "adm_dlm_weight"));
        min_val_ = o.d(option_index(o, "adm_min_val"));
        debug_ = o.b(option_index(o, "debug"));
        if (const char* why = adm::params_problem(p_)) throw Error(ErrorKind::Usage, std::string("adm: ") + why);
        if (g.width < adm::kMinSize || g.height < adm::kMinSize)
            throw Error(ErrorKind::Input, "adm: frames of " + std::to_string(g.width) + "x" + std::to_string(g.height) +
                                              " are too small (minimum " + std::to_string(adm::kMinSize) + "x" +
                                              std::to_string(adm::kMinSize) + ")");
        if (g.bpc < 8 || g.bpc > 16) throw Error(ErrorKind::Input, "adm: unsupported bit depth " + std::to_string(g.bpc));
        fp_ = adm::cuda::make_params(p_, w_, h_, g.bpc);
        // The CPU's reciprocal table, entries -32768..32768.
        const std::int32_t* lut = adm::div_lut() - 32768;
        lut_ = DeviceBuffer(65537 * sizeof(std::int32_t));
        check(cudaMemcpy(lut_.get(), lut, 65537 * sizeof(std::int32_t), cudaMemcpyHostToDevice), "div table upload");
    }

    std::unique_ptr<FrameState> compute(unsigned index, const Picture& /*ref*/, const Picture& /*dist*/) const override {
        session_.bind();
        const DeviceFrame& f = session_.frame(index);
        std::unique_ptr<Work> w = pool_.acquire();
        cudaStream_t s = w->stream.get();
        check(cudaStreamWaitEvent(s, f.ready, 0), "cudaStreamWaitEvent");
        adm::cuda::launch_adm(f.ref[0].data, f.dist[0].data, f.ref[0].pitch, fp_, w->scratch.get(),
                              lut_.get<std::int32_t>() + 32768, w->sums.get<unsigned long long>(), s);
        check(cudaGetLastError(), "adm kernel launch");
        check(cudaMemcpyAsync(w->host.get(), w->sums.get(), adm::cuda::kSums * sizeof(unsigned long long),
                              cudaMemcpyDeviceToHost, s),
              "readback");
        if (mode_ == Dispatch::Batched) {
            check(cudaEventRecord(w->done.get(), s), "cudaEventRecord");
            session_.add_reader(index, w->done.get());
            auto st = std::make_unique<Pending>();
            st->work = std::move(w);
            return st;
        }
        w->stream.sync();
        auto st = std::make_unique<FrameState>();
        write_scores(adm::cuda::finish(p_, fp_, w->host.get<unsigned long long>(), w_, h_), st->scores);
        pool_.release(std::move(w));
        return st;
    }

    void finish(unsigned index, FrameState& state, ScoreWriter& out) override {
        if (auto* p = dynamic_cast<Pending*>(&state); p && p->work) {
            check(cudaEventSynchronize(p->work->done.get()), "cudaEventSynchronize");
            write_scores(adm::cuda::finish(p_, fp_, p->work->host.get<unsigned long long>(), w_, h_), state.scores);
            pool_.release(std::move(p->work));
        }
        FeatureExtractor::finish(index, state, out);
    }

private:
    // adm_extractor.cpp's compute(): same values, same order.
    void write_scores(const adm::Result& r, ScoreList& s) const {
        s.emplace_back(out_adm2_, r.score);
        s.emplace_back(out_aim_, r.score_aim);
        const double adm3 = r.score * dlm_weight_ + (1 - r.score_aim) * (1 - dlm_weight_);
        s.emplace_back(out_adm3_, adm3 > min_val_ ? adm3 : min_val_);
        for (unsigned k = 0; k < 4; ++k)
            s.emplace_back(out_scale0_ + k, static_cast<double>(r.num_scale[k]) / static_cast<double>(r.den_scale[k]));
        if (debug_) {
            s.emplace_back(out_dbg_, r.score);
            s.emplace_back(out_num_, r.num);
            s.emplace_back(out_den_, r.den);
            for (unsigned k = 0; k < 4; ++k) {
                s.emplace_back(out_num0_ + 2 * k, r.num_scale[k]);
                s.emplace_back(out_num0_ + 2 * k + 1, r.den_scale[k]);
            }
        }
    }

    Session& session_;
    const unsigned w_, h_;
    const unsigned out_adm2_, out_aim_, out_adm3_, out_scale0_, out_dbg_, out_num_, out_den_, out_num0_;
    const Dispatch mode_;
    adm::Params p_;
    double dlm_weight_ = 0.5, min_val_ = 0.0;
    bool debug_ = false;
    adm::cuda::FrameParams fp_{};
    DeviceBuffer lut_;
    mutable Pool<Work> pool_;
};

std::unique_ptr<FeatureExtractor> create(Session& s, const ExtractorInfo& kind, const OptionValues& o,
                                         const VideoGeometry& g, const ExtractorContext& /*ctx*/) {
    return std::make_unique<AdmCuda>(s, kind, o, g);
}

}  // namespace

extern const TwinDescriptor kAdmCudaTwin;
const TwinDescriptor kAdmCudaTwin{.kind = "adm", .create = &create};

}  // namespace vmaf::cuda
