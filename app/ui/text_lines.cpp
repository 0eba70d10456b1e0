#include "app/ui/text_lines.h"

#include <imgui.h>

namespace attnviz::ui {

std::string break_at_spaces(std::string_view text, float width, const std::function<float(std::string_view)>& measure) {
  std::string out(text);
  const std::string_view all(out);
  std::size_t line_start = 0;
  std::size_t last_space = std::string::npos;  // the last space of this line, where it may break
  // The line measured so far, [line_start, measured_end): each word is measured once, as
  // ImGui's advances add up (1.86 does no kerning).
  std::size_t measured_end = 0;
  float measured = 0.0f;
  for (std::size_t i = 0; i <= out.size(); ++i) {
    if (i < out.size() && out[i] == '\n') {
      line_start = measured_end = i + 1;
      measured = 0.0f;
      last_space = std::string::npos;
      continue;
    }
    if (i < out.size() && out[i] != ' ') continue;
    // [line_start, i) is the line so far, up to the end of a word.
    const float line = measured + measure(all.substr(measured_end, i - measured_end));
    if (line > width && last_space != std::string::npos) {
      out[last_space] = '\n';
      line_start = last_space + 1;
      measured = measure(all.substr(line_start, i - line_start));
    } else {
      measured = line;
    }
    measured_end = i;
    if (i < out.size()) last_space = i;
  }
  return out;
}

namespace {

// Longer texts (a message quoting a file) are left to ImGui: measuring them word by word
// every frame would cost more than the frame.
constexpr std::size_t kMeasuredBytes = 4096;

void draw_lines(std::string_view text) {
  if (text.size() > kMeasuredBytes) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(text.data(), text.data() + text.size());
    ImGui::PopTextWrapPos();
    return;
  }
  const float width = ImGui::GetContentRegionAvail().x;
  const std::string lines = break_at_spaces(text, width - 1.0f, [](std::string_view run) {
    return ImGui::CalcTextSize(run.data(), run.data() + run.size()).x;
  });
  ImGui::PushTextWrapPos(0.0f);  // a word wider than the line: cut anywhere rather than run off
  ImGui::TextUnformatted(lines.data(), lines.data() + lines.size());
  ImGui::PopTextWrapPos();
}

}  // namespace

void text_lines(std::string_view text) { draw_lines(text); }

void text_lines_disabled(std::string_view text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  draw_lines(text);
  ImGui::PopStyleColor();
}

}  // namespace attnviz::ui
