// attnviz_heads_bench: what the heads do (core/heads) on GPT-2 small's shape, printed as a
// markdown table for the README. Not a test (no pass/fail): run it and read the figures.
//
//   attnviz_heads_bench [--model /tmp/attnviz-bench-models/gpt2-small] [--tokens 64] [--runs 3]
//                       [--patching 0]   (0: leave patching out, the longest step)
//
// The model is attnviz_model_bench's GPT-2 small (124 M parameters, random float32 weights, its
// vocabulary of 50,257): run that once first, it writes the folder. On a text of --tokens ids
// (the --repeat probe: K random ids twice), after one forward pass keeping every layer's attention
// and the residual stream: every head's roles, the logit lens (top 5), the attribution of the
// likeliest next token, and the three together; then patching all 144 heads between two random
// texts of that length, at every position (each head reruns every row from its layer on) and at
// one position, the last or the middle (each head reruns the rows from it to the last: one row
// per later layer for the last), with a pass that keeps only the stream beside them for scale.
// Each the best of --runs (patching at every position: of at most 2), as wall clock and
// processor seconds of all threads.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

#include "core/cpu/cpu_backend.h"
#include "core/heads/attribution.h"
#include "core/heads/head_roles.h"
#include "core/heads/logit_lens.h"
#include "core/heads/patching.h"
#include "core/model/forward.h"

namespace attnviz::bench {
namespace {

struct Timing {
  double wall = 1e30;
  double cpu = 1e30;
};

double process_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

Timing best_of(int runs, const std::function<void()>& work) {
  Timing best;
  for (int r = 0; r < runs; ++r) {
    const auto start = std::chrono::steady_clock::now();
    const double cpu_start = process_seconds();
    work();
    best.wall = std::min(best.wall, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    best.cpu = std::min(best.cpu, process_seconds() - cpu_start);
  }
  return best;
}

void row(const char* what, const Timing& t, const char* target) {
  std::printf("| %s | %.3f s | %.3f s | %s |\n", what, t.wall, t.cpu, target);
}

int run(int argc, char** argv) {
  std::string path = "/tmp/attnviz-bench-models/gpt2-small";
  int tokens = 64;
  int runs = 3;
  bool with_patching = true;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string option = argv[i];
    if (option == "--model") path = argv[i + 1];
    if (option == "--tokens") tokens = std::stoi(argv[i + 1]);
    if (option == "--runs") runs = std::stoi(argv[i + 1]);
    if (option == "--patching") with_patching = std::stoi(argv[i + 1]) != 0;
  }
  const auto model = model::Model::open(path);
  const auto backend = make_cpu_backend();
  const heads::RepeatProbe probe = heads::make_repeat_probe(*model, tokens / 2, 1);
  const tokenizers::Encoding text = heads::probe_encoding(*model, probe);
  const tokenizers::Encoding other = heads::probe_encoding(*model, heads::make_repeat_probe(*model, tokens / 2, 2));

  model::ForwardPass pass(*model, *backend);
  model::ForwardOptions options;
  options.keep_stream = true;
  model::ForwardResult result;
  const Timing forward = best_of(runs, [&] { result = pass.run(text, options); });
  const Timing roles = best_of(runs, [&] { (void)heads::head_roles(result, &probe); });
  const Timing lens = best_of(runs, [&] { (void)heads::logit_lens(*model, result, 5); });
  const Timing attribution = best_of(runs, [&] { (void)heads::attribute_logit(*model, result, {}); });
  const Timing together = best_of(runs, [&] {
    (void)heads::head_roles(result, &probe);
    (void)heads::logit_lens(*model, result, 5);
    (void)heads::attribute_logit(*model, result, {});
  });
  model::ForwardOptions stream_only;
  stream_only.layers.emplace();
  stream_only.keep_stream = true;
  stream_only.predict = false;
  const Timing stream_pass = best_of(runs, [&] { (void)pass.run(text, stream_only); });
  const Timing patching = best_of(with_patching ? std::min(runs, 2) : 0,
                                  [&] { (void)heads::patch_every_head(*model, *backend, text, other, {}); });
  const auto patch_one = [&](int position) {
    heads::PatchingRequest request;
    request.patched_position = position;
    return best_of(with_patching ? runs : 0,
                   [&] { (void)heads::patch_every_head(*model, *backend, text, other, request); });
  };
  const int last = static_cast<int>(text.ids.size()) - 1;
  const Timing patching_last = patch_one(last);
  const Timing patching_middle = patch_one(last / 2);

  std::printf("%s: %d layers x %d heads, d_model %d, vocabulary %d, %zu tokens\n\n", path.c_str(),
              model->config().num_layers, model->config().num_heads, model->config().d_model,
              model->config().vocab_size, text.ids.size());
  std::printf("| step | wall (best of %d) | processor, all threads | target |\n|---|---:|---:|---|\n", runs);
  row("forward pass, every layer's attention and the stream kept", forward, "");
  row("head roles (every head, the probe)", roles, "");
  row("logit lens (13 layers x every position, top 5)", lens, "");
  row("direct logit attribution (last position)", attribution, "");
  row("roles + lens + attribution", together, "<= 0.5 s");
  row("forward pass, the stream only (what patching runs)", stream_pass, "");
  if (with_patching) {
    row("patching all heads (two texts), every position", patching, "<= 2 s");
    const std::string last_row = "patching all heads, position " + std::to_string(last) + " alone (the target's)";
    const std::string middle_row = "patching all heads, position " + std::to_string(last / 2) + " alone (rows " +
                                   std::to_string(last / 2) + ".." + std::to_string(last) + " rerun)";
    row(last_row.c_str(), patching_last, "<= 2 s");
    row(middle_row.c_str(), patching_middle, "");
  }
  return 0;
}

}  // namespace
}  // namespace attnviz::bench

int main(int argc, char** argv) { return attnviz::bench::run(argc, argv); }
