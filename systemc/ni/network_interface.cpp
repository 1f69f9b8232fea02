#include "ni/network_interface.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "common/prefetch.hpp"
#include "flit/source_route.hpp"
#include "memory/accel_memory.hpp"
#include "ni/first_hop.hpp"
#include "router/vc_mask.hpp"

namespace mt::noc {
namespace {

constexpr uint64_t kNever = ~0ull;

}  // namespace

NetworkInterface::NetworkInterface(sc_core::sc_module_name name, const NiPlace& place,
                                   const NocConfig& noc, const NiConfig& ni,
                                   const ReductionConfig& reduction_cfg, DType dtype,
                                   CycleScheduler& scheduler)
    : sc_module(name),
      table("table", place.node, place.nodes, ni.table_entries),
      timestep("timestep"),
      lockstep("lockstep"),
      decoder("decoder", ni),
      dependencies("dependencies", ni.arrival_slots, ni.flows),
      slots("block_slots", ni.block_slots, noc.ni_ports, ni.open_messages),
      interlock("interlock", ni.reducing_blocks),
      dma("dma", noc.clock_ps, ni.memory_requests),
      sequencer("reduction_sequencer", reduction_cfg),
      reduction("reduction", dtype),
      encoder("encoder", place.node, noc, ni),
      ejection("ejection", place.node, place.neighbour, noc, ni.packet_messages,
                static_cast<bool>(place.switch_route)),
      place_(place),
      noc_(noc),
      ni_(ni),
      blocks_(slots.slots()),
      trace_flits_out_(noc.ni_ports, 0),
      trace_flits_in_(noc.ni_ports, 0) {
  noc.validate();
  ni.validate();
  // The NI runs in its router's group (the router's is the node's vertex id).
  wake_ = CycleEvent(scheduler, [this](uint64_t now) { evaluate(now); }, place.node);
  take_slot_ = [this](uint32_t port, Op op, uint32_t flow, uint32_t sender) {
    return slots.take(now_cycle(), port, key(op, flow, sender));
  };
  for (uint32_t i = 0; i < noc.ni_ports; ++i) {
    ports_.push_back(std::make_unique<Endpoint>(fmt::format("port_{}", i).c_str(), place.node,
                                                noc, &wake_));
    Endpoint& e = *ports_.back();
    channels_.emplace_back(ni_, encoder, e);
    // The port hands a flit over as the router sends it, before its arrival cycle; what the
    // NI shows of it from that cycle on (done, the traced count) waits for the cycle
    // (note_arrivals).
    e.on_receive = [this, i](const Flit& f, uint8_t vc, uint64_t cycle) {
      Arrived& a = inbox_.push_slot();
      a.flit = f;
      a.flit.vc = vc;
      a.port = i;
      a.cycle = cycle;
      if (on_flit_in) on_flit_in(i, a.flit, cycle);
      wake_at(arrival_wake(cycle));
    };
    e.on_send = [this, i](const Flit& f, uint64_t cycle) {
      channels_[i].sent(cycle);
      last_flit_sent_ = cycle;
      if (is_head(f.type)) ++heads_;
      ++trace_flits_out_[i];
      ++progress_;
      wake_at(cycle + 1);  // the NI buffer has room again
    };
  }
}

NetworkInterface::~NetworkInterface() = default;

uint64_t NetworkInterface::now_cycle() const {
  return wake_.scheduler().now();
}

void NetworkInterface::note_arrivals(uint64_t now) {
  if (!arrived_by(now)) return;
  done_ = false;  // a message no entry waits for (a leaf's final Gather) is still work
  if (!traced_) return;
  for (size_t k = 0; k < inbox_.size() && inbox_.at(k).cycle <= now; ++k) {
    if (inbox_.at(k).cycle == now) ++trace_flits_in_[inbox_.at(k).port];
  }
}

void NetworkInterface::start() {
  timestep.reset();
  lockstep.reset();
  head_ = 0;
  started_ = true;
  done_ = false;
  dependencies.reset();
  arriving_.clear();
  plan_forwarding();
  const uint64_t now = now_cycle();
  if (on_step) on_step(place_.node, timestep.value(), now);
  wake_at(now + 1);
}

uint64_t NetworkInterface::flits_injected() const {
  uint64_t n = 0;
  for (const auto& p : ports_) n += p->flits_sent();
  return n;
}

uint64_t NetworkInterface::flits_ejected() const {
  uint64_t n = 0;
  for (const auto& p : ports_) n += p->flits_received();
  return n;
}

SendRoute NetworkInterface::route_to(const SendRequest& s) const {
  const uint32_t dest = s.dest;
  if (dest == place_.node || dest >= place_.nodes) {
    throw NiRunError(fmt::format("NI {}: a table entry sends to node {}", place_.node, dest));
  }
  const uint32_t k = noc_.ni_ports;
  SendRoute r;
  if (place_.direct) {
    // A direct network given as a file: as on a grid, a send leaves by the NI port of its
    // first link, and a message to a neighbour is one source-routed hop.
    const uint32_t first_hop = place_.switch_route(dest, s.flow, s.op);
    const uint32_t first = place_.hop_code.port(first_hop);
    r.port_index = (first - 1u) % k;
    if (ni_.flow_control == FlowControl::kMessage && first < kPorts &&
        place_.neighbour[first] == dest) {
      r.source_routed = true;
      r.route = first_hop;
    }
    return r;
  }
  if (place_.switch_route) {
    // A switch network: every send leaves by the node's one link; a message follows the
    // planner's switch path, a packet the network's routing.
    if (ni_.flow_control == FlowControl::kMessage) {
      r.source_routed = true;
      r.route = place_.switch_route(dest, s.flow, s.op);
    }
    return r;
  }
  const FirstHop hop = first_hop(place_, dest);
  const uint8_t first = hop.port;
  if (hop.neighbour && ni_.flow_control == FlowControl::kMessage) {
    r.source_routed = true;
    r.next = first;
    // The neighbour ejects it on the NI port that serves the link it arrives by.
    r.eject = local_port((opposite_port(first) - 1u) % k);
  }
  r.port_index = (first - 1u) % k;
  return r;
}

bool NetworkInterface::dma_idle() const {
  if (queued_ports_ != 0) return false;
  return std::all_of(channels_.begin(), channels_.end(),
                     [](const SendChannel& c) { return c.dma_idle(); });
}

void NetworkInterface::schedule(uint64_t cycle, EventKind kind, uint32_t slot) {
  events_.emplace(cycle, seq_++, kind, slot);
}

void NetworkInterface::eject(uint64_t now) {
  // A flit is decoded the cycle after it arrives (the ejection decoder's register stage), and
  // the flits of one cycle in port order (the order of the RTL's memory requests). The inbox
  // is in that order already: the ports deliver each flit as the router grants it (possibly
  // before its arrival cycle), and the router's ejections all take the same delay, so they
  // arrive in grant order, and one cycle's grants go out in port order.
  if (!inbox_.empty() && inbox_.front().cycle < now) decode_arrivals(now);
  // The interlock takes one Reduce block a cycle; its read goes after the cycle's Gather writes.
  if (interlock.queued() != 0) {
    ++progress_;
    if (const auto slot = interlock.take()) issue_reduce(*slot, now);
  }
}

void NetworkInterface::decode_arrivals(uint64_t now) {
  while (!inbox_.empty() && inbox_.front().cycle < now) {
    const Arrived& a = inbox_.front();
    const bool block = ejection.consume(a.flit, a.port, received_, take_slot_);
    inbox_.pop_front();  // nothing below pushes to the inbox
    ++progress_;
    if (!block) continue;
    if (received_.data.empty()) {  // table images refuse empty sends (IMAGE_FORMAT.md)
      throw std::runtime_error(fmt::format("NI {}: an empty block of {} flow {} from node {}",
                                           place_.node, op_name(received_.op), received_.flow,
                                           received_.sender));
    }
    const uint32_t slot = received_.slot;
    slots.record(slot, received_.message_done);
    Block& b = blocks_[slot];
    b.op = received_.op;
    b.flow = received_.flow;
    b.sender = received_.sender;
    b.addr = received_.addr;
    b.data.swap(received_.data);
    b.counted = false;
    if (writes(received_.op)) {  // a Gather or Put block is written as it came
      if (ni_.forward) forward_.erase(b.addr, b.data.size());  // no longer this NI's sum
      schedule(dma.write(b.addr, b.data.data(), b.data.size(), now), EventKind::kBlockDone, slot);
    } else {
      interlock.arrive(slot, b.addr, b.data.size());
    }
  }
}

void NetworkInterface::issue_reduce(uint32_t slot, uint64_t now) {
  Block& b = blocks_[slot];
  // The memory serves accesses in order: the read returns the bytes as every earlier access
  // left them (the RTL's memory does the same), whatever is written after it.
  b.acc.resize(b.data.size());
  schedule(dma.read(b.addr, b.acc.data(), b.data.size(), now), EventKind::kReduceRead, slot);
}

void NetworkInterface::set_data_sample(std::shared_ptr<const SampledLines> lines, uint64_t base) {
  sample_ = std::move(lines);
  sample_base_ = base;
}

uint64_t NetworkInterface::reduce_block(Block& b, uint64_t now) {
  const uint64_t size = b.data.size();
  const uint64_t ready = sequencer.admit(size, now);
  if (!sample_) {
    reduction.add(b.acc.data(), b.data.data(), size);
    return ready;
  }
  const uint64_t start = b.addr - sample_base_;  // the block's offset in the buffer
  auto add = [&](size_t, uint64_t from, uint64_t to) {
    reduction.add(b.acc.data() + (from - start), b.data.data() + (from - start), to - from);
  };
  AccelMemory::for_each_sampled_part(*sample_, start, size, add);
  return ready;
}

void NetworkInterface::release_waiting(uint64_t now) {
  // Its read goes after the cycle's other accesses (the RTL queues it so).
  if (const auto slot = interlock.release()) {
    issue_reduce(*slot, now);
    ++progress_;
  }
}

void NetworkInterface::count_block(uint32_t slot) {
  Block& b = blocks_[slot];
  b.counted = true;
  if (slots.count(slot)) arriving_.push_back({b.op, b.flow, b.sender});
}

void NetworkInterface::record_arrivals() {
  for (const Message& m : arriving_) dependencies.arrive(m.op, m.flow, m.sender);
  if (!arriving_.empty()) ++progress_;
  arriving_.clear();
}

void NetworkInterface::block_done(uint32_t slot) {
  if (!blocks_[slot].counted) count_block(slot);
  slots.release(slot);
}

void NetworkInterface::run_events(uint64_t now) {
  while (!events_.empty() && events_.top().cycle <= now) {
    const Pending ev = events_.top();
    events_.pop();
    ++progress_;
    switch (ev.kind) {
      case EventKind::kBurstRead: {
        const Burst& b = bursts_[ev.slot];
        Endpoint& port = *ports_[b.port];  // the flits are encoded into its queue
        const uint64_t n = encoder.encode(b.job, b.offset, burst_data(ev.slot), b.bytes, port);
        channels_[b.port].read_done(n);
        port.commit(n);
        free_bursts_.push_back(ev.slot);
        break;
      }
      case EventKind::kReduceRead: {
        // The local partial sum is in (the interlock kept every write to these bytes before
        // the read); the block becomes the sum, which the write-back stores.
        Block& b = blocks_[ev.slot];
        const uint64_t ready = reduce_block(b, now);
        b.data.swap(b.acc);
        schedule(ready, EventKind::kWriteBack, ev.slot);
        break;
      }
      case EventKind::kWriteBack: {
        Block& b = blocks_[ev.slot];
        schedule(dma.write(b.addr, b.data.data(), b.data.size(), now), EventKind::kBlockDone,
                 ev.slot);
        interlock.write_back(ev.slot);
        if (ni_.forward) {  // the sum is in the NI now; its write-back completes later
          hold_sum(b);
          count_block(ev.slot);
        }
        break;
      }
      case EventKind::kBlockDone:
        block_done(ev.slot);
        break;
    }
  }
}

void NetworkInterface::prefetch(const Pending& ev) const {
  if (ev.kind == EventKind::kBurstRead) {
    prefetch_read(&bursts_[ev.slot]);
    prefetch_read(burst_data(ev.slot), ni_.dma_burst_bytes);
  } else {
    prefetch_read(&blocks_[ev.slot]);
  }
}

void NetworkInterface::fetch(uint64_t now) {
  for (uint32_t m = queued_ports_; m != 0; m &= m - 1) {
    const unsigned p = lowest_bit(m);
    if (!channels_[p].may_burst(now)) continue;  // no room yet: no call
    const std::optional<BurstRead> r = channels_[p].next_burst(now);
    if (!r) continue;
    if (channels_[p].queued() == 0) queued_ports_ &= ~(1u << p);
    uint32_t slot;
    if (free_bursts_.empty()) {
      slot = static_cast<uint32_t>(bursts_.size());
      bursts_.emplace_back();
      burst_bytes_.resize(bursts_.size() * ni_.dma_burst_bytes);
    } else {
      slot = free_bursts_.back();
      free_bursts_.pop_back();
    }
    uint64_t ready = 0;
    uint8_t* data = burst_data(slot);
    const bool forwarded = ni_.forward && fetch_forwarded(r->addr, data, r->bytes, now, ready);
    if (!forwarded) ready = dma.read(r->addr, data, r->bytes, now);
    // The flits count as injected (offered to the network) when the read completes.
    Burst& b = bursts_[slot];
    b.port = p;
    b.job = r->job;
    b.offset = r->offset;
    b.bytes = static_cast<uint32_t>(r->bytes);
    schedule(ready, EventKind::kBurstRead, slot);
    ++progress_;
    // Held bytes no queued send will read again are freed.
    if (forwarded && !unread_by_any_send(r->addr, r->bytes)) forward_.erase(r->addr, r->bytes);
  }
}

void NetworkInterface::plan_forwarding() {
  forward_ranges_.clear();
  if (!ni_.forward || ni_.forward_prefix_bytes == 0) return;
  for (const TableEntry& e : table.entries()) {
    const bool reduced = !e.children.empty() && ((e.op == Op::kReduce && e.parent != kNil) ||
                                                 (writes(e.op) && e.parent == kNil));
    if (reduced) forward_ranges_.push_back({e.start_addr, std::min(e.size, ni_.forward_prefix_bytes)});
  }
}

void NetworkInterface::hold_sum(const Block& b) {
  const uint64_t peak = forward_.peak_bytes();
  if (ni_.forward_prefix_bytes == 0) {
    forward_.put(b.addr, b.data.data(), b.data.size());
  } else {
    for (const auto& [addr, bytes] : forward_ranges_) {  // the block's bytes in each prefix
      const uint64_t from = std::max(addr, b.addr);
      // Bytes of [start, start + len) from `from` on; by its last byte, so that a range
      // ending at 2^64 cannot overflow.
      auto left = [from](uint64_t start, uint64_t len) -> uint64_t {
        const uint64_t last = start + (len - 1);
        return last >= from ? last - from + 1 : 0;
      };
      const uint64_t n = std::min(left(addr, bytes), left(b.addr, b.data.size()));
      if (n > 0) forward_.put(from, b.data.data() + (from - b.addr), n);
    }
  }
  if (forward_.peak_bytes() > peak && on_forward_peak) {
    on_forward_peak(place_.node, forward_.peak_bytes());
  }
}

bool NetworkInterface::fetch_forwarded(uint64_t addr, uint8_t* data, uint64_t len, uint64_t now,
                                       uint64_t& ready) {
  if (!forward_.holds(addr, len)) return false;
  forward_.read(addr, data, len);
  ready = now + 1;  // one cycle to read the NI's buffer, as a burst from a register file
  return true;
}

bool NetworkInterface::unread_by_any_send(uint64_t addr, uint64_t len) const {
  return std::any_of(channels_.begin(), channels_.end(),
                     [&](const SendChannel& c) { return c.unread(addr, len); });
}

void NetworkInterface::control_head(uint64_t now) {
  const std::vector<TableEntry>& entries = table.entries();
  const TableEntry& e = entries[head_];
  if (!fault().empty()) return;  // the run stops at the end of this delta cycle
  if (e.step < timestep.value()) {
    fail(fmt::format("NI {}: table entry {} is for step {}, after step {} (a table's steps "
                     "must not decrease)", place_.node, head_, e.step, timestep.value()));
    return;
  }
  if (e.step > timestep.value()) {
    if (timestep.try_advance(lockstep.zero(now), dma_idle(), true, e.step)) {
      ++progress_;
      if (on_step) on_step(place_.node, timestep.value(), now);
    }
    return;
  }
  Op op;
  uint32_t from;
  if (dependencies.first_missing(e, op, from)) {
    waiting_head_ = head_;
    waiting_changes_ = dependencies.changes();
    return;
  }
  decoder.decode(e, decoded_);
  for (const SendRequest& s : decoded_.sends) {
    if (s.dest == place_.node || s.dest >= place_.nodes) {
      fail(fmt::format("NI {}: table entry {} sends to node {}{}", place_.node, head_, s.dest,
                       s.dest == place_.node ? ", its own" : ", which does not exist"));
      return;
    }
  }
  // The sends must fit their ports' send queues as they were at the cycle's start (the RTL's
  // queue counts; a send leaving in this cycle makes room from the next); otherwise the entry
  // waits.
  std::array<uint32_t, kMaxLocalPorts> adding{};
  for (const SendRequest& s : decoded_.sends) ++adding.at(route_to(s).port_index);
  for (uint32_t p = 0; p < channels_.size(); ++p) {
    if (channels_[p].queued_at(now) + adding[p] > ni_.send_queue) return;
  }
  if (e.op == Op::kNop) lockstep.load(now, decoded_.lockstep_cycles);
  dependencies.issue(e);
  for (const SendRequest& s : decoded_.sends) {
    SendJob job;
    job.request = s;
    job.route = route_to(s);
    job.id = (uint64_t{place_.node} << 32) | next_job_id_++;
    channels_[job.route.port_index].push(job);
    queued_ports_ |= 1u << job.route.port_index;
  }
  if (on_issue) on_issue(place_.node, head_, e, now);
  ++head_;
  ++progress_;
}

void NetworkInterface::evaluate(uint64_t now) {
  // The ports first: what they do in a cycle the NI sees from the next cycle on (arrivals),
  // or counts as of the cycle's start (queued_flits_at, lines_at), so the order is free.
  // A port with nothing due is skipped; the ports' next wake-up is asked once (Endpoint).
  uint64_t ports_next = kNever;
  for (const auto& p : ports_) {
    if (p->next_wake() <= now) p->evaluate(now);
    ports_next = std::min(ports_next, p->next_wake());
  }
  next_wake_ = kNever;
  if (ports_next != kNever) wake_.notify_at(ports_next);
  if (done_ || traced_) note_arrivals(now);
  if (!started_) return;
  // After a fault the NI does nothing more: the run ends with this delta cycle, but the
  // scheduler finishes its window first, and the fault's flit or entry is still at the head.
  if (!fault().empty()) return;
  const uint64_t before = progress_;
  try {
    record_arrivals();
    eject(now);
    run_events(now);
    release_waiting(now);
    fetch(now);
    control(now);
  } catch (const NiRunError& e) {
    fail(e.what());  // the run stops at the end of this delta cycle
    return;
  }

  if (traced_) {
    trace_timestep_ = timestep.value();
    trace_lockstep_ = lockstep.value(now);
    trace_entry_ = static_cast<uint32_t>(head_);
    if (head_ < table.entries().size()) {
      trace_op_ = static_cast<uint32_t>(table.entries()[head_].op);
      trace_flow_ = table.entries()[head_].flow;
    }
    trace_dma_busy_ = !dma_idle();
  }

  const bool sent_now = last_flit_sent_ == now;  // a flit left this cycle
  if (!done_ && head_ >= table.entries().size() && events_.empty() &&
      !arrived_by(now) &&
      std::all_of(ports_.begin(), ports_.end(),
                  [now](const auto& p) { return p->queued_flits_at(now) == 0; }) &&
      interlock.pending() == 0 && ejection.open_messages() == 0 && dma_idle()) {
    done_ = true;
    done_cycle_ = now;
    if (!inbox_.empty()) wake_at(arrival_wake(inbox_.front().cycle));  // one on its way ends it
    return;
  }
  uint64_t next = progress_ != before ? now + 1 : kNever;
  // A flit that left this cycle frees its buffer slot for the next cycle; its on_send wake-up
  // may have come before this evaluation and been absorbed by it.
  if (sent_now) next = std::min(next, now + 1);
  if (!events_.empty()) next = std::min(next, std::max(events_.top().cycle, now + 1));
  if (!inbox_.empty()) next = std::min(next, std::max(arrival_wake(inbox_.front().cycle), now + 1));
  if (lockstep.zero_at() > now) next = std::min(next, lockstep.zero_at());
  if (next == kNever) return;
  if (!events_.empty() && events_.top().cycle <= next) prefetch(events_.top());
  wake_at(next);
}

std::string NetworkInterface::status() const {
  const uint32_t n = place_.node;
  if (done_) return fmt::format("node {}: done at cycle {}", n, done_cycle_);
  if (!started_) return fmt::format("node {}: not started", n);
  std::string s;
  const auto& entries = table.entries();
  if (head_ < entries.size()) {
    const TableEntry& e = entries[head_];
    s = fmt::format("node {}: timestep {}, table entry {} ({} flow {}, step {})", n,
                    timestep.value(), head_, op_name(e.op), e.flow, e.step);
    Op op;
    uint32_t from;
    if (e.step == timestep.value() && dependencies.first_missing(e, op, from)) {
      s += fmt::format(" waits for the {} of flow {} from node {}", op_name(op), e.flow, from);
    }
  } else {
    s = fmt::format("node {}: table done", n);
  }
  size_t jobs = 0;
  for (const SendChannel& c : channels_) jobs += c.queued();
  if (jobs) s += fmt::format(", {} send(s) not yet read", jobs);
  if (ejection.open_messages()) {
    s += fmt::format(", {} message(s) partly received", ejection.open_messages());
  }
  return s;
}

void NetworkInterface::trace(sc_core::sc_trace_file* tf) const {
  traced_ = true;
  const std::string p = name();
  sc_core::sc_trace(tf, trace_timestep_, p + ".timestep");
  sc_core::sc_trace(tf, trace_lockstep_, p + ".lockstep");
  sc_core::sc_trace(tf, trace_entry_, p + ".table_head");
  sc_core::sc_trace(tf, trace_dma_busy_, p + ".dma_busy");
  sc_core::sc_trace(tf, trace_op_, p + ".table_head_op");
  sc_core::sc_trace(tf, trace_flow_, p + ".table_head_flow");
  sc_core::sc_trace(tf, done_, p + ".done");
  for (size_t i = 0; i < ports_.size(); ++i) {
    sc_core::sc_trace(tf, trace_flits_out_[i], fmt::format("{}.port_{}_flits_out", p, i));
    sc_core::sc_trace(tf, trace_flits_in_[i], fmt::format("{}.port_{}_flits_in", p, i));
  }
}

}  // namespace mt::noc
