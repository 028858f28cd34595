#pragma once
// Stationary solvers of p Q = 0, p e = 1 behind one interface (Storm's solver environments, Ceres'
// Summary): each returns the vector and a summary that says how well the math's promises hold.
#include <Eigen/Core>
#include <atomic>
#include <memory>
#include <string>

#include "analytic/stationary/generator_blocks.hpp"
#include "analytic/stationary/solve_method.hpp"

namespace crawlq::analytic {

enum class SolverStatus { kConverged, kFailed };

struct StationarySummary {
  SolverStatus status = SolverStatus::kFailed;
  Method method = Method::kAuto;  // the one that ran
  double residual = 0.0;          // ||p Q||_1
  int iterations = 0;             // recursion steps or factorisations
  double seconds = 0.0;
  std::string message;  // why it failed, or what to know
  // Under auto, why the method that ran is not the one auto chose first (an iterative solve that
  // stopped unconverged); empty otherwise.
  std::string fallback;
};

struct StationaryResult {
  Eigen::VectorXd probabilities;  // p, indexed as StateSpace
  StationarySummary summary;
};

class StationarySolver {
 public:
  virtual ~StationarySolver() = default;
  virtual Method method() const = 0;
  // Why this solver cannot take these blocks, or empty when it can.
  virtual std::string refusal(const GeneratorBlocks& blocks) const;
  virtual StationaryResult solve(const GeneratorBlocks& blocks) const = 0;
};

class BlockRecursionCache;

// What the iterative solver's BiCGSTAB is preconditioned with.
enum class Preconditioner {
  kSymmetricSweep,  // symmetric Gauss-Seidel without the clocks' moves inside a level (the default)
  kLevelSweep,      // Gauss-Seidel by level: one forward sweep over the batches' moves up
  kJacobi,          // Q's diagonal alone (before issue 16; kept to measure against)
};

struct SolveOptions {
  // Lets block-recursion solves of one model share level factors.
  BlockRecursionCache* cache = nullptr;
  // The iterative solver starts here (a neighbouring policy's stationary vector, same state space).
  const Eigen::VectorXd* warm_start = nullptr;
  // Threads inside one solve (the iterative solver's operator); the result does not depend on it.
  int threads = 1;
  // Set from another thread to stop a long (iterative) solve early; it comes back failed,
  // "cancelled".
  const std::atomic<bool>* stop = nullptr;
  Preconditioner preconditioner = Preconditioner::kSymmetricSweep;
  // The iterative solver's limit on BiCGSTAB iterations; 0: its own (IterativeOptions).
  int max_iterations = 0;
};

std::unique_ptr<StationarySolver> make_solver(Method method, const GeneratorBlocks& blocks,
                                              const SolveOptions& options = {});
// Solves, then checks what the math promises (sums to one, non-negative, small residual) in the
// summary. Throws std::invalid_argument when the chosen method refuses the blocks. Under kAuto, an
// iterative solve that stops unconverged (not cancelled) is done again by a direct method that fits
// in memory (direct_fallback), and the summary's message says so.
StationaryResult solve_stationary(const GeneratorBlocks& blocks, Method method = Method::kAuto,
                                  const SolveOptions& options = {});

// What the math promises of a solved stationary vector: finite, and non-negative but for round-off
// (-1e-10). Then it is clamped at 0 and normalised, and true comes back; otherwise the summary is
// marked failed with the reason, and false.
bool accept_stationary(Eigen::VectorXd& p, StationarySummary& summary);

// The direct method an unconverged iterative solve of `model` falls back to: sparse LU, else the
// block recursion, whichever fits in available_memory_bytes(); kAuto when neither does.
Method direct_fallback(const model::Model& model);

const char* method_name(Method method);
// Throws std::invalid_argument naming the known methods.
Method parse_method(const std::string& name);

}  // namespace crawlq::analytic
