#include "core/gpu/vulkan_attention.h"

#include <chrono>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <vector>
#include <string>
#include <type_traits>
#include <variant>

#include "core/attention/mask.h"
#include "core/gpu/attention_layout.h"
#include "core/gpu/dispatch_plan.h"
#include "core/gpu/host_packing.h"
#include "core/gpu/kernels.h"
#include "core/gpu/plan_bindings.h"
#include "core/gpu/workspace.h"
#include "core/vk/barriers.h"
#include "core/scenario/dropout.h"
#include "core/scenario/positions.h"
#include "core/vk/commands.h"

namespace attnviz::gpu {
namespace {

using Clock = std::chrono::steady_clock;

double milliseconds_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Problems come validated from build_problem(); this only guards the packing code against
// reading past a matrix when a caller assembles an inconsistent one by hand.
void check_shapes(const Problem& p) {
  auto require = [](bool ok, const std::string& what) {
    if (!ok) throw std::invalid_argument("VulkanAttention: inconsistent Problem: " + what);
  };
  require(p.n() > 0 && p.m() > 0 && p.d_model() > 0, "empty x or xs");
  require(p.xs.cols == p.d_model(),
          "xs has " + std::to_string(p.xs.cols) + " columns, x has " + std::to_string(p.d_model()));
  require(p.num_heads > 0 && p.num_kv_heads > 0 && p.num_heads % p.num_kv_heads == 0, "num_heads % num_kv_heads != 0");
  require(p.d_k > 0 && p.d_v > 0, "d_k and d_v must be positive");
  require(p.wq.rows == p.d_model() && p.wq.cols == p.num_heads * p.d_k, "wq is not d_model × (H·d_k)");
  require(p.wk.rows == p.d_model() && p.wk.cols == p.num_kv_heads * p.d_k, "wk is not d_model × (G·d_k)");
  require(p.wv.rows == p.d_model() && p.wv.cols == p.num_kv_heads * p.d_v, "wv is not d_model × (G·d_v)");
  require(!p.wo || (p.wo->rows == p.num_heads * p.d_v && p.wo->cols > 0), "wo is not (H·d_v) × d_out");
  require(p.positional != PositionalKind::Rope || p.d_k % 2 == 0, "RoPE needs an even d_k");
}

DeviceMatrix device_matrix(const vk::Buffer& buffer, std::int64_t first_float, std::int64_t pitch, int rows, int cols) {
  DeviceMatrix m;
  m.buffer = buffer.handle();
  m.offset = static_cast<VkDeviceSize>(first_float * 4);
  m.range = static_cast<VkDeviceSize>(((rows - 1) * pitch + cols) * 4);
  m.rows = rows;
  m.cols = cols;
  m.row_pitch = static_cast<int>(pitch);
  return m;
}

}  // namespace

class VulkanAttention::Impl {
 public:
  Impl(std::shared_ptr<vk::Context> context, const VulkanAttentionOptions& options)
      : context_(std::move(context)),
        drawn_by_fragment_shaders_(options.results_drawn_by_fragment_shaders),
        kernels_(*context_, options.tiles ? *options.tiles : choose_tile_config(*context_), options.kernel_progress),
        workspace_(*context_),
        stream_(*context_),
        timestamps_(*context_, static_cast<std::uint32_t>(Stage::Count) + 2),
        plan_limits_(PlanLimits::of(context_->limits())) {}

  void run(const Problem& problem, const ComputeOptions& options) {
    valid_ = false;
    host_current_ = false;
    // Heads read back since the last run keep their storage for the next read; the others give
    // theirs back (the window keeps on the host only the heads it shows).
    for (std::size_t h = 0; h < heads_.size(); ++h) {
      if (head_runs_[h] != runs_) heads_[h] = HeadResult{};
    }
    ++runs_;
    check_shapes(problem);
    const auto start = Clock::now();
    Mask mask(problem.mask, problem.n(), problem.m(), problem.num_heads);
    prepare(AttentionShape::of(problem, mask));
    upload(problem, mask);
    const std::vector<Stage> stages = record(problem, options, mask.params());
    stream_.submit_and_wait();
    collect_timing(stages, milliseconds_since(start));
    tokens_ = problem.tokens;
    source_tokens_ = problem.source_tokens;
    describe_results(std::move(mask));
    valid_ = true;
  }

  void read_back_into(Result& result) {
    if (!valid_) throw std::logic_error("VulkanAttention: no result to read back (no successful run)");
    const AttentionLayout& l = *layout_;
    const AttentionShape& s = l.shape;
    std::vector<std::pair<Slot, std::int64_t>> wanted = {
        {Slot::Scores, l.slot_bytes[static_cast<std::size_t>(Slot::Scores)]},
        {Slot::Weights, l.slot_bytes[static_cast<std::size_t>(Slot::Weights)]},
        {Slot::Concat, l.slot_bytes[static_cast<std::size_t>(Slot::Concat)]}};
    if (s.has_wo) wanted.emplace_back(Slot::Output, l.slot_bytes[static_cast<std::size_t>(Slot::Output)]);
    if (s.dropout) {
      wanted.emplace_back(Slot::WeightsBefore, l.slot_bytes[static_cast<std::size_t>(Slot::WeightsBefore)]);
      wanted.emplace_back(Slot::Kept, l.slot_bytes[static_cast<std::size_t>(Slot::Kept)]);
    }
    const Workspace::HostCopy copy = workspace_.host_copy(wanted, stream_);
    auto data = [&](Slot slot) { return copy.data[static_cast<std::size_t>(slot)]; };

    result.backend = "vulkan";
    result.device = context_->device_name();
    result.tokens = tokens_;
    result.source_tokens = source_tokens_;
    result.heads.resize(static_cast<std::size_t>(s.heads));
    for (HeadResult& head : result.heads) {
      head.scores.reshape(s.n, s.m);
      head.weights.reshape(s.n, s.m);
      head.context.reshape(s.n, s.d_v);
      head.weights_before_dropout.reshape(s.dropout ? s.n : 0, s.dropout ? s.m : 0);
      head.kept.reshape(s.dropout ? s.n : 0, s.dropout ? s.m : 0);
    }
    fill_result_masks(device_.mask.mask, result);
    result.output.reshape(s.n, s.d_out);
    // One task per matrix, spread over the host's threads (large results are bound by
    // memory traffic, which parallelises). Small ones stay on this thread: waking the team
    // costs more than the copy, and its idle threads spin on a busy machine.
    const int per_head = s.dropout ? 5 : 3;
    const int tasks = per_head * s.heads;
    const bool large = static_cast<std::int64_t>(s.heads) * s.n * (2 * s.m + s.d_v) >= (std::int64_t{1} << 20);
#pragma omp parallel for schedule(dynamic) if (large)
    for (int task = 0; task < tasks; ++task) {
      const int h = task / per_head;
      HeadResult& head = result.heads[static_cast<std::size_t>(h)];
      switch (task % per_head) {
        case 0: unpack_rows(data(Slot::Scores), l.scores.first(h, 0), l.scores.pitch, head.scores); break;
        case 1: unpack_rows(data(Slot::Weights), l.weights.first(h, 0), l.weights.pitch, head.weights); break;
        case 2:
          unpack_rows(data(Slot::Concat), static_cast<std::int64_t>(h) * s.d_v, l.concat.pitch, head.context);
          break;
        case 3:
          unpack_rows(data(Slot::WeightsBefore), l.weights_before.first(h, 0), l.weights_before.pitch,
                      head.weights_before_dropout);
          break;
        default: unpack_flags(data(Slot::Kept), l.kept.first(h, 0), l.kept.pitch, head.kept);
      }
    }
    const Placement& out = l.output_placement();
    unpack_rows(data(out.slot), 0, out.pitch, result.output);
    result.timing = timing_;
  }

  // One head's matrices, read back once per run (the whole result when that is there already).
  const HeadResult& host_head(int h) {
    if (!valid_) throw std::logic_error("VulkanAttention: no result to read back (no successful run)");
    if (host_current_) return host_.heads.at(static_cast<std::size_t>(h));
    const AttentionLayout& l = *layout_;
    const AttentionShape& s = l.shape;
    if (h < 0 || h >= s.heads) throw std::out_of_range("VulkanAttention: no head " + std::to_string(h));
    if (head_runs_.size() != static_cast<std::size_t>(s.heads)) {
      head_runs_.assign(static_cast<std::size_t>(s.heads), 0);
      heads_.resize(static_cast<std::size_t>(s.heads));
    }
    HeadResult& head = heads_[static_cast<std::size_t>(h)];
    if (head_runs_[static_cast<std::size_t>(h)] == runs_) return head;
    const auto bytes = [](const Placement& p, int batch) {
      return Workspace::Range{p.slot, p.first(batch, 0) * 4, (p.end(batch + 1, p.rows) - p.first(batch, 0)) * 4};
    };
    // The contexts of every head share the rows of one slot: its rows are read whole.
    const Workspace::Range context{Slot::Concat, 0,
                                   (static_cast<std::int64_t>(s.n - 1) * l.concat.pitch + l.concat.cols) * 4};
    std::vector<Workspace::Range> wanted = {bytes(l.scores, h), bytes(l.weights, h), context};
    if (s.dropout) wanted.insert(wanted.end(), {bytes(l.weights_before, h), bytes(l.kept, h)});
    const std::vector<const std::byte*> data = workspace_.host_ranges(wanted, stream_);
    head.scores.reshape(s.n, s.m);
    head.weights.reshape(s.n, s.m);
    head.context.reshape(s.n, s.d_v);
    head.weights_before_dropout.reshape(s.dropout ? s.n : 0, s.dropout ? s.m : 0);
    head.kept.reshape(s.dropout ? s.n : 0, s.dropout ? s.m : 0);
    unpack_rows(data[0], 0, l.scores.pitch, head.scores);
    unpack_rows(data[1], 0, l.weights.pitch, head.weights);
    unpack_rows(data[2], static_cast<std::int64_t>(h) * s.d_v, l.concat.pitch, head.context);
    if (s.dropout) {
      unpack_rows(data[3], 0, l.weights_before.pitch, head.weights_before_dropout);
      unpack_flags(data[4], 0, l.kept.pitch, head.kept);
    }
    if (device_.mask.mask.depends_on_head()) {  // a mask expression using h: the head's own
      device_.mask.mask.matrix_into(head.mask, h);
      head.masked_rows = fully_masked_rows(head.mask);
    } else {
      head.mask = MaskMatrix{};
      head.masked_rows.clear();
    }
    head_runs_[static_cast<std::size_t>(h)] = runs_;
    return head;
  }

  // The host copy, read back once per run into storage kept from run to run.
  const Result& host_result() {
    if (!host_current_) {
      read_back_into(host_);
      host_current_ = true;
    }
    return host_;
  }

  [[nodiscard]] const DeviceResults* device_results() const { return valid_ ? &device_ : nullptr; }

  [[nodiscard]] std::uint64_t allocations() const { return workspace_.allocations(); }
  [[nodiscard]] const Timing& timing() const { return timing_; }
  [[nodiscard]] const vk::Context& context() const { return *context_; }
  [[nodiscard]] std::size_t dispatch_count() const { return plan_.size(); }

 private:
  // Where the run's results are, for drawing from the device (device_ keeps its address, so
  // the matrices' mask pointers stay valid until the next run).
  void describe_results(Mask mask) {
    const AttentionLayout& l = *layout_;
    const AttentionShape& s = l.shape;
    device_.mask.mask = std::move(mask);
    device_.mask.table = device_matrix(workspace_.slot(Slot::Globals), 0, 4, l.globals_entries, 4);
    device_.heads.resize(static_cast<std::size_t>(s.heads));
    for (int h = 0; h < s.heads; ++h) {
      DeviceHead& head = device_.heads[static_cast<std::size_t>(h)];
      head.scores = device_matrix(workspace_.slot(Slot::Scores), l.scores.first(h, 0), l.scores.pitch, s.n, s.m);
      head.weights = device_matrix(workspace_.slot(Slot::Weights), l.weights.first(h, 0), l.weights.pitch, s.n, s.m);
      head.context = device_matrix(workspace_.slot(Slot::Concat), static_cast<std::int64_t>(h) * s.d_v, l.concat.pitch,
                                   s.n, s.d_v);
      head.scores.mask = &device_.mask;
      head.weights.mask = &device_.mask;
      head.weights_before_dropout = DeviceMatrix{};
      head.kept = DeviceMatrix{};
      if (s.dropout) {
        head.weights_before_dropout = device_matrix(workspace_.slot(Slot::WeightsBefore), l.weights_before.first(h, 0),
                                                    l.weights_before.pitch, s.n, s.m);
        head.weights_before_dropout.mask = &device_.mask;
        head.kept = device_matrix(workspace_.slot(Slot::Kept), l.kept.first(h, 0), l.kept.pitch, s.n, s.m);
      }
    }
    const Placement& out = l.output_placement();
    device_.output = device_matrix(workspace_.slot(out.slot), 0, out.pitch, s.n, s.d_out);
  }

  // The plan depends only on the shape; views and descriptor sets also on the buffers.
  void prepare(const AttentionShape& shape) {
    const bool new_shape = !layout_ || !(layout_->shape == shape);
    if (new_shape) {
      layout_ = make_layout(shape);
      plan_ = plan_attention(*layout_, kernels_.tiles(), plan_limits_);
    }
    const bool new_buffers = workspace_.reserve(*layout_);
    if (new_shape || new_buffers) bindings_.build(*context_, kernels_, workspace_, plan_);
  }

  void upload(const Problem& p, const Mask& mask) {
    const AttentionLayout& l = *layout_;
    const AttentionShape& s = l.shape;
    auto bytes = [&](Slot slot) { return l.slot_bytes[static_cast<std::size_t>(slot)]; };
    std::int64_t total = 0;
    for (Slot slot :
         {Slot::X, Slot::Xs, Slot::Wq, Slot::Wk, Slot::Wv, Slot::Wo, Slot::Globals, Slot::Rope, Slot::Slopes})
      total += bytes(slot) + 256;
    workspace_.begin_uploads(total);
    workspace_.upload(Slot::X, bytes(Slot::X), [&](std::byte* out) { pack_rows(p.x, l.x.pitch, out); });
    if (s.cross)
      workspace_.upload(Slot::Xs, bytes(Slot::Xs), [&](std::byte* out) { pack_rows(p.xs, l.xs.pitch, out); });
    workspace_.upload(Slot::Wq, bytes(Slot::Wq),
                      [&](std::byte* out) { pack_column_blocks(p.wq, s.heads, s.d_k, l.wq.pitch, out); });
    workspace_.upload(Slot::Wk, bytes(Slot::Wk),
                      [&](std::byte* out) { pack_column_blocks(p.wk, s.kv_heads, s.d_k, l.wk.pitch, out); });
    workspace_.upload(Slot::Wv, bytes(Slot::Wv),
                      [&](std::byte* out) { pack_column_blocks(p.wv, s.kv_heads, s.d_v, l.wv.pitch, out); });
    if (s.has_wo)
      workspace_.upload(Slot::Wo, bytes(Slot::Wo), [&](std::byte* out) { pack_rows(*p.wo, l.wo.pitch, out); });
    workspace_.upload(Slot::Globals, bytes(Slot::Globals), [&](std::byte* out) {
      mask.write_table({reinterpret_cast<std::uint32_t*>(out), static_cast<std::size_t>(l.globals_entries) * 4});
    });
    if (s.rope)
      workspace_.upload(Slot::Rope, bytes(Slot::Rope),
                        [&](std::byte* out) { pack_rows(problem_rope_table(p), l.rope.pitch, out); });
    workspace_.upload(Slot::Slopes, bytes(Slot::Slopes), [&](std::byte* out) {
      std::vector<float> slopes = head_slopes(p);
      slopes.resize(static_cast<std::size_t>(bytes(Slot::Slopes) / 4), 0.0f);
      std::memcpy(out, slopes.data(), slopes.size() * 4);
    });
  }

  // Records the whole recompute into one command buffer; returns the stages timed, in order.
  std::vector<Stage> record(const Problem& p, const ComputeOptions& options, const MaskParams& mask) {
    const VkCommandBuffer cmd = stream_.begin();
    std::vector<Stage> timed;
    std::uint32_t stamp = 0;
    timestamps_.reset(cmd);
    if (drawn_by_fragment_shaders_) vk::barriers::fragment_to_compute(cmd);
    timestamps_.write(cmd, stamp++);
    workspace_.record_uploads(cmd);

    VkPipeline bound = VK_NULL_HANDLE;
    for (std::size_t i = 0; i < plan_.size(); ++i) {
      const PlannedDispatch& d = plan_[i];
      if (i > 0 && d.stage != plan_[i - 1].stage) {
        timestamps_.write(cmd, stamp++);
        timed.push_back(plan_[i - 1].stage);
        vk::barriers::compute_to_compute(cmd);
      }
      const vk::ComputePipeline& pipeline = kernels_.get(d.kernel);
      if (pipeline.pipeline() != bound) {
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline());
        bound = pipeline.pipeline();
      }
      const VkDescriptorSet set = bindings_.set(i);
      vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout(), 0, 1, &set, 0, nullptr);
      std::visit(
          [&](auto push) {
            using Push = std::decay_t<decltype(push)>;
            if constexpr (std::is_same_v<Push, ScoresPush>) {
              push.mask = mask;
              push.zero_masked = options.scores_under_mask ? 0 : 1;
            } else if constexpr (std::is_same_v<Push, SoftmaxPush>) {
              push.mask = mask;
              push.scale = p.scale;
            } else if constexpr (std::is_same_v<Push, ContextPush>) {
              push.mask = mask;
            } else if constexpr (std::is_same_v<Push, DropoutPush>) {
              const DropoutRule rule = dropout_rule(p.dropout);
              push.threshold = rule.threshold;
              push.seed_low = rule.seed_low();
              push.seed_high = rule.seed_high();
              push.keep_scale = rule.keep_scale;
            }
            vkCmdPushConstants(cmd, pipeline.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(Push), &push);
          },
          d.push);
      vkCmdDispatch(cmd, d.groups[0], d.groups[1], d.groups[2]);
    }
    timestamps_.write(cmd, stamp++);
    timed.push_back(plan_.back().stage);

    if (drawn_by_fragment_shaders_) {
      std::vector<VkBuffer> results = {workspace_.slot(Slot::Scores).handle(), workspace_.slot(Slot::Weights).handle(),
                                       workspace_.slot(Slot::Concat).handle(), workspace_.slot(Slot::Globals).handle()};
      if (layout_->shape.has_wo) results.push_back(workspace_.slot(Slot::Output).handle());
      if (layout_->shape.dropout) {
        results.push_back(workspace_.slot(Slot::WeightsBefore).handle());
        results.push_back(workspace_.slot(Slot::Kept).handle());
      }
      vk::barriers::compute_to_fragment(cmd, results);
    }
    vk::barriers::device_to_host(cmd);
    return timed;
  }

  void collect_timing(const std::vector<Stage>& stages, double wall_ms) {
    timing_ = Timing{};
    if (!timestamps_.enabled()) {
      timing_.total_ms = wall_ms;
      timing_.stages_ms.emplace_back("recompute (wall clock)", wall_ms);
      return;
    }
    const auto count = static_cast<std::uint32_t>(stages.size() + 1);
    timestamps_.fetch(count);
    for (std::uint32_t i = 0; i + 1 < count; ++i) {
      timing_.stages_ms.emplace_back(stage_name(stages[i]), timestamps_.milliseconds(i, i + 1));
    }
    timing_.total_ms = timestamps_.milliseconds(0, count - 1);
  }

  std::shared_ptr<vk::Context> context_;
  bool drawn_by_fragment_shaders_;
  Kernels kernels_;
  Workspace workspace_;
  vk::CommandStream stream_;
  vk::TimestampQueries timestamps_;
  PlanLimits plan_limits_;
  std::optional<AttentionLayout> layout_;
  std::vector<PlannedDispatch> plan_;
  PlanBindings bindings_;
  bool valid_ = false;  // the last run succeeded: its results are in the buffers
  std::vector<std::string> tokens_;
  std::vector<std::string> source_tokens_;
  DeviceResults device_;
  Timing timing_;
  Result host_;
  bool host_current_ = false;  // host_ holds the last run's results
  std::uint64_t runs_ = 0;
  std::vector<HeadResult> heads_;         // heads read back one at a time (host_head)
  std::vector<std::uint64_t> head_runs_;  // the run each of heads_ holds
};

VulkanAttention::VulkanAttention(std::shared_ptr<vk::Context> context, const VulkanAttentionOptions& options)
    : impl_(std::make_unique<Impl>(std::move(context), options)) {}
VulkanAttention::~VulkanAttention() = default;

std::string VulkanAttention::device_name() const { return impl_->context().device_name(); }

void VulkanAttention::compute_into(const Problem& problem, const ComputeOptions& options, Result& result) {
  run(problem, options);
  const auto start = Clock::now();
  read_back_into(result);
  const double read_ms = milliseconds_since(start);
  result.timing.stages_ms.emplace_back("read back", read_ms);
  result.timing.total_ms += read_ms;
}

void VulkanAttention::run(const Problem& problem, const ComputeOptions& options) { impl_->run(problem, options); }
const Result& VulkanAttention::result() const { return impl_->host_result(); }
const HeadResult& VulkanAttention::head_result(int head) const { return impl_->host_head(head); }
const DeviceResults* VulkanAttention::device_results() const { return impl_->device_results(); }
void VulkanAttention::read_back_into(Result& result) const { impl_->read_back_into(result); }
Result VulkanAttention::read_back() const {
  Result result;
  read_back_into(result);
  return result;
}
std::uint64_t VulkanAttention::allocation_count() const { return impl_->allocations(); }
const Timing& VulkanAttention::timing() const { return impl_->timing(); }
const vk::Context& VulkanAttention::context() const { return impl_->context(); }
std::size_t VulkanAttention::last_dispatch_count() const { return impl_->dispatch_count(); }

}  // namespace attnviz::gpu

namespace attnviz {

std::unique_ptr<Backend> make_vulkan_backend(std::shared_ptr<vk::Context> context,
                                             const gpu::VulkanAttentionOptions& attention) {
  return std::make_unique<gpu::VulkanAttention>(std::move(context), attention);
}

std::unique_ptr<Backend> make_vulkan_backend(const vk::ContextOptions& options) {
  return make_vulkan_backend(vk::Context::create(options));
}

}  // namespace attnviz
