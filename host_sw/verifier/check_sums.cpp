// Symbolic execution of the sums. Every node's value of every byte segment is the set of
// nodes whose contributions it holds: the node's own (a singleton), every node's (complete),
// or a set of node ids as bits. The bits of a set are kept only on the span of 64-bit words
// that can be non-zero, in a vector per node that keeps its capacity from segment to
// segment: a partial sum of nearby ids (a ring arc, a row, a subtree of a tree over ids)
// costs a few words. A Reduce adds the sender's set to the receiver's (they must be disjoint),
// a Gather must carry every contribution, and a Put replaces the receiver's set with the
// sender's, whatever the receiver held. Full N-bit sets cost N/64 words per Reduce and N^2/8 bytes in all,
// which made ring2d on torus:128x128 spend most of its time clearing and or-ing them.
#include "verifier/check_sums.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace mt {
namespace {

// A transfer as one segment sees it.
struct Rec {
  uint32_t src, dst, id;  // id: for error messages only
  uint32_t step : 31;
  uint32_t reduce : 1;
};

// The segments (bytes [cuts[g], cuts[g+1])) and, for a batch of them at a time, the transfers
// that carry each in plan order: recs[start[g] - start[first] ..] for g in [first, last). A
// transfer is one record per segment its range spans (ring2d on torus:256x256: 134 million),
// so the records are made a batch of at most kBatch at a time.
class Segments {
 public:
  explicit Segments(const Plan& plan);
  size_t count() const { return cuts_.size() - 1; }
  uint64_t cut(size_t g) const { return cuts_[g]; }
  // Fills the records of the segments [first, last) and returns last, as many segments from
  // `first` on as fit kBatch records (at least one).
  size_t load(size_t first);
  const Rec* begin(size_t g) const { return recs_.data() + (start_[g] - start_[first_]); }
  const Rec* end(size_t g) const { return recs_.data() + (start_[g + 1] - start_[first_]); }

 private:
  static constexpr uint64_t kBatch = uint64_t{1} << 24;
  const Plan& plan_;
  std::vector<uint64_t> cuts_, start_;
  std::vector<std::pair<size_t, size_t>> span_of_;  // the segments [first, second) of a range
  std::vector<Rec> recs_;
  size_t first_ = 0;
};

Segments::Segments(const Plan& plan) : plan_(plan) {
  cuts_ = {0, plan.bytes};
  for (const ByteRange& b : plan.ranges) {
    cuts_.push_back(b.offset);
    cuts_.push_back(b.end());
  }
  std::sort(cuts_.begin(), cuts_.end());
  cuts_.erase(std::unique(cuts_.begin(), cuts_.end()), cuts_.end());
  while (cuts_.back() > plan.bytes) cuts_.pop_back();
  span_of_.resize(plan.ranges.size());
  auto at = [&](uint64_t offset) {
    return static_cast<size_t>(std::lower_bound(cuts_.begin(), cuts_.end(), offset) - cuts_.begin());
  };
  for (size_t i = 0; i < plan.ranges.size(); ++i) {
    span_of_[i] = {at(plan.ranges[i].offset), at(plan.ranges[i].end())};
  }
  start_.assign(count() + 1, 0);
  for (const Transfer& t : plan.transfers) {
    for (size_t g = span_of_[t.range].first; g < span_of_[t.range].second; ++g) ++start_[g + 1];
  }
  for (size_t g = 0; g < count(); ++g) start_[g + 1] += start_[g];
}

size_t Segments::load(size_t first) {
  size_t last = first + 1;
  while (last < count() && start_[last + 1] - start_[first] <= kBatch) ++last;
  first_ = first;
  recs_.resize(start_[last] - start_[first]);
  std::vector<uint64_t> next(start_.begin() + static_cast<ptrdiff_t>(first),
                             start_.begin() + static_cast<ptrdiff_t>(last));
  for (uint32_t id = 0; id < plan_.transfers.size(); ++id) {
    const Transfer& t = plan_.transfers[id];
    const size_t lo = std::max(span_of_[t.range].first, first);
    const size_t hi = std::min(span_of_[t.range].second, last);
    for (size_t g = lo; g < hi; ++g) {
      recs_[next[g - first]++ - start_[first]] = {t.src, t.dst, id, t.step & 0x7fffffffu,
                                                 t.op == Op::kReduce};
    }
  }
  return last;
}

// A set of node ids: bits over the words [lo, lo + words.size()), zero outside; `count`
// of them set.
struct Bits {
  uint32_t lo = 0;
  uint32_t count = 0;
  std::vector<uint64_t> words;

  uint32_t hi() const { return lo + static_cast<uint32_t>(words.size()); }
  uint64_t at(uint32_t w) const { return w >= lo && w < hi() ? words[w - lo] : 0; }
  void assign_singleton(uint32_t v) {
    lo = v / 64;
    count = 1;
    words.assign(1, 1ull << (v % 64));
  }
  // Grows the span to cover the words [l, h), the new words zero.
  void cover(uint32_t l, uint32_t h) {
    if (l < lo) {
      words.insert(words.begin(), lo - l, 0);
      lo = l;
    }
    if (h > hi()) words.resize(h - lo, 0);
  }
};

enum class Kind : uint8_t { kSingleton, kBits, kComplete };

// A set as a transfer carries it: its kind, the node of a singleton, the bits of a kBits.
struct Value {
  Kind kind;
  uint32_t node;
  const Bits* bits;
};

class SumChecker {
 public:
  SumChecker(const Plan& plan, Segments& segs, ErrorList& errors)
      : plan_(plan), segs_(segs), errors_(errors), n_(plan.nodes), words_((n_ + 63) / 64),
        kind_(n_, Kind::kSingleton), bits_(n_), receiving_(n_, 0),
        has_puts_(std::any_of(plan.transfers.begin(), plan.transfers.end(),
                              [](const Transfer& t) { return t.op == Op::kPut; })) {}

  void run() {
    for (size_t g = 0; g < segs_.count() && !errors_.full();) {
      const size_t last = segs_.load(g);
      for (; g < last && !errors_.full(); ++g) segment(g);
    }
  }

 private:
  void segment(size_t g);
  void sort_by_step(size_t g);
  void step_group(size_t g, size_t i, size_t j);
  void reduce(size_t g, const Rec& t, const Value& in);
  void gather(size_t g, const Rec& t, const Value& in);
  void put(const Rec& t, const Value& in);
  void check_end(size_t g);
  Value value_of(uint32_t v) const { return {kind_[v], v, &bits_[v]}; }
  uint32_t first_missing(const Value& v) const;
  std::string at(size_t g, const Rec& t) const {
    return fmt::format("node {}, flow {}, step {}, bytes [{}, {})", t.dst, plan_.transfers[t.id].flow,
                       t.step, segs_.cut(g), segs_.cut(g + 1));
  }

  const Plan& plan_;
  Segments& segs_;
  ErrorList& errors_;
  const uint32_t n_, words_;
  std::vector<Kind> kind_;
  std::vector<Bits> bits_;
  std::vector<Rec> sorted_;
  std::vector<uint32_t> by_step_, receiving_;
  uint32_t group_ = 0;
  std::vector<Kind> sent_kind_;  // a step's sends, when a sender also receives in it
  std::vector<Bits> sent_bits_;
  const bool has_puts_;  // else a record that does not reduce is a Gather
};

void SumChecker::segment(size_t g) {
  sort_by_step(g);
  for (size_t i = 0; i < sorted_.size();) {
    size_t j = i;
    while (j < sorted_.size() && sorted_[j].step == sorted_[i].step) ++j;
    step_group(g, i, j);
    i = j;
  }
  check_end(g);
  // Back to "every node holds its own contribution" for the next segment: only the nodes
  // that received anything changed.
  for (const Rec& t : sorted_) kind_[t.dst] = Kind::kSingleton;
}

// The segment's records into sorted_, by step, stable (plan order within a step): a counting
// sort, or a comparison sort when the segment has fewer records than the plan has steps.
void SumChecker::sort_by_step(size_t g) {
  const Rec* first = segs_.begin(g);
  const Rec* last = segs_.end(g);
  const size_t steps = plan_.total_steps() + 2;
  if (static_cast<size_t>(last - first) < steps) {
    sorted_.assign(first, last);
    std::stable_sort(sorted_.begin(), sorted_.end(),
                     [](const Rec& a, const Rec& b) { return a.step < b.step; });
    return;
  }
  by_step_.assign(steps, 0);
  for (const Rec* r = first; r != last; ++r) ++by_step_[r->step + 1];
  for (size_t k = 1; k < by_step_.size(); ++k) by_step_[k] += by_step_[k - 1];
  sorted_.resize(static_cast<size_t>(last - first));
  for (const Rec* r = first; r != last; ++r) sorted_[by_step_[r->step]++] = *r;
}

// One step's transfers of the segment, sorted_[i, j). Sends read the values from before the
// step's receives: the senders are copied first when one of them also receives this segment
// in this step.
void SumChecker::step_group(size_t g, size_t i, size_t j) {
  ++group_;
  for (size_t k = i; k < j; ++k) receiving_[sorted_[k].dst] = group_;
  bool overlap = false;
  for (size_t k = i; k < j; ++k) overlap = overlap || receiving_[sorted_[k].src] == group_;
  if (overlap) {
    if (sent_bits_.size() < j - i) sent_bits_.resize(j - i);
    sent_kind_.resize(j - i);
    for (size_t k = i; k < j; ++k) {
      const uint32_t src = sorted_[k].src;
      sent_kind_[k - i] = kind_[src] == Kind::kComplete ? Kind::kComplete : Kind::kBits;
      if (kind_[src] == Kind::kSingleton) sent_bits_[k - i].assign_singleton(src);
      if (kind_[src] == Kind::kBits) sent_bits_[k - i] = bits_[src];
    }
  }
  for (size_t k = i; k < j; ++k) {
    const Rec& t = sorted_[k];
    const Value in = overlap ? Value{sent_kind_[k - i], t.src, &sent_bits_[k - i]} : value_of(t.src);
    if (t.reduce) {
      reduce(g, t, in);
    } else if (has_puts_ && plan_.transfers[t.id].op == Op::kPut) {
      put(t, in);
    } else {
      gather(g, t, in);
    }
  }
}

void SumChecker::reduce(size_t g, const Rec& t, const Value& in) {
  if (kind_[t.dst] == Kind::kComplete || in.kind == Kind::kComplete) {
    errors_.add(fmt::format("{}: the Reduce from node {} adds to a sum that already holds every "
                            "contribution", at(g, t), t.src));
    return;
  }
  Bits& to = bits_[t.dst];
  if (kind_[t.dst] == Kind::kSingleton) {
    to.assign_singleton(t.dst);
    kind_[t.dst] = Kind::kBits;
  }
  if (in.kind == Kind::kSingleton) {
    const uint32_t w = in.node / 64;
    const uint64_t bit = 1ull << (in.node % 64);
    if (to.at(w) & bit) {
      errors_.add(fmt::format("{}: the Reduce from node {} counts node {}'s contribution a second "
                              "time", at(g, t), t.src, t.src));
    }
    to.cover(w, w + 1);
    to.count += (to.words[w - to.lo] & bit) ? 0 : 1;
    to.words[w - to.lo] |= bit;
    return;
  }
  const Bits& b = *in.bits;
  to.cover(b.lo, b.hi());
  uint64_t* dst = to.words.data() + (b.lo - to.lo);
  const uint64_t* src = b.words.data();
  const size_t len = b.words.size();
  uint64_t twice = 0;  // one pass the compiler vectorises; find the node only on error
  for (size_t w = 0; w < len; ++w) twice |= dst[w] & src[w];
  if (twice == 0) {  // disjoint: the counts add
    for (size_t w = 0; w < len; ++w) dst[w] |= src[w];
    to.count += b.count;
    return;
  }
  for (size_t w = 0; w < len; ++w) {
    if (const uint64_t both = dst[w] & src[w]) {
      errors_.add(fmt::format("{}: the Reduce from node {} counts node {}'s contribution a second "
                              "time", at(g, t), t.src,
                              (b.lo + w) * 64 + static_cast<size_t>(__builtin_ctzll(both))));
      break;
    }
  }
  for (size_t w = 0; w < len; ++w) {
    to.count += static_cast<uint32_t>(__builtin_popcountll(src[w] & ~dst[w]));
    dst[w] |= src[w];
  }
}

void SumChecker::gather(size_t g, const Rec& t, const Value& in) {
  const uint32_t u = first_missing(in);
  if (u == n_) {
    kind_[t.dst] = Kind::kComplete;
    return;
  }
  errors_.add(fmt::format("{}: the Gather from node {} carries a partial sum without node {}'s "
                          "contribution", at(g, t), t.src, u));
  if (in.kind == Kind::kSingleton) {
    bits_[t.dst].assign_singleton(in.node);
  } else {
    bits_[t.dst] = *in.bits;
  }
  kind_[t.dst] = Kind::kBits;
}

// The receiver now holds exactly the sender's set: its own value is not added (a later Reduce
// that adds a set sharing a node with it is refused there, naming the node).
void SumChecker::put(const Rec& t, const Value& in) {
  kind_[t.dst] = in.kind == Kind::kComplete ? Kind::kComplete : Kind::kBits;
  if (in.kind == Kind::kSingleton) bits_[t.dst].assign_singleton(in.node);
  if (in.kind == Kind::kBits) bits_[t.dst] = *in.bits;
}

// The first node whose contribution the set lacks, or n when it holds every one.
uint32_t SumChecker::first_missing(const Value& v) const {
  if (v.kind == Kind::kComplete) return n_;
  if (v.kind == Kind::kSingleton) return v.node != 0 ? 0 : n_ > 1 ? 1 : n_;
  const Bits& b = *v.bits;
  if (b.count == n_) return n_;
  for (uint32_t w = 0; w < words_; ++w) {
    const uint64_t all = w + 1 == words_ && n_ % 64 ? (1ull << (n_ % 64)) - 1 : ~0ull;
    if (const uint64_t gap = all & ~b.at(w)) return w * 64 + static_cast<uint32_t>(__builtin_ctzll(gap));
  }
  return n_;
}

// Every node must end the segment with every contribution; one node per segment says enough.
// A node that received nothing holds only its own, so when every node received and all the
// receivers are complete, the segment is; else the nodes are searched in order for the first
// one that is not.
void SumChecker::check_end(size_t g) {
  ++group_;
  uint32_t complete = 0;
  for (const Rec& t : sorted_) {
    if (receiving_[t.dst] == group_) continue;
    receiving_[t.dst] = group_;
    complete += first_missing(value_of(t.dst)) == n_ ? 1 : 0;
  }
  if (complete == n_) return;
  for (uint32_t v = 0; v < n_ && !errors_.full(); ++v) {
    const uint32_t u = first_missing(value_of(v));
    if (u == n_) continue;
    uint32_t flow = 0;
    for (uint32_t f = 0; f < plan_.flows.size(); ++f) {
      const ByteRange& c = plan_.flows[f].chunk;
      if (c.offset <= segs_.cut(g) && segs_.cut(g) < c.end()) flow = f;
    }
    errors_.add(fmt::format("node {}, flow {}, bytes [{}, {}): ends the all-reduce without node {}'s "
                            "contribution", v, flow, segs_.cut(g), segs_.cut(g + 1), u));
    break;
  }
}

}  // namespace

void check_sums(const Plan& plan, ErrorList& errors) {
  Segments segs(plan);
  SumChecker(plan, segs, errors).run();
}

}  // namespace mt
