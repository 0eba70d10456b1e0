#include "core/export/result_arrays.h"

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "core/common/atomic_file.h"
#include "core/common/json_text.h"
#include "core/export/file_set.h"
#include "core/export/numbers.h"

namespace attnviz::exporting {
namespace {

using Sink = std::function<void(std::string_view)>;
using Stream = std::function<void(const Sink&)>;
constexpr std::size_t kPiece = std::size_t{1} << 20;

// The matrices stacked as one heads × rows × cols array, or (heads_axis false) the one matrix.
Stream float_stack(std::vector<const Matrix*> matrices, bool heads_axis) {
  return [matrices = std::move(matrices), heads_axis](const Sink& sink) {
    const Matrix& first = *matrices.front();
    std::vector<std::size_t> shape{static_cast<std::size_t>(first.rows), static_cast<std::size_t>(first.cols)};
    if (heads_axis) shape.insert(shape.begin(), matrices.size());
    std::string piece = npy_header("<f4", shape);
    for (const Matrix* matrix : matrices) {
      for (int r = 0; r < matrix->rows; ++r) {
        append_float32_le({matrix->row(r), static_cast<std::size_t>(matrix->cols)}, piece);
        if (piece.size() >= kPiece) {
          sink(piece);
          piece.clear();
        }
      }
    }
    sink(piece);
  };
}

Stream mask_array(const MaskMatrix& mask) {
  return [&mask](const Sink& sink) {
    std::string piece = npy_header("|u1", {static_cast<std::size_t>(mask.rows), static_cast<std::size_t>(mask.cols)});
    sink(piece);
    const auto* bytes = reinterpret_cast<const char*>(mask.visible.data());
    for (std::size_t at = 0; at < mask.visible.size(); at += kPiece) {
      sink(std::string_view(bytes + at, std::min(kPiece, mask.visible.size() - at)));
    }
  };
}

std::string description(const Result& result, const std::vector<int>& heads) {
  nlohmann::ordered_json json;
  json["format"] = "attnviz-result-arrays/1";
  json["backend"] = result.backend;
  json["device"] = result.device;
  json["tokens"] = result.tokens;
  json["source_tokens"] = result.source_tokens;
  json["masked_rows"] = result.masked_rows;
  json["heads"] = heads;
  json["arrays"] = {{"mask", "mask.npy"},
                    {"scores", "scores.npy"},
                    {"weights", "weights.npy"},
                    {"context", "context.npy"},
                    {"output", "output.npy"}};
  nlohmann::ordered_json timing;
  timing["total"] = result.timing.total_ms;
  for (const auto& [stage, ms] : result.timing.stages_ms) timing[stage] = ms;
  json["timing_ms"] = timing;
  return readable_json(json);
}

}  // namespace

std::uint64_t result_arrays_bytes(std::uint64_t heads, std::uint64_t n, std::uint64_t m, std::uint64_t d_v,
                                  std::uint64_t d_out, std::uint64_t tokens_text_bytes, bool matrices) {
  constexpr std::uint64_t kHeaders = 5 * 128 + 4096;  // five NPY headers, result.json without its tokens
  return kHeaders + tokens_text_bytes + 4 * (heads * n * ((matrices ? 2 * m : 0) + d_v) + n * d_out) + n * m;
}

std::vector<std::filesystem::path> write_result_arrays(const Result& result, const std::vector<int>& heads,
                                                       const std::filesystem::path& dir) {
  std::vector<int> chosen = heads;
  for (int h = 0; chosen.empty() && h < static_cast<int>(result.heads.size()); ++h) chosen.push_back(h);
  std::vector<const Matrix*> scores;
  std::vector<const Matrix*> weights;
  std::vector<const Matrix*> context;
  for (const int h : chosen) {
    const HeadResult& head = result.heads.at(static_cast<std::size_t>(h));
    scores.push_back(&head.scores);
    weights.push_back(&head.weights);
    context.push_back(&head.context);
  }
  const std::string about = description(result, chosen);
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) throw FileWriteError(dir, "cannot create the directory: " + error.message(), true);
  std::vector<FileToWrite> files = {
      {dir / "result.json", &about, {}},
      {dir / "mask.npy", nullptr, mask_array(result.mask)},
      {dir / "scores.npy", nullptr, float_stack(scores, true)},
      {dir / "weights.npy", nullptr, float_stack(weights, true)},
      {dir / "context.npy", nullptr, float_stack(context, true)},
      {dir / "output.npy", nullptr, float_stack({&result.output}, false)},
  };
  write_files_all_or_nothing(files);
  std::vector<std::filesystem::path> written;
  for (const FileToWrite& file : files) written.push_back(file.path);
  return written;
}

}  // namespace attnviz::exporting
