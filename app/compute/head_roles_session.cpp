#include "app/compute/head_roles_session.h"

#include <utility>

#include "app/compute/model_messages.h"
#include "core/common/error.h"
#include "core/cpu/cpu_backend.h"
#include "core/heads/head_roles.h"

namespace attnviz::compute {

HeadRolesSession::~HeadRolesSession() = default;

void HeadRolesSession::request(std::shared_ptr<const model::Model> model,
                               std::shared_ptr<const model::ForwardResult> result, const model::ModelEdits& edits,
                               std::uint64_t source) {
  requested_ = source;
  if (!model || !result) return;
  latest_.submit(source, [this, model = std::move(model), result = std::move(result), edits, source](
                             std::stop_token stop) { return compute(model, *result, edits, source, std::move(stop)); });
}

HeadRoles HeadRolesSession::compute(const std::shared_ptr<const model::Model>& model,
                                    const model::ForwardResult& result, const model::ModelEdits& edits,
                                    std::uint64_t source, std::stop_token stop) {
  HeadRoles out;
  out.source = source;
  out.roles = heads::head_roles(result, nullptr);
  for (const model::LayerAttention& layer : result.layers) out.layers.push_back(layer.layer);
  try {
    const ProbeScores& probe = probe_scores(model, edits, stop);
    out.probe_repeat = probe.repeat;
    for (std::size_t l = 0; l < out.roles.size() && l < probe.roles.size(); ++l) {
      for (std::size_t h = 0; h < out.roles[l].size() && h < probe.roles[l].size(); ++h) {
        out.roles[l][h].induction = probe.roles[l][h].induction;
        out.roles[l][h].duplicate = probe.roles[l][h].duplicate;
      }
    }
  } catch (const InputError& e) {  // the other roles stand without the probe's
    out.probe_error = window_message(e);
  }
  return out;
}

// The model run on its repeated random probe (default_repeat, seed 0: what `attnviz heads` reads
// without options), with the window's edits, on the CPU: the window's Vulkan device is the model
// session's, and this pass is small (2K tokens, K ≤ 32).
const HeadRolesSession::ProbeScores& HeadRolesSession::probe_scores(const std::shared_ptr<const model::Model>& model,
                                                                    const model::ModelEdits& edits,
                                                                    std::stop_token stop) {
  if (probe_ && probe_->model == model && probe_->edits.head_factors == edits.head_factors &&
      probe_->edits.weights == edits.weights)
    return *probe_;
  probe_.reset();
  const heads::RepeatProbe probe = heads::make_repeat_probe(*model, heads::default_repeat(*model), 0);
  const auto backend = make_cpu_backend();
  model::ForwardPass pass(*model, *backend);
  model::ForwardOptions options;
  options.edits = edits;
  options.predict = false;
  options.stop = std::move(stop);
  const model::ForwardResult& result = pass.run(heads::probe_encoding(*model, probe), options);
  probe_ = ProbeScores{model, edits, heads::head_roles(result, &probe), probe.repeat};
  return *probe_;
}

void HeadRolesSession::clear() {
  latest_.clear(requested_);
  requested_ = {};
}

}  // namespace attnviz::compute
