#include "core/model/weight_builder.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/common/error.h"
#include "core/common/text_excerpt.h"
#include "core/common/matrix.h"
#include "core/model/cancelled.h"
#include "core/model/dequantize.h"

namespace attnviz::model {
namespace {

std::string shape_text(const std::vector<std::uint64_t>& shape) {
  std::string text;
  for (const std::uint64_t dim : shape) text += (text.empty() ? "" : "×") + std::to_string(dim);
  return text;
}

// The index of the first value that is not finite, or -1. The exponent bits are tested as
// integers in blocks (a loop the compiler vectorises; the tensor may be gigabytes), and only a
// block with a hit is searched.
std::int64_t first_non_finite(const float* data, std::uint64_t count) {
  constexpr std::uint64_t kBlock = 4096;
  const auto blocks = static_cast<std::int64_t>((count + kBlock - 1) / kBlock);
  std::int64_t found = -1;
#pragma omp parallel for schedule(static) reduction(max : found) if (blocks > 256)
  for (std::int64_t b = 0; b < blocks; ++b) {
    const std::uint64_t begin = static_cast<std::uint64_t>(b) * kBlock;
    const std::uint64_t end = std::min(count, begin + kBlock);
    std::uint32_t any = 0;
    for (std::uint64_t i = begin; i < end; ++i) {
      std::uint32_t bits = 0;
      std::memcpy(&bits, data + i, 4);
      any |= static_cast<std::uint32_t>((bits & 0x7F800000u) == 0x7F800000u);
    }
    if (any != 0) {
      for (std::uint64_t i = begin; i < end; ++i) {
        if (!std::isfinite(data[i])) {
          found = std::max(found, static_cast<std::int64_t>(i));
          break;
        }
      }
    }
  }
  return found;
}

}  // namespace

WeightBuilder::WeightBuilder(const TensorSet& tensors, std::string origin, WeightStorage* storage, std::stop_token stop,
                             std::function<void(std::uint64_t)> progress)
    : tensors_(tensors),
      origin_(std::move(origin)),
      storage_(storage),
      stop_(std::move(stop)),
      progress_(std::move(progress)) {}

const TensorRecord& WeightBuilder::record(const std::string& name) const { return tensors_.require(name, origin_); }

void WeightBuilder::check_shape(const TensorRecord& r, std::vector<std::uint64_t> expected,
                                const std::string& why) const {
  if (r.shape != expected) {
    throw InputError(r.file ? r.file->path() : origin_, shown_name(r.name),
                     "has shape " + r.shape_text() + " but " + why + " needs " + shape_text(expected));
  }
  if (r.type == TensorType::Other) {
    throw InputError(r.file ? r.file->path() : origin_, shown_name(r.name),
                     "has type " + shown_name(r.type_name, 20) +
                         ", which attnviz does not read (it reads F32, F16, BF16, Q8_0, Q4_0, Q4_K, Q6_K)");
  }
}

float* WeightBuilder::new_buffer(std::uint64_t count) {
  storage_->buffers.emplace_back(new float[static_cast<std::size_t>(count)]);
  float* buffer = storage_->buffers.back().get();
  prefer_huge_pages(buffer, static_cast<std::size_t>(count) * sizeof(float));
  return buffer;
}

// Adds a tensor to the tally once, however often it is used (GPT-2's c_attn, a tied embedding).
void WeightBuilder::count(const TensorRecord& r, bool copied) {
  const std::string key = r.name + (copied ? "#copy" : "");
  if (counted_[key]) return;
  counted_[key] = true;
  if (!counted_[r.name + "#any"]) {
    counted_[r.name + "#any"] = true;
    tally_.file_bytes += r.data.size();
    tally_.parameters += r.element_count();
  }
  if (copied)
    tally_.copied_bytes += r.element_count() * 4;
  else
    tally_.mapped_bytes += r.data.size();
}

// The tensor as float32: in place when it is float32 and aligned (and no copy is asked for),
// else dequantised into a buffer of the Model's. A tensor used twice is converted once.
const float* WeightBuilder::floats(const TensorRecord& r, bool copy) {
  const std::string key = r.name + (copy ? "#copy" : "");
  if (const auto it = done_.find(key); it != done_.end()) return it->second;
  if (stop_.stop_requested()) throw Cancelled();
  const std::uint64_t count_of = r.element_count();
  const bool in_place =
      !copy && r.type == TensorType::F32 && reinterpret_cast<std::uintptr_t>(r.data.data()) % alignof(float) == 0;
  count(r, !in_place);
  const float* result = nullptr;
  if (!dry_run()) {
    if (in_place) {
      result = reinterpret_cast<const float*>(r.data.data());
    } else {
      float* buffer = new_buffer(count_of);
      dequantize(r.type, r.data, count_of, buffer);
      result = buffer;
    }
    if (const std::int64_t bad = first_non_finite(result, count_of); bad >= 0) {
      throw InputError(r.file->path(), shown_name(r.name),
                       "holds a value that is not a finite number (" + std::to_string(result[bad]) + ") at element " +
                           std::to_string(bad));
    }
    if (progress_) progress_(tally_.file_bytes);
  }
  done_[key] = result;
  return result;
}

StoredRows WeightBuilder::stored_rows(const TensorRecord& r, std::uint64_t rows) {
  if (stop_.stop_requested()) throw Cancelled();
  count(r, false);
  if (!dry_run() && progress_) progress_(tally_.file_bytes);
  StoredRows stored;
  stored.type = r.type;
  stored.data = r.data.data();
  stored.row_bytes = rows == 0 ? 0 : r.data.size() / rows;
  if (!dry_run()) {
    stored.file = &storage_->names.emplace_back(r.file ? r.file->path() : origin_);
    stored.name = &storage_->names.emplace_back(shown_name(r.name));
  }
  return stored;
}

// Float32 weights are used in place (or copied when misaligned); other types stay stored.
static bool kept_as_float(const TensorRecord& r) { return r.type == TensorType::F32; }

Linear WeightBuilder::linear(const std::string& weight, const std::string& bias, int in, int out) {
  return linear_rows(weight, bias, in, out, 0, out);
}

Linear WeightBuilder::linear_rows(const std::string& weight, const std::string& bias, int in, int out, int first,
                                  int total_out) {
  const TensorRecord& r = record(weight);
  check_shape(r, {static_cast<std::uint64_t>(total_out), static_cast<std::uint64_t>(in)}, "the configuration");
  Linear linear;
  linear.in = in;
  linear.out = out;
  linear.out_by_in = true;
  linear.stride = in;
  if (kept_as_float(r)) {
    const float* data = floats(r);
    linear.weight = data ? data + static_cast<long>(first) * in : nullptr;
  } else {
    linear.stored = stored_rows(r, static_cast<std::uint64_t>(total_out));
    linear.stored.data += static_cast<std::uint64_t>(first) * linear.stored.row_bytes;
  }
  if (!bias.empty()) {
    const float* b = vector(bias, total_out);
    linear.bias = b ? b + first : nullptr;
  }
  return linear;
}

Linear WeightBuilder::conv1d(const std::string& weight, const std::string& bias, int in, int out, int first,
                             int total_out) {
  if (total_out < 0) total_out = out;
  const TensorRecord& r = record(weight);
  check_shape(r, {static_cast<std::uint64_t>(in), static_cast<std::uint64_t>(total_out)}, "the configuration");
  Linear linear;
  linear.in = in;
  linear.out = out;
  linear.out_by_in = false;
  linear.stride = total_out;
  const float* data = floats(r);
  linear.weight = data ? data + first : nullptr;
  if (!bias.empty()) {
    const float* b = vector(bias, total_out);
    linear.bias = b ? b + first : nullptr;
  }
  return linear;
}

Linear WeightBuilder::linear_unpermuted(const std::string& weight, const std::string& bias, int in, int heads,
                                        int head_dim) {
  const int out = heads * head_dim;
  const TensorRecord& r = record(weight);
  check_shape(r, {static_cast<std::uint64_t>(out), static_cast<std::uint64_t>(in)}, "the configuration");
  Linear linear;
  linear.in = in;
  linear.out = out;
  linear.stride = in;
  const int half = head_dim / 2;
  // llama.cpp stores row h·d + 2i + j for Hugging Face's row h·d + j·(d/2) + i (j = 0, 1).
  auto hf_row = [&](int stored_row) {
    const int head = stored_row / head_dim;
    const int within = stored_row % head_dim;
    return head * head_dim + (within % 2) * half + within / 2;
  };
  if (kept_as_float(r)) {
    const float* stored = floats(r, /*copy=*/true);
    if (stored) {
      std::vector<float> reordered(static_cast<std::size_t>(out) * static_cast<std::size_t>(in));
      for (int row = 0; row < out; ++row) {
        std::memcpy(reordered.data() + static_cast<long>(hf_row(row)) * in, stored + static_cast<long>(row) * in,
                    sizeof(float) * static_cast<std::size_t>(in));
      }
      std::memcpy(const_cast<float*>(stored), reordered.data(), reordered.size() * sizeof(float));
    }
    linear.weight = stored;
  } else {
    linear.stored = stored_rows(r, static_cast<std::uint64_t>(out));
    if (!dry_run()) {
      std::vector<std::int32_t>& map = storage_->row_maps.emplace_back(static_cast<std::size_t>(out));
      for (int row = 0; row < out; ++row) map[static_cast<std::size_t>(hf_row(row))] = row;
      linear.stored.row_map = map.data();
    }
  }
  if (!bias.empty() && has(bias)) {
    const TensorRecord& b = record(bias);
    check_shape(b, {static_cast<std::uint64_t>(out)}, "the configuration");
    const float* values = floats(b, /*copy=*/true);
    if (values) {
      std::vector<float> reordered(static_cast<std::size_t>(out));
      for (int row = 0; row < out; ++row) reordered[static_cast<std::size_t>(hf_row(row))] = values[row];
      std::memcpy(const_cast<float*>(values), reordered.data(), reordered.size() * sizeof(float));
    }
    linear.bias = values;
  }
  return linear;
}

Norm WeightBuilder::norm(const std::string& weight, const std::string& bias, int size) {
  Norm norm;
  norm.size = size;
  norm.weight = vector(weight, size);
  if (!bias.empty()) norm.bias = vector(bias, size);
  return norm;
}

Table WeightBuilder::table(const std::string& name, int rows, int cols) {
  const TensorRecord& r = record(name);
  check_shape(r, {static_cast<std::uint64_t>(rows), static_cast<std::uint64_t>(cols)}, "the configuration");
  Table table;
  table.rows = rows;
  table.cols = cols;
  if (kept_as_float(r))
    table.data = floats(r);
  else
    table.stored = stored_rows(r, static_cast<std::uint64_t>(rows));
  return table;
}

Linear WeightBuilder::tied_to(const Table& table) {
  Linear linear;
  linear.weight = table.data;
  linear.stored = table.stored;
  linear.in = table.cols;
  linear.out = table.rows;
  linear.stride = table.cols;
  return linear;
}

const float* WeightBuilder::vector(const std::string& name, int size, bool optional) {
  if (name.empty() || (optional && !has(name))) return nullptr;
  const TensorRecord& r = record(name);
  check_shape(r, {static_cast<std::uint64_t>(size)}, "the configuration");
  return floats(r);
}

}  // namespace attnviz::model
