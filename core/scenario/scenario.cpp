#include "core/scenario/scenario.h"

#include <cmath>

namespace attnviz {

float ScaleSetting::resolve(int d_k) const {
  switch (kind) {
    case Kind::InvSqrtDk: return static_cast<float>(1.0 / std::sqrt(static_cast<double>(d_k)));
    case Kind::None: return 1.0f;
    case Kind::Value: return static_cast<float>(value);
  }
  return 1.0f;
}

}  // namespace attnviz
