// MSCCL's XML read and written with Boost.PropertyTree (its XML parser and writer): the
// structure of the document only; what the steps mean is msccl_import.cpp's.
#include <charconv>
#include <set>
#include <sstream>
#include <utility>

#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>
#include <fmt/format.h>

#include "common/error.hpp"
#include "interop/msccl_program.hpp"

namespace mt::msccl {
namespace {

using boost::property_tree::ptree;

constexpr std::pair<StepType, const char*> kTypeNames[] = {
    {StepType::kSend, "s"},       {StepType::kRecv, "r"},
    {StepType::kRecvReduceCopy, "rrc"}, {StepType::kRecvReduceSend, "rrs"},
    {StepType::kRecvCopySend, "rcs"},   {StepType::kRecvReduceCopySend, "rrcs"},
    {StepType::kCopy, "cpy"},     {StepType::kReduce, "re"},
    {StepType::kNop, "nop"}};

// The attributes of one element, read with the element's place in the messages.
class Attrs {
 public:
  Attrs(const ptree& element, std::string where)
      : attrs_(element.get_child("<xmlattr>", empty_)), where_(std::move(where)) {}

  const std::string& where() const { return where_; }
  bool has(const char* name) const { return attrs_.count(name) != 0; }

  std::string str(const char* name) const {
    if (!has(name)) throw InputError(fmt::format("{}: attribute \"{}\" is missing", where_, name));
    return attrs_.get<std::string>(name);
  }

  int64_t integer(const char* name, int64_t lo, int64_t hi) const {
    const std::string s = str(name);
    int64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty()) {
      throw InputError(fmt::format("{}: attribute {}=\"{}\" is not a whole number", where_, name, s));
    }
    if (v < lo || v > hi) {
      throw InputError(fmt::format("{}: attribute {}={} is outside {}..{}", where_, name, v, lo, hi));
    }
    return v;
  }

  int64_t integer_or(const char* name, int64_t lo, int64_t hi, int64_t fallback) const {
    return has(name) ? integer(name, lo, hi) : fallback;
  }

 private:
  static inline const ptree empty_{};
  const ptree& attrs_;
  std::string where_;
};

// The child elements named `name`; any other element (comments aside) is an error.
std::vector<const ptree*> children(const ptree& parent, const char* name, const std::string& where) {
  std::vector<const ptree*> out;
  for (const auto& [key, child] : parent) {
    if (key == "<xmlattr>" || key == "<xmlcomment>") continue;
    if (key != name) {
      throw InputError(fmt::format("{}: unexpected element <{}> (expected <{}>)", where, key, name));
    }
    out.push_back(&child);
  }
  return out;
}

StepType parse_type(const std::string& s, const std::string& where) {
  for (const auto& [t, n] : kTypeNames) {
    if (s == n) return t;
  }
  throw InputError(fmt::format("{}: unknown step type \"{}\" (s, r, rrc, rrs, rcs, rrcs, cpy, re, "
                               "nop)", where, s));
}

char parse_buffer(const Attrs& a, const char* name) {
  const std::string b = a.str(name);
  if (b != "i" && b != "o" && b != "s") {
    throw InputError(fmt::format("{}: attribute {}=\"{}\" is not a buffer (i, o or s)", a.where(),
                                 name, b));
  }
  return b[0];
}

constexpr int64_t kMaxIndex = int64_t{1} << 30;

Step parse_step(const ptree& e, size_t index, const std::string& tb_where) {
  const Attrs a(e, fmt::format("{}, step {}", tb_where, index));
  const int64_t s = a.integer("s", 0, kMaxIndex);
  if (static_cast<size_t>(s) != index) {
    throw InputError(fmt::format("{}: s=\"{}\", but it is step {} of its threadblock (steps are "
                                 "numbered 0, 1, ... in order)", a.where(), s, index));
  }
  Step st;
  st.type = parse_type(a.str("type"), a.where());
  if (st.type != StepType::kNop) {
    st.srcbuf = parse_buffer(a, "srcbuf");
    st.dstbuf = parse_buffer(a, "dstbuf");
    st.srcoff = a.integer("srcoff", -1, kMaxIndex);
    st.dstoff = a.integer("dstoff", -1, kMaxIndex);
    st.cnt = static_cast<uint32_t>(a.integer("cnt", 1, kMaxIndex));
  }
  st.depid = static_cast<int32_t>(a.integer_or("depid", -1, kMaxIndex, -1));
  st.deps = static_cast<int32_t>(a.integer_or("deps", -1, kMaxIndex, -1));
  st.hasdep = a.integer_or("hasdep", 0, 1, 0) == 1;
  if ((st.depid < 0) != (st.deps < 0)) {
    throw InputError(fmt::format("{}: depid={} and deps={}: give both or neither", a.where(),
                                 st.depid, st.deps));
  }
  return st;
}

Threadblock parse_tb(const ptree& e, uint32_t ngpus, const std::string& where) {
  const Attrs a(e, where);
  Threadblock tb;
  tb.id = static_cast<int32_t>(a.integer("id", 0, kMaxIndex));
  const std::string at = fmt::format("{}, tb {}", where, tb.id);
  const Attrs named(e, at);
  tb.send = static_cast<int32_t>(named.integer("send", -1, int64_t{ngpus} - 1));
  tb.recv = static_cast<int32_t>(named.integer("recv", -1, int64_t{ngpus} - 1));
  tb.chan = static_cast<int32_t>(named.integer("chan", 0, kMaxIndex));
  const std::vector<const ptree*> steps = children(e, "step", at);
  for (size_t i = 0; i < steps.size(); ++i) tb.steps.push_back(parse_step(*steps[i], i, at));
  return tb;
}

}  // namespace

const char* step_type_name(StepType t) {
  for (const auto& [type, n] : kTypeNames) {
    if (type == t) return n;
  }
  return "?";
}

bool sends(StepType t) {
  return t == StepType::kSend || t == StepType::kRecvReduceSend || t == StepType::kRecvCopySend ||
         t == StepType::kRecvReduceCopySend;
}

bool receives(StepType t) {
  return t == StepType::kRecv || t == StepType::kRecvReduceCopy || t == StepType::kRecvReduceSend ||
         t == StepType::kRecvCopySend || t == StepType::kRecvReduceCopySend;
}

bool reduces(StepType t) {
  return t == StepType::kRecvReduceCopy || t == StepType::kRecvReduceSend ||
         t == StepType::kRecvReduceCopySend;
}

namespace {

Gpu parse_gpu(const ptree& e, const Algo& algo, const std::string& where) {
  const Attrs a(e, where);
  Gpu g;
  g.id = static_cast<uint32_t>(a.integer("id", 0, int64_t{algo.ngpus} - 1));
  const std::string at = fmt::format("{}: gpu {}", where, g.id);
  const Attrs named(e, at);
  g.i_chunks = static_cast<uint32_t>(named.integer_or("i_chunks", 0, kMaxIndex, 0));
  g.o_chunks = static_cast<uint32_t>(named.integer_or("o_chunks", 0, kMaxIndex, 0));
  g.s_chunks = static_cast<uint32_t>(named.integer_or("s_chunks", 0, kMaxIndex, 0));
  std::set<int32_t> ids;
  for (const ptree* tb : children(e, "tb", at)) {
    g.tbs.push_back(parse_tb(*tb, algo.ngpus, at));
    const Threadblock& t = g.tbs.back();
    if (!ids.insert(t.id).second) throw InputError(fmt::format("{}: two threadblocks have id {}", at, t.id));
    if (t.send == static_cast<int32_t>(g.id) || t.recv == static_cast<int32_t>(g.id)) {
      throw InputError(fmt::format("{}, tb {}: names its own rank as a peer", at, t.id));
    }
    if (t.chan >= static_cast<int32_t>(algo.nchannels)) {
      throw InputError(fmt::format("{}, tb {}: channel {} but the algorithm has nchannels={}", at,
                                   t.id, t.chan, algo.nchannels));
    }
  }
  return g;
}

// Every dependency names a step that exists on the same rank.
void check_dependencies(const Gpu& g, const std::string& where) {
  for (const Threadblock& tb : g.tbs) {
    for (size_t s = 0; s < tb.steps.size(); ++s) {
      const Step& st = tb.steps[s];
      if (st.depid < 0) continue;
      const Threadblock* dep = nullptr;
      for (const Threadblock& other : g.tbs) dep = other.id == st.depid ? &other : dep;
      if (dep == nullptr || static_cast<size_t>(st.deps) >= dep->steps.size()) {
        throw InputError(fmt::format("{}: gpu {}, tb {}, step {}: depends on step {} of tb {}, "
                                     "which gpu {} does not have", where, g.id, tb.id, s, st.deps,
                                     st.depid, g.id));
      }
    }
  }
}

const ptree& algo_element(const ptree& doc, const std::string& where) {
  const ptree* algo = nullptr;
  for (const auto& [key, child] : doc) {
    if (key == "<xmlcomment>") continue;
    if (key != "algo" || algo != nullptr) {
      throw InputError(fmt::format("{}: the document must hold one <algo> element (found <{}>)",
                                   where, key));
    }
    algo = &child;
  }
  if (algo == nullptr) throw InputError(fmt::format("{}: no <algo> element", where));
  return *algo;
}

}  // namespace

Algo parse_xml(const std::string& text, const std::string& where) {
  ptree doc;
  std::istringstream in(text);
  try {
    boost::property_tree::read_xml(in, doc);
  } catch (const boost::property_tree::xml_parser_error& e) {
    throw InputError(fmt::format("{}: line {}: malformed XML: {}", where, e.line(), e.message()));
  }
  const ptree& root = algo_element(doc, where);
  const Attrs a(root, fmt::format("{}: <algo>", where));
  Algo algo;
  algo.name = a.has("name") ? a.str("name") : "";
  algo.proto = a.has("proto") ? a.str("proto") : "Simple";
  algo.coll = a.str("coll");
  algo.ngpus = static_cast<uint32_t>(a.integer("ngpus", 1, kMaxIndex));
  algo.nchunksperloop = static_cast<uint32_t>(a.integer("nchunksperloop", 1, kMaxIndex));
  algo.nchannels = static_cast<uint32_t>(a.integer_or("nchannels", 1, kMaxIndex, 1));
  algo.inplace = a.integer_or("inplace", 0, 1, 1) == 1;
  algo.gpus.resize(algo.ngpus);
  std::vector<bool> seen(algo.ngpus, false);
  for (const ptree* e : children(root, "gpu", fmt::format("{}: <algo>", where))) {
    Gpu g = parse_gpu(*e, algo, where);
    if (seen[g.id]) throw InputError(fmt::format("{}: gpu {} is given twice", where, g.id));
    seen[g.id] = true;
    check_dependencies(g, where);
    algo.gpus[g.id] = std::move(g);
  }
  for (uint32_t r = 0; r < algo.ngpus; ++r) {
    if (!seen[r]) throw InputError(fmt::format("{}: ngpus={} but gpu {} is missing", where, algo.ngpus, r));
  }
  return algo;
}

namespace {

void put_step(ptree& tb, size_t index, const Step& st) {
  ptree& e = tb.add("step", "");
  e.put("<xmlattr>.s", index);
  e.put("<xmlattr>.type", step_type_name(st.type));
  e.put("<xmlattr>.srcbuf", std::string(1, st.srcbuf));
  e.put("<xmlattr>.srcoff", st.srcoff);
  e.put("<xmlattr>.dstbuf", std::string(1, st.dstbuf));
  e.put("<xmlattr>.dstoff", st.dstoff);
  e.put("<xmlattr>.cnt", st.cnt);
  e.put("<xmlattr>.depid", st.depid);
  e.put("<xmlattr>.deps", st.deps);
  e.put("<xmlattr>.hasdep", st.hasdep ? 1 : 0);
}

}  // namespace

std::string to_xml(const Algo& algo) {
  ptree doc;
  ptree& root = doc.add("algo", "");
  root.put("<xmlattr>.name", algo.name);
  root.put("<xmlattr>.proto", algo.proto);
  root.put("<xmlattr>.nchannels", algo.nchannels);
  root.put("<xmlattr>.nchunksperloop", algo.nchunksperloop);
  root.put("<xmlattr>.ngpus", algo.ngpus);
  root.put("<xmlattr>.coll", algo.coll);
  root.put("<xmlattr>.inplace", algo.inplace ? 1 : 0);
  for (const Gpu& g : algo.gpus) {
    ptree& ge = root.add("gpu", "");
    ge.put("<xmlattr>.id", g.id);
    ge.put("<xmlattr>.i_chunks", g.i_chunks);
    ge.put("<xmlattr>.o_chunks", g.o_chunks);
    ge.put("<xmlattr>.s_chunks", g.s_chunks);
    for (const Threadblock& tb : g.tbs) {
      ptree& te = ge.add("tb", "");
      te.put("<xmlattr>.id", tb.id);
      te.put("<xmlattr>.send", tb.send);
      te.put("<xmlattr>.recv", tb.recv);
      te.put("<xmlattr>.chan", tb.chan);
      for (size_t s = 0; s < tb.steps.size(); ++s) put_step(te, s, tb.steps[s]);
    }
  }
  std::ostringstream out;
  boost::property_tree::write_xml(out, doc,
                                  boost::property_tree::xml_writer_make_settings<std::string>(' ', 2));
  return out.str();
}

}  // namespace mt::msccl
