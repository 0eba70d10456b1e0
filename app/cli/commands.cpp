#include "app/cli/commands.h"

#include <ostream>

#include "core/common/atomic_file.h"

namespace attnviz::cli {

void print_usage(std::ostream& out) {
  out << "attnviz " ATTNVIZ_VERSION
         " - see how transformer attention is computed\n"
         "\n"
         "Usage:\n"
         "  attnviz [--scenario FILE]                 open the window (FILE or preset:NAME)\n"
         "  attnviz FILE                              open the window with the scenario FILE\n"
         "  attnviz --scenario FILE --screenshot OUT.png [--frames N] [--size WxH]\n"
         "  attnviz compute --scenario FILE [--backend cpu|vulkan|both] [--kernel dense|tiled] [--out FILE]\n"
         "  attnviz export --scenario FILE --what ... --format ... --out PATH\n"
         "  attnviz tokenize --model PATH --text TEXT   a pretrained model's tokens, as JSON\n"
         "  attnviz compute --model PATH --text TEXT [--layers all|0,3]\n"
         "                                             every layer's attention and the next tokens\n"
         "  attnviz export --model PATH --text TEXT --layer L --out PATH [--what ...|rollout]\n"
         "  attnviz generate --model PATH --text TEXT --tokens N [--layer L] [--out FILE]\n"
         "                                             greedy generation with the KV cache, each step's attention\n"
         "  attnviz heads --model PATH [--repeat K | --text TEXT]   what each head does (its roles)\n"
         "  attnviz lens --model PATH --text TEXT      the logit lens: every layer's top tokens\n"
         "  attnviz attribute --model PATH --text TEXT [--target-id ID] [--position P]\n"
         "                                             each head's and MLP's share of a logit\n"
         "  attnviz patch --model PATH --text A --corrupted-text B\n"
         "                                             every head's output patched from B into A\n"
         "  attnviz train --task induction|text --out DIR [--steps S] ...\n"
         "                                             train a small GPT-2 on the CPU into a model folder\n"
         "  attnviz trace decode --scenario FILE --prompt P [--head H] [--out FILE]\n"
         "                                             KV-cache decoding step by step, as JSON\n"
         "  attnviz kv-cache --layers L --kv-heads G --head-dim D --seq N [--batch B]\n"
         "                   [--dtype f32|f16|bf16|int8] [--preset llama-7b|llama2-70b]\n"
         "                                             the KV cache's size and its formula\n"
         "  attnviz trace tiled --scenario FILE --block-q BR --block-k BC [--head H] [--out FILE]\n"
         "                                             the tiled (FlashAttention-2) algorithm, tile by tile\n"
         "  attnviz devices                            list Vulkan devices and the one chosen\n"
         "  attnviz --version | --help | COMMAND --help\n"
         "  attnviz --help-roff                       this help as a manual page (man attnviz)\n"
         "\n"
         "Exit codes: 0 success, 2 bad input, 3 backend unavailable, 1 other errors.\n";
}

const std::vector<std::string>& command_names() {
  static const std::vector<std::string> names = {"compute",   "export", "tokenize", "generate", "heads",    "lens",
                                                 "attribute", "patch",  "train",    "trace",    "kv-cache", "devices"};
  return names;
}

int run_subcommand(const Args& args, std::ostream& out, std::ostream& err) {
  if (args.empty()) return -1;
  // Ctrl+C or a kill while --out is written leaves no PATH.tmp-PID-N behind.
  remove_temporary_files_on_signals();
  const Args rest(args.begin() + 1, args.end());
  const std::string& command = args.front();
  if (command == "compute") return run_compute_command(rest, out, err);
  if (command == "devices") return run_devices_command(rest, out, err);
  if (command == "export") return run_export_command(rest, out, err);
  if (command == "generate") return run_generate_command(rest, out, err);
  if (command == "heads") return run_heads_command(rest, out, err);
  if (command == "lens") return run_lens_command(rest, out, err);
  if (command == "attribute") return run_attribute_command(rest, out, err);
  if (command == "patch") return run_patch_command(rest, out, err);
  if (command == "kv-cache") return run_kv_cache_command(rest, out, err);
  if (command == "tokenize") return run_tokenize_command(rest, out, err);
  if (command == "train") return run_train_command(rest, out, err);
  if (command == "trace") return run_trace_command(rest, out, err);
  if (command == "--version") {
    out << "attnviz " ATTNVIZ_VERSION "\n";
    return 0;
  }
  if (command == "--help" || command == "-h" || command == "help") {
    print_usage(out);
    return 0;
  }
  return -1;
}

}  // namespace attnviz::cli
