#include "app/window/key_queue.h"

#include <algorithm>

namespace attnviz::window {

bool KeyQueue::changed_this_frame(const KeyChange& change) const {
  return std::find(changed_.begin(), changed_.end(), std::pair{change.kind, change.key}) != changed_.end();
}

}  // namespace attnviz::window
