#include "features/ciede/ciede_color.hpp"

// The C <math.h> names on purpose: powf(float, float) and the double
// functions below must be exactly the calls upstream makes (std:: overloads
// would pick float versions for float arguments).
#include <math.h>

namespace vmaf::ciede {

namespace {

constexpr double kPi = 3.14159265358979323846;

// sRGB transfer (linearisation) of one gamma-encoded component.
double linearise(double c) {
    if (c > 10. / 255.) return pow((c + 0.055) * (1.0 / 1.055), 2.4);
    return c * (1.0 / 12.92);
}

// CIE f(t) of a normalised X/Y/Z value, rounded to float as upstream does.
float lab_f(double t) {
    constexpr double kKappa = 24389.0 / 27.0;
    constexpr double kEpsilon = 216.0 / 24389.0;
    if (t > kEpsilon) return static_cast<float>(pow(t, 1.0 / 3.0));
    return static_cast<float>((kKappa * t + 16.0) * (1.0 / 116.0));
}

double sq(double x) {
    return x * x;
}

}  // namespace

float hue_angle(float b, float a_prime) {
    if (b == 0.0f && a_prime == 0.0f) return 0.0f;
    float h = static_cast<float>(atan2(static_cast<double>(b), static_cast<double>(a_prime)));
    if (h < 0.0f) h = static_cast<float>(static_cast<double>(h) + 2. * kPi);
    return h;
}

float hue_difference(float c1, float c2, float h1, float h2) {
    if (c1 == 0.0f || c2 == 0.0f) return 0.0f;
    const float d = h2 - h1;
    if (static_cast<double>(fabsf(h1 - h2)) <= kPi) return d;
    if (h2 <= h1) return static_cast<float>(static_cast<double>(d) + 2. * kPi);
    return static_cast<float>(static_cast<double>(d) - 2. * kPi);
}

float mean_hue(float h1, float h2) {
    const float s = h1 + h2;
    if (fabs(static_cast<double>(h1 - h2)) > kPi) return static_cast<float>((static_cast<double>(s) + 2.0 * kPi) / 2.0);
    return static_cast<float>(static_cast<double>(s) / 2.0);
}

float hue_weight_t(float hbar) {
    const double h = hbar;
    return static_cast<float>(1.0 - 0.17 * cos(h - kPi / 6.0) + 0.24 * cos(2.0 * h) + 0.32 * cos(3.0 * h + kPi / 30.0) -
                              0.20 * cos(4.0 * h - 7.0 * kPi / 20.0));
}

float rotation_term(float c_bar_prime, float hbar) {
    const float deg = static_cast<float>(static_cast<double>(hbar) * (180.0 / kPi));
    const float t = static_cast<float>((static_cast<double>(deg) - 275.0) * (1.0 / 25.0));
    const float c7 = powf(c_bar_prime, 7.0f);
    const float ratio = c7 / (c7 + static_cast<float>(6103515625.0));  // 25^7 rounded to float
    const float theta_deg = static_cast<float>(60.0 * exp(static_cast<double>(-(t * t))));
    const float theta = static_cast<float>(static_cast<double>(theta_deg) * (kPi / 180.0));
    return static_cast<float>(-2.0 * sqrt(static_cast<double>(ratio)) * sin(static_cast<double>(theta)));
}

Lab yuv_to_lab(unsigned ys, unsigned us, unsigned vs, unsigned bpc) {
    const double scale = static_cast<double>(1 << (bpc - 8));
    const double y = (static_cast<double>(ys) - 16. * scale) * (1. / (219. * scale));
    const double u = (static_cast<double>(us) - 128. * scale) * (1. / (224. * scale));
    const double v = (static_cast<double>(vs) - 128. * scale) * (1. / (224. * scale));

    const double r = linearise(y + 1.28033 * v);
    const double g = linearise(y - 0.21482 * u - 0.38059 * v);
    const double b = linearise(y + 2.12798 * u);

    const double x = r * 0.4124564390896921 + g * 0.357576077643909 + b * 0.18043748326639894;
    const double yy = r * 0.21267285140562248 + g * 0.715152155287818 + b * 0.07217499330655958;
    const double z = r * 0.019333895582329317 + g * 0.119192025881303 + b * 0.9503040785363677;

    const double fx = lab_f(x * (1.0 / 0.95047));
    const double fy = lab_f(yy);
    const double fz = lab_f(z * (1.0 / 1.08883));
    return Lab{static_cast<float>(116.0 * fy - 16.0), static_cast<float>(500.0 * (fx - fy)),
               static_cast<float>(200.0 * (fy - fz))};
}

float delta_e2000(const Lab& c1, const Lab& c2) {
    constexpr float kL = 0.65f, kC = 1.0f, kH = 4.0f;
    constexpr double k25pow7 = 6103515625.0;  // 25^7, exact in double

    const float dl = c2.l - c1.l;
    const float l_bar = (c1.l + c2.l) / 2;
    const float ch1 = static_cast<float>(sqrt(sq(c1.a) + sq(c1.b)));
    const float ch2 = static_cast<float>(sqrt(sq(c2.a) + sq(c2.b)));
    const float c_bar = (ch1 + ch2) / 2;
    const double c_bar7 = pow(static_cast<double>(c_bar), 7.0);
    const double g = 1 - sqrt(c_bar7 / (c_bar7 + k25pow7));
    const float a1 = static_cast<float>(static_cast<double>(c1.a) + static_cast<double>(c1.a / 2) * g);
    const float a2 = static_cast<float>(static_cast<double>(c2.a) + static_cast<double>(c2.a / 2) * g);
    const float cp1 = static_cast<float>(sqrt(sq(a1) + sq(c1.b)));
    const float cp2 = static_cast<float>(sqrt(sq(a2) + sq(c2.b)));
    const float cp_bar = (cp1 + cp2) / 2;
    const float dc = cp2 - cp1;
    const double l50 = sq(static_cast<double>(l_bar - 50));
    const float s_l = static_cast<float>(1. + ((0.015 * l50) / sqrt(20 + l50)));
    const float s_c = static_cast<float>(1. + 0.045 * static_cast<double>(cp_bar));
    const float h1 = hue_angle(c1.b, a1);
    const float h2 = hue_angle(c2.b, a2);
    const float dh = hue_difference(ch1, ch2, h1, h2);
    const float d_big_h =
        static_cast<float>(2.0 * sqrt(static_cast<double>(cp1 * cp2)) * sin(static_cast<double>(dh) / 2.0));
    const float h_bar = mean_hue(h1, h2);
    const float t = hue_weight_t(h_bar);
    const float s_h = static_cast<float>(1.0 + 0.015 * static_cast<double>(cp_bar) * static_cast<double>(t));
    const float r_t = rotation_term(cp_bar, h_bar);
    const float lightness = dl / (kL * s_l);
    const float chroma = dc / (kC * s_c);
    const float hue = d_big_h / (kH * s_h);
    return static_cast<float>(sqrt(sq(lightness) + sq(chroma) + sq(hue) + static_cast<double>(r_t * chroma * hue)));
}

double frame_score(double de_sum, unsigned width, unsigned height) {
    return 45. - 20. * log10(de_sum / static_cast<double>(width * height));
}

}  // namespace vmaf::ciede
