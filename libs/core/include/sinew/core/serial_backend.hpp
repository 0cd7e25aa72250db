/// @file
/// @brief The serial reference backend, available from core alone: every kernel a plain loop on
/// one thread. A program that links only sinew::core or sinew::linalg makes one directly, without
/// the backend registry (sinew::backends) or a backend of its own:
///
///     const std::unique_ptr<sinew::Backend> backend = sinew::make_serial_backend();
///     const sinew::KrylovResult r = sinew::conjugate_gradient(*backend, A, b, x);  // krylov.hpp
///
/// The registry's "serial" backend is this one.
#pragma once

#include <memory>

#include "sinew/core/backend.hpp"

namespace sinew {

/// A new serial reference backend ("serial"): one thread, host memory; the oracle every other
/// backend is compared with.
std::unique_ptr<Backend> make_serial_backend();

}  // namespace sinew
