#include "core/model/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "core/common/error.h"
#include "core/model/checked.h"

namespace attnviz::model {
namespace {

class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  [[nodiscard]] int get() const { return fd_; }

 private:
  int fd_;
};

// A folder, a FIFO, a device: refused by name. A FIFO's open() would wait for a writer forever.
void require_regular(const std::string& path, const struct stat& info) {
  if (S_ISDIR(info.st_mode)) throw InputError(path, "", "is a folder, not a model file");
  if (!S_ISREG(info.st_mode)) {
    const char* kind = S_ISFIFO(info.st_mode)   ? "a FIFO (named pipe)"
                       : S_ISSOCK(info.st_mode) ? "a socket"
                                                : "a device";
    throw InputError(path, "", std::string("is ") + kind + ", not a regular file (a model is mapped into memory)");
  }
}

std::string cannot(const char* what, int error) {
  if (error == ELOOP) return "is a symbolic link loop (or a chain of too many links)";
  return std::string(what) + ": " + std::strerror(error);
}

}  // namespace

MappedFile::MappedFile(const std::string& path) : path_(path) {
  // The type is checked before the file is opened (stat follows links as open does), and
  // opened without blocking in case it changed in between.
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) throw InputError(path, "", cannot("cannot open", errno));
  require_regular(path, info);
  const FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (fd.get() < 0) throw InputError(path, "", cannot("cannot open", errno));
  if (::fstat(fd.get(), &info) != 0) throw InputError(path, "", cannot("cannot read", errno));
  require_regular(path, info);
  size_ = static_cast<std::uint64_t>(info.st_size);
  if (size_ == 0) return;
  void* mapped = ::mmap(nullptr, static_cast<std::size_t>(size_), PROT_READ, MAP_PRIVATE, fd.get(), 0);
  if (mapped == MAP_FAILED) throw InputError(path, "", std::string("cannot map into memory: ") + std::strerror(errno));
  data_ = static_cast<const std::byte*>(mapped);
}

MappedFile MappedFile::borrow(std::string name, std::span<const std::byte> bytes) {
  MappedFile file;
  file.path_ = std::move(name);
  file.data_ = bytes.data();
  file.size_ = bytes.size();
  file.owned_ = false;
  return file;
}

MappedFile::~MappedFile() { unmap(); }

MappedFile::MappedFile(MappedFile&& other) noexcept
    : path_(std::move(other.path_)),
      data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      owned_(other.owned_) {}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
  if (this != &other) {
    unmap();
    path_ = std::move(other.path_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    owned_ = other.owned_;
  }
  return *this;
}

void MappedFile::unmap() {
  if (data_ && owned_) ::munmap(const_cast<std::byte*>(data_), static_cast<std::size_t>(size_));
  data_ = nullptr;
  size_ = 0;
}

std::span<const std::byte> MappedFile::bytes(std::uint64_t offset, std::uint64_t count, const std::string& what) const {
  const std::uint64_t end = checked_add(offset, count, path_, what);
  if (end > size_) {
    throw InputError(path_, what,
                     "bytes " + std::to_string(offset) + ".." + std::to_string(end) +
                         " lie past the end of the file (" + std::to_string(size_) +
                         " bytes): the file is truncated or its header is wrong");
  }
  return {data_ + offset, static_cast<std::size_t>(count)};
}

}  // namespace attnviz::model
