#include "core/common/input_file.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iterator>

#include "core/common/error.h"

namespace attnviz {
namespace {

constexpr std::size_t kChunkBytes = std::size_t{1} << 20;
constexpr int kCancelPollMs = 100;

class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  [[nodiscard]] int get() const { return fd_; }

 private:
  int fd_;
};

bool cancelled(const ReadOptions& options) { return options.cancel != nullptr && options.cancel->load(); }

[[noreturn]] void refuse(const std::string& path, const std::string& problem) { throw InputError(path, "", problem); }

std::string open_problem(int error) {
  switch (error) {
    case ENOENT: return "no such file";
    case EACCES:
    case EPERM: return "cannot be read (permission denied)";
    case ENXIO: return "is a socket or a device that cannot be read, not a scenario file";
    case ELOOP: return "is a loop of symbolic links";
    default: return std::string("cannot be opened: ") + std::strerror(error);
  }
}

// Waits until `fd` has data, has ended, or the read is cancelled.
void wait_readable(int fd, const std::string& path, const ReadOptions& options) {
  while (true) {
    if (cancelled(options)) throw ReadCancelled();
    pollfd request{fd, POLLIN, 0};
    const int ready = ::poll(&request, 1, options.cancel != nullptr ? kCancelPollMs : -1);
    if (ready > 0) return;
    if (ready < 0 && errno != EINTR) refuse(path, std::string("could not be read: ") + std::strerror(errno));
  }
}

}  // namespace

std::string byte_size_text(std::size_t bytes) {
  static const char* const kUnits[] = {"KiB", "MiB", "GiB", "TiB"};
  if (bytes < 1024) return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
  double value = static_cast<double>(bytes) / 1024.0;
  std::size_t unit = 0;
  while (value >= 1024.0 && unit + 1 < std::size(kUnits)) {
    value /= 1024.0;
    ++unit;
  }
  char text[32];
  const bool whole = value == static_cast<double>(static_cast<long long>(value));
  std::snprintf(text, sizeof text, whole || value >= 100.0 ? "%.0f %s" : "%.1f %s", value, kUnits[unit]);
  return text;
}

std::string read_input_file(const std::string& path, const ReadOptions& options) {
  // O_NONBLOCK: opening a FIFO that nobody writes to must not wait here (where it could not
  // be cancelled); the reads below wait with poll instead.
  Descriptor file(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
  if (file.get() < 0) refuse(path, open_problem(errno));
  struct stat info {};
  if (::fstat(file.get(), &info) != 0) refuse(path, std::string("cannot be read: ") + std::strerror(errno));
  if (S_ISDIR(info.st_mode)) refuse(path, std::string("is a folder, not a ") + options.kind);
  const bool regular = S_ISREG(info.st_mode);
  if (!regular && options.regular_files_only) {
    refuse(path, "is not a regular file (a device, a FIFO or a socket); attnviz only reads this from a file it wrote");
  }
  const std::size_t limit = regular ? options.max_file_bytes : options.max_stream_bytes;
  if (regular && static_cast<unsigned long long>(info.st_size) > limit) {
    refuse(path, "is " + byte_size_text(static_cast<std::size_t>(info.st_size)) + "; attnviz opens files of at most " +
                     byte_size_text(limit));
  }
  std::string text;
  if (regular) text.reserve(static_cast<std::size_t>(info.st_size));
  std::size_t chunk = kChunkBytes;
  while (true) {
    if (!regular) wait_readable(file.get(), path, options);
    if (cancelled(options)) throw ReadCancelled();
    // One byte past the limit is enough to know the input is too large.
    chunk = std::min(kChunkBytes, limit + 1 - text.size());
    const std::size_t old_size = text.size();
    text.resize(old_size + chunk);
    const ssize_t got = ::read(file.get(), text.data() + old_size, chunk);
    if (got < 0) {
      text.resize(old_size);
      if (errno == EINTR || errno == EAGAIN) continue;
      if (errno == EISDIR) refuse(path, std::string("is a folder, not a ") + options.kind);
      refuse(path, std::string("could not be read completely: ") + std::strerror(errno));
    }
    text.resize(old_size + static_cast<std::size_t>(got));
    if (options.progress != nullptr) options.progress->store(text.size());
    if (got == 0) break;
    if (text.size() > limit) {
      if (regular)
        refuse(path, "grew beyond " + byte_size_text(limit) + " while being read; attnviz opens files of at most " +
                         byte_size_text(limit));
      refuse(path, "is not a regular file and gave more than " + byte_size_text(limit) +
                       " without ending (is it a device such as /dev/zero?); attnviz reads at most " +
                       byte_size_text(limit) +
                       " from a pipe or a device: save what it gives to a regular file and name that instead");
    }
  }
  return text;
}

}  // namespace attnviz
