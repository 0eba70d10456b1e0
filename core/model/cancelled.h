#pragma once
// A long load or forward pass stopped through its std::stop_token.

#include <stdexcept>

namespace attnviz::model {

class Cancelled : public std::runtime_error {
 public:
  Cancelled() : std::runtime_error("cancelled") {}
};

}  // namespace attnviz::model
