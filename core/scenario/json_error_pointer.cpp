#include "core/scenario/json_error_pointer.h"

#include <nlohmann/json.hpp>
#include <set>
#include <vector>

#include "core/common/text_excerpt.h"

namespace attnviz {
namespace {

using nlohmann::json;

// A SAX consumer that only keeps the path to the value being read.
class PathTracker : public nlohmann::json_sax<json> {
 public:
  std::string error_pointer;
  std::vector<std::string> duplicates;

  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(number_integer_t) override { return value(); }
  bool number_unsigned(number_unsigned_t) override { return value(); }
  bool number_float(number_float_t, const string_t&) override { return value(); }
  bool string(string_t&) override { return value(); }
  bool binary(binary_t&) override { return value(); }
  bool start_object(std::size_t) override {
    value();
    frames_.push_back({false, 0, 0, "", {}});
    return true;
  }
  bool key(string_t& name) override {
    frames_.back().key = name;
    if (!frames_.back().keys.insert(name).second) duplicates.push_back(path());
    return true;
  }
  bool end_object() override {
    frames_.pop_back();
    return true;
  }
  bool start_array(std::size_t) override {
    value();
    frames_.push_back({true, 0, 0, "", {}});
    return true;
  }
  bool end_array() override {
    frames_.pop_back();
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    // In the innermost array, the failing element was never reported: it is the next one.
    error_pointer = path(true);
    return false;
  }

 private:
  struct Frame {
    bool is_array;
    std::size_t next;            // arrays: index of the next element
    std::size_t current;         // arrays: index of the element being read
    std::string key;             // objects: the key being read
    std::set<std::string> keys;  // objects: the keys seen so far
  };

  [[nodiscard]] std::string path(bool next_in_innermost_array = false) const {
    std::string pointer;
    for (std::size_t i = 0; i < frames_.size(); ++i) {
      const Frame& f = frames_[i];
      const bool next = next_in_innermost_array && i + 1 == frames_.size();
      pointer += "/" + (f.is_array ? std::to_string(next ? f.next : f.current) : escape(f.key));
    }
    return pointer;
  }

  bool value() {
    if (!frames_.empty() && frames_.back().is_array) frames_.back().current = frames_.back().next++;
    return true;
  }
  // Keys are cut to 60 characters: a pointer is for a message, and a key may be 200 KB long.
  static std::string escape(const std::string& key) {
    std::string out;
    for (const char c : key.substr(0, 4 * 60)) out += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
    return cut_text(out, 60);
  }

  std::vector<Frame> frames_;
};

}  // namespace

std::string json_error_pointer(std::string_view json_text) {
  PathTracker tracker;
  json::sax_parse(json_text, &tracker);
  return tracker.error_pointer;
}

std::vector<std::string> duplicate_key_pointers(std::string_view json_text) {
  PathTracker tracker;
  json::sax_parse(json_text, &tracker);
  return tracker.duplicates;
}

}  // namespace attnviz
