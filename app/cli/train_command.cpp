// attnviz train: trains a small GPT-2 on the CPU (an induction task or a text) and writes model
// folders every other view opens (docs/design.md "Training"; core/train).

#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "app/cli/args.h"
#include "app/cli/commands.h"
#include "core/common/error.h"
#include "core/train/trainer.h"

namespace attnviz::cli {
namespace {

constexpr const char* kHelp =
    "Usage: attnviz train --task induction|text [--text-file F] [--init DIR] --out DIR\n"
    "                     [--layers L] [--heads H] [--d-model D] [--context T] [--vocab V]\n"
    "                     [--steps S] [--batch B] [--lr X] [--optimizer adamw|sgd] [--weight-decay W]\n"
    "                     [--seed N] [--sampling random|sequential] [--checkpoints K] [--threads N]\n"
    "       attnviz train --resume DIR [--steps S] [--threads N]\n"
    "\n"
    "Trains a small GPT-2 (pre-LN blocks, learned positions, GELU MLP of 4·D, tied unembedding;\n"
    "float32, on every CPU core) from a fresh initialisation (or from --init DIR) and writes DIR as a\n"
    "GPT-2 model folder\n"
    "that compute, export, generate and the window open: config.json, model.safetensors, vocab.json +\n"
    "merges.txt (byte-level: one token per byte), task.json; training.jsonl, one line per step\n"
    "{\"step\", \"loss\", \"seconds\"[, \"repeat_loss\"]}; with --checkpoints K also DIR/checkpoints/step-N\n"
    "for N = 0, K, 2K, ... Every file is replaced atomically. A progress line goes to standard error;\n"
    "Ctrl+C stops after saving (exit 130) and --resume DIR continues.\n"
    "\n"
    "Tasks:\n"
    "  induction   sequences of T+1 tokens drawn from V readable byte tokens (a-z, A-Z, 0-9, ...),\n"
    "              each with one repeat of k in [4, T/2] tokens: an induction head has to form to\n"
    "              copy it; repeat_loss is the loss on the copyable tokens only\n"
    "  text        the next byte of --text-file (any UTF-8, Korean included); with --init DIR the\n"
    "              next token under DIR's own tokenizer\n"
    "\n"
    "Options:\n"
    "  --task induction|text  what to learn (required unless --resume)\n"
    "  --text-file F          the text for --task text\n"
    "  --out DIR              where the model folder goes (created)\n"
    "  --layers L             transformer blocks (default 2)\n"
    "  --heads H              attention heads per block (default 4)\n"
    "  --d-model D            the residual width, a multiple of H (default 64)\n"
    "  --context T            tokens per sequence and the position table's length (default 32)\n"
    "  --vocab V              induction: how many readable tokens the task draws from, 2-94 (default 64)\n"
    "  --steps S              optimisation steps (default 1000; 0 writes the initial model)\n"
    "  --batch B              sequences per step (default 32)\n"
    "  --lr X                 the learning rate (default 0.003 for adamw, 0.1 for sgd)\n"
    "  --optimizer adamw|sgd  adamw: clipped to norm 1, warmed up over min(100, S/10) steps, decay on\n"
    "                         matrices; sgd: W <- W - lr*grad and nothing else (default adamw)\n"
    "  --weight-decay W       AdamW's decoupled weight decay (default 0)\n"
    "  --seed N               the initialisation's and the data's seed (default 1)\n"
    "  --sampling random|sequential  text: windows at random, or sequence i of step s at (s*B+i)*T\n"
    "  --checkpoints K        also save DIR/checkpoints/step-N every K steps\n"
    "  --threads N            CPU threads (default: every core)\n"
    "  --resume DIR           continue the training saved in DIR, with its options\n"
    "  --init DIR             --task text: go on from the GPT-2 model folder DIR (its weights, shape and\n"
    "                         tokenizer, which every folder written copies) instead of a fresh model\n"
    "\n"
    "Exit codes: 0 success, 2 bad input (the message names the option or file; a loss that is not\n"
    "finite names the step and keeps the last saved model), 130 stopped by Ctrl+C, 1 other errors.\n";

const std::vector<OptionSpec> kOptions = {{"--task"},        {"--text-file"},    {"--init"},    {"--out"},
                                          {"--layers"},      {"--heads"},        {"--d-model"}, {"--context"},
                                          {"--vocab"},       {"--steps"},        {"--batch"},   {"--lr"},
                                          {"--optimizer"},   {"--weight-decay"}, {"--seed"},    {"--sampling"},
                                          {"--checkpoints"}, {"--threads"},      {"--resume"},  {"--help", false}};

constexpr const char* kOrigin = "<command line>";
std::atomic<bool> g_stop_requested{false};

extern "C" void request_stop(int /*signal*/) { g_stop_requested.store(true); }

// Installs the Ctrl+C handler for its lifetime: the trainer stops after the step it is taking.
class StopOnInterrupt {
 public:
  StopOnInterrupt() : previous_(std::signal(SIGINT, request_stop)) { g_stop_requested.store(false); }
  ~StopOnInterrupt() { std::signal(SIGINT, previous_); }
  StopOnInterrupt(const StopOnInterrupt&) = delete;
  StopOnInterrupt& operator=(const StopOnInterrupt&) = delete;

 private:
  void (*previous_)(int);
};

float get_positive_float(const ParsedArgs& parsed, const std::string& name, float fallback, bool zero_allowed) {
  const std::optional<std::string> text = parsed.get(name);
  if (!text) return fallback;
  char* end = nullptr;
  const double value = std::strtod(text->c_str(), &end);
  if (text->empty() || *end != '\0' || !std::isfinite(value) || value < 0 || (value == 0 && !zero_allowed) ||
      value > 1e6) {
    throw InputError(
        kOrigin, name,
        std::string("expected a ") + (zero_allowed ? "non-negative" : "positive") + " number, got \"" + *text + "\"");
  }
  return static_cast<float>(value);
}

// --init takes its shape from the folder: the options that would set another are refused.
void check_init_options(const ParsedArgs& parsed, const std::string& task) {
  if (!parsed.has("--init")) return;
  if (task != "text") throw InputError(kOrigin, "--init", "continues a model on a text: it needs --task text");
  for (const char* name : {"--layers", "--heads", "--d-model"}) {
    if (parsed.has(name))
      throw InputError(kOrigin, name, "the shape comes from the --init folder's config.json: leave it out");
  }
}

train::TrainOptions fresh_options(const ParsedArgs& parsed) {
  train::TrainOptions o;
  const std::optional<std::string> task = parsed.get("--task");
  if (!task) throw InputError(kOrigin, "--task", "is required: induction or text");
  require_choice("--task", *task, {"induction", "text"});
  o.task = *task;
  if (o.task == "text" && !parsed.has("--text-file"))
    throw InputError(kOrigin, "--text-file", "is required with --task text");
  if (o.task == "induction" && parsed.has("--text-file"))
    throw InputError(kOrigin, "--text-file", "is for --task text only");
  if (o.task == "text" && parsed.has("--vocab")) {
    throw InputError(kOrigin, "--vocab", "is for --task induction only (a text's tokens are its 256 bytes)");
  }
  check_init_options(parsed, o.task);
  o.init = parsed.get_or("--init", "");
  o.text_file = parsed.get_or("--text-file", "");
  const std::optional<std::string> out = parsed.get("--out");
  if (!out) throw InputError(kOrigin, "--out", "is required: the folder to write the model to");
  o.out = *out;
  o.shape.layers = parsed.get_int("--layers", 1, 48).value_or(2);
  o.shape.heads = parsed.get_int("--heads", 1, 64).value_or(4);
  o.shape.d_model = parsed.get_int("--d-model", 1, 4096).value_or(64);
  if (o.shape.d_model % o.shape.heads != 0) {
    throw InputError(
        kOrigin, "--d-model",
        std::to_string(o.shape.d_model) + " is not a multiple of --heads " + std::to_string(o.shape.heads));
  }
  o.shape.positions = parsed.get_int("--context", 2, 4096).value_or(32);  // --init: the folder's table holds it
  o.context = o.shape.positions;
  o.shape.vocab = 256;
  o.task_vocab = parsed.get_int("--vocab", 1, 100000).value_or(64);
  o.steps = parsed.get_int("--steps", 0, 100000000).value_or(1000);
  o.batch = parsed.get_int("--batch", 1, 4096).value_or(32);
  const std::string optimizer = parsed.get_or("--optimizer", "adamw");
  require_choice("--optimizer", optimizer, {"adamw", "sgd"});
  o.optimizer.kind = optimizer == "sgd" ? train::OptimizerKind::Sgd : train::OptimizerKind::AdamW;
  o.optimizer.learning_rate = get_positive_float(parsed, "--lr", optimizer == "sgd" ? 0.1f : 3e-3f, false);
  o.optimizer.weight_decay = get_positive_float(parsed, "--weight-decay", 0.0f, true);
  if (o.optimizer.kind == train::OptimizerKind::Sgd && parsed.has("--weight-decay")) {
    throw InputError(kOrigin, "--weight-decay", "is for --optimizer adamw (sgd is W <- W - lr*grad, nothing else)");
  }
  o.optimizer.warmup_steps = static_cast<int>(std::min<long>(100, o.steps / 10));
  o.seed = static_cast<std::uint64_t>(parsed.get_int("--seed", 0, 2147483647).value_or(1));
  const std::string sampling = parsed.get_or("--sampling", "random");
  require_choice("--sampling", sampling, {"random", "sequential"});
  o.sampling = sampling == "sequential" ? train::Sampling::Sequential : train::Sampling::Random;
  o.checkpoint_every = parsed.get_int("--checkpoints", 1, 100000000).value_or(0);
  return o;
}

std::string duration_text(double seconds) {
  const long s = std::lround(std::max(0.0, seconds));
  std::ostringstream out;
  if (s >= 60)
    out << s / 60 << "m" << (s % 60 < 10 ? "0" : "") << s % 60 << "s";
  else
    out << s << "s";
  return out.str();
}

// A progress line every second or so: step, loss (repeat loss), tokens/s, time left.
train::ProgressCallback progress_printer(std::ostream& err) {
  auto last = std::make_shared<std::chrono::steady_clock::time_point>();
  return [&err, last](const train::StepReport& r) {
    const auto now = std::chrono::steady_clock::now();
    if (r.step != r.steps && now - *last < std::chrono::seconds(1)) return;
    *last = now;
    char line[200];
    std::snprintf(line, sizeof line, "step %ld/%ld  loss %.4f", r.step, r.steps, r.loss);
    err << line;
    if (r.repeat_loss) {
      std::snprintf(line, sizeof line, "  repeat loss %.4f", *r.repeat_loss);
      err << line;
    }
    const double per_step = r.seconds / static_cast<double>(r.step);
    std::snprintf(line, sizeof line, "  %.0f tokens/s  %s left", r.tokens_per_second,
                  duration_text(per_step * static_cast<double>(r.steps - r.step)).c_str());
    err << line << "\n" << std::flush;
  };
}

}  // namespace

int run_train_command(const Args& args, std::ostream& out, std::ostream& err) {
  const ParsedArgs parsed = parse_args(args, kOptions, "attnviz train");
  if (parsed.has("--help")) {
    out << kHelp;
    return 0;
  }
  if (!parsed.positionals().empty()) {
    throw InputError(kOrigin, parsed.positionals().front(), "unexpected argument (see attnviz train --help)");
  }
  const int threads = parsed.get_int("--threads", 1, 1024).value_or(0);
  StopOnInterrupt interrupt;
  train::TrainResult result;
  std::string folder;
  if (const std::optional<std::string> resume = parsed.get("--resume")) {
    for (const OptionSpec& option : kOptions) {
      if (option.name != "--resume" && option.name != "--steps" && option.name != "--threads" &&
          parsed.has(option.name)) {
        throw InputError(kOrigin, option.name,
                         "--resume continues with the saved options: give only --steps or --threads");
      }
    }
    folder = *resume;
    std::optional<long> steps;
    if (const auto s = parsed.get_int("--steps", 0, 100000000)) steps = *s;
    result = train::resume(folder, steps, threads, progress_printer(err), &g_stop_requested);
  } else {
    train::TrainOptions options = fresh_options(parsed);
    options.threads = threads;
    folder = options.out.string();
    result = train::train(options, progress_printer(err), &g_stop_requested);
  }
  nlohmann::json summary = {{"out", folder},
                            {"steps", result.steps_done},
                            {"loss", result.last_loss},
                            {"seconds", result.seconds},
                            {"stopped", result.stopped}};
  if (result.last_repeat_loss) summary["repeat_loss"] = *result.last_repeat_loss;
  out << summary.dump() << "\n";
  if (result.stopped) {
    err << "stopped at step " << result.steps_done << "; saved to " << folder << " (attnviz train --resume " << folder
        << " continues)\n";
    return 130;
  }
  return 0;
}

}  // namespace attnviz::cli
