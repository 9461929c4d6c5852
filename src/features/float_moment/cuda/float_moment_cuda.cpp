// float_moment_cuda: the CUDA twin of "float_moment". Why its scores equal
// the CPU's: upstream sums the float samples a and their float squares a*a
// in double in raster order. a is a multiple of 1/scaler and a*a (rounded to
// float) one of 1/scaler^2, so every partial sum below 2^53 such units is
// exact and equals the device's exact integer total in any order. The first
// moments never reach it (2^28 samples below 2^16 units), nor the squares up
// to 12 bits (below 2^24 units each); deeper, a square sum that does (at 16
// bits a bright frame of more than about 2 million samples) is repeated on
// the device as upstream's sequential double sum.
#include <memory>

#include "backends/cuda/sums_twin.hpp"
#include "features/float_common/float_image.hpp"
#include "features/float_moment/cuda/float_moment_cuda_kernels.hpp"
#include "features/float_moment/float_moment.hpp"

namespace vmaf::cuda {

namespace {

struct NoScratch {};
using floatfeat::cuda::MomentSums;

class FloatMomentCuda final : public SumsTwin<NoScratch> {
public:
    FloatMomentCuda(Session& s, const VideoGeometry& g)
        : SumsTwin(s, "float_moment", g, sizeof(MomentSums), [] { return NoScratch{}; }),
          w_(g.width),
          h_(g.height),
          bpc_(g.bpc),
          scaler_(g.bpc == 8 ? 1.0 : floatfeat::hbd_scaler(g.bpc)) {}

private:
    void launch(const DeviceFrame& f, NoScratch& /*scratch*/, void* sums, cudaStream_t s,
                FrameState& /*st*/) const override {
        floatfeat::cuda::launch_float_moment(f.ref[0].data, f.dist[0].data, f.ref[0].pitch, w_, h_, bpc_,
                                             static_cast<MomentSums*>(sums), s);
    }

    void score(const void* sums, FrameState& st) const override {
        const auto& v = *static_cast<const MomentSums*>(sums);
        constexpr unsigned long long kExact = 1ull << 53;
        // Powers of two: the unit conversions are exact.
        const double r1 = static_cast<double>(v.units[0]) / scaler_, d1 = static_cast<double>(v.units[1]) / scaler_;
        const double s2 = scaler_ * scaler_;
        const double r2 = v.units[2] < kExact ? static_cast<double>(v.units[2]) / s2 : v.seq[0];
        const double d2 = v.units[3] < kExact ? static_cast<double>(v.units[3]) / s2 : v.seq[1];
        const auto m = floatfeat::moment_scores(r1, d1, r2, d2, w_, h_);
        st.scores = {{0, m[0]}, {1, m[1]}, {2, m[2]}, {3, m[3]}};
    }

    const unsigned w_, h_, bpc_;
    const double scaler_;
};

std::unique_ptr<FeatureExtractor> create(Session& s, const ExtractorInfo& kind, const OptionValues& o,
                                         const VideoGeometry& g, const ExtractorContext& ctx) {
    (void)kind.create(o, g, ctx);  // the CPU kind's checks of the geometry and options
    return std::make_unique<FloatMomentCuda>(s, g);
}

}  // namespace

extern const TwinDescriptor kFloatMomentCudaTwin;
const TwinDescriptor kFloatMomentCudaTwin{.kind = "float_moment", .create = &create};

}  // namespace vmaf::cuda
