// The graph of H and its elimination order (Baraff, Section 7.1 and Appendix A "ordermatrix"):
// cycle detection among the primary constraints, roots per tree, depth-first post-order.
#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "sinew/core/error.hpp"
#include "sinew/linalg/baraff_solver.hpp"

namespace sinew {
namespace {

// Union-find over the bodies plus one vertex for the world: a primary constraint whose two ends
// are already connected closes a cycle (through the world when both ends reach it).
class DisjointSets {
 public:
  explicit DisjointSets(int n) : parent_(static_cast<std::size_t>(n)) { std::iota(parent_.begin(), parent_.end(), 0); }
  int find(int v) {
    while (parent_[v] != v) {
      parent_[v] = parent_[parent_[v]];  // path halving keeps the trees shallow
      v = parent_[v];
    }
    return v;
  }
  bool unite(int a, int b) {
    a = find(a);
    b = find(b);
    if (a == b) return false;
    parent_[b] = a;
    return true;
  }

 private:
  std::vector<int> parent_;
};

std::string body_name(int body) { return body == kBaraffWorld ? "the world" : "body " + std::to_string(body); }

}  // namespace

void BaraffSolver::analyze(const BaraffProblem& problem) {
  num_bodies_ = problem.num_bodies();
  num_constraints_ = problem.num_constraints();
  num_dofs_ = problem.num_dofs();
  num_multipliers_ = problem.num_multipliers();
  const int nb = num_bodies_;
  const int nodes = nb + num_constraints_;
  const auto& constraints = problem.constraints();

  body_offset_.resize(static_cast<std::size_t>(nb) + 1);
  for (int i = 0; i <= nb; ++i) body_offset_[i] = i < nb ? problem.body_offset(i) : num_dofs_;
  constraint_offset_.resize(static_cast<std::size_t>(num_constraints_) + 1);
  for (int i = 0; i <= num_constraints_; ++i)
    constraint_offset_[i] = i < num_constraints_ ? problem.constraint_offset(i) : num_multipliers_;
  constraint_bodies_.resize(2 * static_cast<std::size_t>(num_constraints_));

  // Cycle check in input order, so the error names the first constraint that closes a loop.
  DisjointSets sets(nb + 1);
  const int world = nb;
  for (int c = 0; c < num_constraints_; ++c) {
    const int a = constraints[c].body_a, b = constraints[c].body_b;
    constraint_bodies_[2 * c] = a;
    constraint_bodies_[2 * c + 1] = b;
    if (!sets.unite(a == kBaraffWorld ? world : a, b == kBaraffWorld ? world : b))
      throw Error("BaraffSolver: primary constraint " + std::to_string(c) + " (between " + body_name(a) + " and " +
                  body_name(b) + ") closes a cycle of primary constraints" +
                  (a == kBaraffWorld || b == kBaraffWorld ? " (through the world: its tree already has a world "
                                                            "constraint)"
                                                          : "") +
                  "; primary constraints must form a tree or forest, so loop constraints must be auxiliary "
                  "(BaraffAuxiliaryConstraint)");
  }

  // Adjacency of H's graph in CSR form: constraint node nb + c is adjacent to its bodies.
  std::vector<int> adj_ptr(static_cast<std::size_t>(nodes) + 1, 0), adj;
  for (int c = 0; c < num_constraints_; ++c)
    for (int body : {constraints[c].body_a, constraints[c].body_b})
      if (body != kBaraffWorld) {
        ++adj_ptr[body + 1];
        ++adj_ptr[nb + c + 1];
      }
  std::partial_sum(adj_ptr.begin(), adj_ptr.end(), adj_ptr.begin());
  adj.resize(static_cast<std::size_t>(adj_ptr.back()));
  {
    std::vector<int> fill(adj_ptr.begin(), adj_ptr.end() - 1);
    for (int c = 0; c < num_constraints_; ++c)
      for (int body : {constraints[c].body_a, constraints[c].body_b})
        if (body != kBaraffWorld) {
          adj[fill[body]++] = nb + c;
          adj[fill[nb + c]++] = body;
        }
  }

  // Depth-first post-order ("ordermatrix"), iterative so that a 10^5-link chain does not overflow
  // the stack. A tree with a world constraint is rooted there: a world constraint has a single
  // body, so as a leaf its pivot block would be 0 (Appendix A: "n.D = 0" with no child to fill
  // it); as the root it receives its body's contribution. Other trees are rooted at their
  // lowest-numbered body.
  std::vector<int> parent_node(static_cast<std::size_t>(nodes), -1);
  std::vector<char> visited(static_cast<std::size_t>(nodes), 0);
  std::vector<int> stack, cursor(static_cast<std::size_t>(nodes), 0);
  order_.clear();
  order_.reserve(static_cast<std::size_t>(nodes));
  num_components_ = 0;
  auto visit_tree = [&](int root) {
    if (visited[root]) return;
    ++num_components_;
    visited[root] = 1;
    cursor[root] = adj_ptr[root];
    stack.push_back(root);
    while (!stack.empty()) {
      const int node = stack.back();
      if (cursor[node] < adj_ptr[node + 1]) {
        const int next = adj[cursor[node]++];
        if (visited[next]) continue;  // the parent (the graph is a forest, checked above)
        visited[next] = 1;
        parent_node[next] = node;
        cursor[next] = adj_ptr[next];
        stack.push_back(next);
      } else {
        order_.push_back(node);  // all children are already in Forward
        stack.pop_back();
      }
    }
  };
  for (int c = 0; c < num_constraints_; ++c)
    if (constraints[c].body_a == kBaraffWorld || constraints[c].body_b == kBaraffWorld) visit_tree(nb + c);
  for (int b = 0; b < nb; ++b) visit_tree(b);

  // Per-position data, stored in elimination order so that both sweeps walk memory in sequence.
  position_.resize(static_cast<std::size_t>(nodes));
  for (int p = 0; p < nodes; ++p) position_[order_[p]] = p;
  parent_.resize(static_cast<std::size_t>(nodes));
  dim_.resize(static_cast<std::size_t>(nodes));
  natural_offset_.resize(static_cast<std::size_t>(nodes));
  x_offset_.assign(static_cast<std::size_t>(nodes) + 1, 0);
  pivot_offset_.assign(static_cast<std::size_t>(nodes) + 1, 0);
  link_offset_.assign(static_cast<std::size_t>(nodes) + 1, 0);
  max_dim_ = 1;
  for (int p = 0; p < nodes; ++p) {
    const int node = order_[p];
    const bool body = node < nb;
    parent_[p] = parent_node[node] < 0 ? -1 : position_[parent_node[node]];
    dim_[p] = body ? problem.body_dim(node) : problem.constraint_dim(node - nb);
    natural_offset_[p] = body ? body_offset_[node] : num_dofs_ + constraint_offset_[node - nb];
    max_dim_ = std::max(max_dim_, dim_[p]);
  }
  for (int p = 0; p < nodes; ++p) {
    const auto d = static_cast<std::size_t>(dim_[p]);
    const std::size_t dp = parent_[p] < 0 ? 0 : static_cast<std::size_t>(dim_[parent_[p]]);
    x_offset_[p + 1] = x_offset_[p] + dim_[p];
    pivot_offset_[p + 1] = pivot_offset_[p] + d * d;
    link_offset_[p + 1] = link_offset_[p] + d * dp;
  }
  natural_x_offset_.resize(static_cast<std::size_t>(nodes));
  for (int p = 0; p < nodes; ++p) natural_x_offset_[order_[p]] = x_offset_[p];
  pivot_.resize(pivot_offset_.back());
  link_.resize(link_offset_.back());
}

void BaraffSolver::check_structure(const BaraffProblem& problem) const {
  const char* who = "BaraffSolver::factor: the problem must have the structure the solver was built for; ";
  if (!(problem.num_bodies() == num_bodies_ && problem.num_constraints() == num_constraints_))
    throw Error(std::string(who) + "expected " + std::to_string(num_bodies_) + " bodies and " +
                std::to_string(num_constraints_) + " primary constraints, got " + std::to_string(problem.num_bodies()) +
                " and " + std::to_string(problem.num_constraints()));
  for (int i = 0; i < num_bodies_; ++i)
    if (!(problem.body_offset(i) == body_offset_[i] && problem.body_dim(i) == body_offset_[i + 1] - body_offset_[i]))
      throw Error(std::string(who) + "body " + std::to_string(i) + " changed its dimension");
  for (int c = 0; c < num_constraints_; ++c) {
    const BaraffConstraint& con = problem.constraints()[c];
    if (!(con.body_a == constraint_bodies_[2 * c] && con.body_b == constraint_bodies_[2 * c + 1] &&
          problem.constraint_dim(c) == constraint_offset_[c + 1] - constraint_offset_[c]))
      throw Error(std::string(who) + "primary constraint " + std::to_string(c) +
                  " changed its bodies or its dimension");
  }
}

}  // namespace sinew
