// The structural check of LuaJIT 2.1 bytecode dumps (see Bytecode.h). The format and the
// operand modes follow LuaJIT's lj_bcdump.h and lj_bc.h:
//
//   dump   = ESC 'L' 'J' version flags [chunkname] proto* 0
//   proto  = length flags numparams framesize sizeuv sizekgc sizekn numbc [debug sizes]
//            instruction[numbc] uv[sizeuv] kgc[sizekgc] knum[sizekn] [debug info]
//
// A prototype's children come before it; each child constant of its kgc takes the last
// prototype read (the loader keeps them on a stack). Instruction 0 of a prototype is the
// FUNCF/FUNCV header the loader adds, so the dump's instructions are 1..numbc and a jump's
// target is pc + 1 + D - 0x8000.
#include "lua/csrc/Bytecode.h"

#include <bitset>
#include <cstdint>
#include <string>
#include <vector>

#include "t7/t7.h"

namespace luat {
namespace {

// Header and prototype flags, constant type codes (lj_bcdump.h, lj_obj.h).
constexpr uint8_t kMagic[] = {0x1b, 'L', 'J'};
constexpr uint32_t kVersion = 2;
enum : uint32_t { kDumpBigEndian = 1, kDumpStrip = 2, kDumpFFI = 4, kDumpFR2 = 8 };
enum : uint32_t { kProtoChild = 1, kProtoVararg = 2, kProtoFFI = 4 };
enum Kgc : uint32_t { kKgcChild, kKgcTable, kKgcI64, kKgcU64, kKgcComplex, kKgcString };
enum : uint32_t { kKtabNil, kKtabFalse, kKtabTrue, kKtabInt, kKtabNum, kKtabString };
constexpr uint32_t kUvLocal = 0x8000, kUvImmutable = 0x4000;
constexpr uint32_t kCanonicalNaNHi = 0xfff80000;  // LuaJIT's NaN: 0xfff8000000000000
constexpr uint32_t kMaxSlots = 250, kMaxUpvalues = 60, kMaxHashBits = 26;
constexpr uint32_t kVarnameMax = 7;  // varinfo codes below it are the hidden loop variables
constexpr size_t kMaxDump = size_t(1) << 28;

// The opcodes in LuaJIT 2.1's order (lj_bc.h BCDEF): one list for the numbers and names.
// clang-format off
#define LT_OPCODES(_) \
  _(ISLT) _(ISGE) _(ISLE) _(ISGT) _(ISEQV) _(ISNEV) _(ISEQS) _(ISNES) _(ISEQN) _(ISNEN) \
  _(ISEQP) _(ISNEP) _(ISTC) _(ISFC) _(IST) _(ISF) _(ISTYPE) _(ISNUM) _(MOV) _(NOT) \
  _(UNM) _(LEN) _(ADDVN) _(SUBVN) _(MULVN) _(DIVVN) _(MODVN) _(ADDNV) _(SUBNV) _(MULNV) \
  _(DIVNV) _(MODNV) _(ADDVV) _(SUBVV) _(MULVV) _(DIVVV) _(MODVV) _(POW) _(CAT) _(KSTR) \
  _(KCDATA) _(KSHORT) _(KNUM) _(KPRI) _(KNIL) _(UGET) _(USETV) _(USETS) _(USETN) _(USETP) \
  _(UCLO) _(FNEW) _(TNEW) _(TDUP) _(GGET) _(GSET) _(TGETV) _(TGETS) _(TGETB) _(TGETR) \
  _(TSETV) _(TSETS) _(TSETB) _(TSETM) _(TSETR) _(CALLM) _(CALL) _(CALLMT) _(CALLT) _(ITERC) \
  _(ITERN) _(VARG) _(ISNEXT) _(RETM) _(RET) _(RET0) _(RET1) _(FORI) _(JFORI) _(FORL) \
  _(IFORL) _(JFORL) _(ITERL) _(IITERL) _(JITERL) _(LOOP) _(ILOOP) _(JLOOP) _(JMP) _(FUNCF) \
  _(IFUNCF) _(JFUNCF) _(FUNCV) _(IFUNCV) _(JFUNCV) _(FUNCC) _(FUNCCW)
// clang-format on

enum Op : uint32_t {
#define LT_OP_ENUM(name) name,
  LT_OPCODES(LT_OP_ENUM)
#undef LT_OP_ENUM
      kNumOps
};

const char *const kOpNames[] = {
#define LT_OP_NAME(name) #name,
    LT_OPCODES(LT_OP_NAME)
#undef LT_OP_NAME
};

// The instructions that leave the function, one of which ends it.
bool isReturn(uint32_t op) {
  return op == RETM || op == RET || op == RET0 || op == RET1 || op == CALLT || op == CALLMT;
}
// Comparisons and tests: they take their jump from the JMP that follows them.
bool isTest(uint32_t op) { return op <= ISF; }

[[noreturn]] void fail(size_t at, const std::string &what) {
  throw t7::Error("t7: corrupt Lua function at byte " + std::to_string(at) + ": " + what);
}

// Reads the dump's fields within [pos, end), each read checked against the end.
class Cursor {
 public:
  Cursor(const uint8_t *data, size_t pos, size_t end) : data_(data), pos_(pos), end_(end) {}
  size_t pos() const { return pos_; }
  size_t left() const { return end_ - pos_; }

  uint32_t byte(const char *what) {
    need(1, what);
    return data_[pos_++];
  }
  const uint8_t *bytes(size_t n, const char *what) {
    need(n, what);
    pos_ += n;
    return data_ + pos_ - n;
  }
  // An unsigned LEB128 number of at most 32 bits.
  uint32_t uleb(const char *what) {
    const size_t at = pos_;
    uint32_t v = 0;
    for (int shift = 0;; shift += 7) {
      const uint32_t b = byte(what);
      if (shift == 28 && b > 0x0f) fail(at, std::string(what) + " does not fit 32 bits");
      v |= (b & 0x7f) << shift;
      if (b < 0x80) return v;
    }
  }
  // The first part of a number constant: a flag bit (a double follows) and 32 bits.
  uint32_t uleb33(const char *what, bool *isDouble) {
    const size_t at = pos_;
    uint32_t b = byte(what);
    *isDouble = b & 1;
    uint32_t v = (b >> 1) & 0x3f;
    for (int shift = 6; b >= 0x80; shift += 7) {
      b = byte(what);
      if (shift == 27 && b > 0x1f) fail(at, std::string(what) + " does not fit 33 bits");
      v |= (b & 0x7f) << shift;
    }
    return v;
  }
  // The fields of one part of the dump that is length-prefixed.
  Cursor sub(size_t n, const char *what) {
    need(n, what);
    pos_ += n;
    return Cursor(data_, pos_ - n, pos_);
  }

 private:
  void need(size_t n, const char *what) {
    if (n > left())
      fail(pos_, std::string(what) + " runs past the end (" + std::to_string(n) + " bytes wanted, " +
                     std::to_string(left()) + " left)");
  }
  const uint8_t *data_;
  size_t pos_, end_;
};

// What a parent needs of a child prototype: the slots and upvalues its closure captures.
struct Child {
  std::vector<uint16_t> uv;
};

// Facts about the frame slots at one instruction, on every path to it (must) or some (may).
struct State {
  bool reached = false;
  std::bitset<256> newTable;     // must: a table TNEW/TDUP made, for TSETM
  std::bitset<256> iterTable;    // must: the table ISNEXT checked, for ITERN
  std::bitset<256> iterControl;  // must: the traversal index ISNEXT wrote, for ITERN
  std::bitset<256> forControl;   // must: the numbers FORI checked, for FORL
  std::bitset<256> hiddenIndex;  // may: ISNEXT's index, no value that Lua code may read
  std::bitset<256> open;         // may: slots with open upvalues, closed before returning
  int multres = -1;              // the first of the values a call or VARG left, or -1

  bool merge(const State &in) {
    if (!reached) {
      *this = in;
      return true;
    }
    const State old = *this;
    newTable &= in.newTable;
    iterTable &= in.iterTable;
    iterControl &= in.iterControl;
    forControl &= in.forControl;
    hiddenIndex |= in.hiddenIndex;
    open |= in.open;
    if (multres != in.multres) multres = -1;
    return newTable != old.newTable || iterTable != old.iterTable || iterControl != old.iterControl ||
           forControl != old.forControl || hiddenIndex != old.hiddenIndex || open != old.open || multres != old.multres;
  }
};

std::bitset<256> slots(uint32_t lo, uint32_t hi) {
  std::bitset<256> m;
  for (uint32_t s = lo; s < hi && s < 256; s++) m.set(s);
  return m;
}

class Prototype {
 public:
  Prototype(Cursor &c, uint32_t dumpFlags, std::vector<Child> &children) : dumpFlags_(dumpFlags) {
    readHeader(c);
    readInstructions(c);
    readConstants(c, children);
    readDebugInfo(c);
    if (c.left()) fail(c.pos(), std::to_string(c.left()) + " bytes left over after the function's data");
    for (uint32_t pc = 1; pc <= numbc_; pc++) checkOperands(pc);
    checkFlow();
  }
  uint32_t sizeuv() const { return sizeuv_; }
  Child child() const { return Child{uv_}; }

 private:
  // --- reading ---

  void readHeader(Cursor &c) {
    const size_t at = c.pos();
    flags_ = c.byte("the function's flags");
    if (flags_ & ~(kProtoChild | kProtoVararg | kProtoFFI))
      fail(at, "unknown function flags " + std::to_string(flags_));
    numparams_ = c.byte("the number of parameters");
    framesize_ = c.byte("the frame size");
    sizeuv_ = c.byte("the number of upvalues");
    if (framesize_ > kMaxSlots) fail(at + 2, "a frame of " + std::to_string(framesize_) + " slots (at most 250)");
    if (numparams_ > framesize_)
      fail(at + 1, std::to_string(numparams_) + " parameters in a frame of " + std::to_string(framesize_) + " slots");
    if (sizeuv_ > kMaxUpvalues) fail(at + 3, std::to_string(sizeuv_) + " upvalues (at most 60)");
    sizekgc_ = c.uleb("the number of GC constants");
    sizekn_ = c.uleb("the number of number constants");
    const size_t atBc = c.pos();
    numbc_ = c.uleb("the number of instructions");
    if (numbc_ == 0) fail(atBc, "a function without instructions");
    if (!(dumpFlags_ & kDumpStrip)) {
      sizedbg_ = c.uleb("the size of the debug info");
      if (sizedbg_) {
        c.uleb("the first line");
        numline_ = c.uleb("the number of lines");
      }
    }
    // Each constant takes a byte at least: counts the data cannot hold are corrupt.
    if (numbc_ > c.left() / 4) fail(atBc, std::to_string(numbc_) + " instructions run past the function's end");
    if (sizekgc_ > c.left() || sizekn_ > c.left()) fail(at, "more constants than the function's bytes can hold");
  }

  void readInstructions(Cursor &c) {
    insAt_ = c.pos();
    const uint8_t *p = c.bytes(size_t(numbc_) * 4, "the instructions");
    ins_.assign(numbc_ + 1, 0);
    isnexts_.assign(numbc_ + 1, 0);
    for (uint32_t pc = 1; pc <= numbc_; pc++, p += 4)
      ins_[pc] = uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
    const size_t uvAt = c.pos();
    p = c.bytes(size_t(sizeuv_) * 2, "the upvalue descriptors");
    for (uint32_t i = 0; i < sizeuv_; i++) {
      const uint16_t uv = uint16_t(p[2 * i] | p[2 * i + 1] << 8);
      if ((uv & kUvLocal) ? (uv & 0x3f00) != 0 : uv >= kMaxUpvalues)
        fail(uvAt + 2 * i, "malformed upvalue descriptor " + std::to_string(uv));
      uv_.push_back(uv);
    }
  }

  void readConstants(Cursor &c, std::vector<Child> &children) {
    for (uint32_t i = 0; i < sizekgc_; i++) {
      const size_t at = c.pos();
      const uint32_t tp = c.uleb("a GC constant's type");
      kgc_.push_back(Kgc(tp >= kKgcString ? kKgcString : tp));
      kids_.emplace_back();
      if (tp >= kKgcString) {
        c.bytes(tp - kKgcString, "a string constant");
      } else if (tp == kKgcTable) {
        readTable(c);
      } else if (tp == kKgcChild) {
        if (children.empty()) fail(at, "a child function constant with no child function before it");
        kids_.back() = std::move(children.back());
        children.pop_back();
        for (const uint16_t uv : kids_.back().uv) {
          const bool ok = (uv & kUvLocal) ? (uv & 0xff) < framesize_ : uv < sizeuv_;
          if (!ok)
            fail(at, "a child function captures " + std::string((uv & kUvLocal) ? "slot " : "upvalue ") +
                         std::to_string(uv & 0xff) + ", which its parent does not have");
        }
      } else {
        if (!(dumpFlags_ & kDumpFFI)) fail(at, "a cdata constant in a dump not marked as using the FFI");
        for (int k = 0; k < (tp == kKgcComplex ? 4 : 2); k++) c.uleb("a cdata constant");
      }
    }
    bool hasChild = false;
    for (const Kgc k : kgc_) hasChild |= k == kKgcChild;
    if (hasChild != bool(flags_ & kProtoChild))
      fail(c.pos(), hasChild ? "child functions in a function not flagged as having any"
                             : "no child function in a function flagged as having some");
    for (uint32_t i = 0; i < sizekn_; i++) {
      const size_t at = c.pos();
      bool isDouble;
      const uint32_t lo = c.uleb33("a number constant", &isDouble);
      const uint32_t hi = isDouble ? c.uleb("a number constant") : 0;
      if (isDouble) numberBits(at, lo, hi, "a number constant");
      knum_.push_back({isDouble, lo, hi});
    }
  }

  void readTable(Cursor &c) {
    const size_t at = c.pos();
    const uint32_t narray = c.uleb("a table constant's array size");
    const uint32_t nhash = c.uleb("a table constant's hash size");
    if (narray > c.left() || nhash > c.left()) fail(at, "a table constant larger than the function's bytes can hold");
    for (uint32_t i = 0; i < narray; i++) readTableItem(c, false);
    for (uint32_t i = 0; i < nhash; i++) {
      readTableItem(c, true);
      readTableItem(c, false);
    }
  }

  void readTableItem(Cursor &c, bool key) {
    const size_t at = c.pos();
    const uint32_t tp = c.uleb("a table constant's entry");
    if (tp >= kKtabString) {
      c.bytes(tp - kKtabString, "a table constant's string");
    } else if (tp == kKtabInt) {
      c.uleb("a table constant's integer");
    } else if (tp == kKtabNum) {
      const uint32_t lo = c.uleb("a table constant's number");
      const uint32_t hi = c.uleb("a table constant's number");
      if (key && isNaN(lo, hi)) fail(at, "a table constant with a NaN key");
      numberBits(at, lo, hi, "a table constant's number");
    } else if (key && tp == kKtabNil) {
      fail(at, "a table constant with a nil key");
    }
  }

  // Note [NaN-boxed constants]: LuaJIT keeps every value in 8 bytes, and a double whose bits
  // are a NaN with the high bits set is how it tags the other types (a table is a tag and a
  // pointer). The loader copies a number constant's bits as they are, so a NaN constant other
  // than the one NaN LuaJIT makes itself would come back as a forged object: a table, string
  // or function at an address the dump chose. LuaJIT's compiler never folds a constant into
  // a NaN (0/0 is computed when it runs), so its dumps hold the canonical NaN at most.
  static bool isNaN(uint32_t lo, uint32_t hi) { return (hi & 0x7ff00000) == 0x7ff00000 && ((hi & 0xfffff) | lo); }
  static void numberBits(size_t at, uint32_t lo, uint32_t hi, const char *what) {
    if (isNaN(lo, hi) && !(hi == kCanonicalNaNHi && lo == 0))
      fail(at, std::string(what) + " is a NaN other than LuaJIT's own (a tagged value in disguise)");
  }

  // Line numbers, then upvalue names, then local variable ranges, as the error messages and
  // the debug library walk them without bounds.
  void readDebugInfo(Cursor &c) {
    if (!sizedbg_) return;
    const size_t at = c.pos();
    if (sizedbg_ != c.left())
      fail(at, "debug info of " + std::to_string(sizedbg_) + " bytes where " + std::to_string(c.left()) + " are left");
    const int lineBytes = numline_ < 256 ? 1 : numline_ < 65536 ? 2 : 4;
    c.bytes(size_t(numbc_) * lineBytes, "the line numbers");
    for (uint32_t i = 0; i < sizeuv_; i++)
      while (c.byte("an upvalue name") != 0) {
      }
    for (;;) {
      const uint32_t code = c.byte("a local variable's name");
      if (code == 0) break;
      if (code >= kVarnameMax)
        while (c.byte("a local variable's name") != 0) {
        }
      c.uleb("a local variable's first instruction");
      c.uleb("a local variable's range");
    }
    if (c.left()) fail(c.pos(), "bytes after the local variables' end marker");
  }

  // --- the instructions one by one ---

  size_t at(uint32_t pc) const { return insAt_ + size_t(pc - 1) * 4; }
  [[noreturn]] void bad(uint32_t pc, const std::string &what) const {
    const uint32_t op = ins_[pc] & 0xff;
    fail(at(pc), "instruction " + std::to_string(pc) + " (" + (op < kNumOps ? kOpNames[op] : "?") + "): " + what);
  }
  static uint32_t opOf(uint32_t ins) { return ins & 0xff; }
  static uint32_t aOf(uint32_t ins) { return (ins >> 8) & 0xff; }
  static uint32_t cOf(uint32_t ins) { return (ins >> 16) & 0xff; }
  static uint32_t bOf(uint32_t ins) { return ins >> 24; }
  static uint32_t dOf(uint32_t ins) { return ins >> 16; }

  void slot(uint32_t pc, uint32_t s) const {
    if (s >= framesize_)
      bad(pc, "slot " + std::to_string(s) + " is outside the frame of " + std::to_string(framesize_) + " slots");
  }
  // Slots lo..lo+n-1 (none when n is 0).
  void span(uint32_t pc, uint32_t lo, uint32_t n) const {
    if (n) slot(pc, lo + n - 1);
  }
  void upvalue(uint32_t pc, uint32_t i) const {
    if (i >= sizeuv_) bad(pc, "upvalue " + std::to_string(i) + " of " + std::to_string(sizeuv_));
  }
  // LuaJIT's compiler marks an upvalue immutable when nothing assigns it after its
  // declaration, and the JIT compiler then takes its value for a constant.
  void assignedUpvalue(uint32_t pc, uint32_t i) const {
    upvalue(pc, i);
    if (uv_[i] & kUvImmutable) bad(pc, "assigns upvalue " + std::to_string(i) + ", which is marked immutable");
  }
  void number(uint32_t pc, uint32_t i) const {
    if (i >= sizekn_) bad(pc, "number constant " + std::to_string(i) + " of " + std::to_string(sizekn_));
  }
  void primitive(uint32_t pc, uint32_t v) const {
    if (v > 2) bad(pc, "primitive " + std::to_string(v) + " is none of nil, false, true");
  }
  // The GC constant an operand names, counted from the end of the list.
  uint32_t gc(uint32_t pc, uint32_t i, Kgc kind, const char *kindName) const {
    if (i >= sizekgc_) bad(pc, "GC constant " + std::to_string(i) + " of " + std::to_string(sizekgc_));
    const uint32_t entry = sizekgc_ - 1 - i;
    const bool cdata = kgc_[entry] == kKgcI64 || kgc_[entry] == kKgcU64 || kgc_[entry] == kKgcComplex;
    if (kind == kKgcI64 ? !cdata : kgc_[entry] != kind)
      bad(pc, "GC constant " + std::to_string(i) + " is no " + kindName);
    return entry;
  }
  uint32_t target(uint32_t pc) const {
    const int64_t t = int64_t(pc) + 1 + int64_t(dOf(ins_[pc])) - 0x8000;
    if (t < 1 || t > numbc_)
      bad(pc, "jump to instruction " + std::to_string(t) + " outside 1.." + std::to_string(numbc_));
    return uint32_t(t);
  }
  uint32_t opAt(uint32_t pc) const { return pc >= 1 && pc <= numbc_ ? opOf(ins_[pc]) : kNumOps; }
  void followedBy(uint32_t pc, Op op, bool sameA) const {
    if (opAt(pc + 1) != op || (sameA && aOf(ins_[pc + 1]) != aOf(ins_[pc])))
      bad(pc, std::string("not followed by its ") + kOpNames[op]);
  }

  void checkOperands(uint32_t pc) {
    const uint32_t ins = ins_[pc], op = opOf(ins), a = aOf(ins), b = bOf(ins), c = cOf(ins), d = dOf(ins);
    const uint32_t fr2 = (dumpFlags_ & kDumpFR2) ? 1 : 0;
    if (op >= kNumOps) bad(pc, "unknown opcode " + std::to_string(op));
    if (isTest(op)) {
      if (op != IST && op != ISF) slot(pc, a);
      followedBy(pc, JMP, false);
      if (pc + 2 > numbc_) bad(pc, "the last test of the function");
    }
    switch (op) {
      case ISLT:
      case ISGE:
      case ISLE:
      case ISGT:
      case ISEQV:
      case ISNEV:
      case ISTC:
      case ISFC:
      case IST:
      case ISF: slot(pc, d); break;
      case ISEQS:
      case ISNES: gc(pc, d, kKgcString, "string"); break;
      case ISEQN:
      case ISNEN: number(pc, d); break;
      case ISEQP:
      case ISNEP: primitive(pc, d); break;
      case MOV:
      case NOT:
      case UNM:
      case LEN:
        slot(pc, a);
        slot(pc, d);
        break;
      case ADDVN:
      case SUBVN:
      case MULVN:
      case DIVVN:
      case MODVN:
      case ADDNV:
      case SUBNV:
      case MULNV:
      case DIVNV:
      case MODNV:
        slot(pc, a);
        slot(pc, b);
        number(pc, c);
        break;
      case ADDVV:
      case SUBVV:
      case MULVV:
      case DIVVV:
      case MODVV:
      case POW:
        slot(pc, a);
        slot(pc, b);
        slot(pc, c);
        break;
      case CAT:
        slot(pc, a);
        slot(pc, c);
        if (b >= c) bad(pc, "concatenates slots " + std::to_string(b) + ".." + std::to_string(c));
        break;
      case KSTR:
        slot(pc, a);
        gc(pc, d, kKgcString, "string");
        break;
      case KCDATA:
        slot(pc, a);
        gc(pc, d, kKgcI64, "cdata");
        break;
      case KSHORT: slot(pc, a); break;
      case KNUM:
        slot(pc, a);
        number(pc, d);
        break;
      case KPRI:
        slot(pc, a);
        primitive(pc, d);
        break;
      case KNIL:
        slot(pc, d);
        if (a > d) bad(pc, "clears slots " + std::to_string(a) + ".." + std::to_string(d));
        break;
      case UGET:
        slot(pc, a);
        upvalue(pc, d);
        break;
      case USETV:
        assignedUpvalue(pc, a);
        slot(pc, d);
        break;
      case USETS:
        assignedUpvalue(pc, a);
        gc(pc, d, kKgcString, "string");
        break;
      case USETN:
        assignedUpvalue(pc, a);
        number(pc, d);
        break;
      case USETP:
        assignedUpvalue(pc, a);
        primitive(pc, d);
        break;
      case UCLO:
      case JMP:
      case LOOP:
        if (a > framesize_) bad(pc, "slot " + std::to_string(a) + " is beyond the frame");
        target(pc);
        break;
      case FNEW:
        slot(pc, a);
        gc(pc, d, kKgcChild, "function");
        break;
      case TNEW:
        slot(pc, a);
        if ((d >> 11) > kMaxHashBits) bad(pc, "a hash part of 2^" + std::to_string(d >> 11) + " slots");
        break;
      case TDUP:
        slot(pc, a);
        gc(pc, d, kKgcTable, "table");
        break;
      case GGET:
      case GSET:
        slot(pc, a);
        gc(pc, d, kKgcString, "string");
        break;
      case TGETV:
      case TSETV:
        slot(pc, a);
        slot(pc, b);
        slot(pc, c);
        break;
      case TGETS:
      case TSETS:
        slot(pc, a);
        slot(pc, b);
        gc(pc, c, kKgcString, "string");
        break;
      case TGETB:
      case TSETB:
        slot(pc, a);
        slot(pc, b);
        break;
      case TSETM: {
        if (a < 1) bad(pc, "no table slot below slot 0");
        slot(pc, a);
        number(pc, d);
        // The start index is the low word of a double biased by 2^52: bounded, so that
        // adding the number of values cannot wrap around.
        const Number &k = knum_[d];
        if (!k.isDouble || k.hi != 0x43300000 || k.lo >= (1u << 27)) bad(pc, "its start index is no small integer");
        break;
      }
      case CALLM:
        if (b) span(pc, a, b - 1);
        span(pc, a, c + 1 + fr2);
        break;
      case CALL:
        if (c < 1) bad(pc, "C is 0");
        if (b) span(pc, a, b - 1);
        span(pc, a, c + fr2);
        slot(pc, a + fr2);
        break;
      case CALLMT: span(pc, a, d + 1 + fr2); break;
      case CALLT:
        if (d < 1) bad(pc, "D is 0");
        span(pc, a, d + fr2);
        slot(pc, a + fr2);
        break;
      case ITERC:
      case ITERN:
        if (a < 3) bad(pc, "no iterator slots below slot " + std::to_string(a));
        if (b < 2 || c != 3) bad(pc, "B " + std::to_string(b) + ", C " + std::to_string(c));
        span(pc, a, b - 1);
        span(pc, a, 3 + fr2);
        followedBy(pc, ITERL, true);
        break;
      case ISNEXT: {
        if (a < 3) bad(pc, "no iterator slots below slot " + std::to_string(a));
        slot(pc, a);
        const uint32_t t = target(pc);
        if (opAt(t) != ITERN || aOf(ins_[t]) != a) bad(pc, "does not jump to an ITERN of its slots");
        if (++isnexts_[t] > 1) bad(pc, "a second ISNEXT for one ITERN");
        break;
      }
      case VARG:
        if (!(flags_ & kProtoVararg)) bad(pc, "in a function without varargs");
        if (c != numparams_) bad(pc, "C " + std::to_string(c) + " is not the number of parameters");
        if (b) span(pc, a, b - 1);
        slot(pc, a);
        break;
      case RETM: span(pc, a, d); break;
      case RET:
        if (d < 1) bad(pc, "D is 0");
        span(pc, a, d - 1);
        break;
      case RET0:
        if (d != 1) bad(pc, "D is not 1");
        break;
      case RET1:
        if (d != 2) bad(pc, "D is not 2");
        slot(pc, a);
        break;
      case FORI: {
        span(pc, a, 4);
        const uint32_t t = target(pc);
        if (opAt(t - 1) != FORL || aOf(ins_[t - 1]) != a || t - 1 <= pc) bad(pc, "does not jump past its FORL");
        break;
      }
      case FORL: {
        span(pc, a, 4);
        const uint32_t t = target(pc);
        if (opAt(t - 1) != FORI || aOf(ins_[t - 1]) != a || t - 1 >= pc ||
            t - 1 + 1 + dOf(ins_[t - 1]) - 0x8000 != pc + 1)
          bad(pc, "does not jump back after its FORI");
        break;
      }
      case ITERL: {
        const uint32_t before = opAt(pc - 1);
        if ((before != ITERC && before != ITERN) || aOf(ins_[pc - 1]) != a)
          bad(pc, "does not follow an ITERC or ITERN");
        target(pc);
        break;
      }
      default:  // ISTYPE, ISNUM, TGETR, TSETR: not emitted by the compiler; the rest: never in a dump
        bad(pc, "an instruction that does not occur in dumps");
    }
  }

  // --- the instructions along every path ---

  std::vector<uint32_t> successors(uint32_t pc) const {
    const uint32_t op = opOf(ins_[pc]);
    if (isTest(op)) return {pc + 1, pc + 2};
    switch (op) {
      case UCLO:
      case JMP:
      case ISNEXT: return {target(pc)};
      case FORI:
      case FORL:
      case ITERL: return {pc + 1, target(pc)};
      case CALLT:
      case CALLMT:
      case RETM:
      case RET:
      case RET0:
      case RET1: return {};
      default: return {pc + 1};  // ITERN's jumps are its ITERL's
    }
  }

  void checkFlow() {
    if (!isReturn(opOf(ins_[numbc_]))) bad(numbc_, "the last instruction is no return or tail call");
    std::vector<State> states(numbc_ + 2);
    states[1].reached = true;
    std::vector<uint32_t> work{1};
    while (!work.empty()) {
      const uint32_t pc = work.back();
      work.pop_back();
      State s = states[pc];
      step(pc, s);
      for (const uint32_t next : successors(pc)) {
        if (next > numbc_) bad(pc, "runs past the last instruction");
        if (states[next].merge(s)) work.push_back(next);
      }
    }
    checkSlotHints(states);
  }

  // --- the JIT compiler's slot hints ---

  // Note [Slot hints]: when LuaJIT's JIT compiler records a trace, some instructions tell it
  // which slots are dead from there on (JMP and LOOP: the slots from A up; FORI/FORL and
  // ITERL: the slots above the loop's own, in the loop and after it; a call: the slots above
  // its results), and it leaves those slots out of the snapshots that restore the frame when
  // the trace exits. A hint that drops a slot still read later leaves that slot with an
  // older value after an exit, which may be of another type than what the instructions
  // after it take for granted (a constructor's table, a loop's numbers). Each hint must
  // therefore name only slots that no path reads before writing them.

  // The slots instruction pc reads (use) and certainly writes (def), for the liveness of
  // slots; reads of multiple results count every slot from their base up.
  void slotEffects(uint32_t pc, std::bitset<256> &use, std::bitset<256> &def) const {
    const uint32_t ins = ins_[pc], op = opOf(ins), a = aOf(ins), b = bOf(ins), c = cOf(ins), d = dOf(ins);
    const uint32_t fr2 = (dumpFlags_ & kDumpFR2) ? 1 : 0;
    use.reset();
    def.reset();
    auto u = [&](uint32_t lo, uint32_t hi) { use |= slots(lo, hi); };
    auto w = [&](uint32_t lo, uint32_t hi) { def |= slots(lo, hi); };
    switch (op) {
      case ISLT:
      case ISGE:
      case ISLE:
      case ISGT:
      case ISEQV:
      case ISNEV:
        u(a, a + 1);
        u(d, d + 1);
        break;
      case ISEQS:
      case ISNES:
      case ISEQN:
      case ISNEN:
      case ISEQP:
      case ISNEP: u(a, a + 1); break;
      case ISTC:
      case ISFC:
      case IST:
      case ISF:
      case USETV: u(d, d + 1); break;  // ISTC/ISFC copy on one path only
      case MOV:
      case NOT:
      case UNM:
      case LEN:
        u(d, d + 1);
        w(a, a + 1);
        break;
      case ADDVN:
      case SUBVN:
      case MULVN:
      case DIVVN:
      case MODVN:
      case ADDNV:
      case SUBNV:
      case MULNV:
      case DIVNV:
      case MODNV:
      case TGETS:
      case TGETB:
        u(b, b + 1);
        w(a, a + 1);
        break;
      case ADDVV:
      case SUBVV:
      case MULVV:
      case DIVVV:
      case MODVV:
      case POW:
      case TGETV:
        u(b, b + 1);
        u(c, c + 1);
        w(a, a + 1);
        break;
      case CAT:
        u(b, c + 1);
        w(a, a + 1);
        break;
      // FNEW captures slots without reading them (a local function captures its own slot);
      // what a closure reads through an open upvalue carries no fact (Note [Slots a closure
      // may change]), so a stale value there is one more value of any type.
      case KSTR:
      case KCDATA:
      case KSHORT:
      case KNUM:
      case KPRI:
      case UGET:
      case GGET:
      case TNEW:
      case TDUP:
      case FNEW: w(a, a + 1); break;
      case KNIL: w(a, d + 1); break;
      case GSET: u(a, a + 1); break;
      case TSETV:
        u(a, a + 1);
        u(b, b + 1);
        u(c, c + 1);
        break;
      case TSETS:
      case TSETB:
        u(a, a + 1);
        u(b, b + 1);
        break;
      case TSETM: u(a - 1, 256); break;
      case CALL:
        u(a, a + 1);
        u(a + 1 + fr2, a + c + fr2);
        w(a, 256);
        break;
      case CALLM:  // the function, its arguments and the multiple results after them, not the frame link
        u(a, a + 1);
        u(a + 1 + fr2, 256);
        w(a, 256);
        break;
      case CALLT:
        u(a, a + 1);
        u(a + 1 + fr2, a + d + fr2);
        break;
      case CALLMT:
        u(a, a + 1);
        u(a + 1 + fr2, 256);
        break;
      case RETM: u(a, 256); break;
      case ITERC:
        u(a - 3, a);
        w(a, 256);
        break;
      case ITERN:
        u(a - 2, a);
        w(a, 256);
        break;
      case ISNEXT: u(a - 3, a); break;
      case VARG: w(a, b == 0 ? 256 : a + b - 1); break;
      case RET: u(a, a + d - 1); break;
      case RET1: u(a, a + 1); break;
      case FORI:
      case FORL:
        u(a, a + 3);
        w(a, a + 1);
        w(a + 3, a + 4);
        break;
      case ITERL:
        u(a, a + 1);
        w(a - 1, a);
        break;
      default: break;  // RET0, UCLO, JMP, LOOP, USETS/USETN/USETP
    }
  }

  void checkSlotHints(const std::vector<State> &states) const {
    std::vector<std::bitset<256>> liveIn(numbc_ + 2), use(numbc_ + 1), def(numbc_ + 1);
    for (uint32_t pc = 1; pc <= numbc_; pc++) slotEffects(pc, use[pc], def[pc]);
    for (bool changed = true; changed;) {
      changed = false;
      for (uint32_t pc = numbc_; pc >= 1; pc--) {
        std::bitset<256> out;
        for (const uint32_t next : successors(pc)) out |= liveIn[next];
        // ISTC/ISFC write slot A on the way to their JMP only
        const uint32_t op = opOf(ins_[pc]);
        if (op == ISTC || op == ISFC)
          out = (liveIn[pc + 1] & ~slots(aOf(ins_[pc]), aOf(ins_[pc]) + 1)) | liveIn[pc + 2];
        const std::bitset<256> in = use[pc] | (out & ~def[pc]);
        if (in != liveIn[pc]) {
          liveIn[pc] = in;
          changed = true;
        }
      }
    }
    // A test jumps by itself, with the target of the JMP that follows it: that JMP runs (and
    // gives its hint) only when something else jumps to it.
    std::vector<bool> jumpedTo(numbc_ + 2, false);
    for (uint32_t pc = 1; pc <= numbc_; pc++)
      for (const uint32_t next : successors(pc))
        if (next != pc + 1) jumpedTo[next] = true;
    for (uint32_t pc = 1; pc <= numbc_; pc++) {
      if (!states[pc].reached) continue;
      const uint32_t ins = ins_[pc], op = opOf(ins), a = aOf(ins), b = bOf(ins);
      if (op == JMP && pc > 1 && isTest(opOf(ins_[pc - 1])) && !jumpedTo[pc]) continue;
      auto dead = [&](uint32_t next, uint32_t from, const char *hint) {
        const std::bitset<256> dropped = liveIn[next] & slots(from, 256);
        if (dropped.none()) return;
        uint32_t s = 0;
        while (!dropped.test(s)) s++;
        bad(pc, std::string(hint) + " drops slot " + std::to_string(s) + ", which instruction " + std::to_string(next) +
                    " on may read (Note [Slot hints])");
      };
      switch (op) {
        case JMP: dead(target(pc), a, "its slot hint"); break;
        case LOOP: dead(pc + 1, a, "its slot hint"); break;
        case FORI:
          dead(pc + 1, a + 4, "the loop's slots");
          dead(target(pc), a, "the loop's exit");
          break;
        case FORL:
          dead(target(pc), a + 4, "the loop's slots");
          dead(pc + 1, a, "the loop's exit");
          break;
        case ITERL:
          dead(target(pc), a - 1 + bOf(ins_[pc - 1]), "the loop's slots");
          dead(pc + 1, a - 3, "the loop's exit");
          break;
        case CALL:
          if (b) dead(pc + 1, a + b - 1, "the call's results");
          break;
        default: break;
      }
    }
  }

  // Checks what instruction pc needs of the slots, and turns s into the state after it.
  void step(uint32_t pc, State &s) const {
    const uint32_t ins = ins_[pc], op = opOf(ins), a = aOf(ins), b = bOf(ins), c = cOf(ins), d = dOf(ins);
    const uint32_t fr2 = (dumpFlags_ & kDumpFR2) ? 1 : 0;
    const int multres = s.multres;
    s.multres = -1;
    auto read = [&](uint32_t lo, uint32_t hi) {
      if ((s.hiddenIndex & slots(lo, hi)).any()) bad(pc, "reads the hidden index of a pairs() loop");
    };
    auto write = [&](uint32_t lo, uint32_t hi) {
      const std::bitset<256> keep = ~slots(lo, hi);
      s.newTable &= keep;
      s.iterTable &= keep;
      s.iterControl &= keep;
      s.forControl &= keep;
      s.hiddenIndex &= keep;
    };
    auto needMultres = [&](uint32_t base) {
      if (multres != int(base)) bad(pc, "uses multiple results that are not right before it");
    };
    auto closed = [&] {
      if (s.open.any()) bad(pc, "returns with upvalues open");
    };
    // A call's frame link and the callee's frame take the slots from its base on: an open
    // upvalue there would let a closure read and overwrite the link.
    auto callFrom = [&](uint32_t base) {
      if ((s.open & slots(base, 256)).any()) bad(pc, "calls with upvalues open in the callee's frame");
    };
    switch (op) {
      case ISLT:
      case ISGE:
      case ISLE:
      case ISGT:
      case ISEQV:
      case ISNEV:
        read(a, a + 1);
        read(d, d + 1);
        break;
      case ISEQS:
      case ISNES:
      case ISEQN:
      case ISNEN:
      case ISEQP:
      case ISNEP: read(a, a + 1); break;
      case ISTC:
      case ISFC:
      case MOV:
      case NOT:
      case UNM:
      case LEN:
        read(d, d + 1);
        write(a, a + 1);
        break;
      case IST:
      case ISF:
      case USETV: read(d, d + 1); break;
      case ADDVN:
      case SUBVN:
      case MULVN:
      case DIVVN:
      case MODVN:
      case ADDNV:
      case SUBNV:
      case MULNV:
      case DIVNV:
      case MODNV:
      case TGETS:
      case TGETB:
        read(b, b + 1);
        write(a, a + 1);
        break;
      case ADDVV:
      case SUBVV:
      case MULVV:
      case DIVVV:
      case MODVV:
      case POW:
      case TGETV:
        read(b, b + 1);
        read(c, c + 1);
        write(a, a + 1);
        break;
      case CAT:  // concatenates in place, in slots b..c
        read(b, c + 1);
        write(b, c + 1);
        write(a, a + 1);
        break;
      case KSTR:
      case KCDATA:
      case KSHORT:
      case KNUM:
      case KPRI:
      case UGET:
      case GGET: write(a, a + 1); break;
      case KNIL: write(a, d + 1); break;
      case UCLO:  // closes upvalues before a return that takes a call's results
        s.open &= ~slots(a, 256);
        s.multres = multres;
        break;
      case FNEW:
        for (const uint16_t uv : kids_[sizekgc_ - 1 - d].uv)
          if (uv & kUvLocal) {
            read(uv & 0xff, (uv & 0xff) + 1);
            s.open.set(uv & 0xff);
          }
        write(a, a + 1);
        break;
      case TNEW:
      case TDUP:
        write(a, a + 1);
        s.newTable.set(a);
        break;
      case GSET: read(a, a + 1); break;
      case TSETV:
        read(a, a + 1);
        read(b, b + 1);
        read(c, c + 1);
        break;
      case TSETS:
      case TSETB:
        read(a, a + 1);
        read(b, b + 1);
        break;
      case TSETM:
        needMultres(a);
        if (s.open.test(a - 1))
          bad(pc, "slot " + std::to_string(a - 1) + ", the constructor's table, is an open upvalue");
        if (!s.newTable.test(a - 1)) bad(pc, "slot " + std::to_string(a - 1) + " may not hold the constructor's table");
        break;
      case CALLM:
      case CALL:
      case CALLMT:
      case CALLT: {
        const bool multi = op == CALLM || op == CALLMT;
        const uint32_t nargs = op == CALLM ? c : op == CALL ? c - 1 : op == CALLMT ? d : d - 1;
        if (multi) needMultres(a + nargs + 1 + fr2);
        read(a, a + 1);
        read(a + 1 + fr2, a + 1 + fr2 + nargs);
        if (op == CALLMT || op == CALLT) {
          closed();
          break;
        }
        callFrom(a);
        write(a, 256);  // the callee's frame and the results
        if (b == 0) s.multres = int(a);
        break;
      }
      case ITERC:
        read(a - 3, a - 1);  // the index in a - 1 may be ISNEXT's after a despecialization
        callFrom(a);
        write(a, 256);
        break;
      case ITERN:
        if ((s.open & slots(a - 2, a)).any()) bad(pc, "the table or index of its pairs() loop is an open upvalue");
        if (!s.iterTable.test(a - 2) || !s.iterControl.test(a - 1)) bad(pc, "not reached through its ISNEXT only");
        read(a - 2, a - 1);
        callFrom(a);  // as the ITERC it may turn into
        write(a, 256);
        break;
      case ISNEXT:
        read(a - 3, a - 1);
        if ((s.open & slots(a - 2, a)).any())
          bad(pc, "the table or hidden index of its pairs() loop would be an open upvalue");
        write(a - 1, a);
        s.iterTable.set(a - 2);
        s.iterControl.set(a - 1);
        s.hiddenIndex.set(a - 1);
        break;
      case VARG:
        if (b == 0) {
          write(a, 256);
          s.multres = int(a);
        } else {
          write(a, a + b - 1);
        }
        break;
      case RETM:
        needMultres(a + d);
        read(a, a + d);
        closed();
        break;
      case RET:
        read(a, a + d - 1);
        closed();
        break;
      case RET0: closed(); break;
      case RET1:
        read(a, a + 1);
        closed();
        break;
      case FORI:
        read(a, a + 3);
        if ((s.open & slots(a, a + 3)).any()) bad(pc, "its loop numbers would be open upvalues");
        write(a, a + 1);
        write(a + 3, a + 4);
        for (uint32_t k = 0; k < 3; k++) s.forControl.set(a + k);
        break;
      case FORL:
        if ((s.open & slots(a, a + 3)).any()) bad(pc, "its loop numbers are open upvalues");
        for (uint32_t k = 0; k < 3; k++)
          if (!s.forControl.test(a + k)) bad(pc, "its loop slots may not hold FORI's numbers");
        write(a, a + 1);
        write(a + 3, a + 4);
        s.forControl.set(a);
        break;
      case ITERL: {
        read(a, a + 1);
        // After ITERN (which jumps itself) this only runs as the ITERC it may turn into.
        const bool iterc = opOf(ins_[pc - 1]) == ITERC;
        const bool control = s.iterControl.test(a - 1), hidden = s.hiddenIndex.test(a - 1);
        write(a - 1, a);
        if (!iterc) {
          s.iterControl[a - 1] = control;
          s.hiddenIndex[a - 1] = hidden;
        }
        break;
      }
      default:  // JMP, LOOP
        break;
    }
    // Note [Slots a closure may change]: a slot with an open upvalue changes whenever its
    // closure assigns the upvalue, which any call or metamethod may run, so nothing is
    // known of what it holds (a pairs() loop's table, FORI's numbers, a constructor's table).
    const std::bitset<256> unchanged = ~s.open;
    s.newTable &= unchanged;
    s.iterTable &= unchanged;
    s.iterControl &= unchanged;
    s.forControl &= unchanged;
  }

  struct Number {
    bool isDouble;
    uint32_t lo, hi;
  };

  uint32_t dumpFlags_;
  uint32_t flags_ = 0, numparams_ = 0, framesize_ = 0, sizeuv_ = 0;
  uint32_t sizekgc_ = 0, sizekn_ = 0, numbc_ = 0, sizedbg_ = 0, numline_ = 0;
  size_t insAt_ = 0;
  std::vector<uint32_t> ins_;  // 1..numbc_
  std::vector<uint16_t> uv_;
  std::vector<Kgc> kgc_;     // in the dump's order
  std::vector<Child> kids_;  // the child functions among them
  std::vector<Number> knum_;
  std::vector<uint8_t> isnexts_;  // how many ISNEXT jump to each ITERN
};

}  // namespace

int checkBytecode(const char *data, size_t size) {
  if (size > kMaxDump) fail(0, "a dump of " + std::to_string(size) + " bytes");
  Cursor c(reinterpret_cast<const uint8_t *>(data), 0, size);
  for (const uint8_t m : kMagic)
    if (c.byte("the header") != m) fail(c.pos() - 1, "not a LuaJIT bytecode dump");
  const uint32_t version = c.byte("the version");
  if (version != kVersion) fail(3, "bytecode version " + std::to_string(version) + " (LuaJIT 2.1 writes 2)");
  const uint32_t flags = c.uleb("the dump's flags");
  if (flags & ~(kDumpBigEndian | kDumpStrip | kDumpFFI | kDumpFR2))
    fail(4, "unknown dump flags " + std::to_string(flags));
  if (flags & kDumpBigEndian) fail(4, "a big-endian dump");
  if (!(flags & kDumpStrip)) c.bytes(c.uleb("the chunk name's length"), "the chunk name");

  std::vector<Child> protos;  // read, not yet taken by a parent
  uint32_t nupvalues = 0;
  for (;;) {
    const uint32_t length = c.uleb("a function's length");
    if (length == 0) break;
    Cursor proto = c.sub(length, "a function");
    Prototype pt(proto, flags, protos);
    nupvalues = pt.sizeuv();
    protos.push_back(pt.child());
  }
  if (c.left()) fail(c.pos(), std::to_string(c.left()) + " bytes after the end marker");
  if (protos.size() != 1)
    fail(c.pos() - 1, std::to_string(protos.size()) + " functions that no parent takes (one main function expected)");
  return int(nupvalues);
}

}  // namespace luat
