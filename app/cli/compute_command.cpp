// attnviz compute: a scenario in, the attnviz-result/1 JSON out (docs/design.md).

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <iomanip>
#include <optional>
#include <ostream>
#include <stdexcept>

#include "app/cli/args.h"
#include "app/cli/backend_choice.h"
#include "app/cli/commands.h"
#include "app/cli/model_options.h"
#include "app/cli/output_size.h"
#include "app/cli/text_input.h"
#include "core/attention/compare.h"
#include "core/attention/mask.h"
#include "core/attention/result_json.h"
#include "core/common/atomic_file.h"
#include "core/common/error.h"
#include "core/export/result_arrays.h"
#include "core/scenario/problem.h"
#include "core/scenario/scenario_json.h"
#include "core/tiled/tiled_attention.h"

namespace attnviz::cli {
namespace {

constexpr const char* kOrigin = "<command line>";

constexpr const char* kHelpStart =
    "Usage: attnviz compute --scenario FILE [options]\n"
    "       attnviz compute --model PATH (--text TEXT | --text-file FILE) [--layers all|0,3] [options]\n"
    "\n"
    "Computes attention for a scenario, or a pretrained model's every layer on a text, and\n"
    "writes the attnviz-result/1 JSON (a model's: \"layers\" with each layer's heads, and\n"
    "\"next_tokens\", the ten likeliest next tokens after the text, best first).\n"
    "\n"
    "Options:\n"
    "  --scenario FILE        a scenario file, or preset:NAME for a bundled preset\n";
// Between them: --text-file (app/cli/text_input.h).
constexpr const char* kHelp =
    "  --backend KIND         cpu (Eigen, the default), vulkan, or both (runs both, writes the\n"
    "                         Vulkan result and prints the largest differences per matrix)\n"
    "  --out FILE             write the JSON to FILE instead of standard output (a file is\n"
    "                         replaced whole or not at all; a device or FIFO is written to)\n"
    "  --device N             the Vulkan device to use (see attnviz devices; or ATTNVIZ_DEVICE)\n"
    "  --skip-masked-scores   do not compute raw scores the mask hides (they read as 0): faster\n"
    "                         for long causal or windowed sequences\n"
    "  --kernel KIND          dense (the default: every N x M matrix computed and kept) or tiled\n"
    "                         (FlashAttention-2: a tile of scores at a time, never the whole\n"
    "                         matrix; each head's scores and weights are then empty lists)\n"
    "  --block-q BR           with --kernel tiled: query rows per tile (default 64 on the CPU,\n"
    "                         the largest that fits the device's shared memory with Vulkan)\n"
    "  --block-k BC           with --kernel tiled: keys per tile (default as --block-q)\n"
    "  --precision P          with --kernel tiled --backend vulkan: fp32 (the default) or fp16,\n"
    "                         the products on the GPU's fp16 cooperative matrices (tensor cores):\n"
    "                         Q, K, V and the weights rounded to fp16, sums in fp32; blocks are\n"
    "                         multiples of 16 (exit 3 where the device has no such matrices)\n"
    "  --blocks B             add each head's block sparsity: every B x B tile of its mask empty\n"
    "                         (0), partial (1) or full (2), and how many of each (\"blocks\"; JSON\n"
    "                         only)\n"
    "  --format FORMAT        json (the default: the attnviz-result/1 file) or npy (a folder of\n"
    "                         NPY arrays and a result.json that names them; needs --out DIR)\n"
    "  --heads LIST           all (default) or head numbers, e.g. 0,2: only these heads' matrices\n"
    "                         are written (all heads are computed: the output needs them)\n"
    "  --max-output SIZE      the most the output may take, e.g. 500M, 4G or none (default 1G);\n"
    "                         a larger result is refused before anything is computed, with its\n"
    "                         size and what would be smaller\n"
    "\n"
    "With a pretrained model:\n"
    "  --model PATH           a Hugging Face folder (config.json, model.safetensors or its shards\n"
    "                         and the tokenizer files) of GPT-2, Llama, Mistral, Qwen2 or BERT,\n"
    "                         or a .gguf file (llama or gpt2; F32, F16, BF16, Q8_0, Q4_0, Q4_K,\n"
    "                         Q6_K): computed in float32, the weights dequantised once\n"
    "  --text TEXT            the text, through the model's own tokenizer (or --text-file FILE:\n"
    "                         the file's content)\n"
    "  --layers LIST          all (default) or the layers whose attention to write, e.g. 0,3\n"
    "  --query P              also the top tokens predicted at token P (BERT: the first [MASK]\n"
    "                         unless given), as \"query_tokens\"\n"
    "  --top K                how many next tokens (default 10)\n"
    "  --head-scale LIST      switch heads off or scale them: LAYER:HEAD (off) or\n"
    "                         LAYER:HEAD=FACTOR, comma-separated; their context is multiplied\n"
    "                         before W_O and every later layer changes\n"
    "  --memory-limit SIZE    refuse a model whose float32 weights need more (e.g. 8G; default:\n"
    "                         the memory available)\n"
    "  --backend both         computes each layer's attention on both backends and prints the\n"
    "                         largest difference per layer\n"
    "\n"
    "Exit codes: 0 success, 2 bad input, 3 backend unavailable, 1 other errors.\n";

const std::vector<OptionSpec> kOptions = {
    {"--scenario"},    {"--backend"}, {"--out"},     {"--device"},     {"--skip-masked-scores", false},
    {"--help", false}, {"--kernel"},  {"--block-q"}, {"--block-k"},    {"--precision"},
    {"--text-file"},   {"--format"},  {"--heads"},   {"--max-output"}, {"--blocks"}};

// The scenario's options and, for --model, the model's (model_options.h).
std::vector<OptionSpec> all_options() {
  std::vector<OptionSpec> options = kOptions;
  options.insert(options.end(), model_option_specs().begin(), model_option_specs().end());
  return options;
}

void print_differences(const std::vector<MatrixDifference>& diffs, std::ostream& err) {
  err << "largest differences, vulkan - cpu:\n";
  err << "  " << std::left << std::setw(18) << "matrix" << std::right << std::setw(12) << "max abs" << std::setw(12)
      << "max rel" << std::setw(12) << "largest"
      << "   at (row, col)\n";
  const MatrixDifference* worst = nullptr;
  for (const MatrixDifference& diff : diffs) {
    err << "  " << std::left << std::setw(18) << diff.name << std::right << std::scientific << std::setprecision(2)
        << std::setw(12) << diff.max_abs << std::setw(12) << diff.max_rel << std::setw(12) << diff.largest
        << std::defaultfloat << "   (" << diff.row << ", " << diff.col << ")" << (diff.agrees() ? "" : "   DIFFERS")
        << "\n";
    if (!worst || diff.max_abs > worst->max_abs) worst = &diff;
  }
  if (!worst) return;
  err << "  overall: "
      << (results_agree(diffs) ? "every matrix agrees (within 1e-5)" : "ABOVE 1e-5 in the matrices marked DIFFERS")
      << "; the largest absolute difference is " << std::scientific << std::setprecision(2) << worst->max_abs << " in "
      << worst->name << ", whose values reach " << worst->largest << std::defaultfloat << "\n";
  err << "  (agreement: within 1e-5 absolute where values stay within ±1, relative to the matrix's largest value beyond)\n";
}

// Where the result goes: --out, opened before anything is computed (a bad path is bad input,
// exit 2, at once), or standard output. The JSON is streamed: no copy of it is held.
class Output {
 public:
  Output(const std::optional<std::string>& path, std::ostream& out) : out_(out) {
    if (path) guarded([&] { file_.emplace(*path); });
  }

  void write(const Result& result, const std::vector<int>* heads) {
    guarded([&] {
      write_result_json(
          result,
          [this](std::string_view piece) {
            if (file_)
              file_->write(piece);
            else
              out_.write(piece.data(), static_cast<std::streamsize>(piece.size()));
          },
          heads);
      if (file_) file_->commit();
    });
    if (!file_ && !out_.flush()) throw std::runtime_error("cannot write the result to standard output");
  }

 private:
  // A path that cannot be written (a missing folder, a folder, no permission) is the user's
  // input: InputError naming --out; a full disk stays an error of its own (exit 1).
  template <typename Action>
  static void guarded(const Action& action) {
    try {
      action();
    } catch (const FileWriteError& error) {
      if (error.path_problem()) throw InputError("<command line>", "--out", error.what());
      throw;
    }
  }

  std::ostream& out_;
  std::optional<AtomicFileWriter> file_;
};

// --format npy: a folder of arrays (core/export/result_arrays.h), checked before computing.
class ArraysOutput {
 public:
  explicit ArraysOutput(const std::optional<std::string>& path) {
    if (!path || path->empty())
      throw InputError(kOrigin, "--out", "is required with --format npy (a folder for the arrays)");
    std::error_code error;
    if (std::filesystem::exists(*path, error) && !std::filesystem::is_directory(*path, error)) {
      throw InputError(kOrigin, "--out", "'" + *path + "' is a file; --format npy writes a folder of arrays");
    }
    dir_ = *path;
  }

  void write(const Result& result, const std::vector<int>& heads, std::ostream& out) const {
    try {
      for (const auto& path : exporting::write_result_arrays(result, heads, dir_)) out << path.string() << "\n";
    } catch (const FileWriteError& error) {
      if (error.path_problem()) throw InputError(kOrigin, "--out", error.what());
      throw;
    }
  }

 private:
  std::filesystem::path dir_;
};

std::vector<int> parse_heads(const std::string& text, int count) {
  std::vector<int> heads;
  if (text == "all") {
    for (int h = 0; h < count; ++h) heads.push_back(h);
    return heads;
  }
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(',', start), text.size());
    const std::string part = text.substr(start, end - start);
    int head = -1;
    const auto [stop, error] = std::from_chars(part.data(), part.data() + part.size(), head);
    if (part.empty() || error != std::errc() || stop != part.data() + part.size() || head < 0) {
      throw InputError(kOrigin, "--heads", "\"" + part + "\" is not a head number: use all or a list like 0,2");
    }
    if (head >= count) {
      throw InputError(kOrigin, "--heads", missing_head_message(head, count));
    }
    if (std::find(heads.begin(), heads.end(), head) != heads.end()) {
      throw InputError(kOrigin, "--heads", "head " + std::to_string(head) + " is listed twice");
    }
    heads.push_back(head);
    start = end + 1;
  }
  return heads;
}

// Refuses, before anything is computed, an output larger than --max-output (1 GiB unless
// given), saying how large it would be and what would be smaller.
void check_output_size(const ParsedArgs& parsed, const Problem& problem, const std::string& format,
                       const OutputPlan& plan) {
  const std::optional<std::uint64_t> limit =
      parsed.has("--max-output") ? parse_max_output(*parsed.get("--max-output")) : std::optional(kDefaultMaxOutput);
  const bool json = format == "json";
  const std::uint64_t bytes = json ? estimated_json_bytes(problem, plan) : npy_bytes(problem, plan);
  if (!limit || bytes <= *limit) return;
  std::string message = "the result would be " + std::string(json ? "about " : "") + size_text(bytes) +
                        (json ? " of JSON" : " of NPY arrays") + " (" + std::to_string(plan.heads) +
                        (plan.heads == 1 ? " head" : " heads") +
                        (plan.matrices ? " of " + std::to_string(problem.n()) + " × " + std::to_string(problem.m()) +
                                             " scores and weights"
                                       : "") +
                        "), more than the " + size_text(*limit) + " written without asking.";
  if (json) message += " As NPY arrays it is " + size_text(npy_bytes(problem, plan)) + " (--format npy --out DIR).";
  if (plan.heads > 1) {
    const OutputPlan one{1, plan.matrices};
    message += " One head (--heads 0) is " + std::string(json ? "about " : "") +
               size_text(json ? estimated_json_bytes(problem, one) : npy_bytes(problem, one)) + ".";
  }
  const std::uint64_t gib = std::uint64_t{1} << 30;
  message += " To write it anyway: --max-output " + std::to_string((bytes + gib - 1) / gib) + "G (or none).";
  throw InputError(kOrigin, "--max-output", message);
}

// --precision: fp32 (the default) or fp16.
tiled::TiledPrecision precision_of(const ParsedArgs& parsed) {
  const std::string precision = parsed.get_or("--precision", "fp32");
  require_choice("--precision", precision, {"fp32", "fp16"});
  return precision == "fp16" ? tiled::TiledPrecision::Float16 : tiled::TiledPrecision::Float32;
}

void check_kernel_options(const ParsedArgs& parsed, const std::string& kernel, const std::string& backend) {
  for (const char* option : {"--block-q", "--block-k"}) {
    if (kernel != "tiled" && parsed.has(option)) throw InputError("<command line>", option, "needs --kernel tiled");
    (void)parsed.get_int(option, 1, 1 << 20);
  }
  if (precision_of(parsed) == tiled::TiledPrecision::Float16 && (kernel != "tiled" || backend != "vulkan")) {
    throw InputError("<command line>", "--precision",
                     "fp16 runs the tiled kernel on a GPU: use it with --kernel tiled --backend vulkan");
  }
  if (kernel == "tiled" && backend == "both") {
    throw InputError("<command line>", "--backend",
                     "both compares the dense kernels; with --kernel tiled choose cpu or vulkan");
  }
  if (kernel == "tiled" && parsed.has("--skip-masked-scores")) {
    throw InputError("<command line>", "--skip-masked-scores",
                     "applies to --kernel dense (the tiled kernel keeps no scores)");
  }
}

Result compute_tiled(const Problem& problem, const std::string& backend, std::optional<int> device,
                     const ParsedArgs& parsed) {
  const auto runner = make_tiled_runner(backend, device, precision_of(parsed));
  tiled::TiledOptions options;
  options.block_q = parsed.get_int("--block-q", 1, 1 << 20).value_or(runner->preferred_block(problem.d_k, problem.d_v));
  options.block_k = parsed.get_int("--block-k", 1, 1 << 20).value_or(options.block_q);
  try {
    return tiled::as_result(problem, runner->run(problem, options));
  } catch (const std::invalid_argument& error) {
    throw InputError("<command line>", "--block-q", error.what());  // a tile too large for the device
  }
}

}  // namespace

int run_compute_command(const Args& args, std::ostream& out, std::ostream& err) {
  const ParsedArgs parsed = parse_args(args, all_options(), "attnviz compute");
  if (parsed.has("--help")) {
    out << kHelpStart << text_file_help(25) << kHelp;
    return 0;
  }
  if (!parsed.positionals().empty()) {
    throw InputError("<command line>", parsed.positionals().front(),
                     "unexpected argument (see attnviz compute --help)");
  }
  if (parsed.has("--model")) return naming_the_text_file(parsed, [&] { return run_model_compute(parsed, out, err); });
  for (const OptionSpec& option : model_option_specs()) {
    if (parsed.has(option.name)) throw InputError("<command line>", option.name, "needs --model");
  }
  if (!parsed.has("--scenario") && !parsed.has("--text-file")) {
    throw InputError("<command line>", "--scenario",
                     "is required (a file or preset:NAME), or --text-file FILE, or --model PATH");
  }
  const std::string backend = parsed.get_or("--backend", "cpu");
  require_choice("--backend", backend, {"cpu", "vulkan", "both"});
  const std::optional<int> device = parsed.get_int("--device", 0, 1023);
  ComputeOptions options;
  options.scores_under_mask = !parsed.has("--skip-masked-scores");
  const std::string kernel = parsed.get_or("--kernel", "dense");
  require_choice("--kernel", kernel, {"dense", "tiled"});
  check_kernel_options(parsed, kernel, backend);

  const std::string format = parsed.get_or("--format", "json");
  require_choice("--format", format, {"json", "npy"});
  if (parsed.has("--max-output")) (void)parse_max_output(*parsed.get("--max-output"));
  const std::optional<int> blocks = parsed.get_int("--blocks", 1, 1 << 20);
  if (blocks && format != "json")
    throw InputError(kOrigin, "--blocks", "is written into the JSON result: use it with --format json");

  const CommandScenario loaded = load_command_scenario(parsed, err, ProblemLimits{}.max_tokens);
  const Problem problem = build_command_problem(loaded);
  const std::vector<int> heads = parse_heads(parsed.get_or("--heads", "all"), problem.num_heads);
  const bool some_heads = parsed.has("--heads") && parsed.get("--heads") != "all";
  check_output_size(parsed, problem, format, OutputPlan{static_cast<int>(heads.size()), kernel != "tiled"});
  std::optional<Output> json;
  std::optional<ArraysOutput> arrays;
  if (format == "json")
    json.emplace(parsed.get("--out"), out);
  else
    arrays.emplace(parsed.get("--out"));
  const auto write = [&](const Result& result) {
    if (json)
      json->write(result, some_heads ? &heads : nullptr);
    else
      arrays->write(result, heads, out);
  };
  // docs/design.md "Result additions": the tiles of each head's mask, from the same Mask the
  // backends computed under.
  auto with_blocks = [&](Result result) {
    if (blocks) add_block_counts(Mask(problem.mask, problem.n(), problem.m(), problem.num_heads), *blocks, result);
    return result;
  };

  if (kernel == "tiled") {
    write(with_blocks(compute_tiled(problem, backend, device, parsed)));
    return 0;
  }
  if (backend != "both") {
    write(with_blocks(make_backend(backend, device)->compute(problem, options)));
    return 0;
  }
  const Result reference = make_backend("cpu", device)->compute(problem, options);
  const Result result = with_blocks(make_backend("vulkan", device)->compute(problem, options));
  write(result);
  print_differences(compare_results(result, reference), err);
  return 0;
}

}  // namespace attnviz::cli
