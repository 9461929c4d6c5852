// libsvm regression: model text parser and prediction.
//
// Bit-exactness notes: numbers are converted with a correctly rounded decimal
// conversion (as libsvm's stream extraction, which ends in strtod, does). The
// kernel walks the sample and the support vector as two sparse, index-sorted
// lists, adding one term per index in ascending order, and the decision value
// is the plain left-to-right sum of coef * kernel over the support vectors in
// file order, minus rho -- the same sequence of roundings as libsvm.
#include "model/svm.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>

#include "vmaf/error.hpp"

namespace vmaf::detail {

namespace {

[[noreturn]] void bad(std::string_view origin, const std::string& what) {
    throw Error(ErrorKind::Model, std::string(origin) + ": malformed libsvm model: " + what);
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

bool to_double(std::string_view s, double& out) {
    if (!s.empty() && s.front() == '+') s.remove_prefix(1);
    if (s.empty()) return false;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && p == s.data() + s.size();
}

bool to_int(std::string_view s, int& out) {
    if (!s.empty() && s.front() == '+') s.remove_prefix(1);
    if (s.empty()) return false;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && p == s.data() + s.size();
}

/// Whitespace-separated tokens over a text, with line access for the SV section.
class Cursor {
public:
    explicit Cursor(std::string_view text) : text_(text) {}

    bool token(std::string_view& out) {
        while (pos_ < text_.size() && is_space(text_[pos_])) ++pos_;
        if (pos_ >= text_.size()) return false;
        const std::size_t b = pos_;
        while (pos_ < text_.size() && !is_space(text_[pos_])) ++pos_;
        out = text_.substr(b, pos_ - b);
        return true;
    }

    /// Remaining characters of the current line are dropped.
    void skip_line() {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
        if (pos_ < text_.size()) ++pos_;
    }

    bool line(std::string_view& out) {
        if (pos_ >= text_.size()) return false;
        const std::size_t b = pos_;
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
        out = text_.substr(b, pos_ - b);
        if (pos_ < text_.size()) ++pos_;
        return true;
    }

private:
    std::string_view text_;
    std::size_t pos_ = 0;
};

std::vector<std::string_view> split(std::string_view line) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && is_space(line[i])) ++i;
        if (i >= line.size()) break;
        const std::size_t b = i;
        while (i < line.size() && !is_space(line[i])) ++i;
        out.push_back(line.substr(b, i - b));
    }
    return out;
}

/// libsvm's integer power by repeated squaring.
double powi(double base, int times) {
    double tmp = base, ret = 1.0;
    for (int t = times; t > 0; t /= 2) {
        if (t % 2 == 1) ret *= tmp;
        tmp = tmp * tmp;
    }
    return ret;
}

}  // namespace

SvmModel SvmModel::parse(std::string_view text, std::string_view origin) {
    SvmModel m;
    Cursor cur(text);
    bool have_type = false, have_kernel = false, have_rho = false;
    int nr_class = 0, total_sv = -1;
    std::string_view tok;

    auto need_double = [&](const char* what, double& out) {
        std::string_view v;
        if (!cur.token(v) || !to_double(v, out)) bad(origin, std::string("cannot read ") + what);
    };
    auto need_int = [&](const char* what, int& out) {
        std::string_view v;
        if (!cur.token(v) || !to_int(v, out)) bad(origin, std::string("cannot read ") + what);
    };

    for (;;) {
        if (!cur.token(tok)) bad(origin, "no SV section");
        if (tok == "SV") break;
        if (tok == "svm_type") {
            std::string_view v;
            if (!cur.token(v)) bad(origin, "cannot read svm_type");
            if (v != "nu_svr" && v != "epsilon_svr")
                bad(origin, "unsupported svm_type '" + std::string(v) + "' (a regression model is required)");
            have_type = true;
        } else if (tok == "kernel_type") {
            std::string_view v;
            if (!cur.token(v)) bad(origin, "cannot read kernel_type");
            if (v == "linear") m.kernel_ = Kernel::Linear;
            else if (v == "polynomial") m.kernel_ = Kernel::Poly;
            else if (v == "rbf") m.kernel_ = Kernel::Rbf;
            else if (v == "sigmoid") m.kernel_ = Kernel::Sigmoid;
            else bad(origin, "unsupported kernel_type '" + std::string(v) + "'");
            have_kernel = true;
        } else if (tok == "degree") {
            need_int("degree", m.degree_);
        } else if (tok == "gamma") {
            need_double("gamma", m.gamma_);
        } else if (tok == "coef0") {
            need_double("coef0", m.coef0_);
        } else if (tok == "nr_class") {
            need_int("nr_class", nr_class);
            if (nr_class != 2) bad(origin, "nr_class must be 2 for a regression model");
        } else if (tok == "total_sv") {
            need_int("total_sv", total_sv);
            if (total_sv < 0) bad(origin, "negative total_sv");
        } else if (tok == "rho") {
            if (nr_class != 2) bad(origin, "rho before nr_class");
            need_double("rho", m.rho_);
            have_rho = true;
        } else if (tok == "label" || tok == "nr_sv" || tok == "probA" || tok == "probB") {
            // Classification-only fields: one value per class (label, nr_sv)
            // or per class pair (probA, probB); read and ignored.
            const int n = (tok == "label" || tok == "nr_sv") ? nr_class : nr_class * (nr_class - 1) / 2;
            for (int i = 0; i < n; ++i) {
                double ignored;
                need_double(std::string(tok).c_str(), ignored);
            }
        } else {
            bad(origin, "unknown header field '" + std::string(tok) + "'");
        }
    }
    cur.skip_line();

    if (!have_type) bad(origin, "missing svm_type");
    if (!have_kernel) bad(origin, "missing kernel_type");
    if (nr_class != 2) bad(origin, "missing nr_class");
    if (total_sv < 0) bad(origin, "missing total_sv");
    if (!have_rho) bad(origin, "missing rho");

    // A support vector takes a line of 2 bytes at least: a total_sv beyond
    // what the text can hold must not reserve gigabytes before failing.
    const std::size_t expect_sv = std::min(static_cast<std::size_t>(total_sv), text.size() / 2);
    m.coef_.reserve(expect_sv);
    m.sv_start_.reserve(expect_sv);
    for (int i = 0; i < total_sv; ++i) {
        std::string_view line;
        if (!cur.line(line)) bad(origin, "expected " + std::to_string(total_sv) + " support vectors, found " + std::to_string(i));
        const auto toks = split(line);
        double coef;
        if (toks.empty() || !to_double(toks[0], coef))
            bad(origin, "support vector " + std::to_string(i + 1) + ": bad coefficient");
        m.coef_.push_back(coef);
        m.sv_start_.push_back(m.nodes_.size());
        for (std::size_t k = 1; k < toks.size(); ++k) {
            const auto colon = toks[k].find(':');
            Node n{};
            if (colon == std::string_view::npos || !to_int(toks[k].substr(0, colon), n.index) || n.index < 0 ||
                !to_double(toks[k].substr(colon + 1), n.value))
                bad(origin, "support vector " + std::to_string(i + 1) + ": bad element '" + std::string(toks[k]) + "'");
            m.nodes_.push_back(n);
        }
        m.nodes_.push_back(Node{-1, 0.0});
    }
    return m;
}

double SvmModel::kernel(std::span<const double> x, const Node* y) const {
    // The sample is the sparse list (1, x[0]) ... (n, x[n-1]).
    const int n = static_cast<int>(x.size());
    if (kernel_ == Kernel::Rbf) {
        double sum = 0;
        int xi = 1;
        while (xi <= n && y->index != -1) {
            if (xi == y->index) {
                const double d = x[xi - 1] - y->value;
                sum += d * d;
                ++xi;
                ++y;
            } else if (xi > y->index) {
                sum += y->value * y->value;
                ++y;
            } else {
                sum += x[xi - 1] * x[xi - 1];
                ++xi;
            }
        }
        for (; xi <= n; ++xi) sum += x[xi - 1] * x[xi - 1];
        for (; y->index != -1; ++y) sum += y->value * y->value;
        return std::exp(-gamma_ * sum);
    }

    double dot = 0;
    int xi = 1;
    while (xi <= n && y->index != -1) {
        if (xi == y->index) {
            dot += x[xi - 1] * y->value;
            ++xi;
            ++y;
        } else if (xi > y->index) {
            ++y;
        } else {
            ++xi;
        }
    }
    switch (kernel_) {
        case Kernel::Linear: return dot;
        case Kernel::Poly: return powi(gamma_ * dot + coef0_, degree_);
        case Kernel::Sigmoid: return std::tanh(gamma_ * dot + coef0_);
        case Kernel::Rbf: break;
    }
    return 0;
}

double SvmModel::predict(std::span<const double> x) const {
    double sum = 0;
    for (std::size_t i = 0; i < coef_.size(); ++i) sum += coef_[i] * kernel(x, &nodes_[sv_start_[i]]);
    sum -= rho_;
    return sum;
}

}  // namespace vmaf::detail
