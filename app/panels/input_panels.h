#pragma once
// The panels and menus that edit the scenario: one source file each (app/panels/*.cpp).

#include <memory>

#include "app/panels/panel.h"

namespace attnviz::ui {

// Sentence: UTF-8 text box, tokenizer mode, tokens as chips (hover highlights, click toggles global).
std::unique_ptr<Panel> make_sentence_panel();
// Model: d_model, heads, kv heads, d_k, d_v, scale / temperature, seed + Regenerate, W_O.
std::unique_ptr<Panel> make_model_panel();
// Matrices: X, W_Q, W_K, W_V (W_O): editable grids up to 16 × 16, heatmaps with tools beyond.
std::unique_ptr<Panel> make_matrices_panel();
// Mask: causal, window radius, global tokens, quick presets, the mask as a small heatmap.
std::unique_ptr<Panel> make_mask_panel();
// File menu: New, Open, Open preset, Save, Save As, Quit (Ctrl+O, Ctrl+S, ...).
std::unique_ptr<Menu> make_file_menu();
// Edit menu: Undo / Redo (Ctrl+Z, Ctrl+Y / Ctrl+Shift+Z) with the labels of the steps.
std::unique_ptr<Menu> make_edit_menu();

}  // namespace attnviz::ui
