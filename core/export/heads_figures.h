#pragma once
// The Model view's analyses (docs/design.md "What the heads do") as files: each as a labelled
// heatmap figure (PNG, SVG: lay_out() and the writers of the attention heatmaps) and as CSV.
// The head roles and the patching are layers × heads; the logit lens layers × positions,
// coloured by the probability of the text's next token; the attribution one column of parts,
// largest first, in diverging colours. No GUI: the command line and the window call these.
//
//   write_heads_file(patching_figure(p, tokens, corrupted_tokens), patching_csv(p), "p.svg");

#include <filesystem>
#include <string>
#include <vector>

#include "core/export/export.h"
#include "core/export/figure.h"
#include "core/heads/attribution.h"
#include "core/heads/logit_lens.h"
#include "core/heads/patching.h"
#include "core/heads/role_ranking.h"

namespace attnviz::exporting {

// Every figure's words are in the language of `wording` (English by default); CSV stays English.
//
// Layers × heads of one role, on the window's scale (role_scale). `layers`: the model's layer
// number of each row of `roles`.
HeatmapFigure roles_figure(const heads::LayerRoles& roles, const std::vector<int>& layers, heads::Role role,
                           const Wording& wording = {});
// layer,head,previous_token,first_token,self,induction,duplicate,entropy,mean_distance (empty: none).
std::string roles_csv(const heads::LayerRoles& roles, const std::vector<int>& layers);

// Layers (emb, L0 … ) × positions: the next token's probability, 0 to 1 (the last column, with
// no next token, empty).
HeatmapFigure lens_figure(const heads::LogitLens& lens, const std::vector<std::string>& tokens,
                          const Wording& wording = {});
// layer,position,token,top_token,top_p,p_next,rank_next (layer 0: the embeddings).
std::string lens_csv(const heads::LogitLens& lens, const std::vector<std::string>& tokens);

// The parts as one column, largest |value| first, in diverging colours centred at 0: the 24
// largest, a note summing the rest.
HeatmapFigure attribution_figure(const heads::Attribution& attribution, const Wording& wording = {});
// kind,layer,head,value in the pass's order (layer, head empty where they do not apply).
std::string attribution_csv(const heads::Attribution& attribution);

// Layers × heads of the effect (patched − clean), in diverging colours centred at 0.
HeatmapFigure patching_figure(const heads::Patching& patching, const std::vector<std::string>& tokens,
                              const std::vector<std::string>& corrupted_tokens, const Wording& wording = {});
// layer,head,patched_logit,effect.
std::string patching_csv(const heads::Patching& patching);

// The bytes of `figure` as PNG or SVG (its fonts' warnings in `warnings`).
std::string render_heads_figure(const HeatmapFigure& figure, ExportFormat format, std::vector<std::string>* warnings);

}  // namespace attnviz::exporting
