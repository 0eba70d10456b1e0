#include "app/compute/compute_session.h"

#include <atomic>
#include <chrono>
#include <exception>
#include <utility>

#include "app/document/document.h"
#include "app/i18n/translate.h"
#include "core/common/error.h"
#include "core/common/worker.h"
#include "core/cpu/cpu_backend.h"
#include "core/gpu/vulkan_attention.h"
#include "core/scenario/scenario_tokens.h"
#include "core/vk/check.h"
#include "core/vk/context.h"

namespace attnviz::compute {
namespace {

using Clock = std::chrono::steady_clock;

double milliseconds_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

const DeviceMatrix& pick(const DeviceHead& head, HeadMatrix which) {
  switch (which) {
    case HeadMatrix::Scores: return head.scores;
    case HeadMatrix::Weights: return head.weights;
    case HeadMatrix::Context: break;
  }
  return head.context;
}

// The smallest problem that runs every kernel the window's recomputes use: projections,
// scores, softmax, context (with a key/value head shared by two heads) and W_O.
Problem warm_up_problem() {
  Scenario s;
  s.sentence = "warm up";  // not translated: never shown
  s.d_model = 4;
  s.num_heads = 2;
  s.num_kv_heads = 1;
  s.d_k = 2;
  s.d_v = 2;
  s.generate_wo = true;
  s.mask.causal = true;
  return build_problem(s, "<warm-up>");  // not translated: an origin name
}

}  // namespace

const Matrix& pick(const HeadResult& head, HeadMatrix which) {
  switch (which) {
    case HeadMatrix::Scores: return head.scores;
    case HeadMatrix::Weights: return head.weights;
    case HeadMatrix::Context: break;
  }
  return head.context;
}

const char* to_string(BackendMode mode) {
  switch (mode) {
    case BackendMode::Vulkan: return "vulkan";
    case BackendMode::Cpu: return "cpu";
    case BackendMode::Both: return "both";
    case BackendMode::Automatic: return "auto";
  }
  return "?";
}

std::optional<BackendMode> backend_mode_from_string(const std::string& name) {
  if (name == "vulkan") return BackendMode::Vulkan;
  if (name == "cpu" || name == "eigen") return BackendMode::Cpu;
  if (name == "both") return BackendMode::Both;
  if (name == "auto" || name == "automatic") return BackendMode::Automatic;
  return std::nullopt;
}

AutomaticChoice choose_automatically(const std::string& device_name, VkPhysicalDeviceType type) {
  using Why = AutomaticChoice::Why;
  if (device_name.empty()) return {BackendMode::Cpu, Why::NoDevice, ""};
  if (type == VK_PHYSICAL_DEVICE_TYPE_CPU) return {BackendMode::Cpu, Why::CpuDriver, device_name};
  return {BackendMode::Vulkan, Why::Gpu, device_name};
}

std::string AutomaticChoice::reason() const {
  switch (why) {
    case Why::CpuDriver:
      return i18n::format(i18n::tr("%s is a CPU driver: Eigen computes faster on the CPU"), detail.c_str());
    case Why::Gpu: return i18n::format(i18n::tr("%s is a GPU"), detail.c_str());
    case Why::VulkanUnavailable: return i18n::format(i18n::tr("Vulkan compute is unavailable (%s)"), detail.c_str());
    default: return i18n::tr("no Vulkan device computes here");
  }
}

std::string AutomaticChoice::brief() const {
  switch (why) {
    case Why::CpuDriver: return i18n::tr("CPU driver");
    case Why::Gpu: return i18n::tr("GPU");
    case Why::VulkanUnavailable: return i18n::tr("no Vulkan compute");
    default: return i18n::tr("no Vulkan device");
  }
}

BackendMode ComputeSession::effective_mode() const {
  return requested_mode_ == BackendMode::Automatic ? automatic_.mode : requested_mode_;
}

std::string ComputeSession::choice_summary() const {
  if (requested_mode_ == BackendMode::Automatic) {
    return i18n::format(automatic_.mode == BackendMode::Vulkan ? i18n::tr("Vulkan chosen automatically: %s")
                                                               : i18n::tr("Eigen chosen automatically: %s"),
                        automatic_.reason().c_str());
  }
  switch (requested_mode_) {
    case BackendMode::Vulkan: return i18n::tr("Vulkan, as chosen");
    case BackendMode::Cpu: return i18n::tr("Eigen, as chosen");
    default: return i18n::tr("both backends, as chosen");
  }
}

// The background build of the Vulkan backend. The worker (the last member, so the first
// destroyed) waits for its task, which reports into the counters and the outcome before it.
struct ComputeSession::Preparation {
  std::atomic<int> built{0};
  std::atomic<int> total{0};
  std::atomic<bool> done{false};
  std::unique_ptr<Backend> backend;  // written by the task before `done`, read after
  std::string failure;
  Worker worker;
};

ComputeSession::ComputeSession(std::shared_ptr<vk::Context> vulkan, BackendMode mode, VulkanStart start)
    : vulkan_context_(std::move(vulkan)), cpu_(make_cpu_backend()), requested_mode_(mode) {
  if (vulkan_context_) {
    // The window's context presents to its surface: the heatmaps draw the result buffers with
    // fragment shaders on the same queue. (Headless contexts, in tests, have no draws.)
    gpu::VulkanAttentionOptions options;
    options.results_drawn_by_fragment_shaders = vulkan_context_->surface() != VK_NULL_HANDLE;
    if (start == VulkanStart::AtOnce) {
      vulkan_ = make_vulkan_backend(vulkan_context_, options);
    } else {
      // Building pipelines is thread-safe in Vulkan (the pipeline cache synchronises itself);
      // the queue is not touched until the frame loop takes the backend.
      preparation_ = std::make_unique<Preparation>();
      Preparation* preparation = preparation_.get();
      options.kernel_progress = [preparation](int built, int total) {
        preparation->total = total;
        preparation->built = built;
      };
      preparation_->worker.submit([preparation, context = vulkan_context_, options](const TaskContext&) {
        try {
          preparation->backend = make_vulkan_backend(context, options);
          if (!preparation->backend) preparation->failure = N_("no Vulkan backend was made");
        } catch (const std::exception& e) {
          preparation->failure = e.what();
        }
        preparation->done.store(true, std::memory_order_release);
      });
    }
  }
  cpu_status_.device = cpu_->device_name();
  vulkan_status_.device = vulkan_device_name();
  automatic_ = choose_automatically(vulkan_context_ ? vulkan_context_->device_name() : std::string(),
                                    vulkan_context_ ? vulkan_context_->device_type() : VK_PHYSICAL_DEVICE_TYPE_OTHER);
}

ComputeSession::~ComputeSession() = default;

std::optional<KernelPreparation> ComputeSession::preparing_kernels() const {
  if (!preparation_) return std::nullopt;
  return KernelPreparation{preparation_->built.load(), preparation_->total.load()};
}

std::string ComputeSession::kernel_preparation_note() const {
  if (!preparation_ || effective_mode() == BackendMode::Cpu) return "";
  const vk::PipelineCache* cache = vulkan_context_->pipeline_cache_store();
  if (cache != nullptr && cache->reused()) return "";
  const KernelPreparation p = *preparing_kernels();
  if (p.total > 0) {
    return i18n::format(i18n::tr("Preparing the GPU kernels\u2026 %d of %d (the first start only: Eigen computes "
                                 "meanwhile)"),
                        p.built, p.total);
  }
  return i18n::tr("Preparing the GPU kernels\u2026 (the first start only: Eigen computes meanwhile)");
}

bool ComputeSession::take_prepared_backend(bool wait) {
  if (!preparation_) return false;
  if (wait && effective_mode() != BackendMode::Cpu) preparation_->worker.wait_idle();
  if (!preparation_->done.load(std::memory_order_acquire)) return false;
  if (preparation_->backend) {
    vulkan_ = std::move(preparation_->backend);
  } else {
    vulkan_failure_ = i18n::tr(preparation_->failure.c_str());  // the window's own failure (N_) translated
    automatic_ = {BackendMode::Cpu, AutomaticChoice::Why::VulkanUnavailable, vulkan_failure_};
  }
  preparation_.reset();
  if (effective_mode() != BackendMode::Cpu) computed_mode_.reset();  // Vulkan computes from the next update
  return true;
}

std::string ComputeSession::vulkan_device_name() const {
  return vulkan_context_ ? vulkan_context_->device_name() : std::string(i18n::tr("(no Vulkan device)"));
}

std::uint64_t ComputeSession::device_allocations() const { return vulkan_ ? vulkan_->allocation_count() : 0; }

void ComputeSession::warm_up() {
  const Problem problem = warm_up_problem();
  // Vulkan only where it computes: on a CPU driver Eigen does, and lavapipe's compiling the
  // kernels at their first dispatch took most of a first start's 12.7 s before the first frame.
  if (vulkan_ && !vulkan_warm_ && effective_mode() != BackendMode::Cpu) {
    try {
      // As in run_vulkan: frames in flight may read the buffers a run reallocates.
      vk::check(vkQueueWaitIdle(vulkan_context_->queue()), "vkQueueWaitIdle");  // not translated: a function
      const auto start = Clock::now();
      vulkan_->run(problem);
      vulkan_warm_up_ms_ = milliseconds_since(start);
      vulkan_warm_ = true;
    } catch (const std::exception&) {  // left cold: the first recompute reports the error
    }
  }
  if (!cpu_warm_) {
    try {
      const auto start = Clock::now();
      cpu_->run(problem);
      cpu_warm_up_ms_ = milliseconds_since(start);
      cpu_warm_ = true;
    } catch (const std::exception&) {
    }
  }
}

bool ComputeSession::vulkan_first_run_due(const document::Document& document) const {
  const bool due = computed_mode_ != effective_mode() || computed_revision_ != document.revision();
  return due && vulkan_ != nullptr && !vulkan_warm_ && effective_mode() != BackendMode::Cpu;
}

bool ComputeSession::update(const document::Document& document) {
  if (computed_mode_ == effective_mode() && computed_revision_ == document.revision()) return false;
  recompute(document);
  computed_mode_ = effective_mode();
  computed_revision_ = document.revision();
  return true;
}

void ComputeSession::recompute(const document::Document& document) {
  Problem problem;
  try {
    problem = build_problem(document.scenario(), "<gui>");  // not translated: an origin
  } catch (const InputError& e) {
    error_ = e.message_for("<gui>");  // keep showing the last good result (not translated: an origin)
    only_the_overview_shows_ = document.tokens()->only_the_overview_shows();
    return;
  }
  error_.clear();
  only_the_overview_shows_ = false;
  vulkan_status_ = BackendStatus{};
  vulkan_status_.device = vulkan_device_name();
  cpu_status_ = BackendStatus{};
  cpu_status_.device = cpu_->device_name();
  const BackendMode mode = effective_mode();
  vulkan_status_.enabled = mode != BackendMode::Cpu;
  cpu_status_.enabled = mode != BackendMode::Vulkan;

  vulkan_ran_ = false;
  differences_.reset();
  cpu_ran_ = false;
  if (vulkan_status_.enabled) run_vulkan(problem);
  // Eigen runs when asked for, and stands in when Vulkan could not run.
  if (cpu_status_.enabled || !vulkan_ran_) run_cpu(problem);
  shows_vulkan_ = vulkan_ran_;
  if (!vulkan_ran_ && !cpu_ran_) return;  // neither ran: errors are in the statuses
  problem_ = std::move(problem);
  problem_revision_ = document.revision();
  ++generation_;
}

void ComputeSession::run_vulkan(const Problem& problem) {
  if (!vulkan_) {
    vulkan_status_.error = preparation_ ? i18n::tr("the GPU kernels are being prepared; Eigen computes meanwhile")
                           : vulkan_failure_.empty()
                               ? i18n::tr("no Vulkan device for computing; showing the Eigen result")
                               : i18n::format(i18n::tr("Vulkan compute is unavailable (%s); showing the Eigen result"),
                                              vulkan_failure_.c_str());
    return;
  }
  try {
    // Frames in flight may still read the result buffers the recompute overwrites (or frees,
    // when they grow): let them finish.
    vk::check(vkQueueWaitIdle(vulkan_context_->queue()), "vkQueueWaitIdle");  // not translated: a function
    const auto start = Clock::now();
    vulkan_->run(problem);
    vulkan_status_.wall_ms = milliseconds_since(start);
    vulkan_status_.timing = vulkan_->timing();
    vulkan_status_.ran = true;
    vulkan_status_.includes_start_up = !std::exchange(vulkan_warm_, true);
    vulkan_ran_ = true;
  } catch (const std::exception& e) {
    vulkan_status_.error = e.what();
  }
}

// Whether computing `problem` into `result` keeps every matrix's storage where it is
// (Matrix::reshape keeps storage that is large enough; a new head count adds or drops matrices).
bool same_storage(const Result& result, const Problem& problem) {
  if (result.heads.size() != static_cast<std::size_t>(problem.num_heads)) return false;
  const auto fits = [](const Matrix& m, int rows, int cols) {
    return m.data.capacity() >= static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
  };
  for (const HeadResult& head : result.heads) {
    if (!fits(head.scores, problem.n(), problem.m()) || !fits(head.weights, problem.n(), problem.m()) ||
        !fits(head.context, problem.n(), problem.d_v)) {
      return false;
    }
  }
  return true;
}

void ComputeSession::run_cpu(const Problem& problem) {
  // Frames in flight may still draw from the Eigen result's storage (imported without a copy):
  // let them finish before it is rewritten, and let go of it first when it may move.
  if (host_results_moving_ && cpu_ran_before_ && !same_storage(cpu_->result(), problem)) host_results_moving_();
  if (vulkan_context_)
    vk::check(vkQueueWaitIdle(vulkan_context_->queue()), "vkQueueWaitIdle");  // not translated: a function
  try {
    const auto start = Clock::now();
    cpu_->run(problem);
    cpu_status_.wall_ms = milliseconds_since(start);
    cpu_status_.timing = cpu_->timing();
    cpu_status_.ran = true;
    cpu_status_.includes_start_up = !std::exchange(cpu_warm_, true);
    cpu_ran_ = true;
    cpu_ran_before_ = true;
  } catch (const std::exception& e) {
    cpu_status_.error = e.what();
    cpu_ran_before_ = false;  // a run that threw leaves no result
  }
}

std::vector<const Matrix*> ComputeSession::host_result_matrices() const {
  std::vector<const Matrix*> matrices;
  if (!cpu_ran_before_) return matrices;
  for (const HeadResult& head : cpu_->result().heads) {
    matrices.insert(matrices.end(), {&head.scores, &head.weights, &head.context});
  }
  return matrices;
}

const Result* ComputeSession::vulkan_result() const { return vulkan_ran_ ? &vulkan_->result() : nullptr; }

const Result& ComputeSession::shown_result() const {
  if (shows_vulkan_) return *vulkan_result();
  return cpu_->result();
}

MatrixSource ComputeSession::head_matrix(int head, HeadMatrix which) const {
  MatrixSource source;
  source.version = generation_;
  if (!has_result() || head < 0) return source;
  const auto h = static_cast<std::size_t>(head);
  if (shows_vulkan_) {
    const DeviceResults* device = vulkan_->device_results();
    if (device != nullptr && h < device->heads.size()) source.device = pick(device->heads[h], which);
    return source;
  }
  if (cpu_ran_ && h < cpu_->result().heads.size()) source.host = &pick(cpu_->result().heads[h], which);
  return source;
}

const HeadResult* ComputeSession::head_result(int head) const {
  if (!has_result() || head < 0 || head >= problem_->num_heads) return nullptr;
  if (shows_vulkan_) return &vulkan_->head_result(head);
  const Result& result = cpu_->result();
  const auto h = static_cast<std::size_t>(head);
  return h < result.heads.size() ? &result.heads[h] : nullptr;
}

const Matrix* ComputeSession::host_matrix(int head, HeadMatrix which) const {
  if (!has_result() || head < 0 || head >= problem_->num_heads) return nullptr;
  // Vulkan reads back this head alone: the host keeps only what the panels show.
  if (shows_vulkan_) return &pick(vulkan_->head_result(head), which);
  const Result& result = cpu_->result();
  const auto h = static_cast<std::size_t>(head);
  return h < result.heads.size() ? &pick(result.heads[h], which) : nullptr;
}

MatrixSource ComputeSession::kept_matrix(int head) const {
  MatrixSource source;
  source.version = generation_;
  if (!has_result() || head < 0 || !problem_ || !problem_->dropout) return source;
  const auto h = static_cast<std::size_t>(head);
  if (shows_vulkan_) {
    const DeviceResults* device = vulkan_->device_results();
    if (device != nullptr && h < device->heads.size()) source.device = device->heads[h].kept;
    return source;
  }
  const Result& result = cpu_->result();
  if (h >= result.heads.size()) return source;
  if (kept_generation_ != generation_ || kept_floats_.size() != result.heads.size()) {
    kept_floats_.assign(result.heads.size(), Matrix());
    kept_generation_ = generation_;
  }
  Matrix& floats = kept_floats_[h];
  const MaskMatrix& kept = result.heads[h].kept;
  if (floats.rows != kept.rows || floats.cols != kept.cols) {
    floats = Matrix(kept.rows, kept.cols);
    for (std::size_t i = 0; i < floats.size(); ++i) floats.data[i] = kept.visible[i] != 0 ? 1.0f : 0.0f;
  }
  source.host = floats.empty() ? nullptr : &floats;
  return source;
}

const MaskMatrix& ComputeSession::mask_matrix(int head) const {
  if (has_result() && !shows_vulkan_) return cpu_->result().mask_of(static_cast<std::size_t>(std::max(head, 0)));
  const DeviceResults* device = has_result() ? vulkan_->device_results() : nullptr;
  if (device != nullptr) {
    const Mask& mask = device->mask.mask;
    const int h = mask.depends_on_head() ? std::clamp(head, 0, mask.heads() - 1) : 0;
    if (mask_generation_ != generation_ || mask_head_ != h) {
      mask.matrix_into(mask_, h);
      mask_generation_ = generation_;
      mask_head_ = h;
    }
  }
  return mask_;
}

const std::vector<MatrixDifference>& ComputeSession::differences() const {
  static const std::vector<MatrixDifference> none;
  if (!compared()) return none;
  if (!differences_) differences_ = compare_results(*vulkan_result(), cpu_->result());
  return *differences_;
}

}  // namespace attnviz::compute
