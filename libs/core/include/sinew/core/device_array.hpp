/// @file
/// @brief DeviceArray: an owning, move-only array in a backend's memory.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

namespace sinew {

class Backend;

namespace detail {
/// Allocates @p bytes in @p backend's memory (nullptr for zero bytes); throws sinew::Error.
void* backend_allocate(Backend& backend, std::size_t bytes);
/// Frees memory obtained from backend_allocate(); never throws.
void backend_deallocate(Backend& backend, void* pointer) noexcept;
}  // namespace detail

/// An owning array of @p T in a backend's memory (host memory for CPU backends, GPU memory for
/// CUDA). Move-only; the backend must outlive every array it allocated. Host code must not
/// dereference data() directly: use Backend::upload / Backend::download.
template <class T>
class DeviceArray {
  static_assert(std::is_trivially_copyable_v<T>, "DeviceArray holds plain data only");

 public:
  /// An empty array that belongs to no backend.
  DeviceArray() = default;
  /// Allocates @p n uninitialised elements on @p backend; throws sinew::Error when out of memory.
  DeviceArray(Backend& backend, std::size_t n)
      : backend_(&backend),
        data_(static_cast<T*>(detail::backend_allocate(backend, n * sizeof(T)))),
        size_(n),
        capacity_(n) {}
  /// Frees the memory.
  ~DeviceArray() { reset(); }
  /// Takes over @p other's memory, leaving it empty.
  DeviceArray(DeviceArray&& other) noexcept { swap(other); }
  /// Frees this array's memory and takes over @p other's.
  DeviceArray& operator=(DeviceArray&& other) noexcept {
    if (this != &other) {
      reset();
      swap(other);
    }
    return *this;
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;

  /// Number of elements.
  std::size_t size() const { return size_; }
  /// True when the array holds no element.
  bool empty() const { return size_ == 0; }
  /// Pointer into backend memory (nullptr when empty, unless grow_to() kept memory).
  T* data() { return data_; }
  /// Pointer into backend memory (nullptr when empty, unless grow_to() kept memory).
  const T* data() const { return data_; }
  /// Number of elements the memory holds (size() or more after grow_to()).
  std::size_t capacity() const { return capacity_; }

  /// Makes the array @p n elements long on @p backend, for buffers whose size changes from step
  /// to step (a contact count): the memory is kept when it holds at least n elements on that
  /// backend, else replaced by a new allocation. The contents are unspecified either way.
  void grow_to(Backend& backend, std::size_t n) {
    if (backend_ == &backend && n <= capacity_) {
      size_ = n;
      return;
    }
    *this = DeviceArray(backend, n);
  }
  /// The backend that owns the memory (nullptr for a default-constructed array).
  Backend* backend() const { return backend_; }

  /// Frees the memory and leaves the array empty and owned by no backend.
  void reset() noexcept {
    if (backend_ && data_) detail::backend_deallocate(*backend_, data_);
    backend_ = nullptr;
    data_ = nullptr;
    size_ = 0;
    capacity_ = 0;
  }

 private:
  void swap(DeviceArray& other) noexcept {
    std::swap(backend_, other.backend_);
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(capacity_, other.capacity_);
  }

  Backend* backend_ = nullptr;
  T* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

}  // namespace sinew
