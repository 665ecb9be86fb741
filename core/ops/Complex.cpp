#include "core/ops/Complex.h"

#include <algorithm>
#include <cmath>

#include "autograd/Autograd.h"
#include "core/ops/CopyKernels.h"
#include "core/ops/Factory.h"
#include "core/ops/Linalg.h"
#include "core/ops/Reduce.h"
#include "core/ops/Shape.h"

namespace torch {

namespace {

// The real view's header alone: no autograd, no view bookkeeping (for element work).
Tensor realHeader(const Tensor &t) {
  IntList sizes = t.sizes(), strides = t.strides();
  for (int64_t &s : strides) s *= 2;
  sizes.push_back(2);
  strides.push_back(1);
  return fromStorage(t.storage().withType(toRealType(t.dtype())), t.storageOffset() * 2, sizes, strides);
}

[[noreturn]] void notComplex(const char *op, ScalarType type) {
  fail(th::ErrorKind::Runtime, "\"%s\" not implemented for '%s'", op, scalarTypeName(type));
}

Tensor part(const Tensor &real, int which) { return select(real, -1, which); }

// The complex tensor with these real and imaginary parts (same shape and type).
Tensor fromParts(const Tensor &re, const Tensor &im) { return viewAsComplex(stack({re, im}, -1)); }

}  // namespace

Tensor viewAsReal(const Tensor &t) {
  TORCH_CHECK(isComplex(t.dtype()), Runtime, "view_as_real is only supported for complex tensors");
  Tensor r = realHeader(t);
  markView(t, r);
  if (needsRecording({&t})) {
    recordView("ViewAsRealBackward", t, r, [](const Tensor &g) { return viewAsComplex(contiguous(g)); });
  }
  return r;
}

Tensor viewAsComplex(const Tensor &t) {
  TORCH_CHECK(t.dtype() == ScalarType::Float || t.dtype() == ScalarType::Double, Runtime,
              "view_as_complex is only supported for float and double tensors, but got a tensor of scalar type: %s",
              scalarTypeName(t.dtype()));
  TORCH_CHECK(t.dim() > 0 && t.size(t.dim() - 1) == 2, Runtime, "Tensor must have a last dimension of size 2");
  TORCH_CHECK(t.stride(t.dim() - 1) == 1, Runtime, "Tensor must have a last dimension with stride 1");
  IntList sizes = t.sizes(), strides = t.strides();
  sizes.pop_back();
  strides.pop_back();
  for (int64_t &s : strides) {
    TORCH_CHECK(s % 2 == 0, Runtime, "Tensor must have a stride divisible by 2 for all but last dimension");
    s /= 2;
  }
  TORCH_CHECK(t.storageOffset() % 2 == 0, Runtime, "Tensor must have a storage_offset divisible by 2");
  ScalarType type = toComplexType(t.dtype());
  Tensor r = fromStorage(t.storage().withType(type), t.storageOffset() / 2, sizes, strides);
  markView(t, r);
  if (needsRecording({&t})) recordView("ViewAsComplexBackward", t, r, [](const Tensor &g) { return viewAsReal(g); });
  return r;
}

Tensor real(const Tensor &t) { return isComplex(t.dtype()) ? part(viewAsReal(t), 0) : t; }

Tensor imag(const Tensor &t) {
  TORCH_CHECK(isComplex(t.dtype()), Runtime, "imag is not implemented for tensors with non-complex dtypes.");
  return part(viewAsReal(t), 1);
}

Tensor complex(const Tensor &re, const Tensor &im) {
  TORCH_CHECK(re.dtype() == im.dtype(), Runtime,
              "Expected object of scalar type %s but got scalar type %s for second argument",
              scalarTypeName(re.dtype()), scalarTypeName(im.dtype()));
  TORCH_CHECK(re.dtype() == ScalarType::Float || re.dtype() == ScalarType::Double, Runtime,
              "Expected both inputs to be Float or Double tensors but got %s and %s", scalarTypeName(re.dtype()),
              scalarTypeName(im.dtype()));
  IntList shape = broadcastShapes(re.sizes(), im.sizes());
  return fromParts(expand(re, shape), expand(im, shape));
}

Tensor polar(const Tensor &abs, const Tensor &angle) {
  return complex(binary(BinaryOp::Mul, abs, unary(UnaryOp::Cos, angle)),
                 binary(BinaryOp::Mul, abs, unary(UnaryOp::Sin, angle)));
}

Tensor conj(const Tensor &t) {
  if (!isComplex(t.dtype())) return t;
  Tensor sign = empty({2}, toRealType(t.dtype()), t.device());
  fill_(select(sign, 0, 0), Scalar(1.0));
  fill_(select(sign, 0, 1), Scalar(-1.0));
  return viewAsComplex(binary(BinaryOp::Mul, viewAsReal(t), sign));
}

Tensor angle(const Tensor &t) {
  if (!isComplex(t.dtype())) {
    // pi for x < 0, 0 for the others (-0 included), NaN for NaN: PyTorch's
    ScalarType type = isFloating(t.dtype()) ? t.dtype() : defaultFloatType();
    Tensor x = toType(t, type);
    Tensor r = where(compare(CompareOp::Lt, x, Scalar(0.0)), scalarTensor(Scalar(M_PI), type, t.device()),
                     scalarTensor(Scalar(0.0), type, t.device()));
    return where(compare(CompareOp::Ne, x, x), x, r);
  }
  Tensor r = viewAsReal(t);
  return binary(BinaryOp::Atan2, part(r, 1), part(r, 0));
}

Tensor complexBinary(BinaryOp op, const Tensor &a, const Tensor &b, Scalar alpha, ScalarType type) {
  Device device = resultDevice(binaryOpName(op), a, b);
  Tensor ra = viewAsReal(to(a, type, device)), rb = viewAsReal(to(b, type, device));
  switch (op) {
    case BinaryOp::Add:
    case BinaryOp::Sub:
      TORCH_CHECK(!alpha.isComplex(), Runtime, "%s: a complex alpha is not supported", binaryOpName(op));
      return viewAsComplex(binary(op, ra, rb, alpha));
    case BinaryOp::Mul: {
      Tensor ar = part(ra, 0), ai = part(ra, 1), br = part(rb, 0), bi = part(rb, 1);
      return fromParts(binary(BinaryOp::Sub, binary(BinaryOp::Mul, ar, br), binary(BinaryOp::Mul, ai, bi)),
                       binary(BinaryOp::Add, binary(BinaryOp::Mul, ar, bi), binary(BinaryOp::Mul, ai, br)));
    }
    case BinaryOp::Div: {
      Tensor ar = part(ra, 0), ai = part(ra, 1), br = part(rb, 0), bi = part(rb, 1);
      Tensor denom = binary(BinaryOp::Add, binary(BinaryOp::Mul, br, br), binary(BinaryOp::Mul, bi, bi));
      Tensor re = binary(BinaryOp::Add, binary(BinaryOp::Mul, ar, br), binary(BinaryOp::Mul, ai, bi));
      Tensor im = binary(BinaryOp::Sub, binary(BinaryOp::Mul, ai, br), binary(BinaryOp::Mul, ar, bi));
      return fromParts(binary(BinaryOp::Div, re, denom), binary(BinaryOp::Div, im, denom));
    }
    case BinaryOp::Pow: {
      // a^b = exp(b log a), and 0 where a is 0 and Re(b) > 0 (log 0 would give NaN there)
      Tensor ca = viewAsComplex(ra), cb = viewAsComplex(rb);
      Tensor power = complexUnary(
          UnaryOp::Exp, complexBinary(BinaryOp::Mul, cb, complexUnary(UnaryOp::Log, ca), Scalar(int64_t(1)), type));
      Tensor zeroBase =
          binary(BinaryOp::BitwiseAnd, complexCompare(CompareOp::Eq, ca, scalarTensor(Scalar(0.0), type, device), type),
                 compare(CompareOp::Gt, part(rb, 0), Scalar(0.0)));
      return where(zeroBase, scalarTensor(Scalar(0.0), type, device), power);
    }
    default: notComplex(binaryOpName(op), type);
  }
}

Tensor complexPow(const Tensor &t, Scalar exponent) {
  if (!exponent.isComplex()) {
    double p = exponent.isFloating() ? exponent.d : static_cast<double>(exponent.i);
    ScalarType type = t.dtype();
    if (p == 2) return complexBinary(BinaryOp::Mul, t, t, Scalar(int64_t(1)), type);
    if (p == 3) {
      return complexBinary(BinaryOp::Mul, complexBinary(BinaryOp::Mul, t, t, Scalar(int64_t(1)), type), t,
                           Scalar(int64_t(1)), type);
    }
    if (p == 0.5) return complexUnary(UnaryOp::Sqrt, t);
    if (p == -1) return complexUnary(UnaryOp::Reciprocal, t);
    if (p == -2) return complexUnary(UnaryOp::Reciprocal, complexBinary(BinaryOp::Mul, t, t, Scalar(int64_t(1)), type));
  }
  return complexBinary(BinaryOp::Pow, t, scalarTensor(exponent, t.dtype(), t.device()), Scalar(int64_t(1)), t.dtype());
}

namespace {

// |z| with PyTorch's gradient: g * z / |z|, and 0 where z is 0.
Tensor complexAbs(const Tensor &t) {
  RecordScope rec({&t});
  Tensor r;
  {
    NoGradGuard plain;
    Tensor parts = viewAsReal(t);
    r = unary(UnaryOp::Sqrt, sum(binary(BinaryOp::Mul, parts, parts), {-1}, false));
  }
  if (rec) {
    record("AbsBackward", {t}, {r}, [t, r](const TensorList &g) {
      Tensor scale = where(compare(CompareOp::Eq, r, Scalar(0.0)), scalarTensor(Scalar(0.0), r.dtype(), r.device()),
                           binary(BinaryOp::Div, g[0], r));
      return TensorList{viewAsComplex(binary(BinaryOp::Mul, viewAsReal(t), unsqueeze(scale, -1)))};
    });
  }
  return r;
}

}  // namespace

// tanh(x + iy) by Kahan's formula, which stays finite where sinh and cosh overflow: with
// t = tan y, b = 1 + t^2, s = sinh x, r = sqrt(1 + s^2), tanh = (b r s + i t) / (1 + b s^2);
// past |x| = 22 the real part is sign(x) to double precision and the imaginary part
// 4 sin y cos y e^(-2|x|).
static Tensor complexTanh(const Tensor &x, const Tensor &y) {
  auto mul = [](const Tensor &a, const Tensor &b) { return binary(BinaryOp::Mul, a, b); };
  auto plusOne = [](const Tensor &a) { return binary(BinaryOp::Add, a, Scalar(1.0)); };
  Tensor tn = unary(UnaryOp::Tan, y), s = unary(UnaryOp::Sinh, x);
  Tensor b = plusOne(mul(tn, tn));
  Tensor rho = unary(UnaryOp::Sqrt, plusOne(mul(s, s)));
  Tensor denom = plusOne(mul(b, mul(s, s)));
  Tensor re = binary(BinaryOp::Div, mul(mul(b, rho), s), denom), im = binary(BinaryOp::Div, tn, denom);
  Tensor large = compare(CompareOp::Gt, unary(UnaryOp::Abs, x), Scalar(22.0));
  Tensor tail = mul(mul(binary(BinaryOp::Mul, unary(UnaryOp::Sin, y), Scalar(4.0)), unary(UnaryOp::Cos, y)),
                    unary(UnaryOp::Exp, binary(BinaryOp::Mul, unary(UnaryOp::Abs, x), Scalar(-2.0))));
  return fromParts(where(large, unary(UnaryOp::Sign, x), re), where(large, tail, im));
}

Tensor complexUnary(UnaryOp op, const Tensor &t) {
  Tensor r = viewAsReal(t);
  Tensor x = part(r, 0), y = part(r, 1);
  switch (op) {
    case UnaryOp::Neg: return viewAsComplex(unary(UnaryOp::Neg, r));
    case UnaryOp::Abs: return complexAbs(t);
    case UnaryOp::Exp: {
      Tensor m = unary(UnaryOp::Exp, x);
      return fromParts(binary(BinaryOp::Mul, m, unary(UnaryOp::Cos, y)),
                       binary(BinaryOp::Mul, m, unary(UnaryOp::Sin, y)));
    }
    case UnaryOp::Log: return fromParts(unary(UnaryOp::Log, complexAbs(t)), angle(t));
    case UnaryOp::Sqrt: {
      Tensor m = unary(UnaryOp::Sqrt, complexAbs(t));
      Tensor half = binary(BinaryOp::Mul, angle(t), Scalar(0.5));
      return fromParts(binary(BinaryOp::Mul, m, unary(UnaryOp::Cos, half)),
                       binary(BinaryOp::Mul, m, unary(UnaryOp::Sin, half)));
    }
    case UnaryOp::Reciprocal: {
      Tensor denom = binary(BinaryOp::Add, binary(BinaryOp::Mul, x, x), binary(BinaryOp::Mul, y, y));
      return fromParts(binary(BinaryOp::Div, x, denom), binary(BinaryOp::Div, unary(UnaryOp::Neg, y), denom));
    }
    case UnaryOp::Sin:  // sin x cosh y + i cos x sinh y
      return fromParts(binary(BinaryOp::Mul, unary(UnaryOp::Sin, x), unary(UnaryOp::Cosh, y)),
                       binary(BinaryOp::Mul, unary(UnaryOp::Cos, x), unary(UnaryOp::Sinh, y)));
    case UnaryOp::Cos:  // cos x cosh y - i sin x sinh y
      return fromParts(binary(BinaryOp::Mul, unary(UnaryOp::Cos, x), unary(UnaryOp::Cosh, y)),
                       unary(UnaryOp::Neg, binary(BinaryOp::Mul, unary(UnaryOp::Sin, x), unary(UnaryOp::Sinh, y))));
    case UnaryOp::Sinh:  // sinh x cos y + i cosh x sin y
      return fromParts(binary(BinaryOp::Mul, unary(UnaryOp::Sinh, x), unary(UnaryOp::Cos, y)),
                       binary(BinaryOp::Mul, unary(UnaryOp::Cosh, x), unary(UnaryOp::Sin, y)));
    case UnaryOp::Cosh:  // cosh x cos y + i sinh x sin y
      return fromParts(binary(BinaryOp::Mul, unary(UnaryOp::Cosh, x), unary(UnaryOp::Cos, y)),
                       binary(BinaryOp::Mul, unary(UnaryOp::Sinh, x), unary(UnaryOp::Sin, y)));
    case UnaryOp::Tanh: return complexTanh(x, y);
    case UnaryOp::Tan: {  // tan z = -i tanh(iz), iz = -y + ix
      Tensor w = viewAsReal(complexTanh(unary(UnaryOp::Neg, y), x));
      return fromParts(part(w, 1), unary(UnaryOp::Neg, part(w, 0)));
    }
    case UnaryOp::Sigmoid: {  // 1 / (1 + exp(-z))
      Tensor e = complexUnary(UnaryOp::Exp, viewAsComplex(unary(UnaryOp::Neg, r)));
      return complexUnary(UnaryOp::Reciprocal,
                          complexBinary(BinaryOp::Add, e, scalarTensor(Scalar(1.0), t.dtype(), t.device()),
                                        Scalar(int64_t(1)), t.dtype()));
    }
    default: notComplex(unaryOpName(op), t.dtype());
  }
}

Tensor complexSum(const Tensor &t, const IntList &dims, bool keepdim, bool mean) {
  IntList wrapped;
  for (int64_t d : dims) wrapped.push_back(wrapDim(d, t.dim()));  // the real view's last dim stays
  if (dims.empty()) {
    for (int d = 0; d < t.dim(); d++) wrapped.push_back(d);
  }
  Tensor r = viewAsReal(t);
  Tensor reduced = wrapped.empty() ? r : mean ? torch::mean(r, wrapped, keepdim) : sum(r, wrapped, keepdim);
  return viewAsComplex(contiguous(reduced));
}

Tensor complexProd(const Tensor &t, const IntList &dims, bool keepdim) {
  IntList wrapped;
  for (int64_t d : dims) wrapped.push_back(wrapDim(d, t.dim()));
  if (dims.empty()) {
    for (int d = 0; d < t.dim(); d++) wrapped.push_back(d);
  }
  std::sort(wrapped.rbegin(), wrapped.rend());  // the highest first, so squeezing keeps the others' numbers
  wrapped.erase(std::unique(wrapped.begin(), wrapped.end()), wrapped.end());
  const Scalar one(int64_t(1));
  Tensor r = t;
  for (int64_t d : wrapped) {
    // halves multiplied together until one slice is left (an odd one out joins the next round)
    while (r.size(d) > 1) {
      const int64_t n = r.size(d), h = n / 2;
      Tensor p = complexBinary(BinaryOp::Mul, narrow(r, d, 0, h), narrow(r, d, h, h), one, t.dtype());
      r = n % 2 ? cat({p, narrow(r, d, n - 1, 1)}, d) : p;
    }
    if (r.size(d) == 0) {  // the empty product
      IntList sizes = r.sizes();
      sizes[d] = 1;
      r = full(sizes, Scalar::complex(1, 0), t.dtype(), t.device());
    }
    if (!keepdim) r = squeeze(r, d);
  }
  return r.isSameAs(t) ? clone(t) : r;
}

Tensor complexMatmul(const char *op, const Tensor &a, const Tensor &b) {
  // no promotion, as PyTorch's products
  TORCH_CHECK(a.dtype() == b.dtype(), Runtime, "expected scalar type %s but found %s", scalarTypeName(a.dtype()),
              scalarTypeName(b.dtype()));
  Tensor ra = viewAsReal(a), rb = viewAsReal(b);
  Tensor ar = part(ra, 0), ai = part(ra, 1), br = part(rb, 0), bi = part(rb, 1);
  auto product = [op](const Tensor &x, const Tensor &y) {
    std::string name = op;
    return name == "mm" ? mm(x, y) : name == "bmm" ? bmm(x, y) : matmul(x, y);
  };
  return fromParts(binary(BinaryOp::Sub, product(ar, br), product(ai, bi)),
                   binary(BinaryOp::Add, product(ar, bi), product(ai, br)));
}

Tensor complexCompare(CompareOp op, const Tensor &a, const Tensor &b, ScalarType type) {
  if (op != CompareOp::Eq && op != CompareOp::Ne) notComplex(compareOpName(op), type);
  Device device = resultDevice(compareOpName(op), a, b);
  Tensor parts = compare(op, viewAsReal(to(a, type, device)), viewAsReal(to(b, type, device)));
  // equal: both parts equal; not equal: either part differs
  return binary(op == CompareOp::Eq ? BinaryOp::BitwiseAnd : BinaryOp::BitwiseOr, part(parts, 0), part(parts, 1));
}

Tensor complexIsclose(const Tensor &a, const Tensor &b, double rtol, double atol, bool equalNan) {
  // PyTorch's definition: equal, or both NaN (when asked), or a finite |a - b| within
  // atol + |rtol * b|
  ScalarType type = promoteTypes(a.dtype(), b.dtype());
  Tensor ca = toType(a, type), cb = toType(b, type);
  Tensor close = complexCompare(CompareOp::Eq, ca, cb, type);
  if (equalNan) {
    auto isNan = [](const Tensor &z) {
      Tensor r = viewAsReal(z);
      Tensor nan = compare(CompareOp::Ne, r, r);
      return binary(BinaryOp::BitwiseOr, part(nan, 0), part(nan, 1));
    };
    close = binary(BinaryOp::BitwiseOr, close, binary(BinaryOp::BitwiseAnd, isNan(ca), isNan(cb)));
  }
  Tensor allowed = binary(BinaryOp::Add, unary(UnaryOp::Abs, binary(BinaryOp::Mul, cb, Scalar(rtol))), Scalar(atol));
  Tensor actual = unary(UnaryOp::Abs, binary(BinaryOp::Sub, ca, cb));
  Tensor within = binary(BinaryOp::BitwiseAnd, compare(CompareOp::Lt, actual, Scalar(HUGE_VAL)),
                         compare(CompareOp::Le, actual, allowed));
  return binary(BinaryOp::BitwiseOr, close, within);
}

void complexCopy(const Tensor &dst, const Tensor &src) {
  if (dst.dtype() == ScalarType::Bool) notComplex("copy_", src.dtype());
  if (isComplex(dst.dtype())) {
    Tensor d = realHeader(dst);
    if (isComplex(src.dtype())) {
      copyValues_(d, realHeader(src));
    } else {
      copyValues_(part(d, 0), src);
      Tensor im = part(d, 1);
      copyKernels().fill(im.device(), im.dtype(), im, Scalar(0.0));
    }
    return;
  }
  // a real destination takes the real part, as PyTorch does (with a warning there)
  copyValues_(dst, part(realHeader(src), 0));
}

void complexFill(const Tensor &t, Scalar v) {
  Tensor r = realHeader(t);
  Tensor re = part(r, 0), im = part(r, 1);
  copyKernels().fill(re.device(), re.dtype(), re, Scalar(v.d));
  copyKernels().fill(im.device(), im.dtype(), im, Scalar(v.isComplex() ? v.imag : 0.0));
}

Scalar complexRead(const Tensor &t, int64_t offset) {
  Tensor r = realHeader(t);  // its first real is t's first element's
  Scalar re = copyKernels().read(r.device(), r.dtype(), r, offset * 2);
  Scalar im = copyKernels().read(r.device(), r.dtype(), r, offset * 2 + 1);
  return Scalar::complex(re.d, im.d);
}

}  // namespace torch
