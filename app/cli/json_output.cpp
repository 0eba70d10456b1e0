#include "app/cli/json_output.h"

#include <ostream>
#include <stdexcept>

#include "core/common/atomic_file.h"
#include "core/common/error.h"

namespace attnviz::cli {

void write_output(const std::optional<std::string>& path, std::string_view text, std::ostream& out) {
  if (!path) {
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (!out.flush()) throw std::runtime_error("cannot write to standard output");
    return;
  }
  try {
    AtomicFileWriter file(*path);
    file.write(text);
    file.commit();
  } catch (const FileWriteError& error) {
    // A missing folder, a folder, no permission: the user's input. A full disk is not (exit 1).
    if (error.path_problem()) throw InputError("<command line>", "--out", error.what());
    throw;
  }
}

}  // namespace attnviz::cli
