#include "app/window/draw_list_guard.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace attnviz::window {
namespace {

constexpr std::int64_t kIndexRange = std::int64_t{1} << (8 * sizeof(ImDrawIdx));

// The true vertex (relative to the group's VtxOffset) of a stored index: the one of the
// candidates idx + k·65536 nearest to the vertex before it.
std::int64_t unwrap(ImDrawIdx stored, std::int64_t previous) {
  const std::int64_t low = static_cast<std::int64_t>(stored);
  const std::int64_t k = (previous - low + kIndexRange / 2) / kIndexRange;
  return low + std::max<std::int64_t>(k, 0) * kIndexRange;
}

bool draws(const ImDrawCmd& cmd) { return cmd.UserCallback == nullptr && cmd.ElemCount > 0; }

}  // namespace

int split_oversized_draw_commands(ImDrawList& list) {
  if (sizeof(ImDrawIdx) > 2 || list.CmdBuffer.Size == 0) return 0;
  // Is any group (commands of one VtxOffset) larger than the index range?
  bool oversized = false;
  for (int i = 0; i < list.CmdBuffer.Size && !oversized; ++i) {
    const unsigned offset = list.CmdBuffer[i].VtxOffset;
    unsigned next = static_cast<unsigned>(list.VtxBuffer.Size);
    for (int j = i + 1; j < list.CmdBuffer.Size; ++j) {
      if (list.CmdBuffer[j].VtxOffset != offset) {
        next = list.CmdBuffer[j].VtxOffset;
        break;
      }
    }
    oversized = next > offset && static_cast<std::int64_t>(next - offset) > kIndexRange;
  }
  if (!oversized) return 0;

  ImVector<ImDrawCmd> rebuilt;
  int added = 0;
  unsigned group_offset = ~0u;
  unsigned moved_offset = 0;  // the group's VtxOffset after its last split
  std::int64_t previous = 0;
  for (const ImDrawCmd& cmd : list.CmdBuffer) {
    if (!draws(cmd)) {
      rebuilt.push_back(cmd);
      // An empty command closing the list is where ImGui goes on drawing: it continues from
      // the last piece of its group.
      if (cmd.UserCallback == nullptr && cmd.VtxOffset == group_offset) rebuilt.back().VtxOffset = moved_offset;
      continue;
    }
    if (cmd.VtxOffset != group_offset) {
      group_offset = cmd.VtxOffset;
      previous = 0;
    }
    ImDrawIdx* indices = list.IdxBuffer.Data + cmd.IdxOffset;
    std::vector<std::int64_t> true_index(cmd.ElemCount);
    for (unsigned e = 0; e < cmd.ElemCount; ++e) {
      previous = unwrap(indices[e], previous);
      true_index[e] = previous;
    }
    // Consecutive triangles share a command while they fit its 65,536 vertices.
    ImDrawCmd piece = cmd;
    piece.ElemCount = 0;
    std::int64_t base = -1;
    for (unsigned e = 0; e < cmd.ElemCount; e += 3) {
      const unsigned count = std::min(3u, cmd.ElemCount - e);
      const auto [lo_it, hi_it] = std::minmax_element(true_index.begin() + e, true_index.begin() + e + count);
      if (base < 0 || *lo_it < base || *hi_it - base >= kIndexRange) {
        if (piece.ElemCount > 0) {
          rebuilt.push_back(piece);
          ++added;
        }
        base = *lo_it;
        piece.VtxOffset = group_offset + static_cast<unsigned>(base);
        moved_offset = piece.VtxOffset;
        piece.IdxOffset = cmd.IdxOffset + e;
        piece.ElemCount = 0;
      }
      for (unsigned k = 0; k < count; ++k) indices[e + k] = static_cast<ImDrawIdx>(true_index[e + k] - base);
      piece.ElemCount += count;
    }
    if (piece.ElemCount > 0) rebuilt.push_back(piece);
  }
  list.CmdBuffer.swap(rebuilt);
  // What ImGui adds after this (Render's dimmed backgrounds) continues from the last command.
  const ImDrawCmd& last = list.CmdBuffer.back();
  list._CmdHeader.VtxOffset = last.VtxOffset;
  list._VtxCurrentIdx = static_cast<unsigned>(list.VtxBuffer.Size) - last.VtxOffset;
  return added;
}

int split_oversized_draw_commands() {
  ImGuiContext* context = ImGui::GetCurrentContext();
  if (context == nullptr) return 0;
  int added = 0;
  for (ImGuiWindow* window : context->Windows) {
    if (window->DrawList != nullptr) added += split_oversized_draw_commands(*window->DrawList);
  }
  added += split_oversized_draw_commands(*ImGui::GetForegroundDrawList());
  added += split_oversized_draw_commands(*ImGui::GetBackgroundDrawList());
  return added;
}

}  // namespace attnviz::window
