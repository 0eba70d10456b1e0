#include "app/classroom/shortcuts.h"

#include "app/i18n/translate.h"

namespace attnviz::classroom {
namespace {

constexpr Shortcut kShortcuts[] = {
    {N_("Right, Page Down"),
     N_("next step, tile or token (Step by step, Tiled, Decode; presenter remotes send Page Down)")},
    {N_("Left, Page Up"), N_("previous step, tile or token")},
    {N_("Home / End"), N_("first / last step, tile or token")},
    {"P", N_("play / pause the tiles or tokens (Tiled, Decode)")},
    {N_("Down / Up"), N_("follow the next / previous query token")},
    {"H / Shift+H", N_("next / previous head")},
    {"C", N_("causal mask on / off")},
    {"M", N_("cycle masks: none, causal, sliding window, Longformer")},
    {"S", N_("scaling 1/\xe2\x88\x9a"
             "d_k on / off (the scaling lesson)")},
    {"T / Shift+T", N_("temperature T \xc3\x97 2 (flatter) / \xc3\xb7 2 (sharper); scale = 1/T")},
    {"X", N_("cross-attention on / off (a second sentence gives keys and values)")},
    {"A / Shift+A", N_("compare: next / previous axis (masks, heads, MHA/GQA/MQA)")},
    {"N", N_("compare: 2 or 4 copies")},
    {"R / Shift+R", N_("compare: window r + 1 / \xe2\x88\x92 1 (sliding window, Longformer)")},
    {"W", N_("compare: weights or scaled scores")},
    {"1 2 3 4 5 6 7", N_("Heatmaps, Step by step, Compare, Cross-attention, Tiled, Decode; Model view (a model open)")},
    {"8", N_("the Training view: train a small GPT-2 and watch its heads learn")},
    {"F11", N_("presentation mode (full screen, large text)")},
    {"Esc", N_("close this Help window; leave presentation mode")},
    {"F1", N_("this Help window")},
    {"F9 / F8 / F10", N_("layout: inputs + heatmaps / heatmaps only / heatmaps + backend comparison"), true},
    {"Ctrl+= / Ctrl+- / Ctrl+0", N_("larger / smaller / normal text"), true},
    {"Ctrl+Z / Ctrl+Shift+Z, Ctrl+Y", N_("undo / redo (every change these keys make too)"), true},
    {"Ctrl+N, Ctrl+O, Ctrl+S, Ctrl+Shift+S", N_("new, open, save, save as"), true},
    {"Ctrl+E / Ctrl+C", N_("export all\xe2\x80\xa6 / copy the heatmap under the mouse as CSV"), true},
    {"Ctrl+Shift+E", N_("save the view on screen as an image\xe2\x80\xa6 (PNG)"), true},
    {"Ctrl+F", N_("long texts: find a word, a phrase or a token's number (Enter: the next)"), true},
    {"Ctrl+Q", N_("quit"), true},
    {N_("wheel, drag, double-click"), N_("zoom, pan, show everything (Heatmaps view)"), true},
    {N_("click a heatmap row / cell"), N_("follow that query / check that cell (step view, Scores page)"), true},
};

}  // namespace

std::span<const Shortcut> classroom_shortcuts() { return kShortcuts; }

}  // namespace attnviz::classroom
