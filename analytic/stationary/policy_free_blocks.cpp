#include "analytic/stationary/policy_free_blocks.hpp"

#include <algorithm>

namespace crawlq::analytic {

PolicyFreeBlocks::PolicyFreeBlocks(const model::Model& model, Eigen::Index environment_phases)
    : service_(model.service),
      obsolescence_(model.obsolescence),
      capacity_(model.capacity),
      longest_batch_(model.arrivals.max_batch()),
      w_(environment_phases) {}

void PolicyFreeBlocks::build() const {
  std::call_once(built_, [this] {
    terms_ = std::make_unique<KroneckerTerms>(service_, obsolescence_ ? &*obsolescence_ : nullptr);
    const Sparse iw = identity(w_);
    within_.resize(static_cast<std::size_t>(capacity_) + 1);
    leaving_.resize(within_.size());
    leaving_alone_.resize(within_.size());
    for (int level = 1; level <= capacity_; ++level) {
      const int waiting = level - 1;
      const auto l = static_cast<std::size_t>(level);
      within_[l] = kron(iw, terms_->a(waiting));
      leaving_alone_[l] = waiting == 0 ? terms_->s0() : terms_->b(waiting);
      leaving_[l] = kron(iw, leaving_alone_[l]);
      within_[l].makeCompressed();
      leaving_[l].makeCompressed();
    }
    gamma_powers_ = terms_->gamma_powers(std::min(capacity_, longest_batch_));
  });
}

const Sparse& PolicyFreeBlocks::within(int level) const {
  build();
  return within_.at(static_cast<std::size_t>(level));
}

const Sparse& PolicyFreeBlocks::leaving(int level) const {
  build();
  return leaving_.at(static_cast<std::size_t>(level));
}

const Sparse& PolicyFreeBlocks::leaving_alone(int level) const {
  build();
  return leaving_alone_.at(static_cast<std::size_t>(level));
}

const Sparse& PolicyFreeBlocks::gamma_power(int a) const {
  build();
  return gamma_powers_.at(static_cast<std::size_t>(a));
}

const Sparse& PolicyFreeBlocks::beta() const {
  build();
  return terms_->beta();
}

}  // namespace crawlq::analytic
