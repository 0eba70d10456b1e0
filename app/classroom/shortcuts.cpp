#include "app/classroom/shortcuts.h"

namespace attnviz::classroom {
namespace {

constexpr Shortcut kShortcuts[] = {
    {"Right, Page Down", "next step, tile or token (Step by step, Tiled, Decode; presenter remotes send Page Down)"},
    {"Left, Page Up", "previous step, tile or token"},
    {"Home / End", "first / last step, tile or token"},
    {"P", "play / pause the tiles or tokens (Tiled, Decode)"},
    {"Down / Up", "follow the next / previous query token"},
    {"H / Shift+H", "next / previous head"},
    {"C", "causal mask on / off"},
    {"M", "cycle masks: none, causal, sliding window, Longformer"},
    {"S",
     "scaling 1/\xe2\x88\x9a"
     "d_k on / off (the scaling lesson)"},
    {"T / Shift+T", "temperature T \xc3\x97 2 (flatter) / \xc3\xb7 2 (sharper); scale = 1/T"},
    {"X", "cross-attention on / off (a second sentence gives keys and values)"},
    {"A / Shift+A", "compare: next / previous axis (masks, heads, MHA/GQA/MQA)"},
    {"N", "compare: 2 or 4 copies"},
    {"R / Shift+R", "compare: window r + 1 / \xe2\x88\x92 1 (sliding window, Longformer)"},
    {"W", "compare: weights or scaled scores"},
    {"1 2 3 4 5 6 7", "Heatmaps, Step by step, Compare, Cross-attention, Tiled, Decode; Model view (a model open)"},
    {"F11", "presentation mode (full screen, large text)"},
    {"Esc", "close this Help window; leave presentation mode"},
    {"F1", "this Help window"},
    {"F9 / F8 / F10", "layout: inputs + heatmaps / heatmaps only / heatmaps + backend comparison", true},
    {"Ctrl+= / Ctrl+- / Ctrl+0", "larger / smaller / normal text", true},
    {"Ctrl+Z / Ctrl+Shift+Z, Ctrl+Y", "undo / redo (every change these keys make too)", true},
    {"Ctrl+N, Ctrl+O, Ctrl+S, Ctrl+Shift+S", "new, open, save, save as", true},
    {"Ctrl+E / Ctrl+C", "export all\xe2\x80\xa6 / copy the heatmap under the mouse as CSV", true},
    {"Ctrl+Shift+E", "save the view on screen as an image\xe2\x80\xa6 (PNG)", true},
    {"Ctrl+F", "long texts: find a word, a phrase or a token's number (Enter: the next)", true},
    {"Ctrl+Q", "quit", true},
    {"wheel, drag, double-click", "zoom, pan, show everything (Heatmaps view)", true},
    {"click a heatmap row / cell", "follow that query / check that cell (step view, Scores page)", true},
};

}  // namespace

std::span<const Shortcut> classroom_shortcuts() { return kShortcuts; }

}  // namespace attnviz::classroom
