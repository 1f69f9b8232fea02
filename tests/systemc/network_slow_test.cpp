// Long runs (label "slow", not in the default suite): the paper's network (Table III) on
// torus:8x8 well beyond saturation with messages mixed in, a long wormhole run on mesh:8x8,
// and idle skipping versus evaluating every router every cycle under a long mixed load.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "stress_util.hpp"

namespace mt::noc {
namespace {

using test::Harness;
using test::Load;
using test::RandomTraffic;
using test::run_and_drain;
using test::small_buffers;
using NetworkSlow = test::SimTest;

TEST_F(NetworkSlow, PaperTorus8x8BeyondSaturationWithMessages) {
  // 17-flit packets (256-byte payload and a head) at ~1.4 flits/node/cycle offered.
  run_and_drain({"torus:8x8", NocConfig{}, 0.08, 17, 17, 20000, 200000, false, 0.2});
}

TEST_F(NetworkSlow, Mesh8x8WormholeLongRun) {
  NocConfig cfg = small_buffers(2, true);
  cfg.subpacket_flits = 4;
  run_and_drain({"mesh:8x8", cfg, 0.1, 1, 24, 20000, 200000, true, 0.2});
}

TEST_F(NetworkSlow, Torus8x8TwoVcsCutThroughLongRun) {
  run_and_drain({"torus:8x8", small_buffers(2, false), 0.2, 1, 8, 20000, 200000, true, 0.1});
}

using test::Trace;

Trace traced_run(const NocConfig& cfg, bool skipping, uint64_t* router_cycles) {
  test::fresh_simcontext();
  Harness h("torus:8x8", cfg);
  h.net.set_idle_skipping(skipping);
  RandomTraffic traffic("traffic", h, 0.15, 1, 8, 5000, 11, 0.2, cfg.subpacket_flits);
  h.run(30000);
  EXPECT_EQ(h.total_queued(), 0u);
  EXPECT_EQ(h.total_received(), h.total_sent());
  *router_cycles = h.net.router_cycles();
  return test::trace_of(h);
}

TEST_F(NetworkSlow, IdleSkippingChangesNoCycleUnderLongMixedLoad) {
  NocConfig cfg = small_buffers(4, false);
  cfg.subpacket_flits = 4;
  cfg.rc_delay = 2;
  cfg.sa_delay = 2;
  cfg.link_latency = 5;
  cfg.credit_latency = 7;
  uint64_t with = 0, without = 0;
  const Trace a = traced_run(cfg, true, &with);
  const Trace b = traced_run(cfg, false, &without);
  EXPECT_EQ(a, b);
  EXPECT_LT(with, without);
}

}  // namespace
}  // namespace mt::noc
