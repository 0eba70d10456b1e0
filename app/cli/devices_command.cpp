// attnviz devices: the Vulkan devices found, which one attnviz picks, and why.

#include <ostream>

#include "app/cli/args.h"
#include "app/cli/backend_choice.h"
#include "app/cli/commands.h"
#include "core/common/error.h"
#include "core/vk/devices.h"

namespace attnviz::cli {
namespace {

constexpr const char* kHelp =
    "Usage: attnviz devices [--device N]\n"
    "\n"
    "Lists the Vulkan devices on this machine and the one attnviz computes on. attnviz prefers\n"
    "a discrete GPU, then an integrated one, then a virtual one, then a CPU driver (lavapipe).\n"
    "--device N (or the environment variable ATTNVIZ_DEVICE=N) picks device N instead.\n";

}  // namespace

int run_devices_command(const Args& args, std::ostream& out, std::ostream& err) {
  (void)err;
  const ParsedArgs parsed = parse_args(args, {{"--device"}, {"--help", false}}, "attnviz devices");
  if (parsed.has("--help")) {
    out << kHelp;
    return 0;
  }
  if (!parsed.positionals().empty()) {
    throw InputError("<command line>", parsed.positionals().front(),
                     "unexpected argument (see attnviz devices --help)");
  }
  std::optional<int> requested = parsed.get_int("--device", 0, 1023);
  const bool from_environment = !requested;
  if (from_environment) requested = vk::device_index_from_environment();

  const std::vector<vk::DeviceInfo> devices = with_eigen_hint([] { return vk::list_devices(); });
  const vk::DeviceChoice choice =
      vk::choose_device(devices, requested, from_environment ? "<environment>" : "<command line>",
                        from_environment ? "ATTNVIZ_DEVICE" : "--device");
  out << "Vulkan devices (" << devices.size() << " found):\n";
  for (const vk::DeviceInfo& device : devices) {
    out << (device.index == choice.index ? "  * " : "    ") << device.summary();
    if (!device.driver.empty()) out << ", driver " << device.driver;
    out << "\n";
  }
  out << "chosen: device " << choice.index << " (" << choice.reason << ")\n"
      << "Pick another with --device N or ATTNVIZ_DEVICE=N.\n";
  return 0;
}

}  // namespace attnviz::cli
