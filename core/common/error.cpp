#include "core/common/error.h"

namespace attnviz {
namespace {
std::string compose(const std::string& origin, const std::string& pointer, const std::string& problem) {
  std::string text;
  if (!origin.empty()) text += origin + ": ";
  if (!pointer.empty()) text += pointer + ": ";
  return text + problem;
}
}  // namespace

InputError::InputError(std::string origin, std::string pointer, std::string problem)
    : std::runtime_error(compose(origin, pointer, problem)),
      origin_(std::move(origin)),
      pointer_(std::move(pointer)),
      problem_(std::move(problem)) {}

std::string InputError::message_for(const std::string& own) const {
  if (origin_ != own) return what();
  return pointer_.empty() ? problem_ : pointer_ + ": " + problem_;
}

}  // namespace attnviz
