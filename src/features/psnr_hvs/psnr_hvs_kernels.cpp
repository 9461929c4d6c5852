#include "features/psnr_hvs/psnr_hvs_kernels.hpp"

#include <cmath>
#include <cstdlib>
#include <vector>

namespace vmaf::psnr_hvs {

namespace {

// Lane operations of the scalar reference: int32, wrapping as upstream's int.
struct ScalarOps {
    using V = std::int32_t;
    static V add(V a, V b) { return static_cast<V>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b)); }
    static V sub(V a, V b) { return static_cast<V>(static_cast<std::uint32_t>(a) - static_cast<std::uint32_t>(b)); }
    static V half(V a) { return add(a, static_cast<V>(static_cast<std::uint32_t>(a) >> 31)) >> 1; }
    template <std::int32_t C, std::int32_t R, int S>
    static V mul_round(V a) {
        return add(static_cast<V>(static_cast<std::uint32_t>(a) * static_cast<std::uint32_t>(C)), R) >> S;
    }
};

#include "features/psnr_hvs/psnr_hvs_dct.inc"

// Xiph's CSF matrices ("normalized inverse quantization matrix for 8x8 DCT
// at the point of transparency"), row-major; upstream stores them as float.
// The chroma pair is the 4:2:0 one, used for every subsampling.
// clang-format off
constexpr double kCsfLuma[64] = {
    1.6193873005, 2.2901594831, 2.08509755623, 1.48366094411, 1.00227514334, 0.678296995242, 0.466224900598, 0.3265091542,
    2.2901594831, 1.94321815382, 2.04793073064, 1.68731108984, 1.2305666963, 0.868920337363, 0.61280991668, 0.436405793551,
    2.08509755623, 2.04793073064, 1.34329019223, 1.09205635862, 0.875748795257, 0.670882927016, 0.501731932449, 0.372504254596,
    1.48366094411, 1.68731108984, 1.09205635862, 0.772819797575, 0.605636379554, 0.48309405692, 0.380429446972, 0.295774038565,
    1.00227514334, 1.2305666963, 0.875748795257, 0.605636379554, 0.448996256676, 0.352889268808, 0.283006984131, 0.226951348204,
    0.678296995242, 0.868920337363, 0.670882927016, 0.48309405692, 0.352889268808, 0.27032073436, 0.215017739696, 0.17408067321,
    0.466224900598, 0.61280991668, 0.501731932449, 0.380429446972, 0.283006984131, 0.215017739696, 0.168869545842, 0.136153931001,
    0.3265091542, 0.436405793551, 0.372504254596, 0.295774038565, 0.226951348204, 0.17408067321, 0.136153931001, 0.109083846276,
};
constexpr double kCsfCb[64] = {
    1.91113096927, 2.46074210438, 1.18284184739, 1.14982565193, 1.05017074788, 0.898018824055, 0.74725392039, 0.615105596242,
    2.46074210438, 1.58529308355, 1.21363250036, 1.38190029285, 1.33100189972, 1.17428548929, 0.996404342439, 0.830890433625,
    1.18284184739, 1.21363250036, 0.978712413627, 1.02624506078, 1.03145147362, 0.960060382087, 0.849823426169, 0.731221236837,
    1.14982565193, 1.38190029285, 1.02624506078, 0.861317501629, 0.801821139099, 0.751437590932, 0.685398513368, 0.608694761374,
    1.05017074788, 1.33100189972, 1.03145147362, 0.801821139099, 0.676555426187, 0.605503172737, 0.55002013668, 0.495804539034,
    0.898018824055, 1.17428548929, 0.960060382087, 0.751437590932, 0.605503172737, 0.514674450957, 0.454353482512, 0.407050308965,
    0.74725392039, 0.996404342439, 0.849823426169, 0.685398513368, 0.55002013668, 0.454353482512, 0.389234902883, 0.342353999733,
    0.615105596242, 0.830890433625, 0.731221236837, 0.608694761374, 0.495804539034, 0.407050308965, 0.342353999733, 0.295530605237,
};
constexpr double kCsfCr[64] = {
    2.03871978502, 2.62502345193, 1.26180942886, 1.11019789803, 1.01397751469, 0.867069376285, 0.721500455585, 0.593906509971,
    2.62502345193, 1.69112867013, 1.17180569821, 1.3342742857, 1.28513006198, 1.13381474809, 0.962064122248, 0.802254508198,
    1.26180942886, 1.17180569821, 0.944981930573, 0.990876405848, 0.995903384143, 0.926972725286, 0.820534991409, 0.706020324706,
    1.11019789803, 1.3342742857, 0.990876405848, 0.831632933426, 0.77418706195, 0.725539939514, 0.661776842059, 0.587716619023,
    1.01397751469, 1.28513006198, 0.995903384143, 0.77418706195, 0.653238524286, 0.584635025748, 0.531064164893, 0.478717061273,
    0.867069376285, 1.13381474809, 0.926972725286, 0.725539939514, 0.584635025748, 0.496936637883, 0.438694579826, 0.393021669543,
    0.721500455585, 0.962064122248, 0.820534991409, 0.661776842059, 0.531064164893, 0.438694579826, 0.375820256136, 0.330555063063,
    0.593906509971, 0.802254508198, 0.706020324706, 0.587716619023, 0.478717061273, 0.393021669543, 0.330555063063, 0.285345396658,
};
// clang-format on

Weights make_weights(const double (&csf)[64]) {
    Weights w{};
    for (unsigned k = 0; k < 64; ++k) {
        w.csf[k] = static_cast<float>(csf[k]);  // double literal -> float, as upstream's initialiser
        const double scaled = static_cast<double>(w.csf[k]) * 0.3885746225901003;
        w.mask[k] = static_cast<float>(scaled * scaled);
    }
    return w;
}

template <typename T>
void load_block(const Plane& p, unsigned x, unsigned y, std::int32_t* out) {
    for (unsigned i = 0; i < 8; ++i) {
        const T* row = p.row<const T>(y + i) + x;
        for (unsigned j = 0; j < 8; ++j) out[8 * i + j] = row[j];
    }
}

// Quadrant (0..3) of sample k of a block: (row >= 4) + 2 * (column >= 4).
unsigned quadrant(unsigned k) {
    return (k >> 5) + ((k & 4) >> 1);
}

// Masking variance ratio of a block: sum of the quadrant variances over the
// block variance (each variance scaled by n/(n-1)), or the block variance
// itself when that is not positive. Float, in upstream's order.
float variance_ratio(const std::int32_t* s) {
    float gmean = 0, means[4] = {0, 0, 0, 0};
    for (unsigned k = 0; k < 64; ++k) {
        gmean += static_cast<float>(s[k]);
        means[quadrant(k)] += static_cast<float>(s[k]);
    }
    gmean /= 64.f;
    for (float& m : means) m /= 16.f;
    float gvar = 0, vars[4] = {0, 0, 0, 0};
    for (unsigned k = 0; k < 64; ++k) {
        const float dg = static_cast<float>(s[k]) - gmean;
        const float dq = static_cast<float>(s[k]) - means[quadrant(k)];
        gvar += dg * dg;
        vars[quadrant(k)] += dq * dq;
    }
    gvar *= 1 / 63.f * 64;
    for (float& v : vars) v *= 1 / 15.f * 16;
    if (gvar > 0) gvar = (vars[0] + vars[1] + vars[2] + vars[3]) / gvar;
    return gvar;
}

// Masking strength of a block from its coefficients and variance ratio.
float block_mask(const std::int32_t* c, float ratio, const Weights& w) {
    float m = 0;
    for (unsigned k = 1; k < 64; ++k) m += static_cast<float>(c[k] * c[k]) * w.mask[k];
    return static_cast<float>(std::sqrt(static_cast<double>(m * ratio)) / 32.f);
}

template <typename T>
void block_row_t(const Plane& ref, const Plane& dist, unsigned y, unsigned n, const Weights& w, float* out) {
    std::int32_t s[64], d[64];
    for (unsigned b = 0; b < n; ++b) {
        load_block<T>(ref, kStep * b, y, s);
        load_block<T>(dist, kStep * b, y, d);
        const float s_ratio = variance_ratio(s), d_ratio = variance_ratio(d);
        fdct8x8(s);
        fdct8x8(d);
        float mask = block_mask(s, s_ratio, w);
        const float d_mask = block_mask(d, d_ratio, w);
        if (d_mask > mask) mask = d_mask;
        for (unsigned k = 0; k < 64; ++k) {
            float err = static_cast<float>(std::abs(s[k] - d[k]));
            if (k != 0) {
                const float t = mask / w.mask[k];
                err = err < t ? 0 : err - t;
            }
            out[k * n + b] = (err * w.csf[k]) * (err * w.csf[k]);
        }
    }
}

}  // namespace

const Weights& weights(unsigned plane) {
    static const Weights luma = make_weights(kCsfLuma), cb = make_weights(kCsfCb), cr = make_weights(kCsfCr);
    return plane == 0 ? luma : plane == 1 ? cb : cr;
}

void fdct8x8(std::int32_t blk[64]) {
    std::int32_t t[64];
    for (unsigned col = 0; col < 8; ++col) {  // vertical transforms: t[8 * col + v]
        std::int32_t v[8];
        for (unsigned r = 0; r < 8; ++r) v[r] = blk[8 * r + col];
        fdct8<ScalarOps>(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]);
        for (unsigned r = 0; r < 8; ++r) t[8 * col + r] = v[r];
    }
    for (unsigned f = 0; f < 8; ++f) {  // horizontal transforms of vertical frequency f
        std::int32_t v[8];
        for (unsigned col = 0; col < 8; ++col) v[col] = t[8 * col + f];
        fdct8<ScalarOps>(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]);
        for (unsigned h = 0; h < 8; ++h) blk[8 * f + h] = v[h];
    }
}

void block_row(const Plane& ref, const Plane& dist, unsigned bpc, unsigned y, unsigned n, const Weights& w,
               float* out) {
    if (bpc == 8)
        block_row_t<std::uint8_t>(ref, dist, y, n, w, out);
    else
        block_row_t<std::uint16_t>(ref, dist, y, n, w, out);
}

double plane_error(const PsnrHvsKernels& k, const Plane& ref, const Plane& dist, unsigned bpc, unsigned w, unsigned h,
                   const Weights& wt) {
    const unsigned nx = block_count(w), ny = block_count(h);
    std::vector<float> row(std::size_t{64} * nx);
    float ret = 0;
    for (unsigned by = 0; by < ny; ++by) {
        k.block_row(ref, dist, bpc, kStep * by, nx, wt, row.data());
        for (unsigned b = 0; b < nx; ++b)
            for (unsigned c = 0; c < 64; ++c) ret += row[std::size_t{c} * nx + b];
    }
    return finish_error(ret, nx, ny, bpc);
}

double finish_error(float ret, unsigned nx, unsigned ny, unsigned bpc) {
    const auto pixels = static_cast<std::int32_t>(64 * nx * ny);  // upstream adds 64 per block
    ret /= static_cast<float>(pixels);
    const std::int32_t peak = (std::int32_t{1} << bpc) - 1;
    ret /= static_cast<float>(peak * peak);
    return ret;
}

double to_db(double error) {
    return 10 * (-1 * std::log10(error));
}

}  // namespace vmaf::psnr_hvs
