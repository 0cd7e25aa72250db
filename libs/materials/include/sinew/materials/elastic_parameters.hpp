/// @file
/// @brief Elastic parameters of isotropic materials: Young's modulus and Poisson ratio, checked
/// and converted to the Lame parameters that every per-element model takes.
#pragma once

namespace sinew {

/// Lame parameters of an isotropic material, the form every per-element model takes.
struct LameParameters {
  double mu = 0.0;      ///< shear modulus mu = E / (2 (1 + nu)), Pa
  double lambda = 0.0;  ///< first Lame parameter lambda = E nu / ((1 + nu)(1 - 2 nu)), Pa
};

/// Engineering parameters of an isotropic elastic material, as scene files give them.
struct ElasticParameters {
  /// Young's modulus E in Pa; 1e6 Pa is a soft rubber, the usual scale of interactive examples.
  double youngs_modulus = 1e6;
  /// Poisson ratio nu; 0.3 is typical of solids and keeps lambda moderate (nu -> 0.5 locks).
  double poisson_ratio = 0.3;
};

/// Converts Young's modulus and Poisson ratio to Lame parameters.
/// @throws sinew::Error naming the parameter when E <= 0 (or not finite) or nu is outside
///         (-1, 0.5), where the material would not be stable or lambda would be infinite.
LameParameters lame_parameters(const ElasticParameters& p);

/// Young's modulus E = mu (3 lambda + 2 mu) / (lambda + mu) of Lame parameters (for tests and
/// reports; the caller passes lambda + mu != 0).
double youngs_modulus(const LameParameters& p);

/// Poisson ratio nu = lambda / (2 (lambda + mu)) of Lame parameters (lambda + mu != 0).
double poisson_ratio(const LameParameters& p);

}  // namespace sinew
