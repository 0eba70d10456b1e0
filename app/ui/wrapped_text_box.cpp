#include "app/ui/wrapped_text_box.h"

#include <imgui_internal.h>  // GetActiveID: whether ImGui holds the buffer
#include <imgui_stdlib.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <utility>

#include "core/text/utf8.h"

namespace attnviz::ui {
namespace {

// The current font's advances at its current size, as InputText measures them.
CharAdvance font_advance() {
  ImFont* font = ImGui::GetFont();
  const float scale = ImGui::GetFontSize() / font->FontSize;
  return [font, scale](char32_t c) {
    return font->GetCharAdvance(static_cast<ImWchar>(c <= 0xFFFF ? c : 0xFFFD)) * scale;
  };
}

}  // namespace

std::string wrap_at_spaces(std::string_view text, float width, const CharAdvance& advance) {
  std::string out(text);
  constexpr std::size_t kNone = std::string::npos;
  float x = 0.0f;             // the line's width so far
  std::size_t space = kNone;  // the line's last space
  float after_space = 0.0f;   // the line's width up to that space, included
  for (std::size_t i = 0; i < out.size();) {
    // A byte that is not UTF-8 counts as one character (ImGui draws it as one).
    const std::optional<utf8::Decoded> decoded = utf8::decode_at(out, i);
    const char32_t c = decoded ? decoded->code_point : U'\uFFFD';
    const std::size_t length = decoded ? decoded->length : 1;
    if (c == '\n') {
      x = 0.0f;
      space = kNone;
    } else {
      const float w = advance(c);
      if (x + w > width && c == ' ') {  // a space past the edge ends the line itself (the caret goes down with it)
        out[i] = '\n';
        x = 0.0f;
        space = kNone;
      } else {
        if (x + w > width && space != kNone) {  // the word overflows: it starts the next line
          out[space] = '\n';
          x -= after_space;
          space = kNone;
        }
        x += w;
        if (c == ' ') {
          space = i;
          after_space = x;
        }
      }
    }
    i += length;
  }
  return out;
}

std::string unwrap_after_edit(std::string_view shown, std::string_view before_shown, std::string_view before_text) {
  // The edit is what lies between the longest common start and the longest common end.
  const std::size_t shortest = std::min(shown.size(), before_shown.size());
  std::size_t start = 0;
  while (start < shortest && shown[start] == before_shown[start]) ++start;
  std::size_t end = 0;
  while (end < shortest - start && shown[shown.size() - 1 - end] == before_shown[before_shown.size() - 1 - end]) ++end;
  std::string text(shown);
  std::memcpy(text.data(), before_text.data(), start);
  std::memcpy(text.data() + shown.size() - end, before_text.data() + before_text.size() - end, end);
  return text;
}

void WrappedTextBox::set_text(std::string_view text) {
  if (text == text_ && width_ >= 0.0f) return;
  text_ = text;
  width_ = -1.0f;  // wrapped at the next draw, at the box's width
}

float WrappedTextBox::wrap_width(ImVec2 size) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float frame = size.x < 0.0f ? ImGui::GetContentRegionAvail().x + size.x : size.x;
  // Inside the frame's padding, beside a vertical scrollbar (there once the text is taller
  // than the box), and a pixel short of the edge: a caret at the edge scrolls the box sideways.
  return std::max(1.0f, frame - 2.0f * style.FramePadding.x - style.ScrollbarSize - 2.0f);
}

void WrappedTextBox::rewrap(float width) {
  width_ = width;
  font_size_ = ImGui::GetFontSize();
  wrapped_ = wrap_at_spaces(text_, width_, font_advance());
  shown_ = wrapped_;
}

void WrappedTextBox::take_edit(std::string_view edited) {
  text_ = unwrap_after_edit(edited, wrapped_, text_);
  wrapped_ = edited;
}

bool WrappedTextBox::draw(const char* id, ImVec2 size) {
  const float width = wrap_width(size);
  // While the user types, ImGui owns the buffer: it is rewrapped on each edit (on_edit), and
  // at a new width once the user leaves the box.
  const float font_size = ImGui::GetFontSize();  // presentation mode and View's text size change it
  if ((width != width_ || font_size != font_size_) && ImGui::GetActiveID() != ImGui::GetID(id)) rewrap(width);
  const bool changed = ImGui::InputTextMultiline(id, &shown_, size, ImGuiInputTextFlags_CallbackEdit, on_edit, this);
  // Edits without the callback (Escape restoring the text the box had) are taken here.
  if (changed && shown_ != wrapped_) take_edit(shown_);
  return changed;
}

int WrappedTextBox::on_edit(ImGuiInputTextCallbackData* data) {
  auto& box = *static_cast<WrappedTextBox*>(data->UserData);
  box.take_edit(std::string_view(data->Buf, static_cast<std::size_t>(data->BufTextLen)));
  if (box.width_ < 0.0f) return 0;  // not drawn yet at a width: wrapped when it is
  std::string wrapped = wrap_at_spaces(box.text_, box.width_, font_advance());
  if (wrapped != box.wrapped_) {  // only spaces and newlines traded places: the length is the same
    std::memcpy(data->Buf, wrapped.data(), wrapped.size());
    data->BufDirty = true;
    box.wrapped_ = std::move(wrapped);
  }
  return 0;
}

}  // namespace attnviz::ui
