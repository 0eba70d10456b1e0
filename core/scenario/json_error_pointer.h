#pragma once
// Where in a JSON document parsing stopped, as a JSON pointer ("/embeddings/2/1"), so an error
// like a number too large for a double ("1e999") names the field like every other error.

#include <string>
#include <string_view>
#include <vector>

namespace attnviz {

// The pointer of the value being read when parsing `json_text` fails ("" for the root, or
// when the text parses). Runs a second, path-tracking parse; call it only after a failure.
std::string json_error_pointer(std::string_view json_text);

// The pointers of keys that appear twice in the same object (JSON parsers silently keep one
// of them, so a scenario edited by hand could lose a value without a word).
std::vector<std::string> duplicate_key_pointers(std::string_view json_text);

}  // namespace attnviz
