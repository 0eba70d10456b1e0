#pragma once
// File ▸ Open text…: a text file as the scenario's sentence, without any UI. A text past the
// overview's 65,536 tokens is refused with the offer to take its first 65,536 instead (a book
// opened whole would otherwise be refused with nothing to do but cut it by hand).

#include <filesystem>
#include <optional>
#include <string>

#include "core/text/sentence_tokens.h"
#include "core/scenario/scenario.h"

namespace attnviz::edits {

enum class TextPart {
  Whole,        // the whole text, refused past the overview's limit
  FirstTokens,  // the text up to the overview's limit (the whole text when it is shorter)
};

struct OpenedText {
  std::optional<Scenario> scenario;  // the current one with the text as its sentence; empty when refused
  std::string undo_label;            // "Open text story.txt", "Open the first 65,536 tokens of book.txt"
  std::string notice;                // what the window says once it is in
  std::string error;                 // why it was refused ("" when taken), naming the file
  bool too_long = false;             // refused for its length alone: TextPart::FirstTokens takes it
};

// Reads `path` (UTF-8 text) and puts it in `current`'s sentence, its file name as the title
// (with "(first 65,536 tokens)" when cut), tokenized with `current`'s tokenizer. Never throws:
// an unreadable, empty or non-UTF-8 file gives an error.
OpenedText open_text(const Scenario& current, const std::filesystem::path& path, TextPart part);

// A sentence (or cross-attention source) typed or pasted past the overview's 65,536 tokens cut to
// its first 65,536, so the overview shows it again (or past `limit`, the materialised views'
// 4,096, cut to that): `current` with each text that is too long cut (white space at the cut
// dropped, its embeddings generated again); nullopt when neither is too long (or either lists
// its tokens, or cannot be split for another reason).
std::optional<Scenario> keep_first_tokens(const Scenario& current, int limit = kMaxSentenceTokens);
// Whether keep_first_tokens may cut `current` at all: neither its sentence nor its source lists
// its tokens (listed tokens are the user's, not cut behind their back).
bool texts_can_be_cut(const Scenario& current);
// "Keep the first 65,536 tokens": the button's words and its undo step's name.
// In the window's language; keep_first_tokens_id is the same words in English, the button's
// ImGui ID in every language (the widget keeps its identity when the language changes).
std::string keep_first_tokens_label(int limit = kMaxSentenceTokens);
std::string keep_first_tokens_id(int limit = kMaxSentenceTokens);

}  // namespace attnviz::edits
