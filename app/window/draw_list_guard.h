#pragma once
// Debian's Dear ImGui 1.86 draws with 16-bit indices (ImDrawIdx), so one draw command can
// address 65,536 vertices from its VtxOffset. ImGui starts a new offset between primitives,
// but a single primitive larger than that (a wrapped text of more than about 16,000 visible
// characters: ImGui does not skip wrapped lines outside the view) overflows its command: the
// window aborted ("Too many vertices in ImDrawList using 16-bit indices", a 20,000-character
// key in a notice) or, earlier in a list, drew garbage.
//
// split_oversized_draw_commands runs between ImGui::EndFrame() and ImGui::Render(): it finds
// every group of commands sharing a VtxOffset that spans more than 65,536 vertices, recovers
// the true vertex of each index (indices follow the vertices they were written with, so each
// wrapped one is the nearest to its predecessor), and splits the commands so that none spans
// more than 65,536 vertices from its own VtxOffset (the Vulkan backend honours VtxOffset:
// ImGuiBackendFlags_RendererHasVtxOffset). The text is drawn whole and right.

struct ImDrawList;

namespace attnviz::window {

// Splits the commands of one draw list; returns how many commands it added (0: untouched).
int split_oversized_draw_commands(ImDrawList& draw_list);

// Every window's draw list and the foreground and background lists of the current context.
int split_oversized_draw_commands();

}  // namespace attnviz::window
