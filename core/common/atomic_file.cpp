#include "core/common/atomic_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <unistd.h>

namespace attnviz {
namespace {

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& reason) {
  throw std::runtime_error("cannot write " + path.string() + ": " + reason);
}

std::filesystem::path temporary_name(const std::filesystem::path& path) {
  std::filesystem::path temp = path;
  temp += ".tmp-" + std::to_string(::getpid());
  return temp;
}

}  // namespace

void write_file_atomically(const std::filesystem::path& path, std::string_view bytes) {
  const std::filesystem::path temp = temporary_name(path);
  std::FILE* file = std::fopen(temp.c_str(), "wb");
  if (file == nullptr) fail(path, std::strerror(errno));
  const bool written = std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
  const int write_errno = errno;
  // fflush + fsync before rename: after a crash the target holds either the old or the new bytes.
  const bool flushed = written && std::fflush(file) == 0 && ::fsync(::fileno(file)) == 0;
  const int flush_errno = errno;
  const bool closed = std::fclose(file) == 0;
  if (!written || !flushed || !closed) {
    std::remove(temp.c_str());
    fail(path, std::strerror(!written ? write_errno : flush_errno));
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    const int rename_errno = errno;
    std::remove(temp.c_str());
    fail(path, std::strerror(rename_errno));
  }
}

}  // namespace attnviz
