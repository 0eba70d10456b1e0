// The GGUF reader and everything a model file drives in core/model on arbitrary bytes: the
// header, the metadata, the configuration, the tokenizer (and a text through it), the weights'
// shapes and their dequantisation. An InputError or a result, never a crash.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "core/common/error.h"
#include "core/model/gguf.h"
#include "core/model/gguf_model.h"
#include "core/model/weight_builder.h"
#include "core/tokenizers/tokenizer_files.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace attnviz::model;
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
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
    if (plan.tally().copied_bytes + plan.tally().mapped_bytes > (64u << 20)) return 0;
    WeightStorage storage;
    WeightBuilder builder(gguf.tensors, "fuzz.gguf", &storage);
    (void)build_gguf_weights(builder, config);
  } catch (const attnviz::InputError& e) {
    if (std::strchr(e.what(), '\x1b') != nullptr) std::abort();  // names from the file are quoted
  }
  return 0;
}
