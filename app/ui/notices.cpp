#include "app/ui/notices.h"

#include <imgui.h>

#include <algorithm>

#include "app/i18n/translate.h"
#include "app/ui/long_text.h"
#include "app/ui/palette.h"

namespace attnviz::ui {
namespace {

constexpr auto kInfoLifetime = std::chrono::seconds(4);

ImVec4 colour_of(NoticeLevel level) {
  switch (level) {
    case NoticeLevel::Error: return palette::vec4(palette::error_text());
    case NoticeLevel::Warning: return ImVec4(0.85f, 0.55f, 0.05f, 1.0f);  // reads on either theme
    case NoticeLevel::Info: break;
  }
  return palette::dark_background() ? ImVec4(0.45f, 0.68f, 0.95f, 1.0f) : ImVec4(0.15f, 0.45f, 0.80f, 1.0f);
}

const char* title_of(NoticeLevel level) {
  switch (level) {
    case NoticeLevel::Error: return i18n::tr("Error");
    case NoticeLevel::Warning: return i18n::tr("Note");
    case NoticeLevel::Info: break;
  }
  return i18n::tr("Info");
}

}  // namespace

void Notices::post(NoticeLevel level, std::string text, std::string key) {
  if (!key.empty() && std::find(closed_keys_.begin(), closed_keys_.end(), key) != closed_keys_.end()) return;
  Notice notice{level, std::move(text), std::move(key), std::chrono::steady_clock::now()};
  if (!notice.key.empty()) {
    for (auto& existing : notices_) {
      if (existing.key == notice.key) {
        const bool same = existing.text == notice.text && existing.level == notice.level;
        if (!same) existing = std::move(notice);
        return;
      }
    }
  }
  notices_.push_back(std::move(notice));
}

void Notices::clear(const std::string& key) {
  std::erase_if(notices_, [&](const Notice& n) { return n.key == key; });
}

void Notices::draw(float right, float bottom, float max_width) {
  const auto now = std::chrono::steady_clock::now();
  std::erase_if(notices_,
                [&](const Notice& n) { return n.level == NoticeLevel::Info && now - n.posted > kInfoLifetime; });
  float y = bottom;
  int closed = -1;
  for (int i = static_cast<int>(notices_.size()) - 1; i >= 0; --i) {
    const Notice& notice = notices_[static_cast<std::size_t>(i)];
    ImGui::SetNextWindowPos(ImVec2(right, y), ImGuiCond_Always, ImVec2(1.0f, 1.0f));
    ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(max_width, 400));
    ImGui::SetNextWindowBgAlpha(0.96f);
    const std::string id = "##notice" + std::to_string(i);
    ImGui::PushStyleColor(ImGuiCol_Border, colour_of(notice.level));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 2.0f);
    ImGui::Begin(id.c_str(), nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                     ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove);
    ImGui::TextColored(colour_of(notice.level), "%s", title_of(notice.level));
    ImGui::SameLine();
    if (ImGui::SmallButton(i18n::tr_label("Close").c_str())) closed = i;
    // A message may quote a file of any length: a part is shown, Copy takes all of it.
    ImGui::PushTextWrapPos(max_width - ImGui::GetStyle().WindowPadding.x * 2.0f);
    long_text(notice.text, id.c_str());
    ImGui::PopTextWrapPos();
    y -= ImGui::GetWindowHeight() + 6.0f;
    ImGui::End();
    ImGui::PopStyleVar();
    ImGui::PopStyleColor();
  }
  if (closed >= 0) {
    const Notice& notice = notices_[static_cast<std::size_t>(closed)];
    if (!notice.key.empty()) closed_keys_.push_back(notice.key);
    notices_.erase(notices_.begin() + closed);
  }
}

}  // namespace attnviz::ui
