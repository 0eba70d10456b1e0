#pragma once
// Tokens shown so that people can read them: a space as ␣ (GPT-2's leading-space marker Ġ and
// SentencePiece's ▁ alike), a line break as ↵, a tab as ⇥, and bytes that are not a whole
// character (a Korean syllable split by GPT-2's byte-level BPE) as <0xEC> labels: never a
// replacement character.

#include <string>
#include <string_view>

namespace attnviz::tokenizers {

inline constexpr std::string_view kSpaceSign = "\u2423";  // ␣

// Raw token bytes as a label: valid UTF-8 characters as themselves (spaces and controls as
// signs), every other byte as <0xNN>.
std::string readable_bytes(std::string_view bytes);

}  // namespace attnviz::tokenizers
