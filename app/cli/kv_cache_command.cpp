// attnviz kv-cache: the KV-cache size of a model shape, with the formula's numbers filled in
// (docs/design.md "KV-cache size", docs/decode.md).

#include <charconv>
#include <ostream>

#include "app/cli/args.h"
#include "app/cli/commands.h"
#include "core/common/error.h"
#include "core/decode/kv_cache_size.h"

namespace attnviz::cli {
namespace {

constexpr const char* kHelp =
    "Usage: attnviz kv-cache --layers L --kv-heads G --head-dim D --seq N [--batch B]\n"
    "                        [--dtype f32|f16|bf16|int8] [--preset llama-7b|llama2-70b]\n"
    "\n"
    "Prints the size of a transformer's KV cache, bytes and GiB, then the formula\n"
    "  bytes = 2 · batch · seq_len · layers · kv_heads · head_dim · bytes_per_value\n"
    "with the numbers filled in.\n"
    "\n"
    "Options:\n"
    "  --layers L      transformer layers\n"
    "  --kv-heads G    key/value heads per layer (query heads for MHA, fewer for GQA, 1 for MQA)\n"
    "  --head-dim D    width of one head\n"
    "  --seq N         tokens held in the cache\n"
    "  --batch B       sequences decoded together (default 1)\n"
    "  --dtype T       f32 (4 bytes), f16 (2, the default), bf16 (2) or int8 (1)\n"
    "  --preset NAME   start from a model's shape; the options above override its values:\n"
    "                    llama-7b    32 layers, 32 KV heads, head dim 128, f16, 4096 tokens: 2 GiB\n"
    "                    llama2-70b  80 layers, 8 KV heads, head dim 128, f16, 4096 tokens: 1.25 GiB\n"
    "\n"
    "Exit codes: 0 success, 2 bad input (a value that is not a positive whole number, an unknown\n"
    "type or preset, a size beyond 2^64 - 1 bytes).\n";

const std::vector<OptionSpec> kOptions = {{"--layers"}, {"--kv-heads"}, {"--head-dim"}, {"--seq"},
                                          {"--batch"},  {"--dtype"},    {"--preset"},   {"--help", false}};

constexpr const char* kOrigin = "<command line>";

// A positive whole number of up to 64 bits: "0", "-3", "2.5", "1e3", "x" are refused.
std::optional<std::uint64_t> positive_count(const ParsedArgs& parsed, const std::string& name) {
  const std::optional<std::string> text = parsed.get(name);
  if (!text) return std::nullopt;
  std::uint64_t value = 0;
  const char* end = text->data() + text->size();
  const auto [stop, error] = std::from_chars(text->data(), end, value);
  if (error == std::errc::result_out_of_range) {
    throw InputError(kOrigin, name, "\"" + *text + "\" is larger than 2^64 - 1");
  }
  if (error != std::errc() || stop != end || value == 0) {
    throw InputError(kOrigin, name, "expected a positive whole number, got \"" + *text + "\"");
  }
  return value;
}

const char* option_of(decode::CacheFactor factor) {
  switch (factor) {
    case decode::CacheFactor::batch: return "--batch";
    case decode::CacheFactor::seq_len: return "--seq";
    case decode::CacheFactor::layers: return "--layers";
    case decode::CacheFactor::kv_heads: return "--kv-heads";
    case decode::CacheFactor::head_dim: return "--head-dim";
    case decode::CacheFactor::bytes_per_value: return "--dtype";
  }
  return "--seq";
}

// The preset's shape, or the required options without one.
decode::KvCacheShape shape_from(const ParsedArgs& parsed) {
  decode::KvCacheShape shape;
  const bool from_preset = parsed.has("--preset");
  if (from_preset) {
    const std::string name = *parsed.get("--preset");
    require_choice("--preset", name, {"llama-7b", "llama2-70b"});
    shape = decode::find_kv_cache_preset(name)->shape;
  }
  auto set = [&](const char* option, std::uint64_t& field) {
    if (const std::optional<std::uint64_t> value = positive_count(parsed, option)) {
      field = *value;
    } else if (!from_preset) {
      throw InputError(kOrigin, option,
                       "is required (or give --preset llama-7b|llama2-70b; see attnviz kv-cache --help)");
    }
  };
  set("--layers", shape.layers);
  set("--kv-heads", shape.kv_heads);
  set("--head-dim", shape.head_dim);
  set("--seq", shape.seq_len);
  shape.batch = positive_count(parsed, "--batch").value_or(shape.batch);
  if (const std::optional<std::string> dtype = parsed.get("--dtype")) {
    require_choice("--dtype", *dtype, {"f32", "f16", "bf16", "int8"});
    shape.dtype = *decode::parse_dtype(*dtype);
  }
  return shape;
}

}  // namespace

int run_kv_cache_command(const Args& args, std::ostream& out, std::ostream& err) {
  (void)err;
  const ParsedArgs parsed = parse_args(args, kOptions, "attnviz kv-cache");
  if (parsed.has("--help")) {
    out << kHelp;
    return 0;
  }
  if (!parsed.positionals().empty()) {
    throw InputError(kOrigin, parsed.positionals().front(), "unexpected argument (see attnviz kv-cache --help)");
  }
  const decode::KvCacheShape shape = shape_from(parsed);
  try {
    const std::uint64_t bytes = decode::kv_cache_bytes(shape);
    out << decode::bytes_and_gib(bytes) << "\n"
        << decode::kv_cache_formula_legend(shape) << "\n"
        << decode::kv_cache_formula(shape) << "\n";
  } catch (const decode::KvCacheOverflow& error) {
    throw InputError(kOrigin, option_of(error.factor()), error.what());
  }
  return 0;
}

}  // namespace attnviz::cli
