// libsvm regression model (the "model" string of a Netflix VMAF model file):
// text parser and prediction, reproducing libsvm's arithmetic order exactly.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace vmaf::detail {

class SvmModel {
public:
    enum class Kernel { Linear, Poly, Rbf, Sigmoid };

    /// Parses libsvm model text. Throws vmaf::Error(Model) naming `origin` on
    /// malformed text or a model that is not a regression (epsilon/nu SVR).
    static SvmModel parse(std::string_view text, std::string_view origin);

    /// Decision value for one sample; x[i] is the feature of libsvm index i+1.
    double predict(std::span<const double> x) const;

    std::size_t support_vector_count() const { return coef_.size(); }

private:
    struct Node {
        int index;
        double value;
    };

    double kernel(std::span<const double> x, const Node* sv) const;

    Kernel kernel_ = Kernel::Rbf;
    int degree_ = 3;
    double gamma_ = 0, coef0_ = 0, rho_ = 0;
    std::vector<double> coef_;          ///< one coefficient per support vector
    std::vector<Node> nodes_;           ///< all SVs back to back, each ended by index -1
    std::vector<std::size_t> sv_start_; ///< offset of each SV in nodes_
};

}  // namespace vmaf::detail
