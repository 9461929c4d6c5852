#include "features/float_common/float_kernels.hpp"

namespace vmaf::floatfeat {

void conv_rows(const float* f, int fw, const float* const* a, const float* const* b, Tap tap, float* out, int w) {
    for (int j = 0; j < w; ++j) {
        float acc = 0;
        for (int k = 0; k < fw; ++k) {
            const float v = a[k][j];
            switch (tap) {
                case Tap::Value: acc += f[k] * v; break;
                case Tap::Square: acc += f[k] * (v * v); break;
                case Tap::Product: acc += f[k] * (v * b[k][j]); break;
            }
        }
        out[j] = acc;
    }
}

void conv_cols(const float* f, int fw, const float* in, float* out, int w) {
    const int r = fw / 2;
    for (int j = 0; j < w; ++j) {
        float acc = 0;
        for (int k = 0; k < fw; ++k) {
            int jj = j - r + k;
            jj = jj < 0 ? -jj : (jj >= w ? 2 * w - jj - 2 : jj);
            acc += f[k] * in[jj];
        }
        out[j] = acc;
    }
}

}  // namespace vmaf::floatfeat
