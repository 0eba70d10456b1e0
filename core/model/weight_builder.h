#pragma once
// Turns a file's tensors into the float32 views of weights.h, checking each tensor's shape
// against what the configuration needs. Runs twice: a dry run that checks every shape and adds
// up the memory the weights will take (so a model too large is refused before anything is
// allocated), then the real run that dequantises.

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "core/model/tensor.h"
#include "core/model/weights.h"

namespace attnviz::model {

// The float32 copies a Model owns (dequantised tensors, reordered rows): left uninitialised
// until the dequantisation writes them (zeroing gigabytes first would double the work).
struct WeightStorage {
  std::deque<std::unique_ptr<float[]>> buffers;
  std::deque<std::vector<std::int32_t>> row_maps;  // GGUF's reordered Q and K rows
  std::deque<std::string> names;                   // files and tensor names of stored rows, for messages
};

struct WeightTally {
  std::uint64_t copied_bytes = 0;  // float32 buffers the weights need
  std::uint64_t mapped_bytes = 0;  // tensors read in place from the file (float32 or stored rows)
  std::uint64_t file_bytes = 0;    // the stored bytes of every tensor used
  std::uint64_t parameters = 0;    // values of every tensor used (a tied one once)
};

class WeightBuilder {
 public:
  // `progress` gets the stored bytes done so far; `stop` is checked between tensors.
  WeightBuilder(const TensorSet& tensors, std::string origin, WeightStorage* storage, std::stop_token stop = {},
                std::function<void(std::uint64_t)> progress = {});

  [[nodiscard]] bool dry_run() const { return storage_ == nullptr; }
  [[nodiscard]] const WeightTally& tally() const { return tally_; }
  [[nodiscard]] bool has(const std::string& name) const { return tensors_.contains(name); }
  [[nodiscard]] const std::string& origin() const { return origin_; }

  // A linear layer stored outputs × inputs (nn.Linear, GGUF), or rows [first, first + out) of
  // such a tensor (GPT-2's fused Q/K/V in GGUF).
  Linear linear(const std::string& weight, const std::string& bias, int in, int out);
  Linear linear_rows(const std::string& weight, const std::string& bias, int in, int out, int first, int total_out);
  // A Conv1D layer stored inputs × outputs, or columns [first, first + out) of one.
  Linear conv1d(const std::string& weight, const std::string& bias, int in, int out, int first = 0, int total_out = -1);
  // GGUF's Q and K of a Llama: each head's rows interleaved for llama.cpp's RoPE; put back in
  // Hugging Face's order (first halves of each head's rotation pairs, then second halves).
  Linear linear_unpermuted(const std::string& weight, const std::string& bias, int in, int heads, int head_dim);

  Norm norm(const std::string& weight, const std::string& bias, int size);  // bias "" for RMSNorm
  Table table(const std::string& name, int rows, int cols);
  // The output layer tied to an embedding table (logits = x · Eᵀ).
  static Linear tied_to(const Table& table);
  // A vector of `size` values, or null when `name` is empty or (optional) missing.
  const float* vector(const std::string& name, int size, bool optional = false);

 private:
  const TensorRecord& record(const std::string& name) const;
  void check_shape(const TensorRecord& record, std::vector<std::uint64_t> expected, const std::string& why) const;
  const float* floats(const TensorRecord& record, bool copy = false);
  // A matrix of `rows` rows kept as stored: in place unless it is float32 (then `floats`).
  StoredRows stored_rows(const TensorRecord& record, std::uint64_t rows);
  void count(const TensorRecord& record, bool copied);
  float* new_buffer(std::uint64_t count);

  const TensorSet& tensors_;
  std::string origin_;
  WeightStorage* storage_;
  std::stop_token stop_;
  std::function<void(std::uint64_t)> progress_;
  std::map<std::string, const float*> done_;
  std::map<std::string, bool> counted_;
  WeightTally tally_;
};

}  // namespace attnviz::model
