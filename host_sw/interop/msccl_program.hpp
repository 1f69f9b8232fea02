// An MSCCL algorithm as msccl-tools writes it in XML (docs/msccl.md): an <algo> of <gpu>s
// (ranks), each a list of threadblocks <tb> that run their <step>s in order. A threadblock
// sends to at most one peer and receives from at most one, on one channel; the k-th message a
// rank sends to a peer on a channel is the k-th that peer receives from it there. Chunks are
// indices into a buffer cut into `nchunksperloop` equal parts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mt::msccl {

enum class StepType : uint8_t {
  kSend,                 // s: send the local chunk(s) src
  kRecv,                 // r: receive into dst
  kRecvReduceCopy,       // rrc: receive, add src, store in dst
  kRecvReduceSend,       // rrs: receive, add src, send the sum on (nothing stored)
  kRecvCopySend,         // rcs: receive, store in dst, send it on
  kRecvReduceCopySend,   // rrcs: receive, add src, store in dst, send it on
  kCopy,                 // cpy: local copy src -> dst
  kReduce,               // re: local add src into dst
  kNop,                  // nop: waits for its dependency only
};

const char* step_type_name(StepType t);
bool sends(StepType t);     // s, rrs, rcs, rrcs
bool receives(StepType t);  // r, rrc, rrs, rcs, rrcs
bool reduces(StepType t);   // rrc, rrs, rrcs (the received data is added, not stored over)

struct Step {
  StepType type = StepType::kNop;
  char srcbuf = 'i', dstbuf = 'i';  // i (input), o (output), s (scratch)
  int64_t srcoff = -1, dstoff = -1;
  uint32_t cnt = 1;
  int32_t depid = -1, deps = -1;   // waits for step `deps` of threadblock `depid` (same rank)
  bool hasdep = false;             // another step waits for this one
};

struct Threadblock {
  int32_t id = 0;
  int32_t send = -1, recv = -1;  // peer ranks, -1: none
  int32_t chan = 0;
  std::vector<Step> steps;       // in the order they run ("s" = index)
};

struct Gpu {
  uint32_t id = 0;
  uint32_t i_chunks = 0, o_chunks = 0, s_chunks = 0;
  std::vector<Threadblock> tbs;
};

struct Algo {
  std::string name, proto = "Simple", coll = "allreduce";
  uint32_t nchannels = 1, nchunksperloop = 0, ngpus = 0;
  bool inplace = true;
  std::vector<Gpu> gpus;  // gpus[r].id == r
};

// Parses and checks the structure (every attribute present and in range, ranks, threadblocks,
// step indices and dependencies that exist); InputError "<where>: gpu R, tb T, step S: ..."
// naming the first problem. `where` names the input (a path) in the messages.
Algo parse_xml(const std::string& text, const std::string& where);
// The document msccl-tools writes (the <step> form), indented by two spaces.
std::string to_xml(const Algo& algo);

}  // namespace mt::msccl
