/// @file
/// @brief Expansion of a sweep into numbered variants: each variant's scene text is the base scene
/// with the fixed values and the variant's parameter values substituted at their JSON pointers.
/// The numbering is deterministic (grid: the last parameter varies fastest; zip: in list order).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "sinew/ensemble/sweep_file.hpp"
#include "sinew/scene/scene_file.hpp"

namespace sinew::ensemble {

/// One member of the ensemble.
struct Variant {
  std::size_t index = 0;            ///< 0-based number, also its folder variant_NNNN
  std::vector<std::string> values;  ///< (parameters.size()) compact JSON of each parameter's value
  std::string scene_text;           ///< the variant's scene file text (base with substitutions)
};

/// How many variants @p sweep has (grid: product of the list sizes; zip: their common size).
std::size_t variant_count(const SweepFile& sweep);

/// Variant @p index of @p sweep (its values and scene text).
/// @throws sinew::Error when @p index >= variant_count() or a pointer no longer resolves.
Variant make_variant(const SweepFile& sweep, std::size_t index);

/// Every variant of @p sweep, in order.
std::vector<Variant> expand(const SweepFile& sweep);

/// Parses @p variant's scene text with scene::parse_scene, so every variant gets the scene
/// reader's full checks; mesh paths resolve against the base scene's folder.
/// @throws sinew::Error "SWEEP variant N (NAME=VALUE, ...): ..." naming the variant.
scene::SceneFile parse_variant(const SweepFile& sweep, const Variant& variant);

/// "variant_NNNN" (at least 4 digits): the folder of variant @p index under the output folder.
std::string variant_folder(std::size_t index);

}  // namespace sinew::ensemble
