#include "app/window/key_queue.h"

#include <algorithm>

namespace attnviz::window {

bool KeyQueue::changed_this_frame(int key) const { return std::find(changed_.begin(), changed_.end(), key) != changed_.end(); }

}  // namespace attnviz::window
