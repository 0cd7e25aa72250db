// Checkpoint files of runner.hpp: a small binary container around Simulation::save()'s payload.
//
// Layout (little-endian): "SINEWCKP" | u32 version | u32 name length | name bytes |
// u64 fingerprint | u64 scene hash | i64 steps | f64 time | u64 payload length |
// u64 FNV-1a of the payload | payload. The payload must end the file exactly.
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

#include "sinew/core/atomic_file.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"
#include "sinew/scene/runner.hpp"

namespace sinew::scene {
namespace {

constexpr char kMagic[8] = {'S', 'I', 'N', 'E', 'W', 'C', 'K', 'P'};
constexpr std::uint32_t kVersion = 1;
constexpr std::uint32_t kMaxName = 4096;

void put_u64(std::string& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out += static_cast<char>((v >> (8 * i)) & 0xffu);
}
void put_u32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out += static_cast<char>((v >> (8 * i)) & 0xffu);
}
std::uint64_t bits_of(double d) {
  std::uint64_t b = 0;
  std::memcpy(&b, &d, sizeof b);
  return b;
}

// Reads fields from the file's bytes; every failure names the file.
class Reader {
 public:
  Reader(const std::string& bytes, const std::string& file) : bytes_(bytes), file_(file) {}
  std::uint64_t u64(const char* what) { return take(8, what); }
  std::uint32_t u32(const char* what) { return static_cast<std::uint32_t>(take(4, what)); }
  std::string str(std::size_t n, const char* what) {
    need(n, what);
    std::string s = bytes_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  std::size_t remaining() const { return bytes_.size() - pos_; }
  std::size_t position() const { return pos_; }

 private:
  void need(std::size_t n, const char* what) const {
    if (remaining() < n)
      throw Error(file_ + ": checkpoint is truncated (" + std::to_string(bytes_.size()) + " bytes; reading the " +
                  what + " at byte " + std::to_string(pos_) + ")");
  }
  std::uint64_t take(int n, const char* what) {
    need(static_cast<std::size_t>(n), what);
    std::uint64_t v = 0;
    for (int i = 0; i < n; ++i)
      v |= static_cast<std::uint64_t>(static_cast<unsigned char>(bytes_[pos_ + i])) << (8 * i);
    pos_ += static_cast<std::size_t>(n);
    return v;
  }
  const std::string& bytes_;
  const std::string& file_;
  std::size_t pos_ = 0;
};

// Parses the header; leaves @p r at the payload. @p payload_length, @p payload_hash out.
CheckpointHeader parse_header(Reader& r, const std::string& file, std::uint64_t& payload_length,
                              std::uint64_t& payload_hash) {
  if (r.remaining() < sizeof kMagic || r.str(sizeof kMagic, "magic") != std::string(kMagic, sizeof kMagic))
    throw Error(file + ": not a sinew checkpoint (it does not start with \"SINEWCKP\")");
  CheckpointHeader h;
  h.version = r.u32("format version");
  if (h.version != kVersion)
    throw Error(file + ": checkpoint format version " + std::to_string(h.version) + "; this sinew reads version " +
                std::to_string(kVersion));
  const std::uint32_t name_length = r.u32("scene-name length");
  if (name_length > kMaxName)
    throw Error(file + ": checkpoint is garbled (scene-name length " + std::to_string(name_length) + ")");
  h.scene_name = r.str(name_length, "scene name");
  h.fingerprint = r.u64("fingerprint");
  h.scene_hash = r.u64("scene hash");
  const std::uint64_t steps = r.u64("step count");
  h.steps = static_cast<long>(static_cast<std::int64_t>(steps));
  const std::uint64_t time_bits = r.u64("time");
  std::memcpy(&h.time, &time_bits, sizeof h.time);
  if (h.steps < 0 || !std::isfinite(h.time))
    throw Error(file + ": checkpoint is garbled (step " + std::to_string(h.steps) + ", time " + number_text(h.time) +
                ")");
  payload_length = r.u64("payload length");
  payload_hash = r.u64("payload hash");
  return h;
}

}  // namespace

std::uint64_t fnv1a64(std::string_view bytes) {
  std::uint64_t h = 14695981039346656037ull;
  for (char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  return h;
}

std::uint64_t simulation_fingerprint(const Simulation& sim) {
  std::string s = sim.name();
  const SimulationSize z = sim.size();
  for (std::uint64_t v :
       {static_cast<std::uint64_t>(z.vertices), std::uint64_t{z.tets}, std::uint64_t{z.triangles},
        std::uint64_t{z.rigid_bodies}, std::uint64_t{z.obstacles}, std::uint64_t{z.targets}, std::uint64_t{z.cables},
        std::uint64_t{z.joints}, static_cast<std::uint64_t>(z.degrees_of_freedom), bits_of(sim.time_step())})
    put_u64(s, v);
  for (const std::string& n : sim.scalar_names()) s += n + '\n';
  return fnv1a64(s);
}

void save_checkpoint(const std::filesystem::path& path, const Simulation& sim, std::uint64_t scene_hash) {
  std::ostringstream payload_stream(std::ios::binary);
  sim.save(payload_stream);
  const std::string payload = payload_stream.str();
  const std::string name = sim.name();
  require(name.size() <= kMaxName, path.string() + ": scene name longer than " + std::to_string(kMaxName) + " bytes");
  std::string out(kMagic, sizeof kMagic);
  put_u32(out, kVersion);
  put_u32(out, static_cast<std::uint32_t>(name.size()));
  out += name;
  put_u64(out, simulation_fingerprint(sim));
  put_u64(out, scene_hash);
  put_u64(out, static_cast<std::uint64_t>(static_cast<std::int64_t>(sim.steps())));
  put_u64(out, bits_of(sim.time()));
  put_u64(out, payload.size());
  put_u64(out, fnv1a64(payload));
  out += payload;
  write_file_atomically(path, out);
}

CheckpointHeader read_checkpoint_header(const std::filesystem::path& path) {
  const std::string bytes = read_file(path, "a sinew checkpoint"), file = path.string();
  Reader r(bytes, file);
  std::uint64_t length = 0, hash = 0;
  return parse_header(r, file, length, hash);
}

CheckpointHeader load_checkpoint(const std::filesystem::path& path, Simulation& sim, std::uint64_t scene_hash) {
  const std::string bytes = read_file(path, "a sinew checkpoint"), file = path.string();
  Reader r(bytes, file);
  std::uint64_t length = 0, hash = 0;
  const CheckpointHeader h = parse_header(r, file, length, hash);
  if (length != r.remaining())
    throw Error(file + ": checkpoint is " + (length > r.remaining() ? "truncated" : "garbled") + " (payload of " +
                std::to_string(length) + " bytes announced, " + std::to_string(r.remaining()) + " present)");
  const std::string payload = r.str(static_cast<std::size_t>(length), "payload");
  if (fnv1a64(payload) != hash) throw Error(file + ": checkpoint is garbled (its payload does not match its hash)");
  if (h.scene_name != sim.name())
    throw Error(file + ": checkpoint of scene '" + h.scene_name + "', not of '" + sim.name() + "'");
  if (h.fingerprint != simulation_fingerprint(sim))
    throw Error(file + ": checkpoint of another version of scene '" + h.scene_name +
                "' (its sizes, time step or scalar columns differ from this one's)");
  if (scene_hash != 0 && h.scene_hash != 0 && scene_hash != h.scene_hash)
    throw Error(file + ": checkpoint was written from a different scene file (its text changed since)");
  // Restore; undo on any failure so that the simulation is left as it was.
  std::ostringstream backup(std::ios::binary);
  sim.save(backup);
  std::string problem;
  try {
    std::istringstream in(payload, std::ios::binary);
    sim.restore(in);
    if (in.peek() != std::char_traits<char>::eof())
      problem = "its payload has bytes the simulation did not read";
    else if (sim.steps() != h.steps)
      problem = "it restored step " + std::to_string(sim.steps()) + ", its header says " + std::to_string(h.steps);
  } catch (const Error& e) {
    throw Error(file + ": cannot restore the checkpoint: " + e.what());
  }
  if (!problem.empty()) {
    std::istringstream undo(backup.str(), std::ios::binary);
    sim.restore(undo);
    throw Error(file + ": cannot restore the checkpoint: " + problem);
  }
  return h;
}

}  // namespace sinew::scene
