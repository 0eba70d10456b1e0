#include "app/ui/text_lines.h"

#include <imgui.h>
#include <imgui_internal.h>  // the wrap position ImGui::TextWrapped would wrap at

#include <algorithm>
#include <cstdarg>
#include <cstdio>

namespace attnviz::ui {

namespace {

// "a × b" is one word to the line breaking: "(1,024 × 1,024)" never splits.
bool beside_a_product_sign(std::string_view text, std::size_t space) {
  static constexpr std::string_view kTimes = "\xc3\x97";
  return text.substr(space + 1).starts_with(kTimes) ||
         (space >= kTimes.size() && text.substr(space - kTimes.size()).starts_with(kTimes));
}

}  // namespace

std::string break_at_spaces(std::string_view text, float width, const std::function<float(std::string_view)>& measure,
                            float hanging_indent) {
  std::string out(text);
  const std::string_view all(out);
  std::size_t line_start = 0;
  std::size_t last_space = std::string::npos;  // the last space of this line where it may break
  float room = width;                          // the first line of a paragraph is the widest
  // The line measured so far, [line_start, measured_end): each word is measured once, as
  // ImGui's advances add up (1.86 does no kerning).
  std::size_t measured_end = 0;
  float measured = 0.0f;
  for (std::size_t i = 0; i <= out.size(); ++i) {
    const bool paragraph_end = i == out.size() || out[i] == '\n';
    if (!paragraph_end && out[i] != ' ') continue;
    // [line_start, i) is the line so far, up to the end of a word.
    const float line = measured + measure(all.substr(measured_end, i - measured_end));
    if (line > room && last_space != std::string::npos) {
      out[last_space] = '\n';
      line_start = last_space + 1;
      measured = measure(all.substr(line_start, i - line_start));
      room = width - hanging_indent;
    } else {
      measured = line;
    }
    measured_end = i;
    if (paragraph_end) {
      line_start = measured_end = i + 1;
      measured = 0.0f;
      last_space = std::string::npos;
      room = width;
    } else if (!beside_a_product_sign(all, i)) {
      last_space = i;
    }
  }
  return out;
}

namespace {

// Longer texts (a message quoting a file) are left to ImGui: measuring them word by word
// every frame would cost more than the frame.
constexpr std::size_t kMeasuredBytes = 4096;

void draw_lines(std::string_view text) {
  const float wrap_pos = ImGui::GetCurrentWindow()->DC.TextWrapPos;
  const bool no_wrap_pushed = wrap_pos < 0.0f;
  // A word wider than the line: ImGui cuts it anywhere rather than let it run off.
  if (no_wrap_pushed) ImGui::PushTextWrapPos(0.0f);
  if (text.size() > kMeasuredBytes) {
    ImGui::TextUnformatted(text.data(), text.data() + text.size());
  } else {
    const float width = ImGui::CalcWrapWidthForPos(ImGui::GetCursorScreenPos(), no_wrap_pushed ? 0.0f : wrap_pos);
    const std::string lines = break_at_spaces(text, width - 1.0f, [](std::string_view run) {
      return ImGui::CalcTextSize(run.data(), run.data() + run.size()).x;
    });
    ImGui::TextUnformatted(lines.data(), lines.data() + lines.size());
  }
  if (no_wrap_pushed) ImGui::PopTextWrapPos();
}

}  // namespace

void text_lines(std::string_view text) { draw_lines(text); }

void text_lines_disabled(std::string_view text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  draw_lines(text);
  ImGui::PopStyleColor();
}

namespace {

std::string formatted(const char* format, va_list args) {
  va_list count_args;
  va_copy(count_args, args);
  const int size = std::vsnprintf(nullptr, 0, format, count_args);
  va_end(count_args);
  std::string text(static_cast<std::size_t>(std::max(size, 0)), '\0');
  if (size > 0) std::vsnprintf(text.data(), text.size() + 1, format, args);
  return text;
}

}  // namespace

void text_wrapped(const char* format, ...) {
  va_list args;
  va_start(args, format);
  const std::string text = formatted(format, args);
  va_end(args);
  text_lines(text);
}

void text_wrapped_disabled(const char* format, ...) {
  va_list args;
  va_start(args, format);
  const std::string text = formatted(format, args);
  va_end(args);
  text_lines_disabled(text);
}

}  // namespace attnviz::ui
