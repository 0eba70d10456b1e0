#include "core/train/trainer.h"

#include <omp.h>

#include <Eigen/Core>
#include <chrono>
#include <cmath>
#include <memory>
#include <random>
#include <nlohmann/json.hpp>
#include <thread>

#include "core/common/atomic_file.h"
#include "core/common/error.h"
#include "core/common/input_file.h"
#include "core/train/checkpoint.h"
#include "core/model/model.h"
#include "core/train/gpt2.h"
#include "core/train/initial_model.h"

namespace attnviz::train {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* kStateFormat = "attnviz-training-state/1";
constexpr const char* kCommandLine = "<command line>";

json options_json(const TrainOptions& o) {
  return {{"task", o.task},
          {"text_file", o.text_file.string()},
          {"layers", o.shape.layers},
          {"heads", o.shape.heads},
          {"d_model", o.shape.d_model},
          {"context", o.sequence_length()},
          {"positions", o.shape.positions},
          {"model_vocab", o.shape.vocab},
          {"mlp_width", o.shape.d_ff()},
          {"init", o.init.string()},
          {"vocab", o.task_vocab},
          {"batch", o.batch},
          {"steps", o.steps},
          {"optimizer", o.optimizer.kind == OptimizerKind::Sgd ? "sgd" : "adamw"},
          {"lr", o.optimizer.learning_rate},
          {"weight_decay", o.optimizer.weight_decay},
          {"warmup_steps", o.optimizer.warmup_steps},
          {"seed", o.seed},
          {"sampling", o.sampling == Sampling::Sequential ? "sequential" : "random"},
          {"checkpoints", o.checkpoint_every}};
}

TrainOptions options_from_json(const json& j, const fs::path& out) {
  TrainOptions o;
  o.task = j.at("task").get<std::string>();
  o.text_file = j.at("text_file").get<std::string>();
  o.out = out;
  o.shape.layers = j.at("layers").get<int>();
  o.shape.heads = j.at("heads").get<int>();
  o.shape.d_model = j.at("d_model").get<int>();
  o.context = j.at("context").get<int>();
  o.shape.positions = j.value("positions", o.context);  // states saved before --init: the table was the context
  o.shape.vocab = j.value("model_vocab", 256);
  o.shape.mlp_width = j.value("mlp_width", 0);
  o.init = j.value("init", "");
  o.task_vocab = j.at("vocab").get<int>();
  o.batch = j.at("batch").get<int>();
  o.steps = j.at("steps").get<long>();
  o.optimizer.kind = j.at("optimizer").get<std::string>() == "sgd" ? OptimizerKind::Sgd : OptimizerKind::AdamW;
  o.optimizer.learning_rate = j.at("lr").get<float>();
  o.optimizer.weight_decay = j.at("weight_decay").get<float>();
  o.optimizer.warmup_steps = j.at("warmup_steps").get<int>();
  o.seed = j.at("seed").get<std::uint64_t>();
  o.sampling = j.at("sampling").get<std::string>() == "sequential" ? Sampling::Sequential : Sampling::Random;
  o.checkpoint_every = j.at("checkpoints").get<long>();
  return o;
}

void use_threads(int threads) {
  const int n = threads > 0 ? threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  omp_set_num_threads(n);
  Eigen::setNbThreads(n);
}

// The text's ids: its bytes (the byte-level tokenizer), or its tokens under the tokenizer of
// `tokenizer_folder` (a run from --init).
std::vector<std::int32_t> read_text_ids(const TrainOptions& o, const fs::path& tokenizer_folder) {
  const bool own_text = !o.text.empty();
  const std::string origin = own_text ? "<text>" : o.text_file.string();
  const std::string bytes = own_text ? o.text : read_input_file(o.text_file.string(), {.kind = "text file"});
  std::vector<std::int32_t> ids;
  if (!tokenizer_folder.empty()) {
    ids = encode_training_text(tokenizer_folder, bytes, origin);
  } else {
    ids.resize(bytes.size());
    for (std::size_t i = 0; i < bytes.size(); ++i) ids[i] = static_cast<unsigned char>(bytes[i]);
  }
  const int T = o.sequence_length();
  const std::size_t needed = static_cast<std::size_t>(o.batch) * static_cast<std::size_t>(T) + 1;
  if (ids.size() < needed) {
    const std::string has = tokenizer_folder.empty()
                                ? std::to_string(ids.size()) + " bytes (tokens)"
                                : std::to_string(bytes.size()) + " bytes, " + std::to_string(ids.size()) + " tokens";
    throw InputError(origin, "--text-file",
                     "has " + has + "; one batch of " + std::to_string(o.batch) + " × " + std::to_string(T) +
                         " needs at least " + std::to_string(needed) +
                         " tokens (give a longer text, or a smaller --batch or --context)");
  }
  return ids;
}

std::unique_ptr<Task> make_task(const TrainOptions& o, const std::vector<std::int32_t>& ids) {
  const int T = o.sequence_length();
  if (o.task == "induction") {
    if (T < 8)
      throw InputError(kCommandLine, "--context", "must be at least 8 for induction: a repeat of 4 tokens, twice");
    if (o.task_vocab < 2 || o.task_vocab > kReadableTokens) {
      throw InputError(kCommandLine, "--vocab",
                       "the induction task draws from 2 to " + std::to_string(kReadableTokens) +
                           " readable tokens (letters, digits, punctuation), not " + std::to_string(o.task_vocab));
    }
    return std::make_unique<InductionTask>(o.task_vocab, T, o.seed);
  }
  return std::make_unique<TextTask>(ids, o.sampling, o.seed);
}

// The weights, gradients, two Adam moments and one batch's activations and their gradients:
// refused by name before any is allocated when the system has less memory than that.
void check_training_memory(const TrainOptions& o) {
  const std::uint64_t parameters = parameter_count(o.shape);
  const std::uint64_t activations = Activations::floats_for(o.shape, o.batch, o.sequence_length());
  const std::uint64_t bytes = (4 * parameters + 2 * activations) * sizeof(float);
  const std::uint64_t available = model::available_memory_bytes();
  if (bytes > available) {
    throw InputError(kCommandLine, "--batch",
                     "training this model (" + model::parameter_count_text(parameters) + " parameters) on batches of " +
                         std::to_string(o.batch) + " × " + std::to_string(o.sequence_length()) + " needs " +
                         byte_size_text(bytes) + ", more than the " + byte_size_text(available) +
                         " available (a smaller --batch or --context needs less)");
  }
}

// options with --init's shape, and that folder's weights and tokenizer, checked.
std::optional<InitialModel> initial_model_of(TrainOptions& o) {
  if (o.init.empty()) return std::nullopt;
  if (o.task != "text") throw InputError(kCommandLine, "--init", "continues a model on a text: it needs --task text");
  InitialModel initial = read_initial_model(o.init, o.sequence_length());
  o.context = o.sequence_length();
  o.shape = initial.shape;
  return initial;
}

// One training run: the model, its optimiser and task, the log; fresh or resumed.
class Session {
 public:
  // `initial`: the --init folder's model (initial_model_of); a resumed run from --init has none and
  // takes the tokenizer its own folder holds.
  Session(const TrainOptions& o, std::optional<InitialModel> initial)
      : options_(o),
        initial_(std::move(initial)),
        tokenizer_folder_(initial_ ? o.init : (o.init.empty() ? fs::path() : o.out)),
        tokenizer_files_(initial_                    ? initial_->tokenizer_files
                         : tokenizer_folder_.empty() ? std::vector<fs::path>()
                                                     : tokenizer_files_in(tokenizer_folder_)),
        text_ids_(o.task == "text" ? read_text_ids(o, tokenizer_folder_) : std::vector<std::int32_t>()),
        task_(make_task(o, text_ids_)),
        model_(o.shape, o.batch, o.sequence_length()),
        optimizer_(o.optimizer, model_.layout()),
        batch_(o.batch, o.sequence_length()) {}

  void initialise(bool write) {
    if (initial_) {
      std::copy(initial_->parameters.begin(), initial_->parameters.end(), model_.parameters().begin());
      initial_.reset();  // the copy is the model's now
    } else {
      model_.initialise(options_.seed);
    }
    if (write) save(/*checkpoint=*/options_.checkpoint_every > 0);
  }

  void load(const fs::path& folder) {
    const json state =
        json::parse(read_input_file((folder / "training_state.json").string(), {.kind = "training state"}));
    step_ = state.at("step").get<long>();
    seconds_before_ = state.at("seconds").get<double>();
    task_->restore_random_state(state.at("random_state").get<std::string>());
    load_tensors(folder / "model.safetensors", "", model_.parameters());
    if (options_.optimizer.kind == OptimizerKind::AdamW) {
      load_tensors(folder / "optimizer.safetensors", "m.", optimizer_.first_moment());
      load_tensors(folder / "optimizer.safetensors", "v.", optimizer_.second_moment());
    }
    read_log(folder / "training.jsonl");
  }

  // One step for a caller that steps one at a time (Trainer): the clock runs from the first.
  StepReport step() {
    if (!stepping_started_) {
      stepping_start_ = std::chrono::steady_clock::now();
      stepping_first_ = step_;
      stepping_started_ = true;
    }
    return take_step(stepping_start_, stepping_first_);
  }

  void save_all() {
    if (stepping_started_) {
      const double now = elapsed(stepping_start_);
      seconds_before_ = now;
      stepping_start_ = std::chrono::steady_clock::now();
      stepping_first_ = step_;
    }
    save(/*checkpoint=*/false);
  }

  void save_model(const fs::path& folder, std::span<const float> parameters, long step) const {
    FolderContents c = contents();
    c.step = step;
    write_model_folder(folder, options_.shape, parameters, c);
  }

  [[nodiscard]] long steps_done() const { return step_; }
  [[nodiscard]] const TrainOptions& options() const { return options_; }
  [[nodiscard]] std::span<const float> parameters() const { return model_.parameters(); }
  [[nodiscard]] std::vector<int> token_ids() const { return task_->token_ids(); }
  // The text task's ids (empty for induction).
  [[nodiscard]] const std::vector<std::int32_t>& text_ids() const { return text_ids_; }

  TrainResult run(const ProgressCallback& progress, const std::atomic<bool>* stop) {
    TrainResult result;
    const auto start = std::chrono::steady_clock::now();
    const long first = step_;
    while (step_ < options_.steps) {
      if (stop != nullptr && stop->load()) {
        result.stopped = true;
        break;
      }
      const StepReport report = take_step(start, first);
      result.last_loss = report.loss;
      result.last_repeat_loss = report.repeat_loss;
      if (progress) progress(report);
      if (options_.checkpoint_every > 0 && step_ % options_.checkpoint_every == 0) save(/*checkpoint=*/true);
    }
    seconds_before_ = elapsed(start);
    result.steps_done = step_;
    result.seconds = seconds_before_;
    save(/*checkpoint=*/false);
    return result;
  }

 private:
  double elapsed(std::chrono::steady_clock::time_point start) const {
    return seconds_before_ + std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  StepReport take_step(std::chrono::steady_clock::time_point start, long first) {
    task_->fill(batch_, step_);
    model_.zero_gradients();
    const float loss = model_.forward(batch_.inputs, batch_.targets);
    if (!std::isfinite(loss)) {
      throw InputError("<training>", "step " + std::to_string(step_ + 1),
                       "the loss is " + std::to_string(loss) + ": training stopped; " + options_.out.string() +
                           " keeps the model of step " + std::to_string(saved_step_) + " (try a smaller --lr)");
    }
    model_.backward();
    optimizer_.update(model_.parameters(), model_.gradients(), step_);
    ++step_;
    StepReport report;
    report.step = step_;
    report.steps = options_.steps;
    report.loss = loss;
    report.repeat_loss = repeat_loss();
    report.seconds = elapsed(start);
    const double run_seconds = report.seconds - seconds_before_;
    report.tokens_per_second =
        run_seconds > 0 ? static_cast<double>(step_ - first) * options_.batch * options_.sequence_length() / run_seconds
                        : 0.0;
    json line = {{"step", step_}, {"loss", loss}, {"seconds", report.seconds}};
    if (report.repeat_loss) line["repeat_loss"] = *report.repeat_loss;
    log_ += line.dump() + "\n";
    return report;
  }

  // The mean loss of the predictions only copying makes (induction), or nothing.
  std::optional<float> repeat_loss() const {
    if (options_.task != "induction") return std::nullopt;
    double sum = 0.0;
    long count = 0;
    const auto losses = model_.losses();
    for (std::size_t i = 0; i < losses.size(); ++i) {
      if (batch_.repeat[i] == 0) continue;
      sum += losses[i];
      ++count;
    }
    return count > 0 ? std::optional<float>(static_cast<float>(sum / static_cast<double>(count))) : std::nullopt;
  }

  FolderContents contents() const {
    return {task_->name(), options_.sequence_length(), task_->token_ids(), step_, tokenizer_files_};
  }

  // The model (and, with checkpoint, checkpoints/step-N), then the optimiser's state, the log and
  // training_state.json last: a state file names a step whose files are all written.
  void save(bool checkpoint) {
    const fs::path& out = options_.out;
    if (options_.text_file.empty() && !options_.text.empty()) {  // the text itself, for --resume
      fs::create_directories(out);
      write_file_atomically(out / "text.txt", options_.text);
      options_.text_file = out / "text.txt";
    }
    if (checkpoint) write_checkpoint(out, options_.shape, model_.parameters(), contents());
    write_model_folder(out, options_.shape, model_.parameters(), contents());
    if (options_.optimizer.kind == OptimizerKind::AdamW) {
      write_safetensors(out / "optimizer.safetensors", model_.layout(),
                        {{"m.", optimizer_.first_moment()}, {"v.", optimizer_.second_moment()}}, step_);
    }
    write_file_atomically(out / "training.jsonl", log_);
    const json state = {{"format", kStateFormat},
                        {"step", step_},
                        {"seconds", seconds_before_},
                        {"random_state", task_->random_state()},
                        {"options", options_json(options_)}};
    write_file_atomically(out / "training_state.json", state.dump(2) + "\n");
    saved_step_ = step_;
  }

  void load_tensors(const fs::path& path, const std::string& prefix, std::span<float> into) {
    const SafetensorsFile file = read_safetensors(path);
    const std::string step = file.metadata.is_object() ? file.metadata.value("step", "") : "";
    if (step != std::to_string(step_)) {
      throw InputError(path.string(), "__metadata__/step",
                       "is from step " + step + ", training_state.json from step " + std::to_string(step_) +
                           ": the folder was not saved whole (its checkpoints/ hold whole models)");
    }
    for (const TensorSpec& spec : model_.layout()) {
      const auto found = file.tensors.find(prefix + spec.name);
      if (found == file.tensors.end() || found->second.size() != spec.size) {
        throw InputError(path.string(), prefix + spec.name, "is missing or of another shape than config.json says");
      }
      std::copy(found->second.begin(), found->second.end(), into.begin() + static_cast<long>(spec.offset));
    }
  }

  void read_log(const fs::path& path) {
    const std::string text = fs::exists(path) ? read_input_file(path.string(), {.kind = "training log"}) : "";
    for (std::size_t start = 0; start < text.size();) {
      std::size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      const json line = json::parse(text.substr(start, end - start), nullptr, false);
      if (line.is_object() && line.value("step", 0L) <= step_) log_ += text.substr(start, end - start) + "\n";
      start = end + 1;
    }
  }

  TrainOptions options_;
  std::optional<InitialModel> initial_;  // until initialise() copies it
  fs::path tokenizer_folder_;            // empty: the byte-level tokenizer
  std::vector<fs::path> tokenizer_files_;
  std::vector<std::int32_t> text_ids_;
  std::unique_ptr<Task> task_;
  Gpt2 model_;
  Optimizer optimizer_;
  Batch batch_;
  long step_ = 0;
  long saved_step_ = 0;
  double seconds_before_ = 0.0;
  std::string log_;
  bool stepping_started_ = false;
  std::chrono::steady_clock::time_point stepping_start_;
  long stepping_first_ = 0;
};

// The options with --init's shape (and that folder's model), checked against the memory there is.
std::pair<TrainOptions, std::optional<InitialModel>> shaped_by_initial(TrainOptions options) {
  std::optional<InitialModel> initial = initial_model_of(options);
  check_training_memory(options);
  return {std::move(options), std::move(initial)};
}

}  // namespace

TrainResult train(const TrainOptions& options, const ProgressCallback& progress, const std::atomic<bool>* stop) {
  use_threads(options.threads);
  auto [shaped, initial] = shaped_by_initial(options);
  Session session(shaped, std::move(initial));
  session.initialise(/*write=*/true);
  return session.run(progress, stop);
}

TrainResult resume(const fs::path& folder, std::optional<long> steps, int threads, const ProgressCallback& progress,
                   const std::atomic<bool>* stop) {
  use_threads(threads);
  const fs::path state_path = folder / "training_state.json";
  const json state = json::parse(read_input_file(state_path.string(), {.kind = "training state"}), nullptr, false);
  if (!state.is_object() || state.value("format", "") != kStateFormat || !state.contains("options")) {
    throw InputError(state_path.string(), "format", std::string("is not a training state (") + kStateFormat + ")");
  }
  TrainOptions options = options_from_json(state["options"], folder);
  if (steps) options.steps = *steps;
  check_training_memory(options);
  Session session(options, std::nullopt);
  session.load(folder);
  return session.run(progress, stop);
}

class Trainer::Impl {
 public:
  explicit Impl(const TrainOptions& options) : Impl(shaped_by_initial(options)) {}
  explicit Impl(std::pair<TrainOptions, std::optional<InitialModel>> shaped)
      : session(shaped.first, std::move(shaped.second)) {
    const TrainOptions& options = session.options();
    if (options.threads > 0) omp_set_num_threads(options.threads);  // this thread's, which steps
    session.initialise(/*write=*/false);
    probe = make_probe();
  }

  // docs/design.md, "Training": the window's probe.
  std::vector<std::int32_t> make_probe() const {
    const TrainOptions& o = session.options();
    const int T = o.sequence_length();
    std::vector<std::int32_t> ids(static_cast<std::size_t>(T));
    if (o.task == "induction") {
      const std::vector<int> tokens = session.token_ids();
      std::mt19937_64 rng(0);
      std::uniform_int_distribution<std::size_t> pick(0, tokens.size() - 1);
      const int half = T / 2;
      for (int t = 0; t < T; ++t) {
        ids[static_cast<std::size_t>(t)] =
            t < half ? tokens[pick(rng)] : ids[static_cast<std::size_t>(t - half)];  // T odd: the last repeats too
      }
      return ids;
    }
    const std::vector<std::int32_t>& text = session.text_ids();  // at least one batch: T + 1 or more
    std::copy_n(text.begin(), T, ids.begin());
    return ids;
  }

  std::vector<float> probe_attention(std::span<const float> parameters) {
    const TrainOptions& o = session.options();
    if (!probe_model) probe_model = std::make_unique<Gpt2>(o.shape, 1, o.sequence_length());
    std::copy(parameters.begin(), parameters.end(), probe_model->parameters().begin());
    const std::vector<std::int32_t> targets(probe.size(), 0);
    probe_model->forward(probe, targets);
    const auto att = probe_model->attention();
    return {att.begin(), att.end()};
  }

  Session session;
  std::vector<std::int32_t> probe;
  std::unique_ptr<Gpt2> probe_model;  // batch 1, made on the first probe
};

Trainer::Trainer(const TrainOptions& options) : impl_(std::make_unique<Impl>(options)) {}
Trainer::~Trainer() = default;
StepReport Trainer::step() { return impl_->session.step(); }
long Trainer::steps_done() const { return impl_->session.steps_done(); }
const TrainOptions& Trainer::options() const { return impl_->session.options(); }
std::span<const float> Trainer::parameters() const { return impl_->session.parameters(); }
void Trainer::save() { impl_->session.save_all(); }
void Trainer::save_model(const fs::path& folder, std::span<const float> parameters, long step) const {
  impl_->session.save_model(folder, parameters, step);
}
const std::vector<std::int32_t>& Trainer::probe() const { return impl_->probe; }
std::vector<float> Trainer::probe_attention(std::span<const float> parameters) {
  return impl_->probe_attention(parameters);
}

}  // namespace attnviz::train
