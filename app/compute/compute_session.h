#pragma once
// ComputeSession: the window's link to the core. When the Document's revision (or the chosen
// backend) changes, it builds the Problem and runs the chosen backend(s) through the Backend
// interface alone: Vulkan on the window's own device (results stay in device buffers for the
// heatmaps), Eigen on the host, or both with their differences. Nothing runs when nothing changed. A document that cannot be
// computed (bad shapes, too many tokens) keeps the last good result on screen, with the reason.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/attention/backend.h"
#include "core/attention/compare.h"
#include "core/attention/device_results.h"
#include "core/scenario/problem.h"
#include "core/vk/context.h"

namespace attnviz::document {
class Document;
}

namespace attnviz::compute {

// Automatic: Eigen when the window's Vulkan device is a CPU driver (lavapipe/llvmpipe, where
// Eigen computes 5-10× faster), Vulkan on a GPU; Eigen when no Vulkan device computes.
enum class BackendMode { Vulkan, Cpu, Both, Automatic };
const char* to_string(BackendMode mode);  // "vulkan", "cpu", "both", "auto"
std::optional<BackendMode> backend_mode_from_string(const std::string& name);

// What the automatic choice picks, and why in a few words for the status bar and the Backend
// panel ("llvmpipe (LLVM 15.0.6, 256 bits) is a CPU driver: Eigen is faster on the CPU"). The
// words are made when asked, in the window's language of the moment (app/i18n).
struct AutomaticChoice {
  enum class Why { NoDevice, CpuDriver, Gpu, VulkanUnavailable };
  BackendMode mode = BackendMode::Cpu;  // Vulkan or Cpu
  Why why = Why::NoDevice;
  std::string detail;  // the device's name (CpuDriver, Gpu), or why Vulkan failed (VulkanUnavailable)
  [[nodiscard]] std::string reason() const;
  [[nodiscard]] std::string brief() const;  // the reason in two words: "CPU driver", "GPU"
  bool operator==(const AutomaticChoice&) const = default;
};
// `device_name` empty: no Vulkan device computes here.
AutomaticChoice choose_automatically(const std::string& device_name, VkPhysicalDeviceType type);

// Which matrix of a head a heatmap shows.
enum class HeadMatrix { Scores, Weights, Context };
// That matrix of a head's host result.
const Matrix& pick(const HeadResult& head, HeadMatrix which);

// A result matrix as the heatmaps draw it: in a device buffer when the Vulkan results are
// shown, otherwise the host matrix (the heatmap renderer uploads it once per generation).
struct MatrixSource {
  DeviceMatrix device;           // valid when device.buffer != VK_NULL_HANDLE
  const Matrix* host = nullptr;  // set when there is no device copy
  std::uint64_t version = 0;     // the session's generation
};

struct BackendStatus {
  bool enabled = false;  // part of the current mode
  bool ran = false;      // computed the current result
  std::string device;    // "llvmpipe (LLVM 15.0.6, 256 bits)", "Eigen 3.4.0 (2 threads)"
  double wall_ms = 0.0;  // the last recompute, measured around the call
  Timing timing;         // as the backend reports it (GPU timestamps for Vulkan)
  std::string error;     // why it could not run ("" when fine)
  // The backend's first run with no warm_up() before it: its time includes start-up.
  bool includes_start_up = false;
};

// How a session makes its Vulkan backend: at once (the command line's tools, tests), or on a
// thread of its own while Eigen computes (the window: its first frame waited 12.7 s for the
// driver on a first start).
enum class VulkanStart { AtOnce, InBackground };

// The Vulkan kernels being built in the background: how many of how many.
struct KernelPreparation {
  int built = 0;
  int total = 0;
};

class ComputeSession {
 public:
  // `vulkan` is the window's context (shared with the renderer), or null for no Vulkan compute.
  ComputeSession(std::shared_ptr<vk::Context> vulkan, BackendMode mode, VulkanStart start = VulkanStart::AtOnce);
  ~ComputeSession();
  ComputeSession(const ComputeSession&) = delete;
  ComputeSession& operator=(const ComputeSession&) = delete;

  // Runs both backends once on a tiny problem, so that their start-up is over before the
  // first recompute the window shows (on lavapipe the first dispatch JIT-compiles the compute
  // shaders: 20-80 ms against 1-3 ms for the runs after it; Eigen starts its threads):
  // recompute times then compare like with like. (Lavapipe still compiles a variant for some
  // new problem shapes, a few ms once per shape: a cost of the edit, not of start-up.)
  // Leaves no result and changes nothing shown; a backend that fails here is left cold (its
  // first update says why, as before).
  void warm_up();
  // While the Vulkan backend is being built in the background (VulkanStart::InBackground).
  [[nodiscard]] std::optional<KernelPreparation> preparing_kernels() const;
  // The frame loop's: takes the Vulkan backend once it is built (waiting for it when `wait` and
  // the mode asks for Vulkan: screenshots and measuring runs show the finished state). True when
  // the preparation ended now: the next update computes on Vulkan where the mode asks for it, or,
  // when it failed, vulkan_failure() says why and the automatic choice is Eigen.
  bool take_prepared_backend(bool wait);
  // While Vulkan is chosen to compute and its kernels are still being built on a first start
  // (nothing in the pipeline cache yet): "Preparing the GPU kernels… 3 of 6 (…)"; else "".
  // Later starts build them from the cache in moments and say nothing.
  [[nodiscard]] std::string kernel_preparation_note() const;
  // Why the Vulkan backend could not be built in the background ("" when it was, or still is).
  [[nodiscard]] const std::string& vulkan_failure() const { return vulkan_failure_; }
  // How long warm_up() took per backend (0 when it has not run or failed).
  [[nodiscard]] double vulkan_warm_up_ms() const { return vulkan_warm_up_ms_; }
  [[nodiscard]] double cpu_warm_up_ms() const { return cpu_warm_up_ms_; }

  // Recomputes when the document's revision or the mode changed; true when it did.
  bool update(const document::Document& document);
  // The next update() recomputes, on a Vulkan backend that has not run yet (no warm-up: where
  // Eigen computes by default, or Vulkan was just taken or chosen): a CPU driver compiles its
  // kernels then, for seconds, so the window says so first.
  [[nodiscard]] bool vulkan_first_run_due(const document::Document& document) const;

  void set_mode(BackendMode mode) { requested_mode_ = mode; }
  [[nodiscard]] BackendMode mode() const { return requested_mode_; }
  // The mode that computes: the requested one, with Automatic resolved for this machine.
  [[nodiscard]] BackendMode effective_mode() const;
  [[nodiscard]] const AutomaticChoice& automatic_choice() const { return automatic_; }
  // Which backend computes and why, for the status bar: "Eigen, chosen automatically: …",
  // "Vulkan, as chosen".
  [[nodiscard]] std::string choice_summary() const;
  // Vulkan computes here, or will once its kernels are built.
  [[nodiscard]] bool vulkan_available() const { return vulkan_ != nullptr || preparation_ != nullptr; }

  // Moves on with every recompute that produced a result (caches key on it).
  [[nodiscard]] std::uint64_t generation() const { return generation_; }
  [[nodiscard]] bool has_result() const { return problem_.has_value(); }
  // The Problem of the shown result (call only when has_result()).
  [[nodiscard]] const Problem& problem() const { return *problem_; }
  // The document revision problem() was built from (older than the document's after an edit
  // not yet computed, or one that cannot be computed).
  [[nodiscard]] std::uint64_t problem_revision() const { return problem_revision_; }
  // Why the document's current state could not be computed ("" when it was).
  [[nodiscard]] const std::string& error() const { return error_; }
  // The error is that the text is past the 4,096 tokens the window keeps every matrix of (and
  // within the overview's 65,536): the Heatmaps view shows its overview, other views say so.
  [[nodiscard]] bool only_the_overview_shows() const { return only_the_overview_shows_; }

  // The result on screen: Vulkan's when it ran, else Eigen's. Read back from the device the
  // first time it is asked for after a recompute (tooltips, numbers, ranges, differences).
  [[nodiscard]] const Result& shown_result() const;
  [[nodiscard]] const char* shown_backend() const { return shows_vulkan_ ? "vulkan" : "cpu"; }
  // For drawing: the device buffer when Vulkan results are shown (no read-back), else the host.
  [[nodiscard]] MatrixSource head_matrix(int head, HeadMatrix which) const;
  // For reading values on the CPU (tooltips, ranges): may read that head of the Vulkan result
  // back (that head only).
  [[nodiscard]] const Matrix* host_matrix(int head, HeadMatrix which) const;
  // The shown result's head on the host (Vulkan reads back this head alone), or none.
  [[nodiscard]] const HeadResult* head_result(int head) const;
  // Dropout's kept set of a head as the heatmaps hatch it (1.0 kept / 0.0 dropped per weight,
  // the weights' shape): the device buffer when the Vulkan results are shown, else a host copy
  // made once per recompute. No buffer and no host matrix without dropout.
  [[nodiscard]] MatrixSource kept_matrix(int head) const;
  // The shown result's mask for `head` (N × M, 1 = visible; a mask expression using h gives
  // each head its own), without reading the result back.
  [[nodiscard]] const MaskMatrix& mask_matrix(int head) const;

  // With both backends: Vulkan − Eigen per matrix, and the two host results.
  [[nodiscard]] bool compared() const { return cpu_ran_ && vulkan_ran_; }
  [[nodiscard]] const std::vector<MatrixDifference>& differences() const;
  [[nodiscard]] const Result* cpu_result() const { return cpu_ran_ ? &cpu_->result() : nullptr; }
  [[nodiscard]] const Result* vulkan_result() const;

  [[nodiscard]] const BackendStatus& vulkan_status() const { return vulkan_status_; }
  [[nodiscard]] const BackendStatus& cpu_status() const { return cpu_status_; }
  [[nodiscard]] std::string vulkan_device_name() const;
  // Device buffers and memory the Vulkan path allocated so far (a steady window adds none).
  [[nodiscard]] std::uint64_t device_allocations() const;

  // The host matrices of the Eigen result: their storage stays where it is until a recompute
  // of another shape (the window draws them without a copy where the device can import host
  // memory). Empty when no Eigen result is kept.
  [[nodiscard]] std::vector<const Matrix*> host_result_matrices() const;
  // Called before a recompute that may move that storage (a new shape), while the old one is
  // still there: whoever reads it in place lets go (and waits for the device).
  void on_host_results_moving(std::function<void()> callback) { host_results_moving_ = std::move(callback); }

 private:
  void recompute(const document::Document& document);
  void run_vulkan(const Problem& problem);
  void run_cpu(const Problem& problem);

  std::shared_ptr<vk::Context> vulkan_context_;  // for waiting on the window's frames in flight
  std::unique_ptr<Backend> vulkan_;              // null without a Vulkan context, or until it is built
  struct Preparation;                            // the Vulkan backend being built on a thread of its own
  std::unique_ptr<Preparation> preparation_;
  std::string vulkan_failure_;
  std::unique_ptr<Backend> cpu_;
  BackendMode requested_mode_;
  AutomaticChoice automatic_;
  std::optional<BackendMode> computed_mode_;
  std::uint64_t computed_revision_ = 0;
  std::uint64_t generation_ = 0;

  std::optional<Problem> problem_;
  std::uint64_t problem_revision_ = 0;
  std::string error_;
  bool only_the_overview_shows_ = false;
  bool shows_vulkan_ = false;
  // Whether each backend computed the current result. The backends keep their results (host
  // copies reuse their storage from one recompute to the next: no page faults for a long
  // sentence's edits; Vulkan reads back only when asked).
  bool vulkan_ran_ = false;
  bool cpu_ran_ = false;
  bool cpu_ran_before_ = false;  // the Eigen backend holds a result (of this or an earlier recompute)
  mutable std::optional<std::vector<MatrixDifference>> differences_;
  mutable std::vector<Matrix> kept_floats_;  // kept_matrix's host copies (this generation's)
  mutable std::uint64_t kept_generation_ = 0;
  mutable MaskMatrix mask_;
  mutable std::uint64_t mask_generation_ = 0;
  mutable int mask_head_ = 0;
  BackendStatus vulkan_status_;
  BackendStatus cpu_status_;
  // Whether a backend has run (warm-up included): its next run no longer includes start-up.
  bool vulkan_warm_ = false;
  bool cpu_warm_ = false;
  double vulkan_warm_up_ms_ = 0.0;
  double cpu_warm_up_ms_ = 0.0;
  std::function<void()> host_results_moving_;
};

}  // namespace attnviz::compute
