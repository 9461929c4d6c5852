// Error type of the library: every failure the user can cause surfaces as a
// vmaf::Error whose message is one line naming the problem.
#pragma once

#include <stdexcept>
#include <string>

namespace vmaf {

enum class ErrorKind {
    Usage,        ///< bad option, unknown feature/model name, bad value
    Input,        ///< unreadable, malformed or mismatched input
    Model,        ///< model file could not be parsed or is inconsistent
    Backend,      ///< a requested backend could not start
    Internal,
};

class Error : public std::runtime_error {
public:
    Error(ErrorKind kind, const std::string& msg) : std::runtime_error(msg), kind_(kind) {}
    ErrorKind kind() const { return kind_; }

private:
    ErrorKind kind_;
};

}  // namespace vmaf
