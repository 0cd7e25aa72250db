// Binary reading and writing of LocalGlobalIntegrator checkpoints (private): raw host bytes,
// doubles as their bits, counts as uint64. The reader throws sinew::Error on a short read and
// on a count that does not match what the integrator expects; it never writes into the state.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <istream>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "sinew/core/config.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/small_matrix.hpp"

namespace sinew::integrators::detail {

/// Writes raw values to a stream (no checks: the stream's state tells the caller).
class CheckpointWriter {
 public:
  /// Writes to @p out, which must outlive the writer.
  explicit CheckpointWriter(std::ostream& out) : out_(&out) {}
  /// The bytes of @p value.
  template <class T>
  void put(const T& value) {
    out_->write(reinterpret_cast<const char*>(&value), sizeof(T));
  }
  /// A count as uint64.
  void count(std::size_t n) { put(static_cast<std::uint64_t>(n)); }
  /// (n) doubles, as bits.
  void doubles(const double* values, std::size_t n) {
    out_->write(reinterpret_cast<const char*>(values), static_cast<std::streamsize>(n * sizeof(double)));
  }
  /// A 3-vector.
  void vec3(const Vec3& a) { doubles(a.v, 3); }

 private:
  std::ostream* out_;
};

/// Reads what CheckpointWriter wrote; every failure is a sinew::Error prefixed by the context.
class CheckpointReader {
 public:
  /// Reads from @p in (must outlive the reader); @p who prefixes the messages.
  CheckpointReader(std::istream& in, std::string who) : in_(&in), who_(std::move(who)) {}
  /// The bytes of a T; @p what names it in the error on a short read.
  template <class T>
  T get(const char* what) {
    T value{};
    bytes(reinterpret_cast<char*>(&value), sizeof(T), what);
    return value;
  }
  /// A count that must equal @p expected (the integrator's own size of @p what).
  void expect_count(std::size_t expected, const char* what) {
    const std::uint64_t n = get<std::uint64_t>(what);
    require(n == expected, who_ + "the checkpoint has " + std::to_string(n) + " " + what + ", this integrator " +
                               std::to_string(expected));
  }
  /// A count no larger than @p limit (an upper bound that rejects garbage before allocating).
  std::size_t bounded_count(std::size_t limit, const char* what) {
    const std::uint64_t n = get<std::uint64_t>(what);
    require(n <= limit, who_ + "the checkpoint's " + what + " count " + std::to_string(n) + " exceeds " +
                            std::to_string(limit) + " for this integrator");
    return static_cast<std::size_t>(n);
  }
  /// (n) finite doubles into @p out (resized).
  void doubles(std::vector<double>& out, std::size_t n, const char* what) {
    out.resize(n);
    bytes(reinterpret_cast<char*>(out.data()), n * sizeof(double), what);
    for (std::size_t i = 0; i < n; ++i)
      require(std::isfinite(out[i]), who_ + std::string(what) + "[" + std::to_string(i) + "] is not finite");
  }
  /// A finite 3-vector.
  Vec3 vec3(const char* what) {
    std::vector<double> v;
    doubles(v, 3, what);
    return Vec3{{v[0], v[1], v[2]}};
  }
  /// The message prefix.
  const std::string& who() const { return who_; }

 private:
  void bytes(char* to, std::size_t n, const char* what) {
    in_->read(to, static_cast<std::streamsize>(n));
    require(static_cast<std::size_t>(in_->gcount()) == n, who_ + "truncated data: expected " + std::to_string(n) +
                                                              " bytes of " + what + ", got " +
                                                              std::to_string(in_->gcount()));
  }
  std::istream* in_;
  std::string who_;
};

}  // namespace sinew::integrators::detail
