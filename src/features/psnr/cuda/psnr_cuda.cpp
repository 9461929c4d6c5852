// psnr_cuda: the CUDA twin of "psnr". The device sums squared errors per
// plane (exact integers); the host turns them into scores with the CPU's code.
#include <memory>

#include "backends/cuda/sums_twin.hpp"
#include "features/psnr/cuda/psnr_cuda_kernels.hpp"
#include "features/psnr/psnr_kernels.hpp"
#include "features/psnr/psnr_scoring.hpp"

namespace vmaf::cuda {

namespace {

struct NoScratch {};

class PsnrCuda final : public SumsTwin<NoScratch, psnr::PsnrFrame> {
public:
    PsnrCuda(Session& s, const OptionValues& o, const VideoGeometry& g)
        : SumsTwin(s, "psnr", g, 3 * sizeof(unsigned long long), [] { return NoScratch{}; }),
          bpc_(g.bpc),
          scoring_(o, g) {}

    void flush(ScoreWriter& out) override { scoring_.flush(out); }

private:
    void launch(const DeviceFrame& f, NoScratch& /*scratch*/, void* sums, cudaStream_t s,
                psnr::PsnrFrame& st) const override {
        for (unsigned p = 0; p < scoring_.planes(); ++p) {
            psnr::cuda::launch_sse(f.ref[p].data, f.dist[p].data, f.ref[p].pitch, f.ref[p].width, f.ref[p].height, bpc_,
                                   static_cast<unsigned long long*>(sums) + p, s);
            st.samples[p] = std::uint64_t{f.ref[p].width} * f.ref[p].height;
        }
    }

    void score(const void* sums, psnr::PsnrFrame& st) const override {
        const auto* sse = static_cast<const unsigned long long*>(sums);
        for (unsigned p = 0; p < scoring_.planes(); ++p) st.sse[p] = sse[p];
        scoring_.score(st);
    }

    void write(unsigned index, psnr::PsnrFrame& st, ScoreWriter& out) override { scoring_.finish(index, st, out); }

    const unsigned bpc_;
    psnr::Scoring scoring_;
};

std::unique_ptr<FeatureExtractor> create(Session& s, const ExtractorInfo& /*kind*/, const OptionValues& o,
                                         const VideoGeometry& g, const ExtractorContext& /*ctx*/) {
    return std::make_unique<PsnrCuda>(s, o, g);
}

}  // namespace

extern const TwinDescriptor kPsnrCudaTwin;
const TwinDescriptor kPsnrCudaTwin{.kind = "psnr", .create = &create};

}  // namespace vmaf::cuda
