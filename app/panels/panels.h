#pragma once
// The window's panels and menus, one source file each (app/panels/*.cpp); the desktop's
// panel registry (app/desktop/panel_registry.cpp) adds them to the layout in its order.

#include <memory>

#include "app/ui/layout.h"
#include "app/ui/panel.h"

namespace attnviz::panels {

// Sentence: UTF-8 text box, tokenizer mode, tokens as chips (hover highlights, click toggles global).
std::unique_ptr<ui::Panel> make_sentence_panel();
// Model: d_model, heads, kv heads, d_k, d_v, scale / temperature, seed + Regenerate, W_O.
std::unique_ptr<ui::Panel> make_model_panel();
// Matrices: X, W_Q, W_K, W_V (W_O): editable grids up to 16 × 16, heatmaps with tools beyond.
std::unique_ptr<ui::Panel> make_matrices_panel();
// Mask: causal, window radius, global tokens, quick presets, the mask as a small heatmap.
std::unique_ptr<ui::Panel> make_mask_panel();
// Heatmaps of the selected head (raw scores, scaled and masked scores, weights, context), the
// all-heads grid, the pinned query's weights and context vector.
std::unique_ptr<ui::Panel> make_heatmaps_panel();
// Vulkan / Eigen / both, devices, timings, largest differences and the difference heatmap.
std::unique_ptr<ui::Panel> make_backend_panel();
// KV cache: a model's cache size with the formula's numbers filled in, presets, the size
// against sequence length for MHA / GQA / MQA, the scenario's own cache.
std::unique_ptr<ui::Panel> make_kv_cache_panel();
// Model view: a pretrained model's layers × heads as thumbnails (click: open in Heatmaps,
// right-click: switch off / on), the selected head's switch with undo, the next tokens, rollout.
std::unique_ptr<ui::Panel> make_model_view();
// Training: a small GPT-2 trained in the window, its loss and every head's attention as it learns
// (training_view.h); a panel and, run every frame, its key 8 and the question when the window
// closes mid-run.
void add_training_view(ui::Layout& layout);
// The status bar at the bottom of the window: tokens, heads, backend, compute and frame time.
std::unique_ptr<ui::Panel> make_status_bar();

// File menu: New, Open, Open preset, Save, Save As, Quit (Ctrl+O, Ctrl+S, ...).
std::unique_ptr<ui::Menu> make_file_menu();
// File > Open model…: a path field and the folder's model files, the text; opens off the window's thread.
std::unique_ptr<ui::Dialog> make_open_model_dialog();
// Opens the model at `path` (a folder or a .gguf file) on `text` (the model's last, else a short
// English sentence), shows it in the Heatmaps view and puts it on top of File > Open Recent.
void open_model(ui::UiContext& ui, const std::string& path, const std::string& text = "");
// Edit menu: Undo / Redo (Ctrl+Z, Ctrl+Y / Ctrl+Shift+Z) with the labels of the steps.
std::unique_ptr<ui::Menu> make_edit_menu();
// View menu: layout, colormaps, weight range, numbers.
std::unique_ptr<ui::Menu> make_view_menu();
// Help: the keyboard shortcuts, where the manual and guides are, About (version, libraries, licences).
std::unique_ptr<ui::Menu> make_help_menu();

}  // namespace attnviz::panels
