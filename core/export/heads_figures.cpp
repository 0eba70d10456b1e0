#include "core/export/heads_figures.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/export/font.h"
#include "core/export/png_writer.h"
#include "core/export/svg_writer.h"

namespace attnviz::exporting {
namespace {

constexpr std::size_t kAttributionPartsDrawn = 24;

std::string number(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.9g", value);
  return text;
}

// Four significant digits, for titles.
std::string short_number(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

std::string optional_number(const std::optional<double>& value) { return value ? number(*value) : std::string(); }

// A CSV field: quoted when it holds a comma, a quote or a line break.
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

// The tokens' labels read as the text (the visible-space sign as a space).
std::string text_of(const std::vector<std::string>& tokens) {
  std::string text;
  for (const std::string& token : tokens) text += token;
  const std::string space = "\u2423";
  for (std::size_t at = text.find(space); at != std::string::npos; at = text.find(space, at + 1))
    text.replace(at, space.size(), " ");
  return text;
}

double largest_magnitude(const Matrix& m) {
  double largest = 0.0;
  for (const float v : m.data)
    if (std::isfinite(v)) largest = std::max(largest, static_cast<double>(std::abs(v)));
  return largest > 0.0 ? largest : 1.0;
}

// A layers × heads figure's axes.
void layers_by_heads(HeatmapFigure& figure, const std::vector<int>& layers, int heads, const Wording& wording) {
  for (const int layer : layers) figure.row_labels.push_back("L" + std::to_string(layer));
  for (int h = 0; h < heads; ++h) figure.col_labels.push_back("h" + std::to_string(h));
  figure.row_labels_are_positions = true;
  figure.col_labels_are_positions = true;
  figure.row_axis_title = wording.tr("layer");
  figure.col_axis_title = wording.tr("head");
}

std::string part_label(const heads::AttributionPart& part, const Wording& wording) {
  const std::string layer = "L" + std::to_string(part.layer);
  switch (part.kind) {
    case heads::PartKind::Embedding: return wording.tr("embeddings");
    case heads::PartKind::Head: return layer + " H" + std::to_string(part.head);
    case heads::PartKind::AttentionBias: return wording.tr("%1$s attention bias", {layer});
    case heads::PartKind::Mlp: return wording.tr("%1$s MLP", {layer});
    case heads::PartKind::FinalBias: return wording.tr("final bias");
  }
  return "";
}

}  // namespace

HeatmapFigure roles_figure(const heads::LayerRoles& roles, const std::vector<int>& layers, heads::Role role,
                           const Wording& wording) {
  HeatmapFigure figure;
  figure.wording = wording;
  const int heads = roles.empty() ? 0 : static_cast<int>(roles.front().size());
  const std::string name = wording.tr(heads::role_name(role));
  figure.title = wording.tr("Head roles: %1$s", {name});
  figure.subtitle = wording.tr("each head's %1$s score (docs/design.md, \"What the heads do\")", {name});
  layers_by_heads(figure, layers, heads, wording);
  FigurePanel panel;
  panel.values = Matrix(static_cast<int>(roles.size()), heads);
  for (std::size_t l = 0; l < roles.size(); ++l)
    for (std::size_t h = 0; h < roles[l].size(); ++h)
      panel.values.at(static_cast<int>(l), static_cast<int>(h)) =
          static_cast<float>(heads::role_value(roles[l][h], role).value_or(std::numeric_limits<double>::quiet_NaN()));
  figure.panels.push_back(std::move(panel));
  const auto [low, high] = heads::role_scale(roles, role);
  figure.range_low = static_cast<float>(low);
  figure.range_high = static_cast<float>(high);
  figure.colorbar_label = name;
  return figure;
}

std::string roles_csv(const heads::LayerRoles& roles, const std::vector<int>& layers) {
  std::string csv = "layer,head";
  for (const heads::Role role : heads::kRoles) csv += std::string(",") + heads::role_key(role);
  csv += "\n";
  for (std::size_t l = 0; l < roles.size(); ++l) {
    for (std::size_t h = 0; h < roles[l].size(); ++h) {
      csv += std::to_string(l < layers.size() ? layers[l] : static_cast<int>(l)) + "," + std::to_string(h);
      for (const heads::Role role : heads::kRoles) csv += "," + optional_number(heads::role_value(roles[l][h], role));
      csv += "\n";
    }
  }
  return csv;
}

HeatmapFigure lens_figure(const heads::LogitLens& lens, const std::vector<std::string>& tokens,
                          const Wording& wording) {
  HeatmapFigure figure;
  figure.wording = wording;
  figure.title = wording.tr("Logit lens");
  figure.subtitle =
      wording.tr("each layer's residual through the final norm and unembedding; colour: the next token's probability");
  const int rows = static_cast<int>(lens.cells.size());
  const int cols = rows == 0 ? 0 : static_cast<int>(lens.cells.front().size());
  for (int l = 0; l < rows; ++l) figure.row_labels.push_back(l == 0 ? "emb" : "L" + std::to_string(l - 1));
  figure.row_labels_are_positions = true;
  figure.col_labels = tokens;
  figure.col_labels.resize(static_cast<std::size_t>(cols));
  figure.row_axis_title = wording.tr("layer");
  figure.col_axis_title = wording.tr("position");
  FigurePanel panel;
  panel.values = Matrix(rows, cols);
  panel.masked.assign(static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols), 0);
  for (int l = 0; l < rows; ++l) {
    for (int i = 0; i < cols; ++i) {
      const heads::LensCell& cell = lens.cells[static_cast<std::size_t>(l)][static_cast<std::size_t>(i)];
      panel.values.at(l, i) = static_cast<float>(cell.p_next.value_or(0.0));
      if (!cell.p_next)
        panel.masked[static_cast<std::size_t>(l) * static_cast<std::size_t>(cols) + static_cast<std::size_t>(i)] = 1;
    }
  }
  figure.panels.push_back(std::move(panel));
  figure.range_low = 0.0f;
  figure.range_high = 1.0f;
  figure.colorbar_label = wording.tr("p(next token)");
  figure.masked_legend = wording.tr("no next token");
  return figure;
}

std::string lens_csv(const heads::LogitLens& lens, const std::vector<std::string>& tokens) {
  std::string csv = "layer,position,token,top_token,top_p,p_next,rank_next\n";
  for (std::size_t l = 0; l < lens.cells.size(); ++l) {
    for (std::size_t i = 0; i < lens.cells[l].size(); ++i) {
      const heads::LensCell& cell = lens.cells[l][i];
      csv += std::to_string(l) + "," + std::to_string(i) + "," + csv_field(i < tokens.size() ? tokens[i] : "") + ",";
      csv += cell.top.empty() ? "," : csv_field(cell.top.front().token) + "," + number(cell.top.front().p);
      csv += "," + optional_number(cell.p_next) + "," + (cell.rank_next ? std::to_string(*cell.rank_next) : "") + "\n";
    }
  }
  return csv;
}

HeatmapFigure attribution_figure(const heads::Attribution& attribution, const Wording& wording) {
  std::vector<heads::AttributionPart> parts = attribution.parts;
  std::stable_sort(parts.begin(), parts.end(), [](const heads::AttributionPart& a, const heads::AttributionPart& b) {
    return std::abs(a.value) > std::abs(b.value);
  });
  HeatmapFigure figure;
  figure.wording = wording;
  figure.title = wording.tr("Direct logit attribution: \u201C%1$s\u201D", {attribution.target_token});
  figure.subtitle = wording.tr("each part's share of the logit at position %1$s (logit %2$s), largest first",
                               {std::to_string(attribution.position), short_number(attribution.logit)});
  // The largest parts only, so that each is labelled and its value fits; the rest summed in a note.
  if (parts.size() > kAttributionPartsDrawn) {
    double rest = 0.0;
    for (std::size_t i = kAttributionPartsDrawn; i < parts.size(); ++i) rest += parts[i].value;
    const std::size_t smaller = parts.size() - kAttributionPartsDrawn;
    figure.notes.push_back(wording.trn("The %1$s smaller part (together %2$s) is in the CSV and JSON.",
                                       "The %1$s smaller parts (together %2$s) are in the CSV and JSON.", smaller,
                                       {std::to_string(smaller), short_number(rest)}));
    parts.resize(kAttributionPartsDrawn);
  }
  figure.row_labels_are_positions = true;
  FigurePanel panel;
  panel.values = Matrix(static_cast<int>(parts.size()), 1);
  for (std::size_t i = 0; i < parts.size(); ++i) {
    figure.row_labels.push_back(part_label(parts[i], wording));
    panel.values.at(static_cast<int>(i), 0) = static_cast<float>(parts[i].value);
  }
  figure.col_labels = {wording.tr("logit")};
  figure.row_axis_title = wording.tr("part");
  const double largest = largest_magnitude(panel.values);
  figure.panels.push_back(std::move(panel));
  figure.colormap = ColormapId::RdBu;
  figure.range_low = static_cast<float>(-largest);
  figure.range_high = static_cast<float>(largest);
  figure.colorbar_label = wording.tr("share of the logit");
  figure.values = ValuesMode::On;
  return figure;
}

std::string attribution_csv(const heads::Attribution& attribution) {
  std::string csv = "kind,layer,head,value\n";
  for (const heads::AttributionPart& part : attribution.parts) {
    csv += std::string(heads::part_kind_name(part.kind)) + "," + (part.layer >= 0 ? std::to_string(part.layer) : "") +
           "," + (part.head >= 0 ? std::to_string(part.head) : "") + "," + number(part.value) + "\n";
  }
  return csv;
}

HeatmapFigure patching_figure(const heads::Patching& patching, const std::vector<std::string>& tokens,
                              const std::vector<std::string>& corrupted_tokens, const Wording& wording) {
  HeatmapFigure figure;
  figure.wording = wording;
  figure.title =
      wording.tr("Activation patching: each head's effect on the logit of \u201C%1$s\u201D", {patching.target_token});
  figure.subtitle = wording.tr(
      "\u201C%1$s\u201D with one head's output from \u201C%2$s\u201D, position %3$s; logit %4$s vs %5$s, difference %6$s",
      {text_of(tokens), text_of(corrupted_tokens), std::to_string(patching.position),
       short_number(patching.clean_logit), short_number(patching.corrupted_logit),
       short_number(patching.clean_logit - patching.corrupted_logit)});
  const int heads = patching.patched.empty() ? 0 : static_cast<int>(patching.patched.front().size());
  std::vector<int> layers(patching.patched.size());
  for (std::size_t l = 0; l < layers.size(); ++l) layers[l] = static_cast<int>(l);
  layers_by_heads(figure, layers, heads, wording);
  FigurePanel panel;
  panel.values = Matrix(static_cast<int>(layers.size()), heads);
  for (std::size_t l = 0; l < patching.patched.size(); ++l)
    for (std::size_t h = 0; h < patching.patched[l].size(); ++h)
      panel.values.at(static_cast<int>(l), static_cast<int>(h)) =
          static_cast<float>(patching.patched[l][h] - patching.clean_logit);
  const double largest = largest_magnitude(panel.values);
  figure.panels.push_back(std::move(panel));
  figure.colormap = ColormapId::RdBu;
  figure.range_low = static_cast<float>(-largest);
  figure.range_high = static_cast<float>(largest);
  figure.colorbar_label = wording.tr("effect (patched \u2212 clean)");
  return figure;
}

std::string patching_csv(const heads::Patching& patching) {
  std::string csv = "layer,head,patched_logit,effect\n";
  for (std::size_t l = 0; l < patching.patched.size(); ++l)
    for (std::size_t h = 0; h < patching.patched[l].size(); ++h)
      csv += std::to_string(l) + "," + std::to_string(h) + "," + number(patching.patched[l][h]) + "," +
             number(patching.patched[l][h] - patching.clean_logit) + "\n";
  return csv;
}

std::string render_heads_figure(const HeatmapFigure& figure, ExportFormat format, std::vector<std::string>* warnings) {
  const FontPair& fonts = export_fonts();
  const LaidOutFigure laid = lay_out(figure, fonts);
  if (warnings != nullptr) {
    for (const std::string& warning : fonts.warnings) warnings->push_back(warning);
    for (const std::string& warning : laid.warnings) warnings->push_back(warning);
  }
  return format == ExportFormat::Svg ? scene_to_svg(laid.scene) : encode_png(rasterize(laid.scene, fonts), figure.dpi);
}

}  // namespace attnviz::exporting
