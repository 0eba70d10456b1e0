#include "core/heads/patching.h"

#include <algorithm>
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/common/error.h"
#include "core/heads/unembedding.h"
#include "core/model/cancelled.h"

namespace attnviz::heads {
namespace {

// What a run needs for patching: no attention kept, no top tokens; the stream gives the logit.
model::ForwardOptions stream_only() {
  model::ForwardOptions options;
  options.layers.emplace();  // no layer's attention kept (emplace: see heads_options.cpp)
  options.keep_stream = true;
  options.predict = false;
  return options;
}

// Head h's columns of a layer's contexts (N, H·dk) → (N, dk).
Matrix head_context(const Matrix& contexts, int head, int head_dim) {
  Matrix context(contexts.rows, head_dim);
  for (int r = 0; r < contexts.rows; ++r) {
    const float* from = contexts.row(r) + static_cast<long>(head) * head_dim;
    std::copy(from, from + head_dim, context.row(r));
  }
  return context;
}

// Head h's clean context with row p taken from the corrupted run: the patch of one position.
Matrix one_position_patched(const Matrix& clean, const Matrix& corrupted, int head, int head_dim, int p) {
  Matrix context = head_context(clean, head, head_dim);
  const float* from = corrupted.row(p) + static_cast<long>(head) * head_dim;
  std::copy(from, from + head_dim, context.row(p));
  return context;
}

void check_patched_position(int patched, int position, int tokens) {
  check_position(patched, tokens, "--patch-positions");
  if (patched <= position) return;
  throw InputError("<command line>", "--patch-positions",
                   "position " + std::to_string(patched) + " is after the target position " + std::to_string(position) +
                       ", which cannot see it: patch a position 0.." + std::to_string(position) + " (or all)");
}

// Rows a patched rerun takes through a layer's products at once: enough for Eigen's products to
// run near their peak (a row at a time, each pass over the weights is a matrix-vector product),
// few enough that the MLP's hidden layer (rows × d_ff) stays small.
constexpr int kRowsTogether = 256;

// Layer l's heads patched at one position of a decoder, several together (ForwardPass::rerun_rows):
// each reruns the rows from the patched position to the target's, from layer l on.
void patch_layer_rows(const model::Model& model, const model::ForwardPass& pass, int l, int patched_position,
                      const std::function<model::HeadPatch(int, int)>& patch_of, const model::ForwardOptions& options,
                      Patching& out) {
  const int heads = model.config().num_heads;
  const int rows = out.position + 1 - patched_position;
  const int together = std::max(1, kRowsTogether / rows);
  for (int first = 0; first < heads; first += together) {
    if (options.stop.stop_requested()) throw model::Cancelled();
    std::vector<std::vector<model::HeadPatch>> variants;
    for (int h = first; h < std::min(heads, first + together); ++h) variants.push_back({patch_of(l, h)});
    const Matrix last = pass.rerun_rows(l, patched_position, out.position + 1, variants, options);
    for (std::size_t v = 0; v < variants.size(); ++v) {
      const float* target_row = last.row(static_cast<int>(v + 1) * rows - 1);  // the variant's row at out.position
      out.patched[static_cast<std::size_t>(l)][static_cast<std::size_t>(first) + v] =
          target_logit(model, target_row, out.target);
    }
  }
}

}  // namespace

Patching patch_every_head(const model::Model& model, Backend& backend, const tokenizers::Encoding& clean,
                          const tokenizers::Encoding& corrupted, const PatchingRequest& request) {
  require_unembedding(model, "patching");
  if (clean.ids.size() != corrupted.ids.size()) {
    throw InputError(
        "<command line>", "--corrupted-text",
        "makes " + std::to_string(corrupted.ids.size()) + " tokens but --text makes " +
            std::to_string(clean.ids.size()) +
            " tokens: patching needs two texts of the same length in tokens (cut the longer one, or reword)");
  }
  const model::ModelConfig& c = model.config();
  const int n = static_cast<int>(clean.ids.size());
  Patching out;
  out.position = request.position.value_or(n - 1);
  check_position(out.position, n, "--position");
  out.patched_position = request.patched_position;
  if (out.patched_position) check_patched_position(*out.patched_position, out.position, n);
  if (request.target) check_target(model, *request.target, "--target-id");
  // One position of a decoder: the rows from it to the target's are all a patched run changes
  // that the target reads.
  const bool rows_only = out.patched_position && c.causal();

  model::ForwardOptions options = stream_only();
  options.edits = request.edits;
  options.stop = request.stop;
  model::ForwardPass corrupted_pass(model, backend);
  const model::ResidualStream corrupted_stream = corrupted_pass.run(corrupted, options).stream;
  model::ForwardPass pass(model, backend);
  options.keep_keys_values = rows_only;
  const model::ResidualStream clean_stream = pass.run(clean, options).stream;
  options.keep_stream = !rows_only;

  const float* clean_final = clean_stream.residuals.back().row(out.position);
  out.target = request.target.value_or(likeliest_token(model, clean_final));
  out.target_token =
      model.tokenizer().label_after(std::span(clean.ids).first(static_cast<std::size_t>(out.position) + 1), out.target);
  out.clean_logit = target_logit(model, clean_final, out.target);
  out.corrupted_logit = target_logit(model, corrupted_stream.residuals.back().row(out.position), out.target);

  out.patched.assign(static_cast<std::size_t>(c.num_layers),
                     std::vector<double>(static_cast<std::size_t>(c.num_heads)));
  const auto patch_of = [&](int l, int h) {
    const auto at = static_cast<std::size_t>(l);
    return model::HeadPatch{l, h,
                            out.patched_position
                                ? one_position_patched(clean_stream.contexts[at], corrupted_stream.contexts[at], h,
                                                       c.head_dim, *out.patched_position)
                                : head_context(corrupted_stream.contexts[at], h, c.head_dim)};
  };
  // From the last layer down: a patch at layer l changed only the stream after it, so the next
  // patch, at l or below, reruns from its own layer on inputs that are clean.
  for (int l = c.num_layers - 1; l >= 0; --l) {
    if (rows_only) {
      patch_layer_rows(model, pass, l, *out.patched_position, patch_of, options, out);
      continue;
    }
    for (int h = 0; h < c.num_heads; ++h) {
      if (request.stop.stop_requested()) throw model::Cancelled();
      options.patched_heads = {patch_of(l, h)};
      const model::ForwardResult& patched = pass.rerun_from(l, options);
      out.patched[static_cast<std::size_t>(l)][static_cast<std::size_t>(h)] =
          target_logit(model, patched.stream.residuals.back().row(out.position), out.target);
    }
  }
  return out;
}

std::string text_cut_to_tokens(const tokenizers::Tokenizer& tokenizer, std::string_view text, int tokens) {
  const auto count = [&](std::size_t bytes) {
    return static_cast<int>(tokenizer.encode(text.substr(0, bytes), "--text").ids.size());
  };
  if (count(text.size()) <= tokens) return std::string(text);
  // The places a cut may go: the start of every UTF-8 character, and the end.
  std::vector<std::size_t> cuts;
  for (std::size_t i = 0; i < text.size(); ++i)
    if ((static_cast<unsigned char>(text[i]) & 0xC0u) != 0x80u) cuts.push_back(i);
  // The longest start within `tokens` (a longer start never makes fewer tokens): a binary search.
  std::size_t low = 0;  // cuts[low] fits (the empty start does)
  std::size_t high = cuts.size();
  while (high - low > 1) {
    const std::size_t mid = (low + high) / 2;
    if (count(cuts[mid]) <= tokens) {
      low = mid;
    } else {
      high = mid;
    }
  }
  std::string cut(text.substr(0, cuts[low]));
  // Trailing spaces go where they are tokens of their own (byte-level BPE keeps " in" whole).
  std::string trimmed = cut;
  while (!trimmed.empty() && (trimmed.back() == ' ' || trimmed.back() == '\n' || trimmed.back() == '\t'))
    trimmed.pop_back();
  return static_cast<int>(tokenizer.encode(trimmed, "--text").ids.size()) == count(cut.size()) ? trimmed : cut;
}

}  // namespace attnviz::heads
