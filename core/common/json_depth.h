#pragma once
// Checks on JSON text before the JSON library sees it, shared by every reader of outside JSON
// (scenario files, models' config.json and tokenizer.json).

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace attnviz {

// The byte offset of the first '[' or '{' nested deeper than `max_depth`, outside strings;
// nullopt when there is none. The library's parser copes with any depth, but serialising,
// comparing or destroying a value that deep recurses once per level and overflows the stack
// (65,600 levels in a 131 KB file).
std::optional<std::size_t> json_too_deep_at(std::string_view text, int max_depth);

// "line L, column C" of a byte offset in a text (columns count UTF-8 characters).
std::string line_and_column(std::string_view text, std::size_t offset);

}  // namespace attnviz
