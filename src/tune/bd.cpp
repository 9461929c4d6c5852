#include "tune/bd.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace vmaf::tune {

namespace {

/// Endpoint slope of a PCHIP (one-sided three-point formula, shape-preserving).
double end_slope(double h1, double h2, double d1, double d2) {
    double d = ((2 * h1 + h2) * d1 - h1 * d2) / (h1 + h2);
    if (d * d1 < 0)
        d = 0;
    else if (d1 * d2 < 0 && std::fabs(d) > std::fabs(3 * d1))
        d = 3 * d1;
    return d;
}

void check_curve(std::vector<RdPoint>& c, const char* which) {
    std::sort(c.begin(), c.end(), [](const RdPoint& a, const RdPoint& b) { return a.rate < b.rate; });
    if (c.size() < 4) throw std::invalid_argument(std::string(which) + ": BD needs at least 4 points per curve");
    for (std::size_t i = 0; i < c.size(); ++i) {
        if (!(c[i].rate > 0) || !std::isfinite(c[i].quality))
            throw std::invalid_argument(std::string(which) + ": rates must be positive and qualities finite");
        if (i && !(c[i].rate > c[i - 1].rate && c[i].quality > c[i - 1].quality))
            throw std::invalid_argument(std::string(which) + ": quality must rise with bitrate for BD");
    }
}

}  // namespace

namespace {

/// PCHIP segment coefficients: on [x[i], x[i+1]], y = y[i] + d[i] s + c[i] s^2 + b[i] s^3 with s = t - x[i].
struct Pchip {
    std::vector<double> d, c, b;
};

Pchip pchip(const std::vector<double>& x, const std::vector<double>& y) {
    const std::size_t n = x.size();
    std::vector<double> h(n - 1), delta(n - 1), d(n);
    for (std::size_t i = 0; i + 1 < n; ++i) {
        h[i] = x[i + 1] - x[i];
        delta[i] = (y[i + 1] - y[i]) / h[i];
    }
    if (n == 2) {
        d[0] = d[1] = delta[0];
    } else {
        d[0] = end_slope(h[0], h[1], delta[0], delta[1]);
        for (std::size_t i = 1; i + 1 < n; ++i) {
            if (delta[i - 1] * delta[i] <= 0) {
                d[i] = 0;
            } else {
                const double w1 = 2 * h[i] + h[i - 1], w2 = h[i] + 2 * h[i - 1];
                d[i] = (w1 + w2) / (w1 / delta[i - 1] + w2 / delta[i]);
            }
        }
        d[n - 1] = end_slope(h[n - 2], h[n - 3], delta[n - 2], delta[n - 3]);
    }
    Pchip p{d, std::vector<double>(n - 1), std::vector<double>(n - 1)};
    for (std::size_t i = 0; i + 1 < n; ++i) {
        p.c[i] = (3 * delta[i] - 2 * d[i] - d[i + 1]) / h[i];
        p.b[i] = (d[i] - 2 * delta[i] + d[i + 1]) / (h[i] * h[i]);
    }
    return p;
}

}  // namespace

double pchip_integral(const std::vector<double>& x, const std::vector<double>& y, double lo, double hi) {
    const Pchip p = pchip(x, y);
    const auto& d = p.d;
    double total = 0;
    for (std::size_t i = 0; i + 1 < x.size(); ++i) {
        const double c = p.c[i], b = p.b[i];
        const double s0 = std::clamp(lo, x[i], x[i + 1]) - x[i], s1 = std::clamp(hi, x[i], x[i + 1]) - x[i];
        if (s1 <= s0) continue;
        auto prim = [&](double s) { return s * (y[i] + s * (d[i] / 2 + s * (c / 3 + s * b / 4))); };
        total += prim(s1) - prim(s0);
    }
    return total;
}

std::optional<double> rate_at_quality(std::vector<RdPoint> curve, double quality) {
    check_curve(curve, "curve");
    if (quality < curve.front().quality || quality > curve.back().quality) return std::nullopt;
    std::vector<double> q, lr;
    for (const RdPoint& p : curve) {
        q.push_back(p.quality);
        lr.push_back(std::log10(p.rate));
    }
    const Pchip p = pchip(q, lr);
    std::size_t i = 0;
    while (i + 2 < q.size() && quality > q[i + 1]) ++i;
    const double s = quality - q[i];
    return std::pow(10.0, lr[i] + s * (p.d[i] + s * (p.c[i] + s * p.b[i])));
}

double bd_rate(std::vector<RdPoint> anchor, std::vector<RdPoint> test) {
    check_curve(anchor, "anchor");
    check_curve(test, "test");
    const double lo = std::max(anchor.front().quality, test.front().quality);
    const double hi = std::min(anchor.back().quality, test.back().quality);
    if (!(lo < hi)) throw std::invalid_argument("BD-rate: the curves' quality ranges do not overlap");
    auto integral = [&](const std::vector<RdPoint>& c) {
        std::vector<double> q, lr;
        for (const RdPoint& p : c) {
            q.push_back(p.quality);
            lr.push_back(std::log10(p.rate));
        }
        return pchip_integral(q, lr, lo, hi);
    };
    return std::pow(10.0, (integral(test) - integral(anchor)) / (hi - lo)) - 1.0;
}

double bd_quality(std::vector<RdPoint> anchor, std::vector<RdPoint> test) {
    check_curve(anchor, "anchor");
    check_curve(test, "test");
    const double lo = std::max(std::log10(anchor.front().rate), std::log10(test.front().rate));
    const double hi = std::min(std::log10(anchor.back().rate), std::log10(test.back().rate));
    if (!(lo < hi)) throw std::invalid_argument("BD-quality: the curves' bitrate ranges do not overlap");
    auto integral = [&](const std::vector<RdPoint>& c) {
        std::vector<double> lr, q;
        for (const RdPoint& p : c) {
            lr.push_back(std::log10(p.rate));
            q.push_back(p.quality);
        }
        return pchip_integral(lr, q, lo, hi);
    };
    return (integral(test) - integral(anchor)) / (hi - lo);
}

}  // namespace vmaf::tune
