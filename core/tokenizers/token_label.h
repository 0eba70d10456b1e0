#pragma once
// Tokens shown so that people can read them: a space as ␣ (GPT-2's leading-space marker Ġ and
// SentencePiece's ▁ alike), a line break as ↵, a tab as ⇥, never a replacement character. A
// character whose UTF-8 bytes a tokenizer cut between tokens (a Korean syllable under GPT-2's
// byte-level BPE, or under a Llama model's byte fallback) is named in each of its tokens,
// followed by the numbers of the bytes that token holds as subscripts: 안 (EC 95 88) cut as
// EC 95 | 88 reads 안₁₂ | 안₃. Bytes that make no character even with their neighbours, and a
// lone token's partial character, are <0xEC> labels.

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace attnviz::tokenizers {

inline constexpr std::string_view kSpaceSign = "\u2423";  // ␣

// Raw token bytes as a label, without neighbours: valid UTF-8 characters as themselves (spaces
// and controls as signs), every other byte as <0xNN>.
std::string readable_bytes(std::string_view bytes);

// A byte as the <0xNN> label (SentencePiece's spelling of its byte-fallback tokens, too).
std::string byte_label(unsigned char byte);

// One token of a text, as the text it stands for.
struct TokenPiece {
  std::string bytes;
  bool is_text = true;  // false: a special token (<s>, [CLS]), labelled `bytes` as they are; the text breaks there
};

// The labels of consecutive tokens, one per piece, reading each character across the tokens it
// was cut between (the rules above).
std::vector<std::string> readable_labels(std::span<const TokenPiece> pieces);

// For a label that holds part of a cut character, what a tooltip can say: "안₁₂: bytes 1 and 2
// of the 3 that spell 안 (U+C548). UTF-8 spells …"; "" for a label without one.
std::string cut_character_note(std::string_view label);

}  // namespace attnviz::tokenizers
