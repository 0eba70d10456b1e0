#pragma once
// `attnviz train --task text --init DIR` (docs/design.md, "Training"): training goes on from a
// GPT-2 model folder that core/model opens (the user's GPT-2, or a folder attnviz train wrote).
// Its weights, of whatever type the folder stores, become the trainer's float32 parameters; its
// tokenizer turns the text into ids and is copied into every folder the run writes, so each of
// them opens with the tokenizer the model was trained with.

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/train/parameters.h"

namespace attnviz::train {

struct InitialModel {
  ModelShape shape;                                    // the folder's: its whole position table
  std::vector<float> parameters;                       // parameter_layout(shape) order
  std::vector<std::filesystem::path> tokenizer_files;  // the folder's tokenizer, as its files
};

// Throws InputError naming the folder and the field for what cannot be trained on: not a model
// folder, not GPT-2 (GPT2LMHeadModel), an unembedding of its own (the trainer ties it to the
// token embedding), a LayerNorm epsilon other than 1e-5, or a position
// table shorter than `context`.
InitialModel read_initial_model(const std::filesystem::path& folder, int context);

// The tokenizer files of a model folder that are there (tokenizer.json, vocab.json, merges.txt,
// tokenizer_config.json, special_tokens_map.json, added_tokens.json).
std::vector<std::filesystem::path> tokenizer_files_in(const std::filesystem::path& folder);

// The ids of the whole of `text` under the tokenizer of the model folder `folder`. A tokenizer
// takes at most 4,096 tokens at a time, so the text goes in pieces of at most 4,096 bytes cut
// where a word starts (a space after a non-space: byte-level BPE starts a new word there
// anyway, so the ids are those of the whole text); a piece with no such place is cut at a
// character's start. `origin` names the text in errors (invalid UTF-8: its byte offset).
std::vector<std::int32_t> encode_training_text(const std::filesystem::path& folder, std::string_view text,
                                               const std::string& origin);

// Where a piece of at most `limit` bytes of `text` starting at `begin` should end (exclusive).
std::size_t training_text_cut(std::string_view text, std::size_t begin, std::size_t limit);

}  // namespace attnviz::train
