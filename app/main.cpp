// attnviz: one binary for the window and the headless subcommands (docs/design.md "Command line").
// main() only dispatches and maps errors to exit codes: 2 bad input, 3 backend unavailable,
// 1 anything else.

#include <exception>
#include <filesystem>
#include <iostream>

#include "app/classroom/start_options.h"
#include "app/cli/commands.h"
#include "app/desktop/desktop_app.h"
#include "app/desktop/gui_options.h"
#include "app/desktop/manual.h"
#include "core/common/error.h"
#include "core/common/nearest_name.h"
#include "core/common/text_excerpt.h"

namespace {

// No arguments, or options only ("--scenario F --screenshot OUT.png"): the window.
bool opens_window(const attnviz::cli::Args& args) {
  if (args.empty()) return true;
  const std::string& first = args.front();
  return first.rfind("--", 0) == 0 && first != "--help" && first != "--version" && first != "--help-roff";
}

// "attnviz FILE", as a file manager runs it (the desktop entry's Exec): anything that is not a
// command and exists, or has a folder or an extension in its name, is a file to open.
bool names_a_file(const std::string& arg) {
  std::error_code ignored;
  return std::filesystem::exists(arg, ignored) || arg.find('/') != std::string::npos ||
         arg.find('.') != std::string::npos;
}

int dispatch(const attnviz::cli::Args& args) {
  if (args.size() == 1 && (args[0] == "--help" || args[0] == "-h")) {
    attnviz::cli::print_usage(std::cout);
    std::cout << "\nThe window (attnviz with no command):\n\n"
              << attnviz::desktop::kGuiHelp << "\nClassroom views (the window):\n"
              << attnviz::classroom::kStartOptionsHelp;
    return 0;
  }
  if (args.size() == 1 && args[0] == "--help-roff") {
    attnviz::desktop::print_manual(std::cout);
    return 0;
  }
  if (opens_window(args)) return attnviz::desktop::run_gui(args, std::cout, std::cerr);
  const int code = attnviz::cli::run_subcommand(args, std::cout, std::cerr);
  if (code >= 0) return code;
  if (names_a_file(args.front())) return attnviz::desktop::run_gui(args, std::cout, std::cerr);
  std::cerr << "attnviz: unknown command " << attnviz::quoted_excerpt(args.front())
            << attnviz::did_you_mean(args.front(), attnviz::cli::command_names()) << "\n\n";
  attnviz::cli::print_usage(std::cerr);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const attnviz::cli::Args args(argv + 1, argv + argc);
  try {
    return dispatch(args);
  } catch (const attnviz::InputError& error) {
    std::cerr << "attnviz: error: " << error.what() << "\n";
    return 2;
  } catch (const attnviz::BackendUnavailable& error) {
    std::cerr << "attnviz: backend unavailable: " << error.what() << "\n";
    return 3;
  } catch (const std::exception& error) {
    std::cerr << "attnviz: error: " << error.what() << "\n";
    return 1;
  }
}
