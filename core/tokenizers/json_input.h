#pragma once
// The JSON files of a model folder (config.json, tokenizer.json, a safetensors header, a
// shard index) parsed with the checks every outside JSON gets here: nesting bounded before the
// library sees the text (a value nested thousands deep would overflow the stack when destroyed),
// parse errors with the line and column, all as InputError naming the file.

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace attnviz::tokenizers {

inline constexpr int kMaxModelJsonDepth = 64;

// Throws InputError(origin, where, problem): `where` names the part of the file ("header").
nlohmann::json parse_model_json(std::string_view text, const std::string& origin, const std::string& where = "");

// "/model/vocab" style pointers for messages.
std::string json_field(const std::string& parent, const std::string& key);

}  // namespace attnviz::tokenizers
