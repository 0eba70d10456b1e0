// attnviz trace KIND: how production kernels walk attention, step by step, as JSON
// (docs/design.md "Traces"). One line per kind below; each kind is a command of its own.

#include <ostream>

#include "app/cli/commands.h"
#include "core/common/error.h"
#include "core/common/nearest_name.h"

namespace attnviz::cli {
namespace {

constexpr const char* kHelp =
    "Usage: attnviz trace KIND [options]   (attnviz trace KIND --help for the options)\n"
    "\n"
    "Kinds:\n"
    "  decode   KV-cache decoding, one token a step: the cache, the new row, the cost\n"
    "  tiled    the FlashAttention-2 tiled algorithm: every tile of one head in the order it is\n"
    "           visited, skipped or not, each row's running max m and sum l after it, the context\n";

}  // namespace

int run_trace_command(const Args& args, std::ostream& out, std::ostream& err) {
  if (args.empty())
    throw InputError("<command line>", "trace", "needs a kind: decode or tiled (see attnviz trace --help)");
  if (args.front() == "--help" || args.front() == "-h") {
    out << kHelp;
    return 0;
  }
  const std::string& kind = args.front();
  const Args rest(args.begin() + 1, args.end());
  if (kind == "decode") return run_trace_decode_command(rest, out, err);
  if (kind == "tiled") return run_trace_tiled_command(rest, out, err);
  throw InputError(
      "<command line>", kind,
      "is not a kind of trace (decode or tiled; see attnviz trace --help)" + did_you_mean(kind, {"decode", "tiled"}));
}

}  // namespace attnviz::cli
