// A wrapped text of 20,000 characters (a notice quoting a long key) is one ImGui primitive of
// 80,000 vertices: with Debian's 16-bit indices the window aborted in ImGui::Render. Dear ImGui
// runs here without a window or GPU, as the Vulkan backend sets it up (VtxOffset honoured).

#include <gtest/gtest.h>
#include <imgui.h>

#include <algorithm>
#include <string>

#include "app/window/draw_list_guard.h"
#include "tests/support/headless_imgui.h"

namespace attnviz::window {
namespace {

class NoticeFrames {
 public:
  // A notice-like window with `text` wrapped, then a few small items after it.
  static void build_frame(const std::string& text) {
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0.0f, 0.0f));
    ImGui::SetNextWindowSize(ImVec2(400.0f, 300.0f));
    ImGui::Begin("notice", nullptr, ImGuiWindowFlags_NoSavedSettings);
    ImGui::TextUnformatted("Note");
    ImGui::PushTextWrapPos(380.0f);
    ImGui::TextUnformatted(text.c_str(), text.c_str() + text.size());
    ImGui::PopTextWrapPos();
    ImGui::Button("Close");
    ImGui::End();
    ImGui::EndFrame();
  }

 private:
  testing::HeadlessImGui imgui_{ImVec2(800.0f, 600.0f)};
};

std::string long_text() {
  std::string text;
  text = "f.json: /" + std::string(20000, 'k') + ": unknown field, ignored";
  return text;
}

TEST(DrawListGuard, ALongWrappedTextAbortedImGuiWithout) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        NoticeFrames imgui;
        NoticeFrames::build_frame(long_text());
        ImGui::Render();
      },
      "Too many vertices");
}

// Every triangle of every command reaches vertices written together (a glyph's quad, a frame's
// outline): none wrapped around to a vertex 65,536 places away.
TEST(DrawListGuard, SplitsTheCommandsSoEveryIndexReachesItsOwnVertex) {
  NoticeFrames imgui;
  for (int frame = 0; frame < 3; ++frame) {
    NoticeFrames::build_frame(long_text());
    EXPECT_GT(split_oversized_draw_commands(), 0);
    ImGui::Render();
  }
  const ImDrawData* data = ImGui::GetDrawData();
  ASSERT_NE(data, nullptr);
  int commands = 0;
  int glyph_quads = 0;
  for (int l = 0; l < data->CmdListsCount; ++l) {
    const ImDrawList& list = *data->CmdLists[l];
    for (const ImDrawCmd& cmd : list.CmdBuffer) {
      if (cmd.UserCallback != nullptr || cmd.ElemCount == 0) continue;
      ++commands;
      for (unsigned e = 0; e + 2 < cmd.ElemCount; e += 3) {
        unsigned lowest = ~0u;
        unsigned highest = 0;
        for (unsigned k = 0; k < 3; ++k) {
          const unsigned index = list.IdxBuffer[static_cast<int>(cmd.IdxOffset + e + k)];
          const unsigned vertex = cmd.VtxOffset + index;
          ASSERT_LT(vertex, static_cast<unsigned>(list.VtxBuffer.Size));
          lowest = std::min(lowest, vertex);
          highest = std::max(highest, vertex);
        }
        EXPECT_LT(highest - lowest, 1000u) << "a triangle across " << highest - lowest << " vertices";
        if (highest - lowest <= 3) ++glyph_quads;
      }
    }
  }
  EXPECT_GT(commands, 2);
  EXPECT_GT(glyph_quads, 2 * 20000);  // every character of the text, two triangles each
}

TEST(DrawListGuard, LeavesOrdinaryFramesAlone) {
  NoticeFrames imgui;
  NoticeFrames::build_frame("a short notice");
  EXPECT_EQ(split_oversized_draw_commands(), 0);
  ImGui::Render();
}

}  // namespace
}  // namespace attnviz::window
