// The output folder of a run and its manifest, `sinew_run.txt`: the files a run wrote there, each
// with the step it belongs to, so that a later run can replace exactly them (--overwrite) or,
// resumed at step K, drop exactly those after K, and never touch anything else in the folder.
// Private to the scene library (runner.cpp).
#pragma once

#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace sinew::scene::detail {

/// One file of a run, relative to its output folder.
struct RunFile {
  long step = -1;    ///< the step it shows (a frame, snapshot or checkpoint); -1: the whole run (run.csv, a .pvd)
  std::string path;  ///< relative path with '/' separators, e.g. "vtu/cube_000010.vtu"
};

/// An output folder about to receive a run, and the manifest of what the run writes there.
class RunFolder {
 public:
  /// The manifest's file name in the output folder.
  static constexpr const char* kManifest = "sinew_run.txt";

  /// Checks @p dir before anything is written. A folder holding an earlier run (a manifest) is
  /// refused unless @p overwrite or @p resume_step >= 0 (a run resumed from that step); a folder
  /// holding sinew's outputs without a manifest is refused unless resuming (nothing of it is
  /// then removed). @throws sinew::Error naming the folder (or the manifest's line) and what to do.
  RunFolder(std::filesystem::path dir, bool overwrite, long resume_step);

  /// Creates the folder and removes the earlier run's files that this run replaces: all of them
  /// when overwriting; those of steps after the resume step when resuming (their successors are
  /// written again). @throws sinew::Error naming what could not be created or removed.
  void prepare();

  /// True when the manifest lists @p path: a file of this run, or one of the earlier run's that
  /// this run keeps (a resumed run's files up to its start).
  bool lists(const std::string& path) const { return listed_.count(path) != 0; }

  /// Adds @p files (paths relative to the folder) to the manifest and rewrites it, atomically,
  /// before they are written: a crash between the two leaves a listed file missing, never an
  /// unlisted one. Paths already listed are not repeated.
  void note(const std::vector<RunFile>& files);

 private:
  void write_manifest() const;

  std::filesystem::path dir_;
  bool overwrite_ = false;
  long resume_step_ = -1;
  std::vector<RunFile> earlier_;  // the earlier run's files (from its manifest)
  std::vector<RunFile> files_;    // listed in this run's manifest, in the order noted
  std::set<std::string> listed_;  // the paths of files_
};

}  // namespace sinew::scene::detail
