#include "sinew/constraints/contact_problem_file.hpp"

#include "sinew/constraints/siconos_dat_file.hpp"

#include <Eigen/SparseCore>
#include <vector>

namespace sinew::constraints {

ContactProblemFile read_contact_problem_file(const std::string& path) {
  ContactProblemFile file;
  if (is_hdf5_file(path)) {
    file.format = "fclib";
    if (fclib_form(path) == FclibForm::kLocal)
      file.local = read_fclib_local(path);
    else
      file.global = read_fclib_global(path);
    return file;
  }
  file.format = "siconos-dat";
  SiconosDatProblem dat = read_siconos_dat(path);
  file.local = std::move(dat.local);
  file.global = std::move(dat.global);
  return file;
}

DelassusProblem to_delassus_problem(const FclibLocalProblem& file) {
  DelassusProblem p;
  p.W = file.W;
  p.q = file.q;
  p.blocks.reserve(static_cast<std::size_t>(file.mu.size()));
  for (Eigen::Index c = 0; c < file.mu.size(); ++c)
    p.blocks.push_back(ConstraintBlock{BlockKind::kContact, file.mu[c]});
  return p;
}

GlobalProblem to_global_problem(const FclibGlobalProblem& file) {
  GlobalProblem p;
  p.M = file.M;
  p.f = file.f;
  const Index equalities = file.has_equalities() ? file.G.cols : 0;
  // H = [G H_contacts]: the equalities' columns first, as bilateral rows of the local form.
  std::vector<Eigen::Triplet<double, Index>> entries;
  for (const auto* part : {&file.G, &file.H}) {
    const Index offset = part == &file.H ? equalities : 0;
    for (Index r = 0; r < part->rows; ++r)
      for (Index k = part->row_ptr[r]; k < part->row_ptr[r + 1]; ++k)
        entries.emplace_back(r, offset + part->col_idx[k], part->values[k]);
  }
  EigenCsr H(file.H.rows, equalities + file.H.cols);
  H.setFromTriplets(entries.begin(), entries.end());
  p.H = from_eigen(H);
  p.w.resize(equalities + file.w.size());
  if (equalities > 0) p.w.head(equalities) = file.b;
  p.w.tail(file.w.size()) = file.w;
  p.blocks.assign(static_cast<std::size_t>(equalities), ConstraintBlock{BlockKind::kBilateral, 0.0});
  for (Eigen::Index c = 0; c < file.mu.size(); ++c)
    p.blocks.push_back(ConstraintBlock{BlockKind::kContact, file.mu[c]});
  return p;
}

}  // namespace sinew::constraints
