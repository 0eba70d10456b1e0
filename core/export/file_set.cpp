#include "core/export/file_set.h"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <memory>
#include <system_error>

#include "core/common/atomic_file.h"

namespace attnviz::exporting {
namespace {

namespace fs = std::filesystem;

std::atomic<unsigned> g_backup_counter{0};

[[noreturn]] void fail(const FileWriteError& error, std::size_t count) {
  throw FileWriteError(error.path(),
                       error.reason() + (count > 1 ? " (nothing written: the " + std::to_string(count) +
                                                         " files are written together or not at all)"
                                                   : ""),
                       error.path_problem());
}

// A second name for the file at `target`, so it can be put back: a hard link where the file
// system has them, else a copy.
fs::path keep_old(const fs::path& target) {
  fs::path backup = target;
  backup += ".old-" + std::to_string(::getpid()) + "-" + std::to_string(g_backup_counter++);
  if (::link(target.c_str(), backup.c_str()) == 0) return backup;
  std::error_code error;
  if (fs::copy_file(target, backup, fs::copy_options::overwrite_existing, error)) return backup;
  throw FileWriteError(target, "cannot keep the old file while the new ones are written: " + error.message(), false);
}

}  // namespace

void write_files_all_or_nothing(const std::vector<FileToWrite>& files) {
  // Every file to its temporary name (destroyed writers remove theirs).
  std::vector<std::unique_ptr<AtomicFileWriter>> writers;
  try {
    for (const FileToWrite& file : files) {
      auto writer = std::make_unique<AtomicFileWriter>(file.path);
      if (file.stream)
        file.stream([&writer](std::string_view piece) { writer->write(piece); });
      else
        writer->write(*file.bytes);
      writer->finish();
      writers.push_back(std::move(writer));
    }
  } catch (const FileWriteError& error) {
    fail(error, files.size());
  }

  // Into place, each in one rename; the files replaced keep a second name until all are in.
  struct Placed {
    fs::path target;
    fs::path backup;  // empty: nothing to put back (no file before, or a single file)
  };
  std::vector<Placed> placed;
  // A signal while the set goes in puts the replaced files back and removes the new ones.
  std::vector<PlacementUndo> undo_on_signal;
  undo_on_signal.reserve(writers.size());
  const auto roll_back = [&] {
    for (auto it = placed.rbegin(); it != placed.rend(); ++it) {
      if (!it->backup.empty())
        (void)::rename(it->backup.c_str(), it->target.c_str());
      else
        (void)::unlink(it->target.c_str());
    }
  };
  for (std::unique_ptr<AtomicFileWriter>& writer : writers) {
    Placed step{writer->target(), {}};
    try {
      if (files.size() > 1 && writer->replaces_a_file()) step.backup = keep_old(writer->target());
      if (files.size() > 1 && !writer->writes_through()) undo_on_signal.emplace_back(step.target, step.backup);
      writer->commit();
    } catch (const FileWriteError& error) {
      if (!step.backup.empty()) (void)::unlink(step.backup.c_str());
      roll_back();
      fail(error, files.size());
    }
    if (!writer->writes_through()) placed.push_back(step);
  }
  undo_on_signal.clear();  // all in: from here a signal leaves at most a backup beside the new file
  for (const Placed& step : placed) {
    if (!step.backup.empty()) (void)::unlink(step.backup.c_str());
  }
}

}  // namespace attnviz::exporting
