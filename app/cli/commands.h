#pragma once
// The headless subcommands of the attnviz binary. Each takes the arguments after its name
// and returns the process exit code; errors propagate as exceptions that main() maps to
// exit codes (InputError → 2, BackendUnavailable → 3, anything else → 1).

#include <iosfwd>
#include <string>
#include <vector>

namespace attnviz::cli {

using Args = std::vector<std::string>;

int run_compute_command(const Args& args, std::ostream& out, std::ostream& err);
int run_devices_command(const Args& args, std::ostream& out, std::ostream& err);
int run_export_command(const Args& args, std::ostream& out, std::ostream& err);
int run_generate_command(const Args& args, std::ostream& out, std::ostream& err);
int run_kv_cache_command(const Args& args, std::ostream& out, std::ostream& err);
int run_tokenize_command(const Args& args, std::ostream& out, std::ostream& err);
// What the heads do (docs/design.md): heads_command.cpp, lens_command.cpp,
// attribute_command.cpp, patch_command.cpp, on core/heads.
int run_heads_command(const Args& args, std::ostream& out, std::ostream& err);
int run_lens_command(const Args& args, std::ostream& out, std::ostream& err);
int run_attribute_command(const Args& args, std::ostream& out, std::ostream& err);
int run_patch_command(const Args& args, std::ostream& out, std::ostream& err);
// attnviz train: a small GPT-2 trained on the CPU (train_command.cpp, core/train).
int run_train_command(const Args& args, std::ostream& out, std::ostream& err);
// attnviz trace KIND: dispatches to one command per kind.
int run_trace_command(const Args& args, std::ostream& out, std::ostream& err);
int run_trace_decode_command(const Args& args, std::ostream& out, std::ostream& err);
int run_trace_tiled_command(const Args& args, std::ostream& out, std::ostream& err);

class ParsedArgs;
// compute --model (model_compute_command.cpp); export --model is in model_export.h.
int run_model_compute(const ParsedArgs& parsed, std::ostream& out, std::ostream& err);

// The subcommand named args[0], or -1 when args[0] is not a subcommand.
int run_subcommand(const Args& args, std::ostream& out, std::ostream& err);

void print_usage(std::ostream& out);

// Every subcommand run_subcommand knows, in the order the manual lists them.
const std::vector<std::string>& command_names();

}  // namespace attnviz::cli
