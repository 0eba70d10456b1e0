#pragma once
// Export of a computed Result: heatmap images (PNG, SVG) and the numbers (CSV, NPY, JSON).
// The command line (attnviz export) and the window's Export button build an ExportRequest and
// call the same functions:
//
//   ExportSource source{&result, nullptr, nullptr, describe_for_export(scenario, problem)};
//   ExportRequest request;                 // weights of every head as PNG, by default
//   request.heads = std::vector<int>{head};
//   request.window = CellWindow{...};      // the zoomed view, if any
//   write_export(render_export(request, source), "w.png", request.origin);
//
// render_export works in memory (no files), so the window can also copy the bytes elsewhere.

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/attention/result.h"
#include "core/common/matrix.h"
#include "core/common/wording.h"
#include "core/export/colormap.h"
#include "core/export/figure.h"
#include "core/export/numbers.h"
#include "core/scenario/problem.h"
#include "core/scenario/scenario.h"

namespace attnviz::exporting {

enum class Quantity {
  Scores,   // raw Q·Kᵀ, every pair (masked pairs hatched over their colour)
  Scaled,   // scale · Q·Kᵀ with masked pairs at −∞ (what softmax sees)
  Weights,  // softmax weights
  Mask,     // 1 = visible, 0 = masked
  Context,  // A·V, N × d_v
  Diff,     // weights computed by Vulkan minus those computed by Eigen
};

enum class ExportFormat { Png, Svg, Csv, Npy, Json };

// How colours follow the values in images. Log applies to the weights only (the other matrices
// have negative values): colours follow log10 of the weight, by default from 0.0001 to 1, as
// the window's View > Weights scale > Log. Auto: log for weights beyond 40 tokens (queries or
// keys of the whole result), where most weights are tiny and a linear scale is uniformly dark,
// as the window's automatic setting; linear otherwise.
enum class ColourScale { Auto, Linear, Log };
inline constexpr float kLogWeightsLow = 1e-4f;
inline constexpr int kLogWeightsBeyondTokens = 40;

const char* quantity_name(Quantity quantity);  // "scores", "scaled", "weights", "mask", "context", "diff"
std::optional<Quantity> quantity_from_name(std::string_view name);
const char* format_name(ExportFormat format);  // "png", ... (also the file extension)
std::optional<ExportFormat> format_from_name(std::string_view name);
// The format a path's extension names, case-insensitively ("W.PNG" → png); nullopt for none.
std::optional<ExportFormat> format_from_extension(const std::filesystem::path& path);
const char* scale_name(ColourScale scale);  // "auto", "linear", "log"
std::optional<ColourScale> scale_from_name(std::string_view name);
bool is_image(ExportFormat format);

// Rows [row_begin, row_end) and columns [col_begin, col_end) of every exported matrix: the
// window's zoomed view. Columns of `context` are value dimensions. An end of kToEnd reaches the
// matrix's last row or column.
struct CellWindow {
  static constexpr int kToEnd = -1;
  int row_begin = 0;
  int row_end = kToEnd;
  int col_begin = 0;
  int col_end = kToEnd;
};

struct ExportRequest {
  std::vector<Quantity> what{Quantity::Weights};
  std::optional<std::vector<int>> heads;  // nullopt: all heads (and NPY writes one heads × N × M array)
  ExportFormat format = ExportFormat::Png;
  std::optional<ColormapId> colormap;            // nullopt: viridis for weights and mask, rdbu otherwise
  std::optional<std::pair<float, float>> range;  // colour range [low, high]; nullopt: from the data
  ColourScale scale = ColourScale::Auto;
  std::optional<int> cell_px;  // nullopt: from the token count and dpi
  int dpi = 300;
  ValuesMode values = ValuesMode::Auto;  // Auto: values in cells up to 24 tokens, when they fit
  std::optional<std::string> title;      // replaces the first title line (the scenario's title)
  bool grid = false;                     // images: all selected heads in one figure, one colorbar
  std::optional<CellWindow> window;
  std::string origin = "<export>";  // names the caller in InputError messages
  // The language of the figures' words (subtitle, axis titles, legends, notes): the window's
  // chosen one, `attnviz export --lang`'s; English by default. Errors and file names stay English.
  Wording wording{};
};

// What the figures say about the computation besides the numbers.
struct ExportCaption {
  std::string title;  // the scenario's title, else its sentence
  std::string mask;   // "none", "causal", "causal, window 2", "window 1, global 0 5", ...
  std::string scale;  // "scale 1/√d_k = 0.707", "no scaling", "scale 0.5"
  float scale_factor = 1.0f;
  std::string positions;      // "RoPE, θ = 10000", "ALiBi", "sinusoidal positions"; "" without
  std::vector<float> slopes;  // per head: ALiBi's slope (the scaled scores include its bias), or 0
  std::string dropout;        // "dropout p = 0.1 (seed 1)"; "" without
  int num_kv_heads = 1;
  bool cross_attention = false;
};

// The caption in the words of `wording` (the figures' language; English by default).
ExportCaption describe_for_export(const Scenario& scenario, const Problem& problem, const Wording& wording = {});

struct ExportSource {
  const Result* result = nullptr;  // the matrices exported (every quantity but diff)
  const Result* cpu = nullptr;     // diff: both results, same problem
  const Result* vulkan = nullptr;
  ExportCaption caption;
};

struct ExportedFile {
  std::string name;  // says what it holds: "weights_head0.png", "scores_grid.svg", "weights.npy"
  std::string bytes;
  // What the file could not do as asked, for the user (stderr, a notice): values in cells that
  // do not fit, a font that could not be used, a glyph the font lacks.
  std::vector<std::string> warnings{};
  // Set instead of `bytes` by render_export_streamed for the numbers formats (CSV, NPY, JSON):
  // writes the file's bytes to the sink in pieces, one row of the matrix at a time. It reads
  // the request and the source, which must outlive it.
  std::function<void(const std::function<void(std::string_view)>&)> stream{};
};

// Every file the request asks for, in a fixed order; deterministic bytes, the same on every
// machine (JSON's "device" leaves out the Eigen thread count). Throws InputError
// (request.origin, option name, problem) for heads, windows, ranges or cell sizes that do not
// fit, and std::runtime_error when no font for images is found.
std::vector<ExportedFile> render_export(const ExportRequest& request, const ExportSource& source);

// The same files, but those of the numbers formats not yet written: each has a `stream` that
// write_export (or file_bytes) runs, so that a large export goes to its file a row at a time
// with no copy of the matrices (the command line). Errors of the request are thrown here.
std::vector<ExportedFile> render_export_streamed(const ExportRequest& request, const ExportSource& source);

// A file's bytes: `bytes`, or what its `stream` writes.
std::string file_bytes(const ExportedFile& file);

// One file: written to `out`, or into it under its own name when `out` is an existing directory
// or ends in '/' (then created when missing). Several: into the directory `out`, created when
// missing. All or nothing: every file is written to a temporary name first and only then are
// they renamed into place; when any step fails, none of the set is left (files already there
// keep their old bytes). Returns the paths written. Throws InputError(origin, "--out", ...)
// when several files are due but `out` is a file or has a file's extension (.png, .csv, ...),
// or when one file's `out` has another format's extension (PNG bytes into a.svg);
// std::runtime_error for OS errors (naming the path, and saying that nothing was written).
std::vector<std::filesystem::path> write_export(const std::vector<ExportedFile>& files,
                                                const std::filesystem::path& out, const std::string& origin);

// The same refusals write_export makes for `out` (several files into a file, or into a name
// with a file's extension; one file under another format's extension), from the files' names
// alone, so that a command can refuse its --out before minutes of computing. Writes nothing.
void check_export_destination(const std::vector<std::string>& names, const std::filesystem::path& out,
                              const std::string& origin);

// A title wraps onto lines above the heatmap: beyond this many characters it would bury the
// figure (a 120 KB --title made an image too large, blamed on --dpi; a 10,000-word text's
// sentence as an overview's title made it 98,000 pixels tall). --title is refused past it
// (check_title); a scenario's longer title is cut, with a warning.
inline constexpr std::size_t kMaxTitleCharacters = 300;

// Throws InputError(origin, "--title", ...) for a title past kMaxTitleCharacters.
void check_title(const std::optional<std::string>& title, const std::string& origin);

// One PNG or SVG file of a figure made elsewhere (the overview's, core/overview), with the same
// checks and warnings as render_export's images (its title cut as theirs): `figure.cell_px`
// must be set.
ExportedFile render_figure_image(HeatmapFigure figure, ExportFormat format, std::string name,
                                 const std::string& origin);

// The figure an image export draws for one quantity and the given heads (one head, or a
// grid): for tests and for a window that draws it itself.
HeatmapFigure make_figure(const ExportRequest& request, const ExportSource& source, Quantity quantity,
                          const std::vector<int>& heads);

}  // namespace attnviz::exporting
