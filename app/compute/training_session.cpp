#include "app/compute/training_session.h"

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <thread>
#include <utility>

#include "app/compute/model_messages.h"
#include "app/i18n/translate.h"
#include "core/common/error.h"
#include "core/train/trainer.h"

namespace attnviz::compute {
namespace {

train::TrainOptions options_of(const TrainingSettings& s) {
  train::TrainOptions o;
  o.task = s.task == TrainingTask::Induction ? "induction" : "text";
  if (s.task == TrainingTask::Sentence) o.text = s.text;
  if (s.task == TrainingTask::TextFile) o.text_file = s.text_file;
  o.out = s.out;
  o.shape.layers = s.layers;
  o.shape.heads = s.heads;
  o.shape.d_model = s.d_model;
  o.shape.positions = s.context;
  o.steps = s.steps;
  o.batch = s.batch;
  o.optimizer.learning_rate = s.learning_rate;
  o.optimizer.warmup_steps = static_cast<int>(std::min<long>(100, s.steps / 10));  // as attnviz train
  o.threads = s.threads > 0 ? s.threads : static_cast<int>(std::max(2u, std::thread::hardware_concurrency()) - 1);
  return o;
}

// The probe's ids as text, without a UTF-8 character cut at its end.
std::string text_of(const std::vector<std::int32_t>& ids) {
  std::string text;
  for (const std::int32_t id : ids) text.push_back(static_cast<char>(id));
  std::size_t end = text.size();
  std::size_t lead = end;
  while (lead > 0 && (static_cast<unsigned char>(text[lead - 1]) & 0xC0u) == 0x80u) --lead;
  if (lead > 0) {
    const auto first = static_cast<unsigned char>(text[lead - 1]);
    const std::size_t length = first >= 0xF0u ? 4 : first >= 0xE0u ? 3 : first >= 0xC0u ? 2 : 1;
    if (end - (lead - 1) < length) end = lead - 1;
  }
  text.resize(end);
  return text;
}

}  // namespace

std::filesystem::path default_training_folder(const std::string& task) {
  std::filesystem::path base;
  if (const char* data = std::getenv("XDG_DATA_HOME"); data != nullptr && *data != '\0') {
    base = data;
  } else if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    base = std::filesystem::path(home) / ".local" / "share";
  } else {
    base = std::filesystem::temp_directory_path();
  }
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &local);
  return base / "attnviz" / "training" / (task + "-" + stamp);
}

TrainingSession::TrainingSession() = default;

TrainingSession::~TrainingSession() {
  worker_.cancel();
  worker_.wait_idle();
}

bool TrainingSession::ensure_run(const TrainingSettings& settings) {
  if (trainer_) return true;
  try {
    trainer_ = std::make_unique<train::Trainer>(options_of(settings));
  } catch (const InputError& e) {
    fail(window_message(e));
    return false;
  } catch (const std::exception& e) {
    fail(e.what());
    return false;
  }
  snapshot_every_ = 1;
  {
    const std::lock_guard lock(mutex_);
    clear_shown();
    shared_.has_run = true;
    shared_.state = TrainingState::Paused;
    shared_.steps = settings.steps;
    shared_.layers = settings.layers;
    shared_.heads = settings.heads;
    shared_.probe_text = text_of(trainer_->probe());
    shared_.folder = settings.out;
    shared_.run_id = next_run_id_++;
  }
  keep_snapshot();  // step 0: the initialisation
  return true;
}

void TrainingSession::fail(const std::string& message) {
  const std::lock_guard lock(mutex_);
  shared_.state = TrainingState::Failed;
  shared_.error = message;
  ++shared_.version;
}

// The weights now and every head on the probe, kept; when there are too many, every other older
// one goes (the first and the last stay) and snapshots come half as often.
void TrainingSession::keep_snapshot() {
  auto snapshot = std::make_shared<TrainingSnapshot>();
  snapshot->step = trainer_->steps_done();
  snapshot->parameters.assign(trainer_->parameters().begin(), trainer_->parameters().end());
  const std::vector<float> attention = trainer_->probe_attention(snapshot->parameters);
  const train::TrainOptions& o = trainer_->options();
  const int T = o.shape.positions;
  const std::size_t square = static_cast<std::size_t>(T) * static_cast<std::size_t>(T);
  const int count = o.shape.layers * o.shape.heads;
  for (int i = 0; i < count; ++i) {
    Matrix m(T, T);
    std::copy_n(attention.begin() + static_cast<long>(square * static_cast<std::size_t>(i)), square, m.data.begin());
    snapshot->attention.push_back(std::move(m));
  }
  const std::lock_guard lock(mutex_);
  auto& kept = shared_.snapshots;
  if (!kept.empty() && kept.back()->step == snapshot->step) kept.pop_back();
  kept.push_back(std::move(snapshot));
  if (kept.size() > kMaxSnapshots) {
    std::vector<std::shared_ptr<const TrainingSnapshot>> thinned;
    for (std::size_t i = 0; i < kept.size(); ++i)
      if (i % 2 == 0 || i + 1 == kept.size()) thinned.push_back(kept[i]);
    kept = std::move(thinned);
    snapshot_every_ *= 2;
  }
  ++shared_.version;
}

void TrainingSession::take_steps(long count, const std::stop_token& stop) {
  for (long i = 0; i < count && trainer_->steps_done() < trainer_->options().steps; ++i) {
    if (stop.stop_requested()) break;
    train::StepReport report;
    try {
      report = trainer_->step();
    } catch (const InputError& e) {
      keep_snapshot();
      fail(window_message(e));
      return;
    }
    {
      const std::lock_guard lock(mutex_);
      shared_.step = report.step;
      shared_.losses.push_back(report.loss);
      if (report.repeat_loss) shared_.repeat_losses.push_back(*report.repeat_loss);
      shared_.tokens_per_second = report.tokens_per_second;
      ++shared_.version;
    }
    if (report.step % snapshot_every_ == 0) keep_snapshot();
  }
  if (shared_.snapshots.empty() || shared_.snapshots.back()->step != trainer_->steps_done()) keep_snapshot();
  const std::lock_guard lock(mutex_);
  shared_.state = trainer_->steps_done() >= trainer_->options().steps ? TrainingState::Finished : TrainingState::Paused;
  ++shared_.version;
}

void TrainingSession::start(const TrainingSettings& settings) {
  if (shown_.state == TrainingState::Running) return;
  shown_.state = TrainingState::Running;  // at once, so the buttons change in this frame
  shown_.error.clear();
  worker_.submit([this, settings](const TaskContext& task) {
    if (!ensure_run(settings)) return;
    {
      const std::lock_guard lock(mutex_);
      shared_.state = TrainingState::Running;
      shared_.error.clear();
      ++shared_.version;
    }
    take_steps(trainer_->options().steps, task.stop);
  });
}

void TrainingSession::pause() { worker_.cancel(); }

void TrainingSession::step(const TrainingSettings& settings) {
  shown_.error.clear();
  worker_.submit([this, settings](const TaskContext& task) {
    if (!ensure_run(settings)) return;
    {
      const std::lock_guard lock(mutex_);
      shared_.error.clear();
    }
    take_steps(1, task.stop);
  });
}

void TrainingSession::reset() {
  worker_.cancel();
  worker_.wait_idle();
  trainer_.reset();
  const std::lock_guard lock(mutex_);
  clear_shown();
}

void TrainingSession::clear_shown() {
  const std::uint64_t version = shared_.version + 1;  // the view redraws
  const std::uint64_t saves = shared_.saves;          // saves already made stay counted
  shared_ = Shared{};
  shared_.version = version;
  shared_.saves = saves;
}

void TrainingSession::save(std::size_t index) {
  worker_.submit([this, index](const TaskContext&) {
    std::shared_ptr<const TrainingSnapshot> snapshot;
    {
      const std::lock_guard lock(mutex_);
      if (!trainer_ || index >= shared_.snapshots.size()) {
        ++shared_.saves;
        ++shared_.version;
        return;
      }
      snapshot = shared_.snapshots[index];
    }
    const std::filesystem::path out = trainer_->options().out;
    const bool last = snapshot->step == trainer_->steps_done();
    const std::filesystem::path folder = last ? out : out / "checkpoints" / ("step-" + std::to_string(snapshot->step));
    try {
      if (last)
        trainer_->save();
      else
        trainer_->save_model(folder, snapshot->parameters, snapshot->step);
    } catch (const InputError& e) {
      const std::lock_guard lock(mutex_);
      shared_.error = i18n::format(i18n::tr("Not saved: %s"), window_message(e).c_str());
      ++shared_.saves;
      ++shared_.version;
      return;
    } catch (const std::exception& e) {
      const std::lock_guard lock(mutex_);
      shared_.error = i18n::format(i18n::tr("Not saved: %s"), e.what());
      ++shared_.saves;
      ++shared_.version;
      return;
    }
    const std::lock_guard lock(mutex_);
    shared_.saved = folder;
    if (last) shared_.saved_step = snapshot->step;
    shared_.error.clear();
    ++shared_.saves;
    ++shared_.version;
  });
}

bool TrainingSession::poll() {
  const std::lock_guard lock(mutex_);
  if (shared_.version == shown_.version && shared_.state == shown_.state) return false;
  const bool asked_to_run = shown_.state == TrainingState::Running && !worker_.idle();
  shown_ = shared_;
  // A Start just asked for shows as running until the worker takes it.
  if (asked_to_run && shown_.state != TrainingState::Failed) shown_.state = TrainingState::Running;
  return true;
}

void TrainingSession::wait() {
  worker_.wait_idle();
  poll();
}

}  // namespace attnviz::compute
