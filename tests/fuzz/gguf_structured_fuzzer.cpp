// GGUF models generated from the fuzzer's choices (fuzz_choices.h): a Llama (GQA, RoPE) or a GPT-2
// whose metadata, tokenizer and tensors agree, departing from that where the bytes say — a size
// from the interesting list, a value of another type, a tensor of another type or offset, a NaN
// or an overflowing weight, a name with escape codes — then everything gguf_checks.h checks.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_choices.h"
#include "gguf_checks.h"

namespace {

using attnviz::fuzzing::Choices;

// GGUF's value types.
enum ValueType : std::uint32_t { kU32 = 4, kI32 = 5, kF32 = 6, kBool = 7, kString = 8, kArray = 9, kU64 = 10 };

class Bytes {
 public:
  template <typename T>
  void put(T value) {
    const auto* p = reinterpret_cast<const char*>(&value);
    text.append(p, sizeof value);
  }
  void str(std::string_view s) {
    put<std::uint64_t>(s.size());
    text.append(s);
  }
  std::string text;
};

// A string from the file, now and then one a reader must quote or refuse.
std::string maybe_odd(Choices& c, std::string usual) {
  if (!c.rarely()) return usual;
  return c.one_of<std::string>({"", "\x1b[31mred\x1b[0m", std::string(1, '\0') + "nul", std::string(300, 'x'),
                                "\xff\xfe not UTF-8", usual + usual});
}

class Metadata {
 public:
  explicit Metadata(Choices& c) : c_(c) {}
  void number(const std::string& key, std::uint64_t usual) {
    const std::uint64_t value = c_.size_or(usual);
    begin(key, c_.rarely() ? c_.one_of<std::uint32_t>({kU64, kI32, kString, kF32}) : kU32);
    put_value(last_type_, value, "");
  }
  void real(const std::string& key, float usual) {
    float value = usual;
    if (c_.rarely()) value = c_.one_of<float>({0.0f, -1.0f, 1e38f, __builtin_nanf(""), __builtin_inff()});
    begin(key, kF32);
    out_.put(value);
  }
  void text(const std::string& key, const std::string& usual) {
    begin(key, c_.rarely() ? kU32 : kString);
    put_value(last_type_, 7, maybe_odd(c_, usual));
  }
  void strings(const std::string& key, const std::vector<std::string>& items) {
    begin(key, kArray);
    out_.put<std::uint32_t>(kString);
    out_.put<std::uint64_t>(c_.rarely() ? c_.size_or(items.size()) : items.size());
    for (const std::string& item : items) out_.str(maybe_odd(c_, item));
  }
  void reals(const std::string& key, std::size_t count) {
    begin(key, kArray);
    out_.put<std::uint32_t>(kF32);
    const std::size_t n = c_.rarely() ? count + 1 : count;
    out_.put<std::uint64_t>(n);
    for (std::size_t i = 0; i < n; ++i) out_.put(-static_cast<float>(i));
  }
  void integers(const std::string& key, std::size_t count, std::int32_t value) {
    begin(key, kArray);
    out_.put<std::uint32_t>(kI32);
    out_.put<std::uint64_t>(count);
    for (std::size_t i = 0; i < count; ++i) out_.put(i < 3 ? 3 : value);
  }
  [[nodiscard]] std::uint64_t count() const { return count_; }
  [[nodiscard]] const std::string& bytes() const { return out_.text; }

 private:
  void begin(const std::string& key, std::uint32_t type) {
    out_.str(key);
    out_.put(type);
    last_type_ = type;
    ++count_;
  }
  void put_value(std::uint32_t type, std::uint64_t number, const std::string& text) {
    switch (type) {
      case kU64: out_.put<std::uint64_t>(number); break;
      case kI32: out_.put(static_cast<std::int32_t>(number)); break;
      case kF32: out_.put(static_cast<float>(number)); break;
      case kString: out_.str(text.empty() ? std::to_string(number) : text); break;
      default: out_.put(static_cast<std::uint32_t>(number)); break;
    }
  }
  Choices& c_;
  Bytes out_;
  std::uint64_t count_ = 0;
  std::uint32_t last_type_ = kU32;
};

struct TensorPlan {
  std::string name;
  std::vector<std::uint64_t> dims;  // innermost first, as GGUF lists them
};

// Bytes of `elements` values stored as GGUF type `type` (0 when the type is not one we write).
std::uint64_t stored_bytes(std::uint32_t type, std::uint64_t elements) {
  switch (type) {
    case 0: return elements * 4;  // F32
    case 1:
    case 30: return elements * 2;                  // F16, BF16
    case 8: return (elements + 31) / 32 * 34;      // Q8_0
    case 2: return (elements + 31) / 32 * 18;      // Q4_0
    case 12: return (elements + 255) / 256 * 144;  // Q4_K
    case 14: return (elements + 255) / 256 * 210;  // Q6_K
    default: return elements;
  }
}

// Small finite weights in the tensor's own type, and, where the choices say, one poisoned value.
void fill(std::string& data, std::size_t at, std::uint64_t bytes, std::uint32_t type, Choices& c) {
  for (std::uint64_t i = 0; i < bytes; ++i) data[at + i] = static_cast<char>((i * 37 + 11) % 7);  // tiny values
  if (type == 0 && bytes >= 4) {
    for (std::uint64_t i = 0; i + 4 <= bytes; i += 4) {
      const float v = 0.01f * static_cast<float>(static_cast<int>(i % 13) - 6);
      std::memcpy(&data[at + i], &v, 4);
    }
  }
  if (type == 8) {
    for (std::uint64_t i = 0; i + 34 <= bytes; i += 34) {
      data[at + i] = 0x00;
      data[at + i + 1] = 0x20;  // a half-float scale of 2^-7
    }
  }
  if (!c.rarely() || bytes < 4) return;
  const std::uint64_t where = c.below(bytes / 2) * 2 % (bytes - 3);
  const std::uint32_t poison =
      c.one_of<std::uint32_t>({0x7FC00000u, 0x7F800000u, 0x7F7FFFFFu, 0x7E007E00u, 0x7C007C00u});
  std::memcpy(&data[at + where], &poison, 4);
}

std::string generate(Choices& c) {
  const bool llama = c.below(3) != 0;
  const std::uint64_t heads = 1 + c.below(2), kv_heads = llama && heads == 2 && c.below(2) ? 1 : heads;
  const std::uint64_t head_dim = 4, d = heads * head_dim, ff = 8, layers = 1, positions = 16;
  const std::vector<std::string> tokens =
      llama ? std::vector<std::string>{"<unk>", "<s>", "</s>", "▁", "▁the", "▁cat", "▁sat", "a", "t"}
            : std::vector<std::string>{"t", "h", "e", "a", "c", "Ġ", "th", "the", "Ġc", "Ġca"};
  const std::uint64_t vocab = tokens.size();

  Metadata m(c);
  const std::string arch = llama ? "llama" : "gpt2";
  m.text("general.architecture", arch);
  m.number(arch + ".block_count", layers);
  m.number(arch + ".embedding_length", d);
  m.number(arch + ".attention.head_count", heads);
  m.number(arch + ".feed_forward_length", ff);
  m.number(arch + ".context_length", positions);
  if (llama) {
    m.number(arch + ".attention.head_count_kv", kv_heads);
    m.real(arch + ".rope.freq_base", 10000.0f);
    m.real(arch + ".attention.layer_norm_rms_epsilon", 1e-5f);
    if (c.rarely()) m.number(arch + ".rope.dimension_count", head_dim);
  } else {
    m.real(arch + ".attention.layer_norm_epsilon", 1e-5f);
  }
  if (c.rarely()) m.number("general.alignment", 32);
  m.text("tokenizer.ggml.model", llama ? "llama" : "gpt2");
  m.strings("tokenizer.ggml.tokens", tokens);
  if (llama) {
    m.reals("tokenizer.ggml.scores", vocab);
    m.integers("tokenizer.ggml.token_type", vocab, 1);
    m.number("tokenizer.ggml.bos_token_id", 1);
    m.number("tokenizer.ggml.eos_token_id", 2);
    m.number("tokenizer.ggml.unknown_token_id", 0);
  } else {
    m.strings("tokenizer.ggml.merges", {"t h", "th e", "Ġ c", "Ġc a"});
  }

  std::vector<TensorPlan> plans{{"token_embd.weight", {d, vocab}}};
  if (!llama) plans.push_back({"position_embd.weight", {d, positions}});
  const std::uint64_t q = heads * head_dim, kv = kv_heads * head_dim;
  for (std::uint64_t l = 0; l < layers; ++l) {
    const std::string b = "blk." + std::to_string(l) + ".";
    if (llama) {
      for (const TensorPlan& p : std::vector<TensorPlan>{{b + "attn_norm.weight", {d}},
                                                         {b + "attn_q.weight", {d, q}},
                                                         {b + "attn_k.weight", {d, kv}},
                                                         {b + "attn_v.weight", {d, kv}},
                                                         {b + "attn_output.weight", {q, d}},
                                                         {b + "ffn_norm.weight", {d}},
                                                         {b + "ffn_gate.weight", {d, ff}},
                                                         {b + "ffn_up.weight", {d, ff}},
                                                         {b + "ffn_down.weight", {ff, d}}})
        plans.push_back(p);
    } else {
      for (const TensorPlan& p : std::vector<TensorPlan>{{b + "attn_norm.weight", {d}},
                                                         {b + "attn_norm.bias", {d}},
                                                         {b + "attn_qkv.weight", {d, 3 * d}},
                                                         {b + "attn_qkv.bias", {3 * d}},
                                                         {b + "attn_output.weight", {d, d}},
                                                         {b + "attn_output.bias", {d}},
                                                         {b + "ffn_norm.weight", {d}},
                                                         {b + "ffn_norm.bias", {d}},
                                                         {b + "ffn_up.weight", {d, ff}},
                                                         {b + "ffn_up.bias", {ff}},
                                                         {b + "ffn_down.weight", {ff, d}},
                                                         {b + "ffn_down.bias", {d}}})
        plans.push_back(p);
    }
  }
  plans.push_back({"output_norm.weight", {d}});
  if (!llama) plans.push_back({"output_norm.bias", {d}});
  if (llama && c.below(2)) plans.push_back({"output.weight", {d, vocab}});
  if (c.rarely() && !plans.empty()) plans.push_back(plans[c.below(plans.size())]);  // a duplicate name

  Bytes infos;
  std::string data;
  constexpr std::uint64_t kAlignment = 32, kMaxData = 1 << 18;
  for (const TensorPlan& plan : plans) {
    infos.str(maybe_odd(c, plan.name));
    const std::uint32_t rank =
        c.rarely() ? static_cast<std::uint32_t>(c.below(6)) : static_cast<std::uint32_t>(plan.dims.size());
    infos.put(rank);
    std::uint64_t elements = 1;
    for (std::uint32_t i = 0; i < rank; ++i) {
      const std::uint64_t dim = c.size_or(i < plan.dims.size() ? plan.dims[i] : 1);
      infos.put(dim);
      elements = dim != 0 && elements > kMaxData / dim ? kMaxData : elements * dim;
    }
    const std::uint32_t type = c.rarely() ? c.one_of<std::uint32_t>({1, 30, 8, 2, 12, 14, 3, 99}) : 0;
    infos.put(type);
    const std::uint64_t bytes = std::min<std::uint64_t>(stored_bytes(type, elements), kMaxData);
    const std::uint64_t offset = (data.size() + kAlignment - 1) / kAlignment * kAlignment;
    infos.put(c.rarely() ? c.size_or(offset) : offset);
    if (offset + bytes > kMaxData) continue;
    data.resize(offset + bytes);
    fill(data, offset, bytes, type, c);
  }

  Bytes file;
  file.text = c.rarely() ? "GGUG" : "GGUF";
  file.put<std::uint32_t>(c.rarely() ? c.one_of<std::uint32_t>({1, 2, 4, 0xFFFFFFFF}) : 3);
  file.put<std::uint64_t>(c.rarely() ? c.size_or(plans.size()) : plans.size());
  file.put<std::uint64_t>(c.rarely() ? c.size_or(m.count()) : m.count());
  file.text += m.bytes();
  file.text += infos.text;
  file.text.resize((file.text.size() + kAlignment - 1) / kAlignment * kAlignment, '\0');
  if (c.rarely()) data.resize(c.below(data.size() + 1));  // a file cut short
  file.text += data;
  return file.text;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Choices choices(data, size);
  const std::string file = generate(choices);
  attnviz::fuzzing::check_gguf(
      std::span<const std::byte>(reinterpret_cast<const std::byte*>(file.data()), file.size()));
  return 0;
}
