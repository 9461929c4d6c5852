#include "output/number_format.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace vmaf {

namespace {
// Leading zero digits of the fractional part of |x| (0.000123 -> 3), the
// quantity upstream uses to widen tiny values to 16 decimals.
int fractional_leading_zeros(double x) {
    x = std::fabs(x);
    double frac = x - std::trunc(x);  // not (int)x: undefined beyond INT_MAX
    int zeros = 0;
    while (frac < 1.0 && frac != 0) {
        frac *= 10;
        ++zeros;
    }
    return zeros;
}
}  // namespace

std::string format_number(double v, const Precision& prec) {
    char buf[400];  // "%.6f" of DBL_MAX is 316 characters (a 64-byte buffer cut values above 1e56)
    if (prec.mode == Precision::Mode::Digits) {
        std::snprintf(buf, sizeof buf, "%.*g", prec.digits, v);
        // Rounding to few digits can carry a finite value past DBL_MAX
        // ("%.1g" of 1.8e308 is "2e+308"), which no reader can take back.
        if (std::isfinite(v) && std::isinf(std::strtod(buf, nullptr))) std::snprintf(buf, sizeof buf, "%.17g", v);
    } else if (std::isfinite(v) && fractional_leading_zeros(v) > 6) {
        std::snprintf(buf, sizeof buf, "%.16f", v);
    } else {
        std::snprintf(buf, sizeof buf, "%.6f", v);
    }
    return buf;
}

}  // namespace vmaf
