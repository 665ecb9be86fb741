// Structure-aware fuzzing of the bytecode check (lua/csrc/Bytecode.cpp) against what it
// promises (Note [What the bytecode check guarantees] in Bytecode.h): a dump it accepts
// loads, and runs without touching memory through a value of the wrong type, whatever its
// upvalues and arguments. Real dumps of functions of many shapes are parsed into their
// prototypes and mutated coherently (opcodes, operands, jump offsets, upvalue descriptors,
// number and table constants with NaN-boxed and other telling bit patterns, frame sizes,
// flags, instructions moved between functions), then written back with correct lengths; a
// share is also damaged byte by byte. Each dump the check accepts is loaded and called with
// random upvalues and arguments, first interpreted (a count hook ends runaway loops), then,
// when that ended, compiled by the JIT, in a child process (Runner::run). A child that
// crashes fails the test, and its dump is written to $TEST_UNDECLARED_OUTPUTS_DIR (or /tmp)
// as bytecode_crash_<case>.bin; BYTECODE_FUZZ_REPLAY=file runs one saved dump.
//
// The normal test run makes BYTECODE_FUZZ_CASES (default 3000) cases from seed
// BYTECODE_FUZZ_SEED (default 1); scripts/fuzz.sh runs many more under ASan and UBSan.
#define BOOST_TEST_MODULE bytecode check fuzzing
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

#include <boost/test/unit_test.hpp>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

extern "C" {
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
}

#include "lua/csrc/Bytecode.h"
#include "t7/t7.h"

namespace {

// --- the dump, as the format has it (lj_bcdump.h), stripped of debug info ---

enum : uint32_t { kKgcChild, kKgcTable, kKgcI64, kKgcU64, kKgcComplex, kKgcString };
enum : uint32_t { kKtabNil, kKtabFalse, kKtabTrue, kKtabInt, kKtabNum, kKtabString };
constexpr uint32_t kStrip = 2;
constexpr int kNumOps = 97;  // LuaJIT 2.1's opcodes, FUNCCW the last

struct Number {
  bool isDouble;
  uint32_t lo, hi;
};
struct TableItem {
  uint32_t type;  // kKtab*
  std::string str;
  uint32_t lo = 0, hi = 0;
};
struct Constant {
  uint32_t type;  // kKgc*, kKgcString for every string
  std::string str;
  std::vector<uint32_t> cdata;
  std::vector<TableItem> array, hash;  // hash: key, value, key, value, ...
};
struct Proto {
  uint8_t flags, numparams, framesize;
  std::vector<uint32_t> ins;
  std::vector<uint16_t> uv;
  std::vector<Constant> kgc;
  std::vector<Number> kn;
};
struct Dump {
  uint32_t flags;
  std::vector<Proto> protos;
};

class Reader {
 public:
  explicit Reader(const std::string &s) : s_(s) {}
  uint32_t byte() {
    if (pos_ >= s_.size()) throw std::runtime_error("short dump");
    return uint8_t(s_[pos_++]);
  }
  uint32_t uleb() {
    uint32_t v = 0;
    for (int shift = 0;; shift += 7) {
      const uint32_t b = byte();
      v |= (b & 0x7f) << shift;
      if (b < 0x80) return v;
    }
  }
  std::string bytes(size_t n) {
    if (n > s_.size() - pos_) throw std::runtime_error("short dump");
    pos_ += n;
    return s_.substr(pos_ - n, n);
  }
  size_t pos() const { return pos_; }

 private:
  const std::string &s_;
  size_t pos_ = 0;
};

TableItem readItem(Reader &r) {
  TableItem it;
  it.type = r.uleb();
  if (it.type >= kKtabString) {
    it.str = r.bytes(it.type - kKtabString);
    it.type = kKtabString;
  } else if (it.type == kKtabInt) {
    it.lo = r.uleb();
  } else if (it.type == kKtabNum) {
    it.lo = r.uleb();
    it.hi = r.uleb();
  }
  return it;
}

Dump parse(const std::string &s) {
  Reader r(s);
  r.bytes(4);
  Dump d;
  d.flags = r.uleb();
  if (!(d.flags & kStrip)) throw std::runtime_error("not stripped");
  for (;;) {
    const uint32_t len = r.uleb();
    if (!len) break;
    Proto p;
    p.flags = r.byte();
    p.numparams = r.byte();
    p.framesize = r.byte();
    const uint32_t sizeuv = r.byte(), sizekgc = r.uleb(), sizekn = r.uleb(), numbc = r.uleb();
    for (uint32_t i = 0; i < numbc; i++) {
      uint32_t v = 0;
      for (int k = 0; k < 4; k++) v |= r.byte() << (8 * k);
      p.ins.push_back(v);
    }
    for (uint32_t i = 0; i < sizeuv; i++) p.uv.push_back(uint16_t(r.byte() | r.byte() << 8));
    for (uint32_t i = 0; i < sizekgc; i++) {
      Constant k;
      k.type = r.uleb();
      if (k.type >= kKgcString) {
        k.str = r.bytes(k.type - kKgcString);
        k.type = kKgcString;
      } else if (k.type == kKgcTable) {
        const uint32_t narray = r.uleb(), nhash = r.uleb();
        for (uint32_t j = 0; j < narray; j++) k.array.push_back(readItem(r));
        for (uint32_t j = 0; j < 2 * nhash; j++) k.hash.push_back(readItem(r));
      } else if (k.type != kKgcChild) {
        for (int j = 0; j < (k.type == kKgcComplex ? 4 : 2); j++) k.cdata.push_back(r.uleb());
      }
      p.kgc.push_back(k);
    }
    for (uint32_t i = 0; i < sizekn; i++) {
      const uint32_t b0 = r.byte();
      Number n{bool(b0 & 1), (b0 >> 1) & 0x3f, 0};
      uint32_t b = b0;
      for (int shift = 6; b >= 0x80; shift += 7) {
        b = r.byte();
        n.lo |= (b & 0x7f) << shift;
      }
      if (n.isDouble) n.hi = r.uleb();
      p.kn.push_back(n);
    }
    d.protos.push_back(p);
  }
  return d;
}

void uleb(std::string &out, uint32_t v) {
  do {
    const uint32_t b = v & 0x7f;
    v >>= 7;
    out += char(v ? b | 0x80 : b);
  } while (v);
}

void writeItem(std::string &out, const TableItem &it) {
  if (it.type == kKtabString) {
    uleb(out, kKtabString + uint32_t(it.str.size()));
    out += it.str;
    return;
  }
  uleb(out, it.type);
  if (it.type == kKtabInt) uleb(out, it.lo);
  if (it.type == kKtabNum) {
    uleb(out, it.lo);
    uleb(out, it.hi);
  }
}

std::string write(const Dump &d) {
  std::string out = "\x1bLJ\x02";
  uleb(out, d.flags);
  for (const Proto &p : d.protos) {
    std::string b;
    b += char(p.flags);
    b += char(p.numparams);
    b += char(p.framesize);
    b += char(p.uv.size());
    uleb(b, uint32_t(p.kgc.size()));
    uleb(b, uint32_t(p.kn.size()));
    uleb(b, uint32_t(p.ins.size()));
    for (const uint32_t v : p.ins)
      for (int k = 0; k < 4; k++) b += char(v >> (8 * k));
    for (const uint16_t v : p.uv) {
      b += char(v);
      b += char(v >> 8);
    }
    for (const Constant &k : p.kgc) {
      if (k.type == kKgcString) {
        uleb(b, kKgcString + uint32_t(k.str.size()));
        b += k.str;
        continue;
      }
      uleb(b, k.type);
      if (k.type == kKgcTable) {
        uleb(b, uint32_t(k.array.size()));
        uleb(b, uint32_t(k.hash.size() / 2));
        for (const TableItem &it : k.array) writeItem(b, it);
        for (const TableItem &it : k.hash) writeItem(b, it);
      }
      for (const uint32_t v : k.cdata) uleb(b, v);
    }
    for (const Number &n : p.kn) {
      uint32_t v = n.lo;
      uint32_t first = (n.isDouble ? 1 : 0) | (v & 0x3f) << 1;
      v >>= 6;
      b += char(v ? first | 0x80 : first);
      while (v) {
        const uint32_t c = v & 0x7f;
        v >>= 7;
        b += char(v ? c | 0x80 : c);
      }
      if (n.isDouble) uleb(b, n.hi);
    }
    uleb(out, uint32_t(b.size()));
    out += b;
  }
  out += '\0';
  return out;
}

// --- mutations ---

class Mutator {
 public:
  explicit Mutator(uint64_t seed) : rng_(seed) {}
  uint32_t below(uint32_t n) { return n ? uint32_t(rng_() % n) : 0; }
  bool chance(int percent) { return below(100) < uint32_t(percent); }

  // Bits that mean something to LuaJIT: NaN-boxed tags of either layout, its canonical NaN,
  // infinities, TSETM's biased start index, plain numbers.
  Number number() {
    static const uint32_t his[] = {0xfff80000, 0xfff90000, 0xfffa0000, 0xfffb0000, 0xfffc0000, 0xfffd8000,
                                   0xfffe7fff, 0xffff0000, 0xfffffff4, 0xfffffffb, 0xffffffff, 0x7ff80000,
                                   0x7ff00000, 0xfff00000, 0x43300000, 0x3ff00000, 0x00000000, 0x80000000};
    Number n{true, 0, his[below(std::size(his))]};
    switch (below(4)) {
      case 0: break;
      case 1: n.lo = below(64); break;
      case 2: n.lo = uint32_t(rng_()); break;
      default: n.hi |= below(0x10000);
    }
    if (chance(15)) n = {false, uint32_t(rng_()), 0};
    return n;
  }

  uint32_t operand(const Proto &p, uint32_t bits) {
    const uint32_t range = bits == 8 ? 256 : 65536;
    switch (below(6)) {
      case 0: return below(p.framesize + 2) % range;
      case 1: return below(uint32_t(p.kgc.size()) + 2) % range;
      case 2: return below(uint32_t(p.kn.size()) + 2) % range;
      case 3: return below(uint32_t(p.uv.size()) + 2) % range;
      case 4: return bits == 16 ? 0x8000 + below(16) - 8 : below(range);  // a nearby jump
      default: return below(range);
    }
  }

  void mutate(Dump &d, const std::vector<Dump> &corpus) {
    Proto &p = d.protos[below(uint32_t(d.protos.size()))];
    const uint32_t n = uint32_t(p.ins.size());
    const uint32_t pc = below(n);
    switch (below(14)) {
      case 0:  // another opcode, operands kept
        if (n) p.ins[pc] = (p.ins[pc] & ~0xffu) | below(kNumOps + 3);
        break;
      case 1:  // A
        if (n) p.ins[pc] = (p.ins[pc] & ~0xff00u) | operand(p, 8) << 8;
        break;
      case 2:  // B or C
        if (n) {
          const int shift = chance(50) ? 16 : 24;
          p.ins[pc] = (p.ins[pc] & ~(0xffu << shift)) | operand(p, 8) << shift;
        }
        break;
      case 3:  // D, often a jump offset or a constant index
        if (n) p.ins[pc] = (p.ins[pc] & 0xffffu) | operand(p, 16) << 16;
        break;
      case 4:  // an instruction copied from elsewhere in the function, or from another one
        if (n) {
          const Dump &o = corpus[below(uint32_t(corpus.size()))];
          const Proto &q = chance(50) ? p : o.protos[below(uint32_t(o.protos.size()))];
          if (!q.ins.empty()) p.ins[pc] = q.ins[below(uint32_t(q.ins.size()))];
        }
        break;
      case 5:  // an instruction inserted or removed (jumps over it now land elsewhere)
        if (chance(50) && n > 1) {
          p.ins.erase(p.ins.begin() + pc);
        } else if (n) {
          p.ins.insert(p.ins.begin() + pc, p.ins[below(n)]);
        }
        break;
      case 6:  // an upvalue descriptor: a slot of the parent (any flags) or one of its upvalues
        if (!p.uv.empty()) {
          uint16_t &uv = p.uv[below(uint32_t(p.uv.size()))];
          if (chance(70))
            uv = uint16_t(0x8000 | (chance(30) ? 0x4000 : 0) | below(16));
          else if (chance(50))
            uv ^= 0x4000;
          else
            uv = uint16_t(below(8));
        } else if (chance(30)) {
          p.uv.push_back(uint16_t(0x8000 | below(8)));
        }
        break;
      case 7:  // a number constant
        if (!p.kn.empty()) p.kn[below(uint32_t(p.kn.size()))] = number();
        break;
      case 8:  // an entry of a table constant
        for (Constant &k : p.kgc)
          if (k.type == kKgcTable && (!k.array.empty() || !k.hash.empty()) && chance(60)) {
            const bool inArray = k.hash.empty() || (!k.array.empty() && chance(50));
            TableItem &it = inArray ? k.array[below(uint32_t(k.array.size()))] : k.hash[below(uint32_t(k.hash.size()))];
            const Number num = number();
            it = TableItem{below(3) ? kKtabNum : below(kKtabString + 1), "s", num.lo, num.hi};
            break;
          }
        break;
      case 9:  // GC constants swapped, or one of another kind
        if (p.kgc.size() > 1 && chance(60)) {
          std::swap(p.kgc[below(uint32_t(p.kgc.size()))], p.kgc[below(uint32_t(p.kgc.size()))]);
        } else if (!p.kgc.empty()) {
          Constant &k = p.kgc[below(uint32_t(p.kgc.size()))];
          k = chance(50) ? Constant{kKgcString, "next", {}, {}, {}} : Constant{kKgcTable, "", {}, {}, {}};
        }
        break;
      case 10:  // the frame, parameters, flags
        switch (below(4)) {
          case 0: p.framesize = uint8_t(p.framesize + (chance(50) ? 1 : -1)); break;
          case 1: p.numparams = uint8_t(below(p.framesize + 2)); break;
          case 2: p.flags ^= uint8_t(1 << below(3)); break;
          default:
            if (!p.uv.empty()) p.uv.pop_back();
        }
        break;
      case 11:  // the prototypes in another order
        if (d.protos.size() > 1) std::swap(d.protos[below(uint32_t(d.protos.size()))], d.protos.back());
        break;
      case 12:  // a run of instructions from another dump of the corpus
        if (n) {
          const Dump &o = corpus[below(uint32_t(corpus.size()))];
          const Proto &q = o.protos[below(uint32_t(o.protos.size()))];
          const uint32_t from = below(uint32_t(q.ins.size())), len = 1 + below(6);
          for (uint32_t k = 0; k < len && from + k < q.ins.size() && pc + k < n; k++) p.ins[pc + k] = q.ins[from + k];
        }
        break;
      default:  // a jump moved by a little
        for (uint32_t k = 0; k < n; k++) {
          uint32_t &ins = p.ins[(pc + k) % n];
          const uint32_t op = ins & 0xff;
          if (op == 88 || op == 77 || op == 79 || op == 72 || op == 82 ||
              op == 50) {  // JMP FORI FORL ISNEXT ITERL UCLO
            ins = (ins & 0xffffu) | (((ins >> 16) + below(7) - 3) & 0xffff) << 16;
            break;
          }
        }
    }
  }

  void damageBytes(std::string &s) {
    for (int k = 1 + int(below(4)); k > 0 && s.size() > 5; k--) {
      const size_t i = 5 + below(uint32_t(s.size() - 5));
      if (chance(70))
        s[i] = char(rng_());
      else
        s[i] ^= char(1 << below(8));
    }
  }

  uint64_t next() { return rng_(); }

 private:
  std::mt19937_64 rng_;
};

// --- running what the check accepts ---

// Functions of many shapes: every loop kind, closures that read and assign upvalues,
// varargs, table constructors, method calls, comparisons, string and arithmetic operators.
const char *const kCorpus = R"lua(
local k, name, t = 3, 'abc', { 1, 2, x = 5 }
return {
  function(x) return x * k + 1 end,
  function(n) local s = 0; for i = 1, n do s = s + i end; return s end,
  function(tb) local s = 0; for _, v in pairs(tb) do s = s + v end; return s end,
  function(tb) local s = 0; for i, v in ipairs(tb) do s = s + i * v end; return s end,
  function(tb) local s = 0; for key, v in next, tb do s = s + v end; return s end,
  function(a, b) if a < b then return 'lt' elseif a == b then return 'eq' end return 'ge' end,
  function(x) return x .. 'abc' .. name, #name, -x, not x end,
  function(x) local y = x + 1; local g = function() return y end; return g() end,
  function(x) local y = x; local g = function(v) y = v end; g(7); return y end,
  function(...) return 1, ... end,
  function(...) return { 1, ... } end,
  function(...) local a, b = ...; return select('#', ...), a, b end,
  function(n)
    local fns = {}
    for i = 1, n do local j = i; fns[#fns + 1] = function() j = j + k; return j end end
    local s = 0
    for _, fn in ipairs(fns) do s = s + fn() end
    return s
  end,
  function(tb)
    local n = 0
    for key, v in pairs(tb) do local g = function(x) v = x; return key end; g(n); n = n + 1 end
    return n
  end,
  function(n) local function fact(m) return m <= 1 and 1 or m * fact(m - 1) end; return fact(n % 12) end,
  function(s)
    local out = {}
    local n = 0
    while n < 100 do n = n * 2 + 1 end
    repeat n = n - 7 until n % 5 == 0
    for q = 10, 1, -3 do
      if q % 2 == 0 then goto skip end
      n = n + q
      ::skip::
    end
    out[1], out.n, out[n] = n, name, t
    return out, { deep = { 1.5, -0.25, 1e300, 'long string constant' }, t.x }
  end,
  function(o) local r = { o = o }; function r:get(i) return self.o, i end; return r:get(3) end,
  function(a, b, c) local x = a and b or c; x = (x or 0) ^ 2 % 7 / 3; return x, a ~= b, a <= c end,
  function(tb) tb = tb or {}; tb.x = tb.x or 0; tb[1] = k; tb.x = tb.x + 1; return tb.x, rawget(tb, 1) end,
  function(...) local args, fns = { ... }, {}; for i = 1, select('#', ...) do fns[i] = function() return args[i], i end end return fns end,
}
)lua";

// The upvalues and globals a loaded function gets; the driver calls it with several
// argument lists, interpreted under a count hook or compiled, and says whether each
// call ended (returned or raised) within the budget.
const char *const kDriver = R"lua(
local f, compiled, budget = ...
if compiled then jit.on(f, true) else jit.off(f, true) end
local lists = {
  function() return end,
  function() return 5, 3, 2 end,
  function() return 60, 'x', { 1, 2, a = 3 } end,
  function() return { 4, 5, 6, k = 7 }, true, function() return 1 end end,
  function() return -1.5, {}, 'abc' end,
}
local finished = true
for _, args in ipairs(lists) do
  for _ = 1, 3 do
    if not compiled then debug.sethook(function() error('runaway', 0) end, '', budget) end
    local ok, err = pcall(f, args())
    debug.sethook()
    if not ok and err == 'runaway' then finished = false end
  end
end
return finished
)lua";

const char *const kSandbox = R"lua(
return {
  pairs = pairs, ipairs = ipairs, next = next, type = type, tostring = tostring, tonumber = tonumber,
  select = select, unpack = unpack, rawget = rawget, rawequal = rawequal, setmetatable = setmetatable,
  getmetatable = getmetatable, math = { floor = math.floor, max = math.max, huge = math.huge, pi = math.pi },
  t = { 1, 2, 3 }, name = 'global',
}
)lua";

class Runner {
 public:
  Runner() : L_(luaL_newstate()) {
    luaL_openlibs(L_);
    driver_ = compile(kDriver);
    sandbox_ = compile(kSandbox);
  }
  ~Runner() { lua_close(L_); }

  std::vector<std::string> corpusDumps() {
    const int top = lua_gettop(L_);
    lua_rawgeti(L_, LUA_REGISTRYINDEX, compile(kCorpus));
    check(lua_pcall(L_, 0, 1, 0));
    std::vector<std::string> dumps;
    for (int i = 1;; i++) {
      lua_rawgeti(L_, -1, i);
      if (lua_isnil(L_, -1)) break;
      lua_getglobal(L_, "string");
      lua_getfield(L_, -1, "dump");
      lua_pushvalue(L_, -3);
      lua_pushboolean(L_, 1);
      check(lua_pcall(L_, 2, 1, 0));
      size_t n;
      const char *s = lua_tolstring(L_, -1, &n);
      dumps.emplace_back(s, n);
      lua_pop(L_, 3);
    }
    lua_settop(L_, top);
    return dumps;
  }

  // What became of a dump the check accepted, run in a child process of its own.
  enum class Outcome { Ran, Refused, Hang, Crash };
  static constexpr unsigned kSecondsPerRun = 3;  // then the child counts as a hang

  // Loads dump with upvalues made from seed and calls it, interpreted and then compiled;
  // in a child process, so that a crash or a compiled loop that never ends (the JIT ignores
  // count hooks) stops that child only, and no function changes what the next one sees.
  Outcome run(const std::string &dump, int nupvalues, uint64_t seed, std::string *detail) {
    int fds[2];
    if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid == 0) {
      ::close(fds[0]);
      alarm(kSecondsPerRun);
      std::string error;
      const bool loaded = runHere(dump, nupvalues, seed, &error);
      ssize_t n = ::write(fds[1], error.data(), error.size());
      (void)n;
      _exit(loaded ? 0 : kRefused);
    }
    ::close(fds[1]);
    char buffer[512];
    ssize_t n;
    while ((n = ::read(fds[0], buffer, sizeof buffer)) > 0) detail->append(buffer, size_t(n));
    ::close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return Outcome::Ran;
    if (WIFEXITED(status) && WEXITSTATUS(status) == kRefused) return Outcome::Refused;
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) return Outcome::Hang;
    *detail = WIFSIGNALED(status) ? "killed by signal " + std::to_string(WTERMSIG(status))
                                  : "exit status " + std::to_string(WEXITSTATUS(status));
    return Outcome::Crash;
  }

 private:
  static constexpr int kRefused = 42;

  bool runHere(const std::string &dump, int nupvalues, uint64_t seed, std::string *loaderError) {
    bool finished = false;
    for (const bool compiled : {false, true}) {
      if (compiled && !finished) break;
      const int top = lua_gettop(L_);
      if (luaL_loadbuffer(L_, dump.data(), dump.size(), "=(fuzzed)") != 0) {
        *loaderError = lua_tostring(L_, -1);
        return false;
      }
      std::mt19937_64 rng(seed);
      for (int i = 1; i <= nupvalues; i++) {
        pushValue(rng);
        if (!lua_setupvalue(L_, -2, i)) lua_pop(L_, 1);
      }
      lua_rawgeti(L_, LUA_REGISTRYINDEX, sandbox_);
      check(lua_pcall(L_, 0, 1, 0));
      lua_setfenv(L_, -2);
      lua_rawgeti(L_, LUA_REGISTRYINDEX, driver_);
      lua_insert(L_, -2);
      lua_pushboolean(L_, compiled);
      lua_pushinteger(L_, 20000);
      if (lua_pcall(L_, 3, 1, 0) == 0) finished = lua_toboolean(L_, -1);  // else out of stack, memory, ...
      lua_settop(L_, top);
    }
    return true;
  }

  int compile(const char *source) {
    check(luaL_loadstring(L_, source));
    return luaL_ref(L_, LUA_REGISTRYINDEX);
  }
  void check(int status) {
    if (status != 0) throw std::runtime_error(std::string("fuzz harness: ") + lua_tostring(L_, -1));
  }
  void pushValue(std::mt19937_64 &rng) {
    switch (rng() % 7) {
      case 0: lua_pushnil(L_); break;
      case 1: lua_pushnumber(L_, double(int64_t(rng() % 200) - 50)); break;
      case 2: lua_pushstring(L_, "upvalue"); break;
      case 3:
        lua_createtable(L_, 3, 1);
        for (int i = 1; i <= 3; i++) {
          lua_pushinteger(L_, i * 10);
          lua_rawseti(L_, -2, i);
        }
        break;
      case 4: lua_pushboolean(L_, rng() % 2); break;
      case 5: lua_getglobal(L_, "tostring"); break;
      default: lua_pushnumber(L_, 0.5);
    }
  }

  lua_State *L_;
  int driver_, sandbox_;
};

long long envNumber(const char *name, long long fallback) {
  const char *v = std::getenv(name);
  return v && *v ? std::atoll(v) : fallback;
}

}  // namespace

// Where the dumps that crash are kept, for BYTECODE_FUZZ_REPLAY.
std::string crashPath(long long caseNumber) {
  const char *dir = std::getenv("TEST_UNDECLARED_OUTPUTS_DIR");
  return std::string(dir ? dir : "/tmp") + "/bytecode_crash_" + std::to_string(caseNumber) + ".bin";
}

BOOST_AUTO_TEST_CASE(accepted_dumps_load_and_run_without_crashing) {
  Runner runner;
  const uint64_t seed = uint64_t(envNumber("BYTECODE_FUZZ_SEED", 1));

  if (const char *replay = std::getenv("BYTECODE_FUZZ_REPLAY")) {
    std::ifstream in(replay, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string dump = ss.str();
    int nup = -1;
    try {
      nup = luat::checkBytecode(dump.data(), dump.size());
    } catch (const t7::Error &e) {
      BOOST_TEST_MESSAGE("rejected: " << e.what());
      return;
    }
    std::string detail;
    const Runner::Outcome outcome = runner.run(dump, nup, seed, &detail);
    BOOST_TEST((outcome == Runner::Outcome::Ran || outcome == Runner::Outcome::Hang), "accepted, then " << detail);
    return;
  }

  std::vector<Dump> corpus;
  const std::vector<std::string> raw = runner.corpusDumps();
  for (const std::string &s : raw) corpus.push_back(parse(s));
  BOOST_TEST_REQUIRE(corpus.size() >= 20u);
  // The parsing is faithful: each dump written back is the dump, and the check accepts it.
  for (size_t i = 0; i < raw.size(); i++) {
    BOOST_TEST(write(corpus[i]) == raw[i], "dump " << i << " written back");
    BOOST_CHECK_NO_THROW(luat::checkBytecode(raw[i].data(), raw[i].size()));
  }

  const long long cases = envNumber("BYTECODE_FUZZ_CASES", 3000);
  Mutator m(seed);
  long long rejected = 0, ran = 0, hangs = 0, crashes = 0, refused = 0;
  for (long long c = 0; c < cases; c++) {
    Dump d = corpus[size_t(c) % corpus.size()];
    for (int k = 1 + int(m.below(3)); k > 0; k--) m.mutate(d, corpus);
    std::string bytes = write(d);
    if (m.chance(10)) m.damageBytes(bytes);
    const uint64_t runSeed = m.next();
    int nup;
    try {
      nup = luat::checkBytecode(bytes.data(), bytes.size());
    } catch (const t7::Error &e) {
      rejected++;
      if (std::string(e.what()).rfind("t7: corrupt Lua function at byte ", 0) != 0)
        BOOST_ERROR("case " << c << ": an error without the check's prefix: " << e.what());
      continue;
    }
    std::string detail;
    switch (runner.run(bytes, nup, runSeed, &detail)) {
      case Runner::Outcome::Ran: ran++; break;
      case Runner::Outcome::Hang: hangs++; break;  // Lua code may loop forever: not a failure
      case Runner::Outcome::Refused:
        refused++;
        BOOST_ERROR("case " << c << ": accepted by the check, refused by LuaJIT's loader: " << detail);
        break;
      case Runner::Outcome::Crash: {
        crashes++;
        const std::string path = crashPath(c);
        std::ofstream(path, std::ios::binary) << bytes;
        BOOST_ERROR("case " << c << ": accepted by the check, then " << detail << "; the dump is " << path);
      }
    }
  }
  std::printf(
      "bytecode fuzz: seed %llu, %lld cases: %lld rejected by the check, %lld accepted (%lld ran, %lld "
      "stopped after %us, %lld refused by the loader), %lld crashes\n",
      (unsigned long long)seed, cases, rejected, cases - rejected, ran, hangs, Runner::kSecondsPerRun, refused,
      crashes);
  // The mutations keep many dumps valid (the runs reach deep) and break many (the check works).
  BOOST_TEST(cases - rejected > cases / 10);
  BOOST_TEST(rejected > cases / 4);
}
