#include "core/export/file_set.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace attnviz::exporting {
namespace {

std::filesystem::path beside(const std::filesystem::path& path, const char* what) {
  std::filesystem::path other = path;
  other += std::string(".") + what + "-" + std::to_string(::getpid());
  return other;
}

// The bytes in `path`, flushed to disk; "" on success, else the OS's reason.
std::string write_flushed(const std::filesystem::path& path, const std::string& bytes) {
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) return std::strerror(errno);
  const bool written = std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
  const int write_errno = errno;
  // fflush + fsync before rename: after a crash the target holds either the old or the new bytes.
  const bool flushed = written && std::fflush(file) == 0 && ::fsync(::fileno(file)) == 0;
  const int flush_errno = errno;
  const bool closed = std::fclose(file) == 0;
  if (written && flushed && closed) return "";
  std::remove(path.c_str());
  return std::strerror(!written ? write_errno : flush_errno);
}

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& reason, std::size_t count) {
  throw std::runtime_error("cannot write " + path.string() + ": " + reason +
                           (count > 1 ? " (nothing written: the " + std::to_string(count) + " files are written together or not at all)"
                                      : ""));
}

}  // namespace

void write_files_all_or_nothing(const std::vector<FileToWrite>& files) {
  std::vector<std::filesystem::path> temporaries;
  const auto discard_temporaries = [&] {
    for (const auto& temp : temporaries) std::remove(temp.c_str());
  };
  for (const FileToWrite& file : files) {
    std::error_code error;
    if (std::filesystem::exists(file.path, error) && !std::filesystem::is_regular_file(file.path, error)) {
      discard_temporaries();
      fail(file.path, "something other than a file has that name", files.size());
    }
    const std::filesystem::path temp = beside(file.path, "tmp");
    if (const std::string reason = write_flushed(temp, *file.bytes); !reason.empty()) {
      discard_temporaries();
      fail(file.path, reason, files.size());
    }
    temporaries.push_back(temp);
  }

  // Into place; each replaced file waits under a backup name until all are in.
  struct Placed {
    std::filesystem::path target;
    std::filesystem::path backup;  // empty: there was no file before
  };
  std::vector<Placed> placed;
  const auto roll_back = [&] {
    for (auto it = placed.rbegin(); it != placed.rend(); ++it) {
      std::remove(it->target.c_str());
      if (!it->backup.empty()) std::rename(it->backup.c_str(), it->target.c_str());
    }
    discard_temporaries();
  };
  for (std::size_t i = 0; i < files.size(); ++i) {
    const std::filesystem::path& target = files[i].path;
    Placed step{target, {}};
    std::error_code error;
    if (std::filesystem::exists(target, error)) {
      step.backup = beside(target, "old");
      if (std::rename(target.c_str(), step.backup.c_str()) != 0) {
        const std::string reason = std::strerror(errno);
        roll_back();
        fail(target, reason, files.size());
      }
    }
    if (std::rename(temporaries[i].c_str(), target.c_str()) != 0) {
      const std::string reason = std::strerror(errno);
      if (!step.backup.empty()) std::rename(step.backup.c_str(), target.c_str());
      roll_back();
      fail(target, reason, files.size());
    }
    placed.push_back(step);
  }
  for (const Placed& step : placed) {
    if (!step.backup.empty()) std::remove(step.backup.c_str());
  }
}

}  // namespace attnviz::exporting
