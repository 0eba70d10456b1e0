#pragma once
// The error kinds the command line maps to exit codes (docs/design.md): InputError -> 2,
// BackendUnavailable -> 3, anything else -> 1.

#include <stdexcept>
#include <string>

namespace attnviz {

// Bad input from the user: a scenario file, a command-line option, a typed sentence.
// what() reads "ORIGIN: POINTER: PROBLEM", e.g.
//   "life.json: /wq: has shape 3×3 but needs d_model × (num_heads·d_k) = 3×2".
// origin is a file name (or "<gui>", "<command line>"), pointer a JSON pointer or option name.
class InputError : public std::runtime_error {
 public:
  InputError(std::string origin, std::string pointer, std::string problem);

  [[nodiscard]] const std::string& origin() const { return origin_; }
  [[nodiscard]] const std::string& pointer() const { return pointer_; }
  [[nodiscard]] const std::string& problem() const { return problem_; }
  // "POINTER: PROBLEM" where the origin is `own` (the window's "<gui>": its user's own input,
  // which the message need not name), else what().
  [[nodiscard]] std::string message_for(const std::string& own) const;

 private:
  std::string origin_;
  std::string pointer_;
  std::string problem_;
};

// The requested compute backend cannot run here (no Vulkan driver, no device, ...).
// The message says what was tried and how to fix it.
class BackendUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace attnviz
