#pragma once
// Messages the user must see: errors (a scenario that cannot be computed, a failed save),
// warnings (no Hangul font) and short confirmations. Shown in the bottom-right corner above the
// status bar; errors and warnings stay until closed, information fades after a few seconds.

#include <chrono>
#include <string>
#include <vector>

namespace attnviz::ui {

enum class NoticeLevel { Info, Warning, Error };

struct Notice {
  NoticeLevel level = NoticeLevel::Info;
  std::string text;
  std::string key;  // posting again with the same key replaces it (and a closed one stays closed)
  std::chrono::steady_clock::time_point posted;
};

class Notices {
 public:
  // Posts a message. A non-empty `key` makes it unique: re-posting replaces the text, and
  // once the user closed it, the same key is not shown again (e.g. "no-hangul-font").
  void post(NoticeLevel level, std::string text, std::string key = "");
  // Removes the notice with this key (the condition went away), without marking it closed.
  void clear(const std::string& key);

  [[nodiscard]] const std::vector<Notice>& all() const { return notices_; }

  // Draws the notices stacked upwards from (right, bottom), within `max_width` pixels.
  void draw(float right, float bottom, float max_width);

 private:
  std::vector<Notice> notices_;
  std::vector<std::string> closed_keys_;
};

}  // namespace attnviz::ui
