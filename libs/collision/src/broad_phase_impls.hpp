// Internal: constructors of the concrete broad phases, used by make_broad_phase().
#pragma once

#include <memory>

#include "sinew/collision/broad_phase.hpp"

namespace sinew::detail {

std::unique_ptr<BroadPhase> make_bvh_broad_phase(const BroadPhaseOptions& params);
std::unique_ptr<BroadPhase> make_hash_broad_phase(const BroadPhaseOptions& params);

}  // namespace sinew::detail
