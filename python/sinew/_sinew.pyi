"""
sinew's solvers and simulations from Python (numpy / scipy.sparse arrays); import sinew.
"""
from __future__ import annotations
import numpy
import scipy.sparse
import os
import typing
__all__: list[str] = ['Backend', 'BaraffSolver', 'ContactProblem', 'ContactReport', 'Error', 'GlobalContactProblem', 'KinematicTree', 'KrylovResult', 'RunResult', 'Scene', 'Simulation', 'SparseInverse', 'StepOutcome', 'backend_names', 'cg', 'contact_solver_names', 'cr', 'fclib_supported', 'make_backend', 'minres', 'natural_map_error', 'parse_scene', 'read_fclib_global', 'read_fclib_local', 'read_fclib_solution', 'read_scene', 'solve_contact', 'solve_contact_global', 'write_fclib_global', 'write_fclib_local']
class Error(RuntimeError):
    """
    Bad input, API misuse or an unusable backend: the message of sinew::Error, unchanged.
    """
class Backend:
    """
    A compute backend (serial, tbb, kokkos, cuda) made by name.
    """
    @property
    def name(self) -> str:
        """
        The backend's name, e.g. 'serial'.
        """
class Simulation:
    """
    A running scene: step it, run it, read its state.
    """
    def contact(self) -> dict:
        """
        Multibody scenes with contact or joints: the constraint problem of the last step that had rows, in FCLIB's global form, and its solution, a dict: M, H (scipy.sparse; M v = H r + f, u = H^T v + w), f, w, r (impulses, (normal, t1, t2) per contact block), v (velocities after contact), system_impulses (H r on the system's velocities), kinds and mu per block (copies).
        """
    def contacts(self) -> dict:
        """
        The contacts of the last step (none before the first, after restore() or without contact), a dict of arrays, one row per contact, moved from C++ (no second copy): points_a, points_b (n x 3) the world witness points on sides A and B at the start of the step, where its rows were taken; normals (n x 3, from B to A), tangent1, tangent2 (n x 3): the contact frame; impulses (n x 3): (r_n, r_t1, r_t2) in that frame over the step (N s, FCLIB's order; A receives n r_n + t1 r_t1 + t2 r_t2, B the opposite); mu (n); kind_a, kind_b (n, str) and index_a, index_b (n): what each side is. Multibody scenes: 'obstacle' (index in the scene's obstacles), 'body' (rigid body), 'particle', or 'points' (a combination, e.g. a triangle's point; index -1), and block (n): the contact's block in contact()'s problem. Local-global scenes: A 'vertex' or 'edge' (its first vertex), B 'obstacle', 'triangle' (of the contact surfaces) or 'edge' (its first vertex), and nodes, weights (n x 4): the vertices the impulse acts on with their weights (-1 past the last).
        """
    def meshes(self) -> list:
        """
        Every body's current state as the VTU output holds it: dicts with name, points (n x 3), tets, triangles, point_fields (e.g. 'velocity', 'contact_force': n x 3) and cell_fields (copies).
        """
    def positions(self) -> numpy.ndarray:
        """
        The current positions, a snapshot (the step replaces the state's buffers, so a view would dangle). Local-global scenes: vertex positions (n x 3). Multibody scenes: the generalized positions q (rigid bodies x then quaternion w x y z).
        """
    def reduced_velocities(self) -> typing.Any:
        """
        Multibody scenes: the state's own velocities u (the free ones when the scene has attachments or drives, else every velocity), a snapshot.
        """
    def restore(self, state: bytes) -> None:
        """
        Restores what save() returned for the same scene; raises sinew.Error when it does not fit.
        """
    def rigid_poses(self) -> numpy.ndarray:
        """
        Multibody scenes: every rigid body's pose, (n_bodies x 7): origin x y z, then quaternion w x y z.
        """
    def run(self, out: os.PathLike, steps: int | None = None, every: int | None = None, png_every: int | None = None, overwrite: bool = False, resume: os.PathLike | None = None, progress: typing.Any = None) -> RunResult:
        """
        Runs to `steps` (default: the scene's) as `sinew run` does, writing run.csv, VTU frames every `every` steps, PNG snapshots every `png_every` (0: none; default: the scene's) and checkpoints under `out`. progress(info) is called after each step with a dict (step, steps, time, wall_seconds, eta_seconds, scalars); returning False stops the run cleanly; an exception it raises stops the run and is re-raised. Raises sinew.Error for bad options before writing anything.
        """
    def save(self) -> bytes:
        """
        The whole state (positions, velocities, time, warm starts) as bytes; restore() continues bit for bit.
        """
    def set_state(self, positions: numpy.ndarray, velocities: numpy.ndarray) -> None:
        """
        Replaces the state at the current time. Local-global scenes: vertex positions and velocities, (n x 3) or 3 n interleaved. Multibody scenes: q and the state's velocities u (velocities() unless the scene has attachments or drives, then reduced_velocities()). Raises sinew.Error on a size mismatch, a non-finite entry or a quaternion that is not unit (the state is then unchanged).
        """
    def step(self) -> StepOutcome:
        """
        Advances one step; numerical trouble is reported in the outcome (ok False), never raised.
        """
    def velocities(self) -> numpy.ndarray:
        """
        The current velocities, a snapshot. Local-global scenes: vertex velocities (n x 3). Multibody scenes: every generalized velocity (rigid bodies v then w).
        """
    @property
    def backend(self) -> str:
        """
        Backend name.
        """
    @property
    def name(self) -> str:
        """
        The scene's name.
        """
    @property
    def scalar_names(self) -> list[str]:
        """
        Column names of StepOutcome.scalars (run.csv's columns after step, t).
        """
    @property
    def steps(self) -> int:
        """
        Steps since t = 0.
        """
    @property
    def time(self) -> float:
        """
        Simulated time (s).
        """
    @property
    def time_step(self) -> float:
        """
        h (s).
        """
class Scene:
    """
    A scene file read and checked (docs/scene_files.md); make() builds its simulation.
    """
    def make(self, backend: str = '') -> Simulation:
        """
        The scene's simulation on the backend named `backend` ('' : the scene's, else $SINEW_BACKEND, else serial). Raises sinew.Error for an unknown or unusable backend or what only the integrator checks.
        """
    @property
    def backend(self) -> str:
        """
        The scene's backend ('' : the caller's default).
        """
    @property
    def description(self) -> str:
        """
        Free text.
        """
    @property
    def kind(self) -> str:
        """
        'local_global' or 'multibody'.
        """
    @property
    def name(self) -> str:
        """
        The scene's name.
        """
    @property
    def path(self) -> os.PathLike:
        """
        The file it was read from.
        """
    @property
    def steps(self) -> int:
        """
        Steps the scene runs for.
        """
    @property
    def time_step(self) -> float:
        """
        h (s).
        """
class StepOutcome:
    """
    What one step did.
    """
    @property
    def message(self) -> str:
        """
        What went wrong; '' when ok.
        """
    @property
    def ok(self) -> bool:
        """
        False: numerical trouble; the state was not advanced.
        """
    @property
    def scalars(self) -> list[float]:
        """
        One value per Simulation.scalar_names column.
        """
    @property
    def warning(self) -> str:
        """
        Why the step is suspect; '' otherwise.
        """
class RunResult:
    """
    How a run ended and what it wrote.
    """
    @property
    def checkpoints(self) -> list[os.PathLike]:
        """
        Checkpoint files written, in order.
        """
    @property
    def csv(self) -> os.PathLike:
        """
        run.csv ('' when off).
        """
    @property
    def first_step(self) -> int:
        """
        Steps done when the run began.
        """
    @property
    def last_step(self) -> int:
        """
        Steps done when it ended.
        """
    @property
    def message(self) -> str:
        """
        Failed: the step and what went wrong.
        """
    @property
    def ok(self) -> bool:
        """
        True when the run reached its last step.
        """
    @property
    def series(self) -> list[os.PathLike]:
        """
        The .pvd series, one per body.
        """
    @property
    def status(self) -> str:
        """
        'completed', 'stopped' or 'failed'.
        """
    @property
    def wall_seconds(self) -> float:
        """
        Wall time of the stepping loop (s).
        """
    @property
    def warned_steps(self) -> int:
        """
        Steps accepted with a warning.
        """
class KrylovResult:
    """
    How a CG / CR / MINRES solve ended.
    """
    def __repr__(self) -> str:
        ...
    @property
    def converged(self) -> bool:
        """
        True when the tolerance was reached.
        """
    @property
    def history(self) -> list[float]:
        """
        Relative residual after each iteration (history=True).
        """
    @property
    def iterations(self) -> int:
        """
        Iterations performed.
        """
    @property
    def message(self) -> str:
        """
        What happened, e.g. why it did not converge.
        """
    @property
    def relative_residual(self) -> float:
        """
        ||b - A x|| / ||b||.
        """
    @property
    def residual_norm(self) -> float:
        """
        ||b - A x|| of the returned x.
        """
    @property
    def status(self) -> str:
        """
        'converged', 'max_iterations', 'breakdown' or 'non_finite'.
        """
class SparseInverse:
    """
    The sparse inverse S' = L^-1 P of a symmetric positive-definite A (CHOLMOD, nested dissection): A^-1 = S'^T S', applied as two sparse products.
    """
    def __init__(self, A: scipy.sparse.spmatrix, structure: str = 'auto', backend: str = '') -> None:
        """
        Factors and inverts A (scipy.sparse, SPD, copied). structure: 'auto' detects A = A_s (x) I_3 and inverts only A_s, 'none' inverts A as given, 'kronecker3' states it. Raises sinew.Error when A is not square, symmetric and positive definite.
        """
    def solve(self, b: numpy.ndarray) -> numpy.ndarray:
        """
        x = S'^T (S' b) = A^-1 b on the backend (the local-global global step); b (dofs, interleaved xyz when block is 3) is read from its buffer and x written into a new array: no other copy.
        """
    @property
    def block(self) -> int:
        """
        3 when S' applies per coordinate (A = A_s (x) I_3), else 1.
        """
    @property
    def dofs(self) -> int:
        """
        Dimension of A.
        """
    @property
    def elimination_order(self) -> list[int]:
        """
        The elimination order P: column c of S' is column k of L^-1 where elimination_order[k] = c.
        """
    @property
    def factor(self) -> typing.Any:
        """
        S' (m x m, m = dofs / block) as a scipy.sparse.csr_matrix (a copy).
        """
    @property
    def factor_nnz(self) -> int:
        """
        Entries of the Cholesky factor L.
        """
    @property
    def nnz(self) -> int:
        """
        Entries of S'.
        """
class BaraffSolver:
    """
    Baraff's linear-time factor of the KKT matrix H = [M J^T; J 0] of bodies and primary constraints forming a forest, with workless auxiliary rows solved as equalities.
    """
    def __init__(self, masses: list[numpy.ndarray], constraints: list[tuple[int, int, numpy.ndarray, numpy.ndarray]], auxiliary: list[list[tuple[int, numpy.ndarray]]] = []) -> None:
        """
        masses: one SPD (d x d) array per body; constraints: (body_a, body_b, J_a, J_b) per primary constraint of dimension m, J_x of shape (m x dim(body_x)), body -1 for the world (its J ignored); auxiliary: rows [(body, J row (dim(body))), ...]. Raises sinew.Error naming the body or constraint (a cycle among the primary constraints, a singular pivot, a bad size).
        """
    def solve(self, force: numpy.ndarray, bias: numpy.ndarray, aux_bias: numpy.ndarray | None = None) -> tuple:
        """
        Solves M a = J^T lambda (+ K mu) + force, J a + bias = 0 (and J^a a + aux_bias = 0 when the problem has auxiliary rows): returns (a (dofs), lambda (multipliers), mu (auxiliary rows)).
        """
    @property
    def elimination_order(self) -> list[int]:
        """
        Depth-first elimination order: body i is node i, constraint j node num_bodies + j.
        """
    @property
    def num_components(self) -> int:
        """
        Trees in the forest of bodies and primary constraints.
        """
    @property
    def num_dofs(self) -> int:
        """
        Sum of the body dimensions.
        """
    @property
    def num_multipliers(self) -> int:
        """
        Sum of the primary constraint dimensions.
        """
class ContactProblem:
    """
    A frictional contact problem u = W r + q (FCLIB's local form): per contact, rows (normal, tangent 1, tangent 2) and Coulomb's cone with its mu.
    """
    def __init__(self, W: scipy.sparse.spmatrix, q: numpy.ndarray, mu: numpy.ndarray, box_friction: bool = False) -> None:
        """
        W: scipy.sparse (m x m), q (m), mu (m / 3), all copied; box_friction: a box (pyramid) bound instead of the circular cone. Raises sinew.Error naming the first bad size or value.
        """
    @property
    def W(self) -> typing.Any:
        """
        The Delassus operator as a scipy.sparse.csr_matrix (a copy).
        """
    @property
    def contacts(self) -> int:
        """
        Number of contacts.
        """
    @property
    def description(self) -> str:
        """
        FCLIB description.
        """
    @description.setter
    def description(self, arg1: str) -> None:
        ...
    @property
    def mu(self) -> numpy.ndarray:
        """
        Friction coefficient per contact (a copy).
        """
    @property
    def q(self) -> numpy.ndarray:
        """
        The free velocity (m): a read-only view into the problem, no copy.
        """
    @property
    def rows(self) -> int:
        """
        Rows m = 3 contacts.
        """
    @property
    def title(self) -> str:
        """
        FCLIB title.
        """
    @title.setter
    def title(self, arg1: str) -> None:
        ...
class ContactReport:
    """
    How a contact solve ended.
    """
    @property
    def converged(self) -> bool:
        """
        True when the tolerance was reached.
        """
    @property
    def error(self) -> float:
        """
        Final natural-map error, relative to ||q||.
        """
    @property
    def error_history(self) -> list[float]:
        """
        Natural-map error per iteration.
        """
    @property
    def iterations(self) -> int:
        """
        Iterations performed.
        """
    @property
    def message(self) -> str:
        """
        What happened.
        """
    @property
    def states(self) -> list[str]:
        """
        Per contact at the final r: 'open', 'stick' or 'slip'.
        """
    @property
    def status(self) -> str:
        """
        'converged', 'not converged' or 'failed'.
        """
class GlobalContactProblem:
    """
    A frictional contact problem in FCLIB's global form: M v = H r + f, u = H^T v + w, per contact rows (normal, tangent 1, tangent 2) of u and r and Coulomb's cone with its mu (FCLIB's H is n x m: the transpose of the Jacobian).
    """
    def __init__(self, M: scipy.sparse.spmatrix, H: scipy.sparse.spmatrix, f: numpy.ndarray, w: numpy.ndarray, mu: numpy.ndarray, box_friction: bool = False) -> None:
        """
        M: scipy.sparse (n x n) symmetric positive definite, H: scipy.sparse (n x m), f (n), w (m), mu (m / 3), all copied; box_friction: a box (pyramid) bound instead of the circular cone. Raises sinew.Error naming the first bad size or value (M's definiteness when it is factored).
        """
    def to_local(self) -> ContactProblem:
        """
        The local form u = W r + q with W = H^T M^-1 H and q = w + H^T M^-1 f (FCLIB's reduction; M factored by a sparse LDL^T) as a ContactProblem. Raises sinew.Error when M is not positive definite.
        """
    @property
    def H(self) -> typing.Any:
        """
        H (n x m) as a scipy.sparse.csr_matrix (a copy).
        """
    @property
    def M(self) -> typing.Any:
        """
        The mass matrix as a scipy.sparse.csr_matrix (a copy).
        """
    @property
    def contacts(self) -> int:
        """
        Number of contacts.
        """
    @property
    def f(self) -> numpy.ndarray:
        """
        f (n): a read-only view into the problem, no copy.
        """
    @property
    def mu(self) -> numpy.ndarray:
        """
        Friction coefficient per contact (a copy).
        """
    @property
    def rows(self) -> int:
        """
        Rows m = 3 contacts.
        """
    @property
    def velocities(self) -> int:
        """
        n.
        """
    @property
    def w(self) -> numpy.ndarray:
        """
        w (m): a read-only view into the problem, no copy.
        """
class KinematicTree:
    """
    Rigid bodies joined to their parents by hinges and sliders, in joint coordinates (one position and one velocity per joint): recursive Newton-Euler bias forces and the composite-rigid-body mass matrix (sinew::model::KinematicTree).
    """
    def __init__(self, gravity: list[float[3]] = [0.0, 0.0, -9.81]) -> None:
        """
        An empty tree under gravity (world, m/s^2).
        """
    def accelerations(self, q: numpy.ndarray, u: numpy.ndarray) -> numpy.ndarray:
        """
        The joint accelerations under gravity and damping, M(q)^-1 (-D u - b(q, u)). Raises sinew.Error when they are not finite.
        """
    def add_body(self, parent: int, joint: str = 'hinge', axis: list[float[3]] = [0.0, 0.0, 1.0], joint_in_parent: list[float[3]] = [0.0, 0.0, 0.0], joint_in_body: list[float[3]] = [0.0, 0.0, 0.0], mass: float = 1.0, com: list[float[3]] = [0.0, 0.0, 0.0], inertia: numpy.ndarray | None = None, armature: float = 0.0, damping: float = 0.0, name: str = '') -> int:
        """
        Adds a body joined to parent (an earlier body, or -1 for the world) and returns its index, its joint's coordinate. joint: 'hinge' (rotation about axis) or 'slider' (translation along it), axis in the parent's axes; joint_in_parent and joint_in_body: the joint point in each frame (at q = 0 the body's axes are its parent's); mass, com (body frame) and inertia (3 x 3, about the centre of mass; None: the identity); armature (added to the joint's inertia) and damping (joint force -damping u). Raises sinew.Error naming the body and the field.
        """
    def body_point(self, q: numpy.ndarray, body: int, local: list[float[3]] = [0.0, 0.0, 0.0]) -> numpy.ndarray:
        """
        The world position of the point local (body frame) of a body at joint positions q.
        """
    def energy(self, q: numpy.ndarray, u: numpy.ndarray) -> tuple:
        """
        (kinetic, potential) energy at (q, u), in J.
        """
    def mass_matrix(self, q: numpy.ndarray) -> numpy.ndarray:
        """
        The dense mass matrix M(q), armature included.
        """
    def point_jacobian(self, q: numpy.ndarray, body: int, local: list[float[3]] = [0.0, 0.0, 0.0]) -> numpy.ndarray:
        """
        The 6 x n Jacobian of a body point: J u is the point's world velocity (rows 0-2) and the body's angular velocity (rows 3-5).
        """
    def simulate(self, q: numpy.ndarray, u: numpy.ndarray, h: float, steps: int, integrator: str = 'runge_kutta4') -> tuple:
        """
        Steps (q, u) by h, steps times, with a named integrator ('runge_kutta4', 'symplectic_euler': MuJoCo's RK4 and Euler; the implicit ones too) and returns the final (q, u). Raises sinew.Error on a failed step (naming it), an unknown integrator or bad sizes.
        """
    @property
    def num_bodies(self) -> int:
        """
        Bodies, joints and coordinates.
        """
def backend_names() -> list[str]:
    """
    The names of the backends this build knows (each may still be unusable here, e.g. cuda without a GPU).
    """
def cg(A: scipy.sparse.spmatrix, b: numpy.ndarray, x0: numpy.ndarray | None = None, tol: float = 1e-10, max_iterations: int = 1000, inverse_diagonal: numpy.ndarray | None = None, history: bool = False, backend: str = '') -> tuple[numpy.ndarray, KrylovResult]:
    """
    Conjugate gradient for symmetric positive-definite A. A: scipy.sparse (n x n), copied; b (n); x0 (n, default 0); tol: relative residual ||b - A x|| / ||b||; inverse_diagonal (n, positive): Jacobi preconditioner M^-1; backend: by name ('' : $SINEW_BACKEND or serial). Returns (x, KrylovResult); x is the last iterate whatever the status. Raises sinew.Error on bad sizes.
    """
def contact_solver_names() -> list[str]:
    """
    Names solve_contact() accepts: newton-fb, newton-minmap, pgs, newton-cr-fb, newton-cr-minmap.
    """
def cr(A: scipy.sparse.spmatrix, b: numpy.ndarray, x0: numpy.ndarray | None = None, tol: float = 1e-10, max_iterations: int = 1000, inverse_diagonal: numpy.ndarray | None = None, history: bool = False, backend: str = '') -> tuple[numpy.ndarray, KrylovResult]:
    """
    Conjugate residual for symmetric A. A: scipy.sparse (n x n), copied; b (n); x0 (n, default 0); tol: relative residual ||b - A x|| / ||b||; inverse_diagonal (n, positive): Jacobi preconditioner M^-1; backend: by name ('' : $SINEW_BACKEND or serial). Returns (x, KrylovResult); x is the last iterate whatever the status. Raises sinew.Error on bad sizes.
    """
def fclib_supported() -> bool:
    """
    Whether this build reads and writes FCLIB (HDF5) files.
    """
def make_backend(name: str = '') -> Backend:
    """
    The backend named `name` ('' : $SINEW_BACKEND, else 'serial'); raises sinew.Error naming an unknown or unusable backend and why.
    """
def minres(A: scipy.sparse.spmatrix, b: numpy.ndarray, x0: numpy.ndarray | None = None, tol: float = 1e-10, max_iterations: int = 1000, inverse_diagonal: numpy.ndarray | None = None, history: bool = False, backend: str = '') -> tuple[numpy.ndarray, KrylovResult]:
    """
    MINRES for symmetric, possibly indefinite A. A: scipy.sparse (n x n), copied; b (n); x0 (n, default 0); tol: relative residual ||b - A x|| / ||b||; inverse_diagonal (n, positive): Jacobi preconditioner M^-1; backend: by name ('' : $SINEW_BACKEND or serial). Returns (x, KrylovResult); x is the last iterate whatever the status. Raises sinew.Error on bad sizes.
    """
def natural_map_error(problem: ContactProblem, r: numpy.ndarray) -> float:
    """
    The natural-map error of `problem` at impulse r (m), relative to ||q||: 0 exactly at a solution.
    """
def parse_scene(text: str, name: str = 'scene.json', base_dir: os.PathLike = '.') -> Scene:
    """
    Reads and checks scene-file text (JSON); `name` names it in messages, `base_dir` resolves mesh files. sinew.scene_from_dict() builds the text from a dict holding numpy arrays.
    """
def read_fclib_global(path: str) -> dict:
    """
    Reads the global problem of the FCLIB file `path` (M v = H r + G l + f, G^T v + b = 0, u = H^T v + w, one Coulomb cone per contact) as a dict: M, H, G (scipy.sparse), f, w, b, mu, title, description, math_info.
    """
def read_fclib_local(path: str) -> ContactProblem:
    """
    Reads the local problem of the FCLIB file `path`; raises sinew.Error naming the file.
    """
def read_fclib_solution(path: str) -> typing.Any:
    """
    The solution stored in the FCLIB file `path` as a dict of arrays v, u, r, l, or None.
    """
def read_scene(path: os.PathLike) -> Scene:
    """
    Reads and checks the scene file `path`; raises sinew.Error naming the file, the JSON path and what was expected.
    """
def solve_contact(problem: ContactProblem, solver: str = 'newton-fb', tol: float = 1e-08, max_iterations: int = 0, r0: numpy.ndarray | None = None, backend: str = '') -> tuple[numpy.ndarray, ContactReport]:
    """
    Solves `problem` with the solver named `solver` to natural-map error `tol` (relative to ||q||); max_iterations <= 0: the solver's limit for a full solve; r0 (m): warm start. Returns (r, ContactReport); r (m) is the last iterate whatever the status (moved to numpy, no copy).
    """
def solve_contact_global(problem: GlobalContactProblem, solver: str = 'newton-fb', tol: float = 1e-08, max_iterations: int = 0, r0: numpy.ndarray | None = None, backend: str = '') -> tuple[numpy.ndarray, numpy.ndarray, ContactReport]:
    """
    Solves a GlobalContactProblem. solver: a name of contact_solver_names(), which solves the local form of to_local() to natural-map error `tol` and then v = M^-1 (H r + f), or 'sap', Newton on SAP's convex approximation of the global form, stopped at its scaled gradient `tol` (its answer differs from Signorini-Coulomb by its regularization, a few percent of a resting box's impulse; the report's error is the natural-map error of the local form). max_iterations <= 0: the solver's limit; r0 (m): warm start; backend: of the local solvers. Returns (v, r, ContactReport), v (n) and r (m) the last iterate whatever the status, moved to numpy (no copy). The GIL is released while it solves.
    """
def write_fclib_global(path: str, M: scipy.sparse.spmatrix, H: scipy.sparse.spmatrix, f: numpy.ndarray, w: numpy.ndarray, mu: numpy.ndarray, G: scipy.sparse.spmatrix | None = None, b: numpy.ndarray | None = None, r: numpy.ndarray | None = None, v: numpy.ndarray | None = None, title: str = '') -> None:
    """
    Writes a global problem (M (n x n), H (n x m), f (n), w (m), mu (m / 3); optional equalities G (n x p), b (p)) and, when given, its solution r (m), v (n) with u = H^T v + w, to the FCLIB file `path`, atomically. Simulation.contact() gives these arrays for a step. Raises sinew.Error naming the file.
    """
def write_fclib_local(path: str, problem: ContactProblem, r: numpy.ndarray | None = None) -> None:
    """
    Writes `problem` (and the solution r with its u = W r + q, when given) to the FCLIB file `path`, atomically.
    """
