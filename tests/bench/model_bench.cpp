// attnviz_model_bench: opening and running pretrained models of the real shapes, printed as a
// markdown table for the README. Not a test (no pass/fail): run it and read the figures.
//
//   attnviz_model_bench [--dir /tmp/attnviz-bench-models] [--tokens 64] [--generate 32] [--runs 3]
//
// Writes two models with random weights into --dir the first time (never in the repository):
//   gpt2-small/   GPT-2 small's shape (124 M parameters) as float32 safetensors, and
//   tinyllama-q8_0.gguf   TinyLlama 1.1B's shape (22 layers, 32 query and 4 key/value heads,
//                 d_model 2048, MLP 5632, 32000 tokens) with every matrix in Q8_0;
// then, for each, in a fresh process (so that its peak resident memory is the model's alone):
// Model::open, a forward pass over --tokens tokens keeping every layer's attention, and greedy
// generation of --generate tokens after them through the KV cache (every layer's rows kept).
// Reported: the open time (the file in the page cache, as right after a download or a first
// open), the forward pass's best time of --runs, both as wall clock and as processor seconds
// (of every thread: on a machine shared with other work the wall clock says little), and the
// peak resident set against the model's size as float32.

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/cpu/cpu_backend.h"
#include "core/model/forward.h"
#include "core/model/generate.h"
#include "core/model/model.h"
#include "core/tokenizers/bpe_tokenizer.h"
#include "core/tokenizers/unicode.h"

namespace attnviz::bench {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// SplitMix64: the same random weights on every run.
struct Random {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  float uniform(float scale) { return (static_cast<float>(next() >> 40) / 16777216.0f * 2.0f - 1.0f) * scale; }
};

template <typename T>
void put(std::ofstream& out, T value) {
  out.write(reinterpret_cast<const char*>(&value), sizeof value);
}

void put_string(std::ofstream& out, const std::string& text) {
  put<std::uint64_t>(out, text.size());
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

// --- GPT-2 small as float32 safetensors -------------------------------------------------------

struct Entry {
  std::string name;
  std::vector<std::uint64_t> shape;
  float scale;  // uniform in ±scale; 0: ones (norm weights)
};

std::uint64_t elements(const Entry& e) {
  std::uint64_t n = 1;
  for (const auto d : e.shape) n *= d;
  return n;
}

void write_gpt2_small(const fs::path& folder) {
  fs::create_directories(folder);
  const std::uint64_t d = 768, ff = 3072, vocab = 50257, positions = 1024, layers = 12;
  std::vector<Entry> entries = {{"wte.weight", {vocab, d}, 0.1f}, {"wpe.weight", {positions, d}, 0.02f}};
  for (std::uint64_t l = 0; l < layers; ++l) {
    const std::string h = "h." + std::to_string(l) + ".";
    entries.insert(entries.end(), {{h + "ln_1.weight", {d}, 0},
                                   {h + "ln_1.bias", {d}, 0.01f},
                                   {h + "attn.c_attn.weight", {d, 3 * d}, 0.06f},
                                   {h + "attn.c_attn.bias", {3 * d}, 0.01f},
                                   {h + "attn.c_proj.weight", {d, d}, 0.03f},
                                   {h + "attn.c_proj.bias", {d}, 0.01f},
                                   {h + "ln_2.weight", {d}, 0},
                                   {h + "ln_2.bias", {d}, 0.01f},
                                   {h + "mlp.c_fc.weight", {d, ff}, 0.03f},
                                   {h + "mlp.c_fc.bias", {ff}, 0.01f},
                                   {h + "mlp.c_proj.weight", {ff, d}, 0.015f},
                                   {h + "mlp.c_proj.bias", {d}, 0.01f}});
  }
  entries.insert(entries.end(), {{"ln_f.weight", {d}, 0}, {"ln_f.bias", {d}, 0.01f}});
  std::string header = "{";
  std::uint64_t offset = 0;
  for (const Entry& e : entries) {
    std::string shape;
    for (const auto dim : e.shape) shape += (shape.empty() ? "" : ",") + std::to_string(dim);
    const std::uint64_t bytes = elements(e) * 4;
    header += "\"" + e.name + "\":{\"dtype\":\"F32\",\"shape\":[" + shape + "],\"data_offsets\":[" +
              std::to_string(offset) + "," + std::to_string(offset + bytes) + "]},";
    offset += bytes;
  }
  header.back() = '}';
  header.append((8 - header.size() % 8) % 8, ' ');
  std::ofstream out(folder / "model.safetensors", std::ios::binary);
  put<std::uint64_t>(out, header.size());
  out.write(header.data(), static_cast<std::streamsize>(header.size()));
  Random random{124};
  std::vector<float> chunk;
  for (const Entry& e : entries) {
    chunk.resize(elements(e));
    for (float& v : chunk) v = e.scale == 0 ? 1.0f : random.uniform(e.scale);
    out.write(reinterpret_cast<const char*>(chunk.data()), static_cast<std::streamsize>(chunk.size() * 4));
  }
  std::ofstream(folder / "config.json")
      << R"({"architectures": ["GPT2LMHeadModel"], "n_embd": 768, "n_layer": 12, "n_head": 12,
 "n_positions": 1024, "vocab_size": 50257, "layer_norm_epsilon": 1e-5, "activation_function": "gelu_new"})";
  // A byte-level vocabulary of the 256 bytes (no merges): one token per byte of the text.
  std::string vocab_json = "{";
  for (int b = 0; b < 256; ++b) {
    std::string token = tokenizers::encode_utf8(tokenizers::byte_to_unicode()[static_cast<std::size_t>(b)]);
    if (token == "\"" || token == "\\") token = "\\" + token;
    vocab_json += "\"" + token + "\":" + std::to_string(b) + (b < 255 ? "," : "}");
  }
  std::ofstream(folder / "vocab.json") << vocab_json;
  std::ofstream(folder / "merges.txt") << "#version: 0.2\n";
}

// --- TinyLlama 1.1B's shape as Q8_0 GGUF -----------------------------------------------------

struct GgufTensor {
  std::string name;
  std::vector<std::uint64_t> shape;  // outermost first
  bool quantised;
};

void write_tinyllama_q8_0(const fs::path& path) {
  const std::uint64_t d = 2048, ff = 5632, vocab = 32000, layers = 22, heads = 32, kv_heads = 4, head_dim = 64;
  std::vector<GgufTensor> tensors = {
      {"token_embd.weight", {vocab, d}, true}, {"output_norm.weight", {d}, false}, {"output.weight", {vocab, d}, true}};
  for (std::uint64_t l = 0; l < layers; ++l) {
    const std::string b = "blk." + std::to_string(l) + ".";
    tensors.insert(tensors.end(), {{b + "attn_norm.weight", {d}, false},
                                   {b + "attn_q.weight", {heads * head_dim, d}, true},
                                   {b + "attn_k.weight", {kv_heads * head_dim, d}, true},
                                   {b + "attn_v.weight", {kv_heads * head_dim, d}, true},
                                   {b + "attn_output.weight", {d, heads * head_dim}, true},
                                   {b + "ffn_norm.weight", {d}, false},
                                   {b + "ffn_gate.weight", {ff, d}, true},
                                   {b + "ffn_up.weight", {ff, d}, true},
                                   {b + "ffn_down.weight", {d, ff}, true}});
  }
  std::ofstream out(path, std::ios::binary);
  out.write("GGUF", 4);
  put<std::uint32_t>(out, 3);
  put<std::uint64_t>(out, tensors.size());
  put<std::uint64_t>(out, 17);  // metadata keys, as written below
  auto key_u32 = [&](const std::string& key, std::uint32_t value) {
    put_string(out, key);
    put<std::uint32_t>(out, 4);
    put<std::uint32_t>(out, value);
  };
  auto key_f32 = [&](const std::string& key, float value) {
    put_string(out, key);
    put<std::uint32_t>(out, 6);
    put<float>(out, value);
  };
  put_string(out, "general.architecture");
  put<std::uint32_t>(out, 8);
  put_string(out, "llama");
  key_u32("llama.context_length", 2048);
  key_u32("llama.embedding_length", d);
  key_u32("llama.block_count", layers);
  key_u32("llama.feed_forward_length", ff);
  key_u32("llama.rope.dimension_count", head_dim);
  key_u32("llama.attention.head_count", heads);
  key_u32("llama.attention.head_count_kv", kv_heads);
  key_f32("llama.attention.layer_norm_rms_epsilon", 1e-5f);
  key_f32("llama.rope.freq_base", 10000.0f);
  put_string(out, "tokenizer.ggml.model");
  put<std::uint32_t>(out, 8);
  put_string(out, "llama");
  // 32000 tokens: the specials, the 256 byte tokens, ▁ and the ASCII letters, then filler.
  std::vector<std::string> tokens = {"<unk>", "<s>", "</s>"};
  for (int b = 0; b < 256; ++b) {
    char name[8];
    std::snprintf(name, sizeof name, "<0x%02X>", b);
    tokens.emplace_back(name);
  }
  tokens.emplace_back("\u2581");
  for (char c = 'a'; c <= 'z'; ++c) tokens.emplace_back(1, c);
  while (tokens.size() < vocab) tokens.push_back("filler" + std::to_string(tokens.size()));
  put_string(out, "tokenizer.ggml.tokens");
  put<std::uint32_t>(out, 9);
  put<std::uint32_t>(out, 8);
  put<std::uint64_t>(out, tokens.size());
  for (const std::string& t : tokens) put_string(out, t);
  put_string(out, "tokenizer.ggml.scores");
  put<std::uint32_t>(out, 9);
  put<std::uint32_t>(out, 6);
  put<std::uint64_t>(out, tokens.size());
  for (std::size_t i = 0; i < tokens.size(); ++i) put<float>(out, -static_cast<float>(i));
  put_string(out, "tokenizer.ggml.token_type");
  put<std::uint32_t>(out, 9);
  put<std::uint32_t>(out, 5);
  put<std::uint64_t>(out, tokens.size());
  for (std::size_t i = 0; i < tokens.size(); ++i) put<std::int32_t>(out, i == 0 ? 2 : i < 3 ? 3 : i < 259 ? 6 : 1);
  key_u32("tokenizer.ggml.bos_token_id", 1);
  key_u32("tokenizer.ggml.eos_token_id", 2);
  key_u32("tokenizer.ggml.unknown_token_id", 0);
  std::uint64_t offset = 0;
  auto bytes_of = [](const GgufTensor& t) {
    std::uint64_t n = 1;
    for (const auto dim : t.shape) n *= dim;
    return t.quantised ? n / 32 * 34 : n * 4;
  };
  for (const GgufTensor& t : tensors) {
    put_string(out, t.name);
    put<std::uint32_t>(out, static_cast<std::uint32_t>(t.shape.size()));
    for (auto it = t.shape.rbegin(); it != t.shape.rend(); ++it) put<std::uint64_t>(out, *it);
    put<std::uint32_t>(out, t.quantised ? 8 : 0);
    put<std::uint64_t>(out, offset);
    offset += (bytes_of(t) + 31) / 32 * 32;
  }
  const auto position = static_cast<std::uint64_t>(out.tellp());
  out.write("\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0",
            static_cast<std::streamsize>((32 - position % 32) % 32));
  Random random{1100};
  std::vector<char> chunk;
  for (const GgufTensor& t : tensors) {
    const std::uint64_t bytes = bytes_of(t);
    chunk.assign((bytes + 31) / 32 * 32, 0);
    if (t.quantised) {
      const std::uint16_t scale = 0x1800;  // 0.00195 in half precision: weights within ±0.25
      for (std::uint64_t block = 0; block < bytes / 34; ++block) {
        char* p = chunk.data() + block * 34;
        std::memcpy(p, &scale, 2);
        for (int j = 0; j < 32; j += 8) {
          const std::uint64_t r = random.next();
          std::memcpy(p + 2 + j, &r, 8);
        }
      }
    } else {
      for (std::uint64_t i = 0; i < bytes / 4; ++i) {
        const float one = 1.0f;
        std::memcpy(chunk.data() + i * 4, &one, 4);
      }
    }
    out.write(chunk.data(), static_cast<std::streamsize>(chunk.size()));
  }
}

// --- measuring -------------------------------------------------------------------------------

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

long peak_rss_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

struct GenerationTime {
  int tokens = 0;             // generated (fewer than asked when the model chose end of text)
  double seconds = 0.0;       // the prompt's prefill and every generated token
  double ms_per_token = 0.0;  // each token after the first, through the KV cache
};

// Greedy generation after `prompt` with every layer's attention kept, as the window's Decode
// view runs it: once for one token (the prompt's prefill and the first token), once for
// `count`; the difference is what each further token costs.
GenerationTime time_generation(const model::Model& model, const tokenizers::Encoding& prompt, int count) {
  model::GenerateOptions options;
  options.max_new_tokens = 1;
  auto start = Clock::now();
  (void)model::Generator(model).run(prompt, options);
  const double first = seconds_since(start);
  options.max_new_tokens = count;
  start = Clock::now();
  const model::Generation g = model::Generator(model).run(prompt, options);
  GenerationTime time;
  time.seconds = seconds_since(start);
  time.tokens = static_cast<int>(g.steps.size());
  time.ms_per_token = time.tokens > 1 ? (time.seconds - first) * 1e3 / (time.tokens - 1) : 0.0;
  return time;
}

// One model in this process: open, the forward passes, then generation. Prints one table row.
int measure(const std::string& label, const std::string& path, int tokens, int generated, int runs) {
  const auto start = Clock::now();
  const double start_cpu = cpu_seconds();
  const auto model = model::Model::open(path);
  const double open_s = seconds_since(start);
  const double open_cpu = cpu_seconds() - start_cpu;
  std::string text;
  for (int i = 0; static_cast<int>(model->tokenizer().encode(text, "--text").ids.size()) < tokens; ++i)
    text += static_cast<char>('a' + i % 26);
  const tokenizers::Encoding encoding = model->tokenizer().encode(text, "--text");
  const auto backend = make_cpu_backend();
  model::ForwardPass pass(*model, *backend);
  double best = 1e9;
  double best_cpu = 1e9;
  for (int r = 0; r < runs; ++r) {
    const auto t = Clock::now();
    const double c = cpu_seconds();
    (void)pass.run(encoding, {});
    best = std::min(best, seconds_since(t));
    best_cpu = std::min(best_cpu, cpu_seconds() - c);
  }
  const GenerationTime generation = time_generation(*model, encoding, generated);
  const double float32_gib = static_cast<double>(model->float32_bytes()) / (1 << 30);
  const double rss_gib = static_cast<double>(peak_rss_kib()) / (1 << 20);
  std::printf(
      "| %s | %.2f B | %.2f s (%.2f) | %zu | %.2f s (%.2f) | %d: %.2f s, %.0f ms each | %.2f GiB | %.2f GiB | %.2f× |\n",
      label.c_str(), static_cast<double>(model->parameter_count()) / 1e9, open_s, open_cpu, encoding.ids.size(), best,
      best_cpu, generation.tokens, generation.seconds, generation.ms_per_token, float32_gib, rss_gib,
      rss_gib / float32_gib);
  return 0;
}

}  // namespace
}  // namespace attnviz::bench

int main(int argc, char** argv) {
  using namespace attnviz::bench;
  std::string dir = "/tmp/attnviz-bench-models";
  int tokens = 64;
  int generated = 32;
  int runs = 3;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--dir")
      dir = argv[i + 1];
    else if (flag == "--tokens")
      tokens = std::atoi(argv[i + 1]);
    else if (flag == "--runs")
      runs = std::max(1, std::atoi(argv[i + 1]));
    else if (flag == "--generate")
      generated = std::clamp(std::atoi(argv[i + 1]), 2, attnviz::model::kMaxGeneratedTokens);
    else if (flag == "--measure" && i + 3 < argc)
      return measure(argv[i + 1], argv[i + 2], std::atoi(argv[i + 3]), generated, runs);
  }
  const fs::path gpt2 = fs::path(dir) / "gpt2-small";
  const fs::path llama = fs::path(dir) / "tinyllama-q8_0.gguf";
  if (!fs::exists(gpt2 / "vocab.json")) {
    std::fprintf(stderr, "writing %s (GPT-2 small's shape, float32 safetensors)...\n", gpt2.c_str());
    write_gpt2_small(gpt2);
  }
  if (!fs::exists(llama)) {
    std::fprintf(stderr, "writing %s (TinyLlama 1.1B's shape, Q8_0 GGUF)...\n", llama.c_str());
    write_tinyllama_q8_0(llama);
  }
  double load[3] = {0, 0, 0};
  getloadavg(load, 3);
  std::printf(
      "%d tokens, every layer's attention kept; open with the file in the page cache; %d processors, load average %.1f;\n"
      "times are wall clock (processor seconds of all threads in parentheses); forward: the best of %d\n\n",
      tokens, static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN)), load[0], runs);
  std::printf(
      "| model | parameters | open | tokens | forward | generated after them | float32 size | peak RSS | RSS / float32 |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|\n");
  std::fflush(stdout);
  const std::string self = fs::read_symlink("/proc/self/exe").string();
  for (const auto& [label, path] : {std::pair<std::string, fs::path>{"GPT-2 small shape, F32 safetensors", gpt2},
                                    {"TinyLlama 1.1B shape, Q8_0 GGUF", llama}}) {
    const std::string command = "'" + self + "' --runs " + std::to_string(runs) + " --generate " +
                                std::to_string(generated) + " --measure '" + label + "' '" + path.string() + "' " +
                                std::to_string(tokens);
    if (std::system(command.c_str()) != 0) std::fprintf(stderr, "measuring %s failed\n", label.c_str());
  }
  return 0;
}
