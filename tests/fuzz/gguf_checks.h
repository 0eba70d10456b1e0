#pragma once
// What the GGUF fuzz targets check on a file's bytes (gguf_fuzzer on arbitrary bytes,
// gguf_structured_fuzzer on generated models): the reader, the configuration, the tokenizer (and
// a text through it), the weights' shapes and their dequantisation give an InputError or a
// result, never a crash; every tensor lies inside the file; the attention's width and RoPE's
// base are within their bounds; a message never carries an escape character raw.

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <span>

#include "core/common/error.h"
#include "core/model/gguf.h"
#include "core/model/gguf_model.h"
#include "core/model/weight_builder.h"
#include "core/tokenizers/tokenizer_files.h"

namespace attnviz::fuzzing {

inline void check_gguf(std::span<const std::byte> bytes) {
  using namespace attnviz::model;
  const auto file = MappedFile::borrow("fuzz.gguf", bytes);
  try {
    const GgufFile gguf = read_gguf(file);
    for (const auto& [name, tensor] : gguf.tensors.all()) {
      if (tensor.data.data() < bytes.data() || tensor.data.data() + tensor.data.size() > bytes.data() + bytes.size())
        std::abort();
    }
    try {
      const auto tokenizer =
          attnviz::tokenizers::make_gguf_tokenizer(gguf_tokenizer_data(gguf, "fuzz.gguf"), "fuzz.gguf");
      (void)tokenizer->encode("the cat sat 한국어 🙂", "--text");
    } catch (const attnviz::InputError&) {
    }
    ModelConfig config = gguf_config(gguf, "fuzz.gguf");
    if (static_cast<long long>(config.num_heads) * config.head_dim > kMaxAttentionWidth || !(config.rope.theta > 0))
      std::abort();
    WeightBuilder plan(gguf.tensors, "fuzz.gguf", nullptr);
    ModelConfig planned = config;
    (void)build_gguf_weights(plan, planned);
    if (plan.tally().copied_bytes + plan.tally().mapped_bytes > (64u << 20)) return;
    WeightStorage storage;
    WeightBuilder builder(gguf.tensors, "fuzz.gguf", &storage);
    (void)build_gguf_weights(builder, config);
  } catch (const attnviz::InputError& e) {
    if (std::strchr(e.what(), '\x1b') != nullptr) std::abort();  // names from the file are quoted
  }
}

}  // namespace attnviz::fuzzing
