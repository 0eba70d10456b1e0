#include "app/edits/mask_edits.h"

#include <algorithm>
#include <charconv>

namespace attnviz::edits {
namespace {

void normalise(MaskSetting& mask) {
  std::sort(mask.global.begin(), mask.global.end());
  mask.global.erase(std::unique(mask.global.begin(), mask.global.end()), mask.global.end());
  if (!mask.window) mask.global.clear();
}

}  // namespace

MaskSetting toggle_global(MaskSetting mask, int index) {
  if (index < 0) return mask;
  const auto found = std::find(mask.global.begin(), mask.global.end(), index);
  if (found != mask.global.end()) {
    mask.global.erase(found);
  } else {
    if (!mask.window) mask.window = kDefaultLongformerRadius;
    mask.global.push_back(index);
  }
  normalise(mask);
  return mask;
}

MaskSetting set_window(MaskSetting mask, std::optional<int> radius) {
  if (radius && *radius < 0) radius = 0;
  mask.window = radius;
  normalise(mask);
  return mask;
}

const char* mask_preset_name(MaskPreset preset) {
  switch (preset) {
    case MaskPreset::None: return "None";
    case MaskPreset::Causal: return "Causal";
    case MaskPreset::SlidingWindow: return "Sliding window";
    case MaskPreset::Longformer: return "Longformer";
  }
  return "?";
}

MaskSetting apply_mask_preset(const MaskSetting& current, MaskPreset preset) {
  MaskSetting mask;
  switch (preset) {
    case MaskPreset::None: break;
    case MaskPreset::Causal: mask.causal = true; break;
    case MaskPreset::SlidingWindow:
      mask.causal = true;
      mask.window = current.window.value_or(kDefaultSlidingRadius);
      break;
    case MaskPreset::Longformer:
      mask.window = current.window.value_or(kDefaultLongformerRadius);
      mask.global = current.global.empty() ? std::vector<int>{0} : current.global;
      break;
  }
  normalise(mask);
  return mask;
}

std::optional<MaskPreset> matching_preset(const MaskSetting& mask) {
  if (!mask.window) return mask.causal ? MaskPreset::Causal : MaskPreset::None;
  if (mask.causal && mask.global.empty()) return MaskPreset::SlidingWindow;
  if (!mask.causal && !mask.global.empty()) return MaskPreset::Longformer;
  return std::nullopt;
}

MaskSetting prune_globals(MaskSetting mask, int token_count) {
  std::erase_if(mask.global, [&](int g) { return g < 0 || g >= token_count; });
  normalise(mask);
  return mask;
}

ParsedGlobals parse_global_list(std::string_view text, int token_count) {
  std::vector<int> indices;
  std::size_t pos = 0;
  const auto is_separator = [](char c) { return c == ' ' || c == ',' || c == '\t' || c == ';'; };
  while (pos < text.size()) {
    if (is_separator(text[pos])) {
      ++pos;
      continue;
    }
    std::size_t end = pos;
    while (end < text.size() && !is_separator(text[end])) ++end;
    const std::string_view part = text.substr(pos, end - pos);
    int value = 0;
    const auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), value);
    if (ec != std::errc() || ptr != part.data() + part.size() || value < 0) {
      return {std::nullopt, "\"" + std::string(part) + "\" is not a token index (0, 1, 2, ...)"};
    }
    if (value >= token_count) {
      return {std::nullopt, std::to_string(value) + " is past the last token (" +
                                (token_count > 0 ? std::to_string(token_count - 1) : std::string("there are none")) +
                                ")"};
    }
    indices.push_back(value);
    pos = end;
  }
  std::sort(indices.begin(), indices.end());
  indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
  return {std::move(indices), ""};
}

std::string format_global_list(const std::vector<int>& indices) {
  std::string out;
  for (const int i : indices) {
    if (!out.empty()) out += ", ";
    out += std::to_string(i);
  }
  return out;
}

std::string window_summary(const MaskSetting& mask) {
  if (!mask.window) return mask.causal ? "each token sees itself and all before it" : "every token sees every token";
  const int r = *mask.window;
  const std::string keys = mask.causal ? std::to_string(r + 1) : std::to_string(2 * r + 1);
  std::string text = "each token sees " + keys + (keys == "1" ? " key" : " keys") +
                     (mask.causal ? " (itself and " + std::to_string(r) + " before)" : " (±" + std::to_string(r) + ")");
  if (!mask.global.empty()) text += "; globals see and are seen by all";
  return text;
}

}  // namespace attnviz::edits
