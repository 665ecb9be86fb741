// Element-wise methods, functions and operators.
#include "core/ops/Pointwise.h"
#include "python/csrc/Bind.h"

namespace torch::python {
namespace {

// `a op b` with b a tensor, a number or something torch.tensor() takes (a list, an array).
// The kernels run without the GIL (Note [Releasing the GIL] in Bind.h).
Tensor binaryAny(BinaryOp op, const Tensor &a, py::handle b, Scalar alpha = Scalar(int64_t(1))) {
  if (isScalarLike(b) && !isTensor(b)) {
    Scalar s = toScalar(b);
    return withoutGil([&] { return binary(op, a, s, alpha); });
  }
  Tensor tb = isTensor(b) ? unwrap(b) : tensorFromData(b, std::nullopt);
  return withoutGil([&] { return binary(op, a, tb, alpha); });
}

void binaryAny_(BinaryOp op, const Tensor &a, py::handle b, Scalar alpha = Scalar(int64_t(1))) {
  if (isScalarLike(b) && !isTensor(b)) {
    Scalar s = toScalar(b);
    return withoutGil([&] { binary_(op, a, s, alpha); });
  }
  Tensor tb = isTensor(b) ? unwrap(b) : tensorFromData(b, std::nullopt);
  withoutGil([&] { binary_(op, a, tb, alpha); });
}

bool isOperand(py::handle b) {
  return isTensor(b) || isScalarLike(b) || py::isinstance<py::list>(b) || py::isinstance<py::tuple>(b) ||
         py::isinstance<py::array>(b);
}

Tensor compareAny(CompareOp op, const Tensor &a, py::handle b) {
  if (isScalarLike(b) && !isTensor(b)) {
    Scalar s = toScalar(b);
    return withoutGil([&] { return compare(op, a, s); });
  }
  Tensor tb = isTensor(b) ? unwrap(b) : tensorFromData(b, std::nullopt);
  return withoutGil([&] { return compare(op, a, tb); });
}

Scalar alphaOf(py::handle alpha) { return alpha.is_none() ? Scalar(int64_t(1)) : toScalar(alpha); }

RoundingMode roundingMode(const std::optional<std::string> &mode) {
  if (!mode) return RoundingMode::None;
  if (*mode == "trunc") return RoundingMode::Trunc;
  if (*mode == "floor") return RoundingMode::Floor;
  fail(th::ErrorKind::Runtime, "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '%s'",
       mode->c_str());
}

// torch.div(a, b, rounding_mode=...) with b a tensor, a number or data for torch.tensor().
Tensor divideAny(const Tensor &a, py::handle b, const std::optional<std::string> &mode) {
  RoundingMode m = roundingMode(mode);
  if (isScalarLike(b) && !isTensor(b)) {
    Scalar s = toScalar(b);
    return withoutGil([&] { return divide(a, s, m); });
  }
  Tensor tb = isTensor(b) ? unwrap(b) : tensorFromData(b, std::nullopt);
  return withoutGil([&] { return divide(a, tb, m); });
}

std::optional<Scalar> optionalScalar(py::handle v) {
  if (v.is_none()) return std::nullopt;
  return toScalar(v);
}

// A Python number (not a tensor) or nothing.
std::optional<Scalar> optionalNumber(py::handle v) {
  if (py::isinstance<Tensor>(v)) return std::nullopt;
  return optionalScalar(v);
}

}  // namespace

void bindPointwise(py::module &m, TensorClass &cls) {
  // Binary ops (Note [Pointwise op tables]): a method, a torch.* function taking out=, an
  // in-place twin; add and sub take alpha.
  struct BinaryName {
    const char *name;
    BinaryOp op;
  };
  static const BinaryName binaries[] = {
#define TORCH_PY_BINARY(Op, torch, ...) {#torch, BinaryOp::Op},
      TH_FORALL_BINARY_OPS(TORCH_PY_BINARY)
#undef TORCH_PY_BINARY
      // PyTorch's other names for some of them
      {"subtract", BinaryOp::Sub},
      {"multiply", BinaryOp::Mul},
      {"divide", BinaryOp::Div},
      {"true_divide", BinaryOp::Div},
  };
  for (const BinaryName &e : binaries) {
    BinaryOp op = e.op;
    std::string inplace = std::string(e.name) + "_";
    if (op == BinaryOp::Div && std::string(e.name) != "true_divide") {
      // div and divide take rounding_mode (Note [Rounding division] in core/ops/Pointwise.cpp)
      using Mode = std::optional<std::string>;
      cls.def(
          e.name, [](const Tensor &a, py::handle b, const Mode &mode) { return divideAny(a, b, mode); },
          py::arg("other"), py::kw_only(), py::arg("rounding_mode") = py::none());
      m.def(
          e.name,
          [](py::handle a, py::handle b, const Mode &mode, std::optional<Tensor> out) {
            if (isTensor(a)) return writeOut(divideAny(unwrap(a), b, mode), out);
            Scalar s = toScalar(a);
            Tensor tb = toTensor(b);
            RoundingMode rm = roundingMode(mode);
            return writeOut(withoutGil([&] { return divide(scalarTensor(s, resultType(tb, s), tb.device()), tb, rm); }),
                            out);
          },
          py::arg("input"), py::arg("other"), py::kw_only(), py::arg("rounding_mode") = py::none(),
          py::arg("out") = py::none());
      cls.def(
          inplace.c_str(),
          [](const Tensor &a, py::handle b, const Mode &mode) {
            RoundingMode rm = roundingMode(mode);
            if (isScalarLike(b) && !isTensor(b)) {
              Scalar s = toScalar(b);
              withoutGil([&] { divide_(a, s, rm); });
            } else {
              Tensor tb = isTensor(b) ? unwrap(b) : tensorFromData(b, std::nullopt);
              withoutGil([&] { divide_(a, tb, rm); });
            }
            return a;
          },
          py::arg("other"), py::kw_only(), py::arg("rounding_mode") = py::none());
    } else if (op == BinaryOp::Add || op == BinaryOp::Sub) {
      cls.def(
          e.name, [op](const Tensor &a, py::handle b, py::handle alpha) { return binaryAny(op, a, b, alphaOf(alpha)); },
          py::arg("other"), py::kw_only(), py::arg("alpha") = py::none());
      m.def(
          e.name,
          [op](const Tensor &a, py::handle b, py::handle alpha, std::optional<Tensor> out) {
            return writeOut(binaryAny(op, a, b, alphaOf(alpha)), out);
          },
          py::arg("input"), py::arg("other"), py::kw_only(), py::arg("alpha") = py::none(),
          py::arg("out") = py::none());
      cls.def(
          inplace.c_str(),
          [op](const Tensor &a, py::handle b, py::handle alpha) {
            binaryAny_(op, a, b, alphaOf(alpha));
            return a;
          },
          py::arg("other"), py::kw_only(), py::arg("alpha") = py::none());
    } else {
      cls.def(
          e.name, [op](const Tensor &a, py::handle b) { return binaryAny(op, a, b); }, py::arg("other"));
      m.def(
          e.name,
          [op](py::handle a, py::handle b, std::optional<Tensor> out) {
            if (!py::isinstance<Tensor>(a)) {
              Scalar s = toScalar(a);
              Tensor tb = toTensor(b);
              return writeOut(withoutGil([&] { return binary(op, s, tb); }), out);
            }
            return writeOut(binaryAny(op, a.cast<const Tensor &>(), b), out);
          },
          py::arg("input"), py::arg("other"), py::kw_only(), py::arg("out") = py::none());
      cls.def(
          inplace.c_str(),
          [op](const Tensor &a, py::handle b) {
            binaryAny_(op, a, b);
            return a;
          },
          py::arg("other"));
    }
  }

  // Operators. Unknown operands give NotImplemented so that Python tries the other side.
  struct OperatorEntry {
    const char *name, *reflected, *inplace;
    BinaryOp op;
  };
  static const OperatorEntry operators[] = {
      {"__add__", "__radd__", "__iadd__", BinaryOp::Add},
      {"__sub__", "__rsub__", "__isub__", BinaryOp::Sub},
      {"__mul__", "__rmul__", "__imul__", BinaryOp::Mul},
      {"__truediv__", "__rtruediv__", "__itruediv__", BinaryOp::Div},
      {"__floordiv__", "__rfloordiv__", "__ifloordiv__", BinaryOp::FloorDiv},
      {"__pow__", "__rpow__", "__ipow__", BinaryOp::Pow},
      {"__mod__", "__rmod__", "__imod__", BinaryOp::Remainder},
      {"__and__", "__rand__", "__iand__", BinaryOp::BitwiseAnd},
      {"__or__", "__ror__", "__ior__", BinaryOp::BitwiseOr},
      {"__xor__", "__rxor__", "__ixor__", BinaryOp::BitwiseXor},
      {"__lshift__", "__rlshift__", "__ilshift__", BinaryOp::LeftShift},
      {"__rshift__", "__rrshift__", "__irshift__", BinaryOp::RightShift},
  };
  for (const OperatorEntry &e : operators) {
    BinaryOp op = e.op;
    // self arrives as a handle: these are the hottest calls of all.
    cls.def(
        e.name,
        [op](py::handle self, py::handle b) -> py::object {
          const Tensor &a = unwrap(self);
          if (!isOperand(b)) return pyNotImplemented();
          return py::cast(binaryAny(op, a, b));
        },
        py::is_operator());
    cls.def(
        e.reflected,
        [op](py::handle self, py::handle b) -> py::object {
          const Tensor &a = unwrap(self);
          if (isScalarLike(b)) {
            Scalar s = toScalar(b);
            return py::cast(withoutGil([&] { return binary(op, s, a); }));
          }
          if (!isOperand(b)) return pyNotImplemented();
          Tensor tb = toTensor(b);
          return py::cast(withoutGil([&] { return binary(op, tb, a); }));
        },
        py::is_operator());
    cls.def(
        e.inplace,
        [op](py::handle self, py::handle b) -> py::object {
          if (!isOperand(b)) return pyNotImplemented();
          binaryAny_(op, unwrap(self), b);
          return py::reinterpret_borrow<py::object>(self);
        },
        py::is_operator());
  }

  // Comparisons: Bool results; the in-place forms write 0/1 in self's type.
  struct CompareEntry {
    const char *name, *alias;
    CompareOp op;
  };
  static const CompareEntry comparisons[] = {
#define TORCH_PY_COMPARE(Op, torch, th, alias) {#torch, #alias, CompareOp::Op},
      TH_FORALL_COMPARE_OPS(TORCH_PY_COMPARE)
#undef TORCH_PY_COMPARE
  };
  for (const CompareEntry &e : comparisons) {
    CompareOp op = e.op;
    auto method = [op](const Tensor &a, py::handle b) { return compareAny(op, a, b); };
    auto function = [op](const Tensor &a, py::handle b, std::optional<Tensor> out) {
      return writeOut(compareAny(op, a, b), out);
    };
    for (const char *name : {e.name, e.alias}) {
      if (!*name) continue;
      cls.def(name, method, py::arg("other"));
      m.def(name, function, py::arg("input"), py::arg("other"), py::kw_only(), py::arg("out") = py::none());
    }
    cls.def(("__" + std::string(e.name) + "__").c_str(), [op](const Tensor &a, py::handle b) -> py::object {
      if (!isOperand(b) && !py::isinstance<py::array>(b)) return pyNotImplemented();
      return py::cast(compareAny(op, a, b));
    });
    cls.def((std::string(e.name) + "_").c_str(), [op](const Tensor &a, py::handle b) {
      if (py::isinstance<Tensor>(b)) {
        Tensor tb = b.cast<Tensor>();
        withoutGil([&] { compare_(op, a, tb); });
      } else {
        Scalar s = toScalar(b);
        withoutGil([&] { compare_(op, a, s); });
      }
      return a;
    });
  }
  // Python would otherwise set __hash__ to None because __eq__ is defined.
  cls.attr("__hash__") = py::module::import("builtins").attr("object").attr("__hash__");

  // Unary ops.
  for (int i = 0; i < kNumUnaryOps; i++) {
    UnaryOp op = static_cast<UnaryOp>(i);
    const char *name = unaryOpName(op);
    cls.def(
        name, [op](const Tensor &t) { return unary(op, t); }, ReleaseGil());
    m.def(
        name,
        [op](const Tensor &t, std::optional<Tensor> out) {
          return writeOut(withoutGil([&] { return unary(op, t); }), out);
        },
        py::arg("input"), py::kw_only(), py::arg("out") = py::none());
    cls.def((std::string(name) + "_").c_str(),
            [op](const Tensor &t) {
              unary_(op, t);
              return t;
            },
            ReleaseGil());
  }
  for (const char *alias : {"negative", "absolute"}) {
    UnaryOp op = alias[0] == 'n' ? UnaryOp::Neg : UnaryOp::Abs;
    cls.def(
        alias, [op](const Tensor &t) { return unary(op, t); }, ReleaseGil());
    m.def(
        alias, [op](const Tensor &t) { return unary(op, t); }, py::arg("input"), ReleaseGil());
  }
  cls.def(
      "__neg__", [](const Tensor &t) { return unary(UnaryOp::Neg, t); }, ReleaseGil());
  cls.def(
      "__abs__", [](const Tensor &t) { return unary(UnaryOp::Abs, t); }, ReleaseGil());
  cls.def("__pos__", [](const Tensor &t) { return t; });
  cls.def(
      "__invert__",
      [](const Tensor &t) {
        TORCH_CHECK(!isFloating(t.dtype()), Type,
                    "~ (operator.invert) is only implemented on integer and Boolean-type tensors");
        return unary(UnaryOp::BitwiseNot, t);
      },
      ReleaseGil());
  defBoth(m, cls, "logical_not", [](const Tensor &t) { return logicalNot(t); });
  struct LogicalEntry {
    const char *name;
    int kind;  // 0 and, 1 or, 2 xor
  };
  static const LogicalEntry logicals[] = {{"logical_and", 0}, {"logical_or", 1}, {"logical_xor", 2}};
  for (const LogicalEntry &e : logicals) {
    int kind = e.kind;
    auto logical = [kind](const Tensor &a, py::handle b) {
      Tensor tb = toTensor(b);
      return withoutGil([&] {
        Tensor x = compare(CompareOp::Ne, a, Scalar(int64_t(0)));
        Tensor y = compare(CompareOp::Ne, tb, Scalar(int64_t(0)));
        if (kind == 0) return binary(BinaryOp::Mul, x, y);
        if (kind == 1) return binary(BinaryOp::Add, x, y);
        return compare(CompareOp::Ne, x, y);
      });
    };
    defBoth(m, cls, e.name, logical, py::arg("other"));
  }

  // clamp / clip: Python numbers as bounds take the kernel; a tensor bound (a number beside
  // it becomes a 0-dim tensor of the type it would promote to) takes the composed op.
  struct ClampBounds {
    bool tensors;
    std::optional<Scalar> lowValue, highValue;
    std::optional<Tensor> low, high;
  };
  auto boundsOf = [](const Tensor &t, py::handle min, py::handle max) {
    ClampBounds b{py::isinstance<Tensor>(min) || py::isinstance<Tensor>(max), optionalNumber(min), optionalNumber(max),
                  std::nullopt, std::nullopt};
    if (!b.tensors) return b;
    auto asTensor = [&t](py::handle x, const std::optional<Scalar> &v) -> std::optional<Tensor> {
      if (py::isinstance<Tensor>(x)) return x.cast<Tensor>();
      if (!v) return std::nullopt;
      return scalarTensor(*v, resultType(t, *v), t.device());
    };
    b.low = asTensor(min, b.lowValue);
    b.high = asTensor(max, b.highValue);
    return b;
  };
  for (const char *name : {"clamp", "clip"}) {
    auto clampOf = [](const Tensor &t, const ClampBounds &b) {
      return withoutGil([&] { return b.tensors ? clamp(t, b.low, b.high) : clamp(t, b.lowValue, b.highValue); });
    };
    cls.def(
        name,
        [boundsOf, clampOf](const Tensor &t, py::handle min, py::handle max) {
          return clampOf(t, boundsOf(t, min, max));
        },
        py::arg("min") = py::none(), py::arg("max") = py::none());
    m.def(
        name,
        [boundsOf, clampOf](const Tensor &t, py::handle min, py::handle max, std::optional<Tensor> out) {
          return writeOut(clampOf(t, boundsOf(t, min, max)), out);
        },
        py::arg("input"), py::arg("min") = py::none(), py::arg("max") = py::none(), py::kw_only(),
        py::arg("out") = py::none());
    cls.def((std::string(name) + "_").c_str(),
            [boundsOf](const Tensor &t, py::handle min, py::handle max) {
              ClampBounds b = boundsOf(t, min, max);
              withoutGil([&] {
                if (b.tensors)
                  clamp_(t, b.low, b.high);
                else
                  clamp_(t, b.lowValue, b.highValue);
              });
              return t;
            },
            py::arg("min") = py::none(), py::arg("max") = py::none());
  }

  // addcmul / addcdiv / lerp / where
  for (bool divide : {false, true}) {
    const char *name = divide ? "addcdiv" : "addcmul";
    auto fn = [divide](const Tensor &self, const Tensor &t1, const Tensor &t2, py::handle value) {
      Scalar v = alphaOf(value);
      return withoutGil([&] { return divide ? addcdiv(self, t1, t2, v) : addcmul(self, t1, t2, v); });
    };
    cls.def(name, fn, py::arg("tensor1"), py::arg("tensor2"), py::kw_only(), py::arg("value") = py::none());
    m.def(name, fn, py::arg("input"), py::arg("tensor1"), py::arg("tensor2"), py::kw_only(),
          py::arg("value") = py::none());
    cls.def((std::string(name) + "_").c_str(),
            [divide](const Tensor &self, const Tensor &t1, const Tensor &t2, py::handle value) {
              Scalar v = alphaOf(value);
              withoutGil([&] {
                if (divide)
                  addcdiv_(self, t1, t2, v);
                else
                  addcmul_(self, t1, t2, v);
              });
              return self;
            },
            py::arg("tensor1"), py::arg("tensor2"), py::kw_only(), py::arg("value") = py::none());
  }
  defBoth(
      m, cls, "lerp",
      [](const Tensor &a, const Tensor &b, py::handle w) {
        if (py::isinstance<Tensor>(w)) {
          Tensor weight = w.cast<Tensor>();
          return withoutGil([&] { return lerp(a, b, weight); });
        }
        Scalar weight = toScalar(w);
        return withoutGil([&] { return lerp(a, b, weight); });
      },
      py::arg("end"), py::arg("weight"));
  cls.def(
      "lerp_",
      [](const Tensor &a, const Tensor &b, py::handle w) {
        if (py::isinstance<Tensor>(w)) {
          Tensor weight = w.cast<Tensor>();
          withoutGil([&] { lerp_(a, b, weight); });
          return a;
        }
        Scalar weight = toScalar(w);
        withoutGil([&] { lerp_(a, b, weight); });
        return a;
      },
      py::arg("end"), py::arg("weight"));
  m.def(
      "where",
      [](const Tensor &cond, py::handle a, py::handle b) {
        // A Python number takes the other operand's type where promotion allows (a wrapped
        // number, as in binary ops): made in its natural type first, 0.1 would pass through
        // float32 on its way to a float64 result.
        auto operand = [](py::handle x, py::handle other) {
          if (py::isinstance<Tensor>(x)) return x.cast<Tensor>();
          Scalar v = toScalar(x);
          ScalarType type =
              py::isinstance<Tensor>(other) ? resultType(other.cast<Tensor>(), v) : v.naturalType(defaultFloatType());
          return scalarTensor(v, type, Device::CPU);  // a wrapped number goes with any device
        };
        Tensor ta = operand(a, b), tb = operand(b, a);
        return withoutGil([&] { return where(cond, ta, tb); });
      },
      py::arg("condition"), py::arg("input"), py::arg("other"));
  // where(condition) alone is nonzero(condition, as_tuple=True)
  m.def(
      "where",
      [](py::handle condition) {
        return py::module::import("torch").attr("nonzero")(condition, py::arg("as_tuple") = true);
      },
      py::arg("condition"));
  cls.def(
      "where", [](const Tensor &self, const Tensor &cond, const Tensor &other) { return where(cond, self, other); },
      py::arg("condition"), py::arg("other"), ReleaseGil());
}

}  // namespace torch::python
