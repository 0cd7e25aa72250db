/// @file
/// @brief Sweep files: a JSON description of an ensemble of scenes — a base scene file, the
/// parameters to vary (JSON pointers into the scene, each with a list of values, a range or
/// seeded random draws), how they combine (grid or zip) and which outputs each run reports.
/// Checked key by key like scene files: an unknown key, a wrong type or an out-of-range value is a
/// sinew::Error naming the sweep file, the JSON path and what was expected. docs/sweeps.md
/// documents the schema.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace sinew::ensemble {

/// How a parameter's values are given.
enum class ValueSource {
  kList,   ///< "values": an explicit list of JSON values (numbers, strings, arrays, ...)
  kRange,  ///< "range": count numbers from start to stop, linear or logarithmic spacing
  kRandom  ///< "random": count seeded draws (uniform, normal or log-uniform)
};

/// The distribution of ValueSource::kRandom draws.
enum class Distribution {
  kUniform,    ///< uniform on [low, high)
  kNormal,     ///< normal with mean and stddev (Box-Muller on two uniform draws)
  kLogUniform  ///< exp of uniform on [ln low, ln high): scale parameters spanning decades
};

/// One varied parameter: where it goes in the scene and its values.
struct Parameter {
  std::string pointer;                      ///< RFC 6901 JSON pointer into the base scene, e.g. "/obstacles/0/friction"
  std::string name;                         ///< summary column name ("name"; default: the pointer)
  ValueSource source = ValueSource::kList;  ///< how the values are given
  /// The values as compact JSON texts, in order (lists as given; ranges and draws expanded, numbers
  /// printed so that they read back to the same double).
  std::vector<std::string> values;
};

/// How the per-step values of a scalar column are reduced to one output.
enum class Reduction {
  kLast,  ///< the last step's value
  kMin,   ///< the smallest over all steps
  kMax,   ///< the largest over all steps
  kMean   ///< the arithmetic mean over all steps (summed in step order)
};

/// One reported output of every variant.
struct OutputSpec {
  std::string name;  ///< summary column name
  /// What is measured.
  enum class Kind {
    kScalar,       ///< a Simulation::scalar_names() column reduced over the steps
    kDisplacement  ///< the displacement of a body's vertex centroid from the first to the last step
  };
  Kind kind = Kind::kScalar;               ///< what is measured
  std::string scalar;                      ///< Kind::kScalar: the column name, e.g. "kinetic_energy"
  Reduction reduction = Reduction::kLast;  ///< Kind::kScalar: how the steps are reduced
  std::string body;                        ///< Kind::kDisplacement: OutputMesh::name of the body
  int component = 0;                       ///< Kind::kDisplacement: 0, 1, 2 = x, y, z; 3 = Euclidean norm
};

/// How the parameters combine into variants.
enum class Combination {
  kGrid,  ///< Cartesian product; the last parameter varies fastest
  kZip    ///< the i-th values of every parameter together (all lists must have the same length)
};

/// A sweep file read and checked.
struct SweepFile {
  std::filesystem::path path;                    ///< the sweep file (or the name given to parse_sweep())
  std::string name;                              ///< "name" (default: the file's stem)
  std::string description;                       ///< "description": free text
  std::filesystem::path base_scene;              ///< "base_scene", resolved against the sweep file's folder
  std::string base_text;                         ///< the base scene file's text
  Combination combination = Combination::kGrid;  ///< "combination"
  /// "set": JSON pointer → compact JSON value applied to every variant before the parameters
  /// (e.g. fewer steps, outputs off), in the order given.
  std::vector<std::pair<std::string, std::string>> fixed;
  std::vector<Parameter> parameters;  ///< "parameters", in order (the summary's column order)
  std::vector<OutputSpec> outputs;    ///< "outputs", in order
};

/// Reads and checks the sweep file @p path and the base scene's JSON syntax and pointers.
/// @throws sinew::Error naming the sweep file, the JSON path and what was expected (or the base
///         scene file when it is missing or not JSON).
SweepFile read_sweep_file(const std::filesystem::path& path);

/// Parses sweep-file text @p text; @p name is used in messages, @p base_dir resolves base_scene.
/// @throws sinew::Error as read_sweep_file().
SweepFile parse_sweep(std::string_view text, const std::string& name, const std::filesystem::path& base_dir);

/// A small reproducible generator (splitmix64): the same seed gives the same draws on every
/// machine and compiler, unlike the standard distributions whose output is implementation-defined.
class SplitMix64 {
 public:
  /// Starts the stream at @p seed.
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  /// The next 64 random bits.
  std::uint64_t next();
  /// A double uniform on [0, 1): the top 53 bits of next() times 2^-53.
  double uniform01();

 private:
  std::uint64_t state_;
};

/// @p count draws of @p distribution with parameters @p a, @p b (uniform and log-uniform: low,
/// high; normal: mean, stddev) from the stream seeded with @p seed, using only +, *, log, sqrt,
/// cos, exp on uniform01() values, so the draws are the same wherever IEEE doubles and a correctly
/// rounded libm are (glibc's log/exp/cos/sqrt are).
std::vector<double> random_draws(Distribution distribution, double a, double b, std::size_t count, std::uint64_t seed);

/// @p count numbers from @p start to @p stop inclusive, linearly (or geometrically when @p log)
/// spaced; count 1 gives start.
std::vector<double> range_values(double start, double stop, std::size_t count, bool log);

}  // namespace sinew::ensemble
