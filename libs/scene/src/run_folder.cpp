// The output folder of a run and its manifest (run_folder.hpp).
#include "run_folder.hpp"

#include <algorithm>
#include <fstream>
#include <system_error>

#include "sinew/core/atomic_file.hpp"
#include "sinew/core/error.hpp"
#include "sinew/scene/file_names.hpp"

namespace sinew::scene::detail {
namespace {

constexpr const char* kHeader = "# sinew run manifest 1: the files this run wrote (step, path); -1: of no one step";

// The folders a run writes into, and the extension of the files it writes in each.
struct OutputKind {
  const char* folder;     // "" for the output folder itself
  const char* extension;  // with the dot
};
constexpr OutputKind kKinds[] = {{"", ".csv"},    {"vtu", ".pvd"}, {"vtu", ".vtu"},
                                 {"obj", ".obj"}, {"png", ".png"}, {"checkpoints", ".sinewckpt"}};

// True when @p path is a name a run writes: [folder/]stem.ext with a known folder and extension
// and a file-name safe stem (so a manifest cannot name anything outside the folder).
bool is_run_file(const std::string& path) {
  const std::size_t slash = path.find('/');
  const std::string folder = slash == std::string::npos ? "" : path.substr(0, slash);
  const std::string file = slash == std::string::npos ? path : path.substr(slash + 1);
  const std::size_t dot = file.rfind('.');
  if (dot == std::string::npos || !is_safe_file_name(file.substr(0, dot))) return false;
  const std::string extension = file.substr(dot);
  return std::any_of(std::begin(kKinds), std::end(kKinds),
                     [&](const OutputKind& k) { return folder == k.folder && extension == k.extension; });
}

// The earlier run's manifest in @p dir; empty when there is none.
std::vector<RunFile> read_manifest(const std::filesystem::path& dir) {
  const std::filesystem::path path = dir / RunFolder::kManifest;
  std::vector<RunFile> out;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return out;
  if (!std::filesystem::is_regular_file(path, ec))
    throw Error(path.string() + ": expected the manifest file of an earlier run, found something else");
  std::ifstream in(path);
  if (!in) throw Error(path.string() + ": cannot read the manifest of the earlier run");
  std::string line;
  long number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    const std::size_t space = line.find(' ');
    RunFile f;
    char* end = nullptr;
    f.step = std::strtol(line.c_str(), &end, 10);
    if (space == std::string::npos || end != line.c_str() + space || f.step < -1)
      throw Error(path.string() + ":" + std::to_string(number) + ": expected \"STEP PATH\", found \"" + line + "\"");
    f.path = line.substr(space + 1);
    if (!is_run_file(f.path))
      throw Error(path.string() + ":" + std::to_string(number) + ": \"" + f.path +
                  "\" is not a file sinew writes; the manifest was edited: remove the folder by hand");
    out.push_back(std::move(f));
  }
  return out;
}

// True when @p dir holds something a run writes (run.csv or one of its folders).
bool holds_outputs(const std::filesystem::path& dir) {
  std::error_code ec;
  for (const OutputKind& k : kKinds) {
    const std::filesystem::path p = *k.folder ? dir / k.folder : dir / "run.csv";
    if (std::filesystem::exists(p, ec)) return true;
  }
  return false;
}

}  // namespace

RunFolder::RunFolder(std::filesystem::path dir, bool overwrite, long resume_step)
    : dir_(std::move(dir)), overwrite_(overwrite), resume_step_(resume_step) {
  std::error_code ec;
  if (std::filesystem::exists(dir_, ec) && !std::filesystem::is_directory(dir_, ec))
    throw Error(dir_.string() + ": the output folder exists and is not a folder");
  earlier_ = read_manifest(dir_);
  const bool resuming = resume_step_ >= 0;
  if (!earlier_.empty() && !overwrite_ && !resuming)
    throw Error(dir_.string() + ": holds an earlier run (" + std::to_string(earlier_.size()) + " files listed in its " +
                kManifest +
                "); give --overwrite to replace them (nothing else in the folder is touched), or another --out");
  if (earlier_.empty() && !resuming && holds_outputs(dir_))
    throw Error(dir_.string() + ": holds run outputs (run.csv, vtu/, png/, obj/ or checkpoints/) but no " + kManifest +
                " listing them, so sinew cannot tell its files from others; choose another --out or empty it");
}

void RunFolder::prepare() {
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec) throw Error(dir_.string() + ": cannot create the output folder: " + ec.message());
  std::set<std::string> folders;
  for (const RunFile& f : earlier_) {
    if (!overwrite_ && f.step <= resume_step_) {
      files_.push_back(f);  // a resumed run keeps the earlier steps and whole-run files it rewrites
      listed_.insert(f.path);
      continue;
    }
    std::filesystem::remove(dir_ / f.path, ec);
    if (ec) throw Error((dir_ / f.path).string() + ": cannot remove this file of the earlier run: " + ec.message());
    const std::size_t slash = f.path.find('/');
    if (slash != std::string::npos) folders.insert(f.path.substr(0, slash));
  }
  for (const std::string& folder : folders)
    if (std::filesystem::is_empty(dir_ / folder, ec)) std::filesystem::remove(dir_ / folder, ec);
  write_manifest();
}

void RunFolder::note(const std::vector<RunFile>& files) {
  bool added = false;
  for (const RunFile& f : files) {
    if (!listed_.insert(f.path).second) continue;
    files_.push_back(f);
    added = true;
  }
  if (added) write_manifest();
}

void RunFolder::write_manifest() const {
  std::string text = std::string(kHeader) + '\n';
  for (const RunFile& f : files_) text += std::to_string(f.step) + ' ' + f.path + '\n';
  write_file_atomically(dir_ / kManifest, text);
}

}  // namespace sinew::scene::detail
