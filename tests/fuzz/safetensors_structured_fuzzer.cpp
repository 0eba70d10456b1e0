// safetensors files generated from the fuzzer's choices (fuzz_choices.h): GPT-2-named tensors whose
// header is well formed JSON with agreeing offsets, departing from that where the bytes say — a
// dimension from the interesting list, another dtype, overlapping, reversed or outlying offsets, a
// duplicate or escape-coded name, a lying header length, a file cut short, a NaN, an infinity or
// an overflowing F16/BF16/F32 value — then everything safetensors_checks.h checks.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "fuzz_choices.h"
#include "safetensors_checks.h"

namespace {

using attnviz::fuzzing::Choices;

// A JSON string literal; control characters escaped as JSON requires (the reader must quote them
// again when it names the tensor).
std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (const char ch : text) {
    const auto byte = static_cast<unsigned char>(ch);
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (byte < 0x20) {
      static const char* kHex = "0123456789abcdef";
      out += "\\u00";
      out += kHex[byte >> 4];
      out += kHex[byte & 15];
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

std::size_t dtype_bytes(const std::string& dtype) {
  if (dtype == "F64" || dtype == "I64") return 8;
  if (dtype == "F32" || dtype == "I32") return 4;
  if (dtype == "F16" || dtype == "BF16" || dtype == "I16") return 2;
  return 1;
}

std::string generate(Choices& c) {
  const std::vector<std::string> names{
      "wte.weight",          "wpe.weight",  "h.0.ln_1.weight", "h.0.attn.c_attn.weight", "h.0.attn.c_proj.weight",
      "h.0.mlp.c_fc.weight", "ln_f.weight", "ln_f.bias"};
  const std::vector<std::vector<std::uint64_t>> shapes{{8, 4}, {16, 4}, {4}, {4, 12}, {4, 4}, {4, 16}, {4}, {4}};
  constexpr std::uint64_t kMaxData = 1 << 18;
  std::string header = "{";
  std::uint64_t end = 0, previous_begin = 0;
  const std::size_t count = c.rarely() ? c.below(names.size() + 2) : names.size();
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t pick = c.rarely() ? c.below(names.size()) : i % names.size();  // a duplicate, now and then
    std::string name = names[pick];
    if (c.rarely())
      name = c.one_of<std::string>({"\x1b[2J\x1b[31mred", std::string(1, '\0') + "nul", "", "__metadata__"});
    const std::string dtype =
        c.rarely() ? c.one_of<std::string>({"F16", "BF16", "F64", "I8", "U8", "BOOL", "F8_E4M3", "Q4", ""}) : "F32";
    std::uint64_t elements = 1;
    std::string shape = "[";
    const std::vector<std::uint64_t>& usual = shapes[pick];
    const std::size_t rank = c.rarely() ? c.below(5) : usual.size();
    for (std::size_t d = 0; d < rank; ++d) {
      const std::uint64_t dim = c.size_or(d < usual.size() ? usual[d] : 1);
      shape += (d ? "," : "") + std::to_string(dim);
      elements = dim != 0 && elements > kMaxData / dim ? kMaxData : elements * dim;
    }
    shape += "]";
    std::uint64_t begin = end, stop = end + std::min(elements * dtype_bytes(dtype), kMaxData);
    switch (c.rarely() ? c.below(4) : 4) {
      case 0: begin = previous_begin; break;         // overlaps the one before
      case 1: std::swap(begin, stop); break;         // reversed
      case 2: stop = c.size_or(stop); break;         // past the end, or wrapping
      case 3: begin = stop = c.size_or(end); break;  // elsewhere, empty
      default: break;
    }
    previous_begin = begin;
    end = std::max(end, std::min(stop, kMaxData));
    header += (i ? "," : "") + json_string(name) + ":{\"dtype\":" + json_string(dtype) + ",\"shape\":" + shape +
              ",\"data_offsets\":[" + std::to_string(begin) + "," + std::to_string(stop) + "]}";
  }
  if (c.below(2)) header += std::string(count ? "," : "") + "\"__metadata__\":{\"format\":\"pt\"}";
  header += "}";
  if (c.rarely()) header.resize(c.below(header.size()));  // JSON cut short

  std::string data(end, '\0');
  for (std::uint64_t i = 0; i + 4 <= end; i += 4) {
    const float v = 0.01f * static_cast<float>(static_cast<int>(i % 13) - 6);
    std::memcpy(&data[i], &v, 4);
  }
  for (int poisons = c.rarely() ? 1 + static_cast<int>(c.below(3)) : 0; poisons > 0 && end >= 4; --poisons) {
    const std::uint64_t where = c.below(end - 3) & ~std::uint64_t{1};
    const std::uint32_t poison =
        c.one_of<std::uint32_t>({0x7FC00000u, 0x7F800000u, 0x7F7FFFFFu, 0x7E007E00u, 0x7C007C00u, 0x7F807F80u});
    std::memcpy(&data[where], &poison, 4);
  }
  if (c.rarely()) data.resize(c.below(data.size() + 1));  // a file cut short

  std::string file(8, '\0');
  const std::uint64_t length = c.rarely() ? c.size_or(header.size()) : header.size();
  std::memcpy(file.data(), &length, 8);
  return file + header + data;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Choices choices(data, size);
  const std::string file = generate(choices);
  attnviz::fuzzing::check_safetensors(
      std::span<const std::byte>(reinterpret_cast<const std::byte*>(file.data()), file.size()));
  return 0;
}
