#include "autograd/Derivatives.h"

#include <cmath>
#include <numeric>

#include "core/ops/Factory.h"
#include "core/ops/Indexing.h"
#include "core/ops/Linalg.h"
#include "core/ops/Shape.h"
#include "core/ops/Reduce.h"

namespace torch::derivatives {

namespace {

const Scalar kOne(int64_t(1));

Tensor add(const Tensor &a, const Tensor &b) { return torch::binary(BinaryOp::Add, a, b); }
Tensor sub(const Tensor &a, const Tensor &b) { return torch::binary(BinaryOp::Sub, a, b); }
Tensor mul(const Tensor &a, const Tensor &b) { return torch::binary(BinaryOp::Mul, a, b); }
Tensor div(const Tensor &a, const Tensor &b) { return torch::binary(BinaryOp::Div, a, b); }
Tensor mul(const Tensor &a, Scalar s) { return torch::binary(BinaryOp::Mul, a, s); }
Tensor add(const Tensor &a, Scalar s) { return torch::binary(BinaryOp::Add, a, s); }
Tensor neg(const Tensor &a) { return torch::unary(UnaryOp::Neg, a); }
Tensor fn(UnaryOp op, const Tensor &a) { return torch::unary(op, a); }
// A 0/1 mask of the type of like (so that it multiplies gradients).
Tensor mask(const Tensor &m, const Tensor &like) { return toType(m, like.dtype()); }
Tensor zerosLike(const Tensor &t) {
  Tensor z = empty(t.sizes(), t.dtype(), t.device());
  zero_(z);
  return z;
}

// g where cond holds and 0 elsewhere, cond and g broadcast together. Selected, never
// multiplied by a 0/1 mask: 0 * inf is NaN, and an infinite or NaN gradient must not reach
// the elements a clamp, a max or a fill cut off (PyTorch selects too).
Tensor gradWhere(const Tensor &cond, const Tensor &g) {
  Tensor zero = scalarTensor(Scalar(int64_t(0)), g.dtype(), g.device());
  return torch::where(cond, g, zero);
}

// Which inputs need a gradient, read when the node is recorded.
std::vector<bool> needs(std::initializer_list<const Tensor *> inputs) {
  std::vector<bool> r;
  for (const Tensor *t : inputs) r.push_back(t->defined() && requiresGrad(*t));
  return r;
}

// Saved tensors read back in a backward, checked for in-place changes since.
struct Saved {
  SavedTensor saved;
  const char *owner;
  Saved(const Tensor &t, const char *owner, bool isOutput = false) : saved(t, isOutput), owner(owner) {}
  Tensor operator*() const { return saved.unpack(owner); }
};

void record1(const char *name, const Tensor &input, const Tensor &result,
             std::function<Tensor(const Tensor &)> backward) {
  torch::record(name, {input}, {result},
                [backward = std::move(backward)](const TensorList &g) { return TensorList{backward(g[0])}; });
}

// g (the gradient of a reduction of t over dims) broadcast back to t's shape.
Tensor expandBack(const Tensor &g, const IntList &sizes, const std::vector<int> &dims, bool keepdim) {
  Tensor r = g;
  if (!keepdim && !sizes.empty()) {
    for (int d : dims) r = unsqueeze(r, d);
  }
  return expand(r, sizes);
}

// r (a reduction of t) seen with size 1 in the reduced dims, to broadcast against t.
Tensor keepDims(const Tensor &r, int ndim, const std::vector<int> &dims, bool keepdim) {
  if (keepdim || ndim == 0) return r;
  Tensor k = r;
  for (int d : dims) k = unsqueeze(k, d);
  return k;
}

int64_t countOf(const IntList &sizes, const std::vector<int> &dims) {
  int64_t n = 1;
  for (int d : dims) n *= sizes[d];
  return n;
}

IntList asIntList(const std::vector<int> &dims) { return IntList(dims.begin(), dims.end()); }

}  // namespace

// ---- pointwise ----

void binary(BinaryOp op, const Tensor &a, const Tensor &b, Scalar alpha, const Tensor &result) {
  const char *name = binaryOpName(op);
  std::vector<bool> need = needs({&a, &b});
  // only what the formulas below read is saved (saved tensors hooks see each saved tensor)
  bool keepA = op == BinaryOp::Mul || op == BinaryOp::Div || op == BinaryOp::Pow || op == BinaryOp::Fmod ||
               op == BinaryOp::Remainder || op == BinaryOp::Atan2 || op == BinaryOp::Maximum || op == BinaryOp::Minimum;
  bool keepB = op != BinaryOp::Add && op != BinaryOp::Sub;
  if (op == BinaryOp::Mul || op == BinaryOp::Div) {  // a only for b's gradient; for mul, b only for a's
    keepA = need[1];
    keepB = op == BinaryOp::Div || need[0];
  }
  Saved sa(keepA ? a : Tensor(), name), sb(keepB ? b : Tensor(), name);
  Saved sr(op == BinaryOp::Pow ? result : Tensor(), name, true);
  torch::record(name, {a, b}, {result}, [=](const TensorList &grads) -> TensorList {
    const Tensor &g = grads[0];
    Tensor ga, gb;
    switch (op) {
      case BinaryOp::Add:
        ga = g;
        gb = mul(g, alpha);
        break;
      case BinaryOp::Sub:
        ga = g;
        gb = neg(mul(g, alpha));
        break;
      case BinaryOp::Mul:
        if (need[0]) ga = mul(g, *sb);
        if (need[1]) gb = mul(g, *sa);
        break;
      case BinaryOp::Div:
        if (need[0]) ga = div(g, *sb);
        if (need[1]) gb = neg(div(mul(g, *sa), mul(*sb, *sb)));
        break;
      case BinaryOp::Pow: {
        Tensor x = *sa, y = *sb;
        // d/dx x^y = y x^(y-1); d/dy x^y = x^y log x, taken as 0 where x = 0 (PyTorch's choice).
        if (need[0]) {
          ga = mul(g, mul(y, torch::binary(BinaryOp::Pow, x, torch::binary(BinaryOp::Sub, y, kOne))));
          ga = torch::where(compare(CompareOp::Eq, y, Scalar(int64_t(0))), zerosLike(ga), ga);
        }
        if (need[1]) {
          Tensor d = mul(*sr, fn(UnaryOp::Log, x));
          gb = mul(g, torch::where(compare(CompareOp::Eq, x, Scalar(int64_t(0))), zerosLike(d), d));
        }
        break;
      }
      case BinaryOp::Fmod:
      case BinaryOp::Remainder:
        ga = g;
        if (need[1]) {
          Tensor q = div(*sa, *sb);
          gb = neg(mul(g, fn(op == BinaryOp::Fmod ? UnaryOp::Trunc : UnaryOp::Floor, q)));
        }
        break;
      case BinaryOp::Atan2: {
        Tensor x = *sa, y = *sb;
        Tensor denom = add(mul(x, x), mul(y, y));
        if (need[0]) ga = div(mul(g, y), denom);
        if (need[1]) gb = neg(div(mul(g, x), denom));
        break;
      }
      case BinaryOp::Maximum:
      case BinaryOp::Minimum: {
        // The larger (smaller) one gets the gradient; ties share it.
        Tensor x = *sa, y = *sb;
        CompareOp wins = op == BinaryOp::Maximum ? CompareOp::Gt : CompareOp::Lt;
        Tensor tie = gradWhere(compare(CompareOp::Eq, x, y), mul(g, Scalar(0.5)));
        if (need[0]) ga = torch::where(compare(wins, x, y), g, tie);
        if (need[1]) gb = torch::where(compare(wins, y, x), g, tie);
        break;
      }
      case BinaryOp::FloorDiv:  // piecewise constant: no gradient (not recorded)
      case BinaryOp::BitwiseAnd:
      case BinaryOp::BitwiseOr:
      case BinaryOp::BitwiseXor:
      case BinaryOp::LeftShift:
      case BinaryOp::RightShift: break;  // integers only: never recorded
    }
    return {need[0] ? ga : Tensor(), need[1] ? gb : Tensor()};
  });
}

void binary(BinaryOp op, const Tensor &a, Scalar b, Scalar alpha, const Tensor &result) {
  Tensor bt = scalarTensor(b, isFloating(a.dtype()) ? a.dtype() : defaultFloatType(), a.device());
  binary(op, a, bt, alpha, result);
}

void unary(UnaryOp op, const Tensor &t, const Tensor &result) {
  const char *name = unaryOpName(op);
  bool usesResult = op == UnaryOp::Exp || op == UnaryOp::Expm1 || op == UnaryOp::Sqrt || op == UnaryOp::Rsqrt ||
                    op == UnaryOp::Sigmoid || op == UnaryOp::Tanh || op == UnaryOp::Tan || op == UnaryOp::Reciprocal;
  Saved st(usesResult ? Tensor() : t, name), sr(usesResult ? result : Tensor(), name, true);
  record1(name, t, result, [=](const Tensor &g) -> Tensor {
    switch (op) {
      case UnaryOp::Neg: return neg(g);
      case UnaryOp::Abs:
      case UnaryOp::Sign:
        if (op == UnaryOp::Abs) return mul(g, fn(UnaryOp::Sign, *st));
        return zerosLike(g);
      case UnaryOp::Floor:
      case UnaryOp::Ceil:
      case UnaryOp::Round:
      case UnaryOp::Trunc: return zerosLike(g);
      case UnaryOp::Frac: return g;
      case UnaryOp::Exp: return mul(g, *sr);
      case UnaryOp::Log: return div(g, *st);
      case UnaryOp::Log1p: return div(g, add(*st, kOne));
      case UnaryOp::Sqrt: return div(g, mul(*sr, Scalar(2.0)));
      case UnaryOp::Rsqrt: {
        Tensor r = *sr;
        return mul(mul(g, mul(r, mul(r, r))), Scalar(-0.5));
      }
      case UnaryOp::Sigmoid: {
        Tensor r = *sr;
        return mul(g, mul(r, torch::binary(BinaryOp::Sub, Scalar(int64_t(1)), r)));
      }
      case UnaryOp::Tanh: {
        Tensor r = *sr;
        return mul(g, torch::binary(BinaryOp::Sub, Scalar(int64_t(1)), mul(r, r)));
      }
      case UnaryOp::Sin: return mul(g, fn(UnaryOp::Cos, *st));
      case UnaryOp::Cos: return neg(mul(g, fn(UnaryOp::Sin, *st)));
      case UnaryOp::Tan: {
        Tensor r = *sr;
        return mul(g, add(mul(r, r), kOne));
      }
      case UnaryOp::Asin:
      case UnaryOp::Acos: {
        Tensor x = *st;
        Tensor d = fn(UnaryOp::Rsqrt, torch::binary(BinaryOp::Sub, Scalar(int64_t(1)), mul(x, x)));
        return op == UnaryOp::Asin ? mul(g, d) : neg(mul(g, d));
      }
      case UnaryOp::Atan: {
        Tensor x = *st;
        return div(g, add(mul(x, x), kOne));
      }
      case UnaryOp::Sinh: return mul(g, fn(UnaryOp::Cosh, *st));
      case UnaryOp::Cosh: return mul(g, fn(UnaryOp::Sinh, *st));
      case UnaryOp::Reciprocal: {
        Tensor r = *sr;
        return neg(mul(g, mul(r, r)));
      }
      case UnaryOp::Expm1: return mul(g, add(*sr, kOne));
      case UnaryOp::Log2: return div(g, mul(*st, Scalar(std::log(2.0))));
      case UnaryOp::Log10: return div(g, mul(*st, Scalar(std::log(10.0))));
      case UnaryOp::Erf:
      case UnaryOp::Erfc: {
        // d/dx erf(x) = 2 / sqrt(pi) exp(-x^2); erfc = 1 - erf.
        Tensor x = *st;
        Tensor d = mul(fn(UnaryOp::Exp, neg(mul(x, x))), Scalar(2.0 / std::sqrt(M_PI)));
        return op == UnaryOp::Erf ? mul(g, d) : neg(mul(g, d));
      }
      case UnaryOp::BitwiseNot: break;  // integers only: never recorded
    }
    return Tensor();
  });
}

void clamp(const Tensor &t, std::optional<Scalar> min, std::optional<Scalar> max, const Tensor &result) {
  Saved st(t, "clamp");
  record1("clamp", t, result, [=](const Tensor &g) {
    Tensor x = *st;
    Tensor passed = gradWhere(compare(CompareOp::Eq, x, x), g);  // NaN inputs pass no gradient
    if (min) passed = gradWhere(compare(CompareOp::Ge, x, *min), passed);
    if (max) passed = gradWhere(compare(CompareOp::Le, x, *max), passed);
    return passed;
  });
}

void addcop(bool divide, const Tensor &self, const Tensor &t1, const Tensor &t2, Scalar value, const Tensor &result) {
  const char *name = divide ? "addcdiv" : "addcmul";
  std::vector<bool> need = needs({&self, &t1, &t2});
  Saved s1(t1, name), s2(t2, name);
  torch::record(name, {self, t1, t2}, {result}, [=](const TensorList &grads) -> TensorList {
    const Tensor &g = grads[0];
    Tensor g1, g2;
    Tensor x1 = *s1, x2 = *s2;
    if (divide) {
      if (need[1]) g1 = mul(div(g, x2), value);
      if (need[2]) g2 = neg(mul(div(mul(g, x1), mul(x2, x2)), value));
    } else {
      if (need[1]) g1 = mul(mul(g, x2), value);
      if (need[2]) g2 = mul(mul(g, x1), value);
    }
    return {need[0] ? g : Tensor(), g1, g2};
  });
}

void lerp(const Tensor &a, const Tensor &b, Scalar weight, const Tensor &result) {
  torch::record("lerp", {a, b}, {result}, [=](const TensorList &grads) -> TensorList {
    return {mul(grads[0], Scalar(1.0 - weight.d)), mul(grads[0], weight)};
  });
}

void where(const Tensor &cond, const Tensor &a, const Tensor &b, const Tensor &result) {
  Saved sc(cond, "where");
  torch::record("where", {a, b}, {result}, [=](const TensorList &grads) -> TensorList {
    const Tensor &g = grads[0];
    Tensor c = *sc, z = zerosLike(g);
    return {torch::where(c, g, z), torch::where(c, z, g)};
  });
}

// ---- reductions ----

void sum(const Tensor &t, const std::vector<int> &dims, bool keepdim, const Tensor &result) {
  record1("sum", t, result,
          [sizes = t.sizes(), dims, keepdim](const Tensor &g) { return expandBack(g, sizes, dims, keepdim); });
}

void mean(const Tensor &t, const std::vector<int> &dims, bool keepdim, const Tensor &result) {
  int64_t n = countOf(t.sizes(), dims);
  record1("mean", t, result, [sizes = t.sizes(), dims, keepdim, n](const Tensor &g) {
    return expandBack(mul(g, Scalar(1.0 / static_cast<double>(n))), sizes, dims, keepdim);
  });
}

void prod(const Tensor &t, const std::vector<int> &dims, bool keepdim, const Tensor &result) {
  Saved st(t, "prod"), sr(result, "prod", true);
  record1("prod", t, result, [=](const Tensor &g) {
    // d prod / d x_i = product of the others: result / x_i without zeros; with one zero in a
    // slice only that zero gets the product of the rest; with more, everything gets 0.
    Tensor x = *st, r = *sr;
    int nd = x.dim();
    IntList d = asIntList(dims);
    Tensor isZero = compare(CompareOp::Eq, x, Scalar(int64_t(0)));
    Tensor zeros = keepDims(torch::sum(isZero, d, keepdim), nd, dims, keepdim);
    Tensor ones = empty(x.sizes(), x.dtype(), x.device());
    fill_(ones, kOne);
    Tensor restProduct = keepDims(torch::prod(torch::where(isZero, ones, x), d, keepdim), nd, dims, keepdim);
    Tensor gk = keepDims(g, nd, dims, keepdim);
    Tensor noZeroGrad = div(keepDims(r, nd, dims, keepdim), torch::where(isZero, ones, x));
    Tensor viaZero = mul(mask(isZero, x), restProduct);
    Tensor d0 = mul(mask(compare(CompareOp::Eq, zeros, Scalar(int64_t(0))), x), noZeroGrad);
    Tensor d1 = mul(mask(compare(CompareOp::Eq, zeros, Scalar(int64_t(1))), x), viaZero);
    return mul(expand(gk, x.sizes()), add(d0, d1));
  });
}

void varOrStd(const Tensor &t, const std::vector<int> &dims, bool unbiased, bool keepdim, bool isStd,
              const Tensor &result) {
  const char *name = isStd ? "std" : "var";
  int64_t n = countOf(t.sizes(), dims);
  Saved st(t, name), sr(isStd ? result : Tensor(), name, true);
  record1(name, t, result, [=](const Tensor &g) {
    Tensor x = *st;
    int nd = x.dim();
    Tensor centered = sub(x, keepDims(torch::mean(x, asIntList(dims), keepdim), nd, dims, keepdim));
    double denom = static_cast<double>(n - (unbiased ? 1 : 0));
    Tensor gk = keepDims(g, nd, dims, keepdim);
    if (isStd) {
      // d std = d var / (2 std)
      return mul(div(mul(gk, centered), keepDims(*sr, nd, dims, keepdim)), Scalar(1.0 / denom));
    }
    return mul(mul(gk, centered), Scalar(2.0 / denom));
  });
}

void norm(const Tensor &t, double p, const std::vector<int> &dims, bool keepdim, const Tensor &result) {
  Saved st(t, "norm"), sr(result, "norm", true);
  record1("norm", t, result, [=](const Tensor &g) {
    Tensor x = *st;
    int nd = x.dim();
    Tensor gk = keepDims(g, nd, dims, keepdim), r = keepDims(*sr, nd, dims, keepdim);
    if (p == 0) return zerosLike(x);
    if (p == 1) return mul(gk, torch::unary(UnaryOp::Sign, x));
    if (std::isinf(p)) {
      // The extreme |x| (ties share): sign(x) there.
      Tensor hit = compare(CompareOp::Eq, torch::unary(UnaryOp::Abs, x), r);
      Tensor count = keepDims(torch::sum(mask(hit, x), asIntList(dims), keepdim), nd, dims, keepdim);
      return mul(gradWhere(hit, div(gk, count)), torch::unary(UnaryOp::Sign, x));
    }
    // x |x|^(p-2) / r^(p-1), 0 where r = 0.
    Tensor absPow = torch::binary(BinaryOp::Pow, torch::unary(UnaryOp::Abs, x), Scalar(p - 2));
    Tensor num =
        mul(x, p < 2 ? torch::where(compare(CompareOp::Eq, x, Scalar(int64_t(0))), zerosLike(x), absPow) : absPow);
    Tensor den = torch::binary(BinaryOp::Pow, r, Scalar(p - 1));
    Tensor q = div(mul(gk, num), den);
    return torch::where(compare(CompareOp::Eq, expand(r, x.sizes()), Scalar(int64_t(0))), zerosLike(q), q);
  });
}

void logsumexp(const Tensor &t, const std::vector<int> &dims, bool keepdim, const Tensor &result) {
  Saved st(t, "logsumexp"), sr(result, "logsumexp", true);
  record1("logsumexp", t, result, [=](const Tensor &g) {
    Tensor x = *st;
    int nd = x.dim();
    return mul(keepDims(g, nd, dims, keepdim), torch::unary(UnaryOp::Exp, sub(x, keepDims(*sr, nd, dims, keepdim))));
  });
}

void extreme(const Tensor &t, const std::vector<int> &dims, bool keepdim, const Tensor &result) {
  Saved st(t, "max"), sr(result, "max", true);
  record1("max", t, result, [=](const Tensor &g) {
    Tensor x = *st;
    int nd = x.dim();
    Tensor hit = compare(CompareOp::Eq, x, keepDims(*sr, nd, dims, keepdim));
    Tensor count = keepDims(torch::sum(mask(hit, x), asIntList(dims), keepdim), nd, dims, keepdim);
    return gradWhere(hit, div(keepDims(g, nd, dims, keepdim), count));
  });
}

void picked(const char *name, const Tensor &t, int dim, bool keepdim, const Tensor &values, const Tensor &indices) {
  Saved si(indices, name);
  IntList sizes = t.sizes();
  record1(name, t, values, [=](const Tensor &g) {
    Tensor idx = *si, gv = g;
    if (!keepdim && !sizes.empty() && idx.dim() < static_cast<int>(sizes.size())) {
      idx = unsqueeze(idx, dim);
      gv = unsqueeze(gv, dim);
    }
    Tensor r = empty(sizes, g.dtype(), g.device());
    zero_(r);
    if (sizes.empty()) {
      copy_(r, gv);
      return r;
    }
    scatter_(r, dim, idx, contiguous(gv));
    return r;
  });
}

void cumsum(const Tensor &t, int dim, const Tensor &result) {
  record1("cumsum", t, result, [dim](const Tensor &g) {
    // Each input feeds every later output: the reversed cumulative sum of g.
    if (g.dim() == 0) return g;
    Tensor total = torch::sum(g, {dim}, true);
    return add(sub(expand(total, g.sizes()), torch::cumsum(g, dim)), g);
  });
}

void cumprod(const Tensor &t, int dim, const Tensor &result) {
  Saved st(t, "cumprod"), sr(result, "cumprod", true);
  record1("cumprod", t, result, [=](const Tensor &g) {
    // d r_k / d x_i = prod_{j <= k, j != i} x_j for k >= i. Before a slice's first zero z
    // that is r_k / x_i; at z, the cumulative product with x_z taken as 1; after z, 0.
    if (g.dim() == 0) return g;
    Tensor x = *st;
    auto reversedSum = [dim](const Tensor &v) {  // sum over k >= i of v_k
      Tensor total = torch::sum(v, {dim}, true);
      return add(sub(expand(total, v.sizes()), torch::cumsum(v, dim)), v);
    };
    Tensor isZero = compare(CompareOp::Eq, x, Scalar(0.0));
    if (GradMode::enabled() && item(any(isZero, std::nullopt, false)).to<int64_t>() != 0) {
      // Recorded for a second derivative: after z the gradient is 0 but its derivative by
      // x_z is not, which the masked formula loses. Each x_i taken as 1 in turn (O(n^2)).
      int64_t n = x.size(dim);
      TensorList slices;
      for (int64_t i = 0; i < n; ++i) {
        TensorList pieces;
        if (i > 0) pieces.push_back(narrow(x, dim, 0, i));
        IntList oneShape = x.sizes();
        oneShape[dim] = 1;
        pieces.push_back(ones(oneShape, x.dtype(), x.device()));
        if (i + 1 < n) pieces.push_back(narrow(x, dim, i + 1, n - i - 1));
        Tensor without = mul(narrow(g, dim, i, n - i), narrow(torch::cumprod(cat(pieces, dim), dim), dim, i, n - i));
        slices.push_back(torch::sum(without, {dim}, true));
      }
      return cat(slices, dim);
    }
    Tensor zerosSoFar = torch::cumsum(isZero, dim, ScalarType::Long);
    Tensor beforeZero = compare(CompareOp::Eq, zerosSoFar, Scalar(int64_t(0)));
    Tensor one = scalarTensor(Scalar(1.0), x.dtype(), x.device());
    Tensor xSafe = torch::where(isZero, one, x);
    Tensor grad = gradWhere(beforeZero, div(reversedSum(mul(g, *sr)), xSafe));
    Tensor firstZero = torch::where(isZero, compare(CompareOp::Eq, zerosSoFar, Scalar(int64_t(1))), isZero);
    Tensor atZero = reversedSum(mul(g, torch::cumprod(torch::where(firstZero, one, x), dim)));
    return torch::where(firstZero, atZero, grad);
  });
}

void trace(const Tensor &t, const Tensor &result) {
  record1("trace", t, result, [sizes = t.sizes()](const Tensor &g) {
    Tensor r = empty(sizes, g.dtype(), g.device());
    zero_(r);
    int64_t n = std::min(sizes[0], sizes[1]);
    Tensor diagonal = asStrided(r, {n}, {sizes[1] + 1}, r.storageOffset());
    copy_(diagonal, expand(g, {n}));
    return r;
  });
}

// ---- linear algebra ----

namespace {
Tensor mT(const Tensor &m) { return transpose(m, -1, -2); }

// F_ij = 1 / (x_j - x_i), 0 where x_j = x_i (the diagonal): the coupling of eigen- and
// singular-vector derivatives.
Tensor inverseGaps(const Tensor &x) {
  Tensor gap = sub(unsqueeze(x, -2), unsqueeze(x, -1));
  Tensor same = compare(CompareOp::Eq, gap, Scalar(0.0));
  Tensor ones = empty(gap.sizes(), gap.dtype(), gap.device());
  fill_(ones, Scalar(1.0));
  return torch::where(same, zerosLike(gap), div(ones, torch::where(same, ones, gap)));
}
}  // namespace

void product(int kind, const Tensor &self, const Tensor &x, const Tensor &y, Scalar beta, Scalar alpha,
             const Tensor &result) {
  const AddProduct k = static_cast<AddProduct>(kind);
  const char *name = self.defined()        ? addProductName(k)
                     : k == AddProduct::Mm ? "mm"
                     : k == AddProduct::Mv ? "mv"
                     : k == AddProduct::R  ? "outer"
                                           : "bmm";
  std::vector<bool> need = needs({&self, &x, &y});
  Saved sx(need[2] ? x : Tensor(), name), sy(need[1] ? y : Tensor(), name);
  torch::record(name, {self, x, y}, {result}, [=](const TensorList &grads) -> TensorList {
    const Tensor &g = grads[0];
    Tensor gs, gx, gy;
    if (need[0]) gs = mul(g, beta);
    switch (k) {
      case AddProduct::Mm:
        if (need[1]) gx = mm(g, mT(*sy));
        if (need[2]) gy = mm(mT(*sx), g);
        break;
      case AddProduct::Mv:
        if (need[1]) gx = outer(g, *sy);
        if (need[2]) gy = mv(mT(*sx), g);
        break;
      case AddProduct::R:
        if (need[1]) gx = mv(g, *sy);
        if (need[2]) gy = mv(mT(g), *sx);
        break;
      case AddProduct::Bmm: {  // g [n, p] is the gradient of every batch1[i] @ batch2[i]
        if (need[1]) gx = matmul(g, mT(*sy));
        if (need[2]) gy = matmul(mT(*sx), g);
        break;
      }
      case AddProduct::Bbmm:
        if (need[1]) gx = bmm(g, mT(*sy));
        if (need[2]) gy = bmm(mT(*sx), g);
        break;
    }
    bool unitAlpha = !alpha.isFloating() && alpha.i == 1;
    if (gx.defined() && !unitAlpha) gx = mul(gx, alpha);
    if (gy.defined() && !unitAlpha) gy = mul(gy, alpha);
    return {gs, gx, gy};
  });
}

void dot(const Tensor &a, const Tensor &b, const Tensor &result) {
  Saved sa(a, "dot"), sb(b, "dot");
  std::vector<bool> need = needs({&a, &b});
  torch::record("dot", {a, b}, {result}, [=](const TensorList &grads) -> TensorList {
    return {need[0] ? mul(*sb, grads[0]) : Tensor(), need[1] ? mul(*sa, grads[0]) : Tensor()};
  });
}

void inverse(const Tensor &a, const Tensor &result) {
  Saved sr(result, "inverse", true);
  record1("inverse", a, result, [=](const Tensor &g) {
    Tensor inv = mT(*sr);
    return neg(matmul(matmul(inv, g), inv));
  });
}

void logAbsDet(const char *name, const Tensor &a, const Tensor &result, bool timesResult) {
  Saved sa(a, name), sr(timesResult ? result : Tensor(), name, true);
  record1(name, a, result, [=](const Tensor &g) {
    Tensor scale = timesResult ? mul(g, *sr) : g;
    return mul(mT(torch::inverse(*sa)), unsqueeze(unsqueeze(scale, -1), -1));
  });
}

void solve(const Tensor &b, const Tensor &a, const Tensor &solution) {
  Saved sa(a, "solve"), sx(solution, "solve", true);
  std::vector<bool> need = needs({&b, &a});
  torch::record("linalg_solve", {b, a}, {solution}, [=](const TensorList &grads) -> TensorList {
    // X = A^-1 B: dB = A^-T dX, dA = -dB X^T.
    Tensor gb = torch::solve(grads[0], mT(*sa)).first;
    return {need[0] ? gb : Tensor(), need[1] ? neg(matmul(gb, mT(*sx))) : Tensor()};
  });
}

void cholesky(const Tensor &a, bool upper, const Tensor &factor) {
  Saved sf(factor, "cholesky", true);
  record1("cholesky", a, factor, [=](const Tensor &g) {
    // A = L L^T: P = tril(L^T dL) with its diagonal halved, S = L^-T P L^-1, dA = (S + S^T) / 2.
    Tensor l = upper ? mT(*sf) : *sf;
    Tensor gl = upper ? mT(g) : g;
    Tensor p = tril(matmul(mT(l), gl), 0);
    Tensor half = mul(torch::diagEmbed(torch::diagonal(p, 0, -2, -1), 0, -2, -1), Scalar(0.5));
    p = sub(p, half);
    Tensor linv = torch::inverse(l);
    Tensor sym = matmul(matmul(mT(linv), p), linv);
    return mul(add(sym, mT(sym)), Scalar(0.5));
  });
}

void symeig(const Tensor &a, const Tensor &values, const Tensor &vectors, bool vectorsAreOutput) {
  Saved sl(values, "symeig", true), sv(vectors, "symeig", vectorsAreOutput);
  TensorList outputs = vectorsAreOutput ? TensorList{values, vectors} : TensorList{values};
  torch::record("symeig", {a}, outputs, [=](const TensorList &grads) -> TensorList {
    // dA = V (diag(dL) + F o (V^T dV)) V^T with F_ij = 1 / (l_j - l_i) off the diagonal,
    // symmetrized (A is symmetric, and LAPACK reads only one triangle of it).
    Tensor v = *sv, l = *sl;
    Tensor f = inverseGaps(l);
    Tensor inner = torch::diagEmbed(grads[0], 0, -2, -1);
    if (vectorsAreOutput) inner = add(inner, mul(f, matmul(mT(v), grads[1])));
    Tensor ga = matmul(matmul(v, inner), mT(v));
    return {mul(add(ga, mT(ga)), Scalar(0.5))};
  });
}

void svd(const Tensor &a, const Tensor &u, const Tensor &s, const Tensor &v, bool uvAreOutputs) {
  Saved su(u, "svd", uvAreOutputs), ss(s, "svd", true), sv(v, "svd", uvAreOutputs);
  TensorList outputs = uvAreOutputs ? TensorList{u, s, v} : TensorList{s};
  torch::record("svd", {a}, outputs, [=](const TensorList &grads) -> TensorList {
    // dA = U [J S + diag(dS) + S K] V^T + (I - U U^T) dU S^-1 V^T + U S^-1 dV^T (I - V V^T),
    // J = F o (U^T dU - dU^T U), K = F o (V^T dV - dV^T V), F_ij = 1 / (s_j^2 - s_i^2) off the
    // diagonal (Townsend's thin-SVD derivative).
    Tensor uu = *su, sd = *ss, vv = *sv;
    const Tensor &gs = uvAreOutputs ? grads[1] : grads[0];
    const int64_t k = sd.size(sd.dim() - 1);
    uu = narrow(uu, -1, 0, k);
    vv = narrow(vv, -1, 0, k);
    Tensor inner = torch::diagEmbed(gs, 0, -2, -1);
    Tensor ga;
    if (uvAreOutputs) {
      Tensor gu = narrow(grads[0], -1, 0, k), gv = narrow(grads[2], -1, 0, k);
      Tensor sq = mul(sd, sd);
      Tensor f = inverseGaps(sq);
      Tensor smat = torch::diagEmbed(sd, 0, -2, -1);
      Tensor j = mul(f, sub(matmul(mT(uu), gu), matmul(mT(gu), uu)));
      Tensor k = mul(f, sub(matmul(mT(vv), gv), matmul(mT(gv), vv)));
      inner = add(inner, add(matmul(j, smat), matmul(smat, k)));
      Tensor sinv = torch::diagEmbed(torch::unary(UnaryOp::Reciprocal, sd), 0, -2, -1);
      ga = matmul(matmul(uu, inner), mT(vv));
      ga = add(ga, matmul(matmul(sub(gu, matmul(uu, matmul(mT(uu), gu))), sinv), mT(vv)));
      ga = add(ga, matmul(matmul(uu, sinv), sub(mT(gv), matmul(matmul(mT(gv), vv), mT(vv)))));
    } else {
      ga = matmul(matmul(uu, inner), mT(vv));
    }
    return {ga};
  });
}

void qr(const Tensor &a, const Tensor &q, const Tensor &r) {
  Saved sq(q, "qr", true), sr(r, "qr", true);
  torch::record("qr", {a}, {q, r}, [=](const TensorList &grads) -> TensorList {
    // dA = (dQ + Q copyltu(M)) R^-T with M = R dR^T - dQ^T Q and copyltu(M) the symmetric
    // matrix with M's lower triangle.
    Tensor qq = *sq, rr = *sr;
    Tensor m = sub(matmul(rr, mT(grads[1])), matmul(mT(grads[0]), qq));
    Tensor lower = tril(m, -1);
    Tensor copyltu = add(add(lower, mT(lower)), torch::diagEmbed(torch::diagonal(m, 0, -2, -1), 0, -2, -1));
    return {matmul(add(grads[0], matmul(qq, copyltu)), mT(torch::inverse(rr)))};
  });
}

void eig(const Tensor &a, const Tensor &values, const Tensor &vectors, bool vectorsAreOutput) {
  Saved sl(values, "eig", true), sv(vectors, "eig", vectorsAreOutput);
  TensorList outputs = vectorsAreOutput ? TensorList{values, vectors} : TensorList{values};
  torch::record("eig", {a}, outputs, [=](const TensorList &grads) -> TensorList {
    // dA = V^-T (diag(dl) + F o (V^T dV - V^T V diag(V^T dV))) V^T, F_ij = 1 / (l_j - l_i) off
    // the diagonal; the last term keeps the eigenvectors' unit norm (LAPACK's normalization).
    Tensor pairs = *sl, v = *sv;
    Tensor imaginary = select(pairs, 1, 1);
    TORCH_CHECK(torch::equal(imaginary, zerosLike(imaginary)), Runtime,
                "eig: the input has complex eigenvalues, whose derivative a real tensor cannot hold; the backward of "
                "eig is defined for real eigenvalues only");
    Tensor l = select(pairs, 1, 0);
    Tensor inner = torch::diagEmbed(select(grads[0], 1, 0), 0, -2, -1);
    if (vectorsAreOutput) {
      Tensor f = inverseGaps(l);
      Tensor vg = matmul(mT(v), grads[1]);
      Tensor norms = torch::diagEmbed(torch::diagonal(vg, 0, -2, -1), 0, -2, -1);
      inner = add(inner, mul(f, sub(vg, matmul(matmul(mT(v), v), norms))));
    }
    return {matmul(matmul(mT(torch::inverse(v)), inner), mT(v))};
  });
}

void lu(const Tensor &a, const Tensor &factors, const Tensor &pivots) {
  Saved sf(factors, "lu", true), sp(pivots, "lu");
  record1("lu", a, factors, [=](const Tensor &g) {
    // dA = P L^-T (tril(L^T dL, -1) + triu(dU U^T)) U^-T with dL, dU the parts of dFactors.
    auto [p, l, u] = luUnpack(*sf, *sp);
    Tensor inner = add(tril(matmul(mT(l), tril(g, -1)), -1), triu(matmul(triu(g, 0), mT(u)), 0));
    return matmul(matmul(p, mT(torch::inverse(l))), matmul(inner, mT(torch::inverse(u))));
  });
}

void notDifferentiable(const char *name, const char *why, const TensorList &inputs, const TensorList &outputs) {
  std::string op = name, reason = why;
  torch::record(name, inputs, outputs, [op, reason](const TensorList &) -> TensorList {
    fail(th::ErrorKind::Runtime, "%s has no derivative here: %s", op.c_str(), reason.c_str());
  });
}

// ---- rearrangements ----

Tensor accumulateAt(const Tensor &grad, const Tensor &positions, const IntList &sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  Tensor r = empty({n}, grad.dtype(), grad.device());
  zero_(r);
  // Negative positions take nothing back; the others add up where they repeat.
  Tensor used = compare(CompareOp::Ge, positions, Scalar(int64_t(0)));
  put_(r, maskedSelect(positions, used), maskedSelect(grad, used), true);
  return view(r, sizes);
}

namespace {
// t's flat element numbers, in t's shape.
Tensor elementNumbers(const IntList &sizes, Device device) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return view(arange(Scalar(int64_t(0)), Scalar(n), Scalar(int64_t(1)), ScalarType::Long, device), sizes);
}
}  // namespace

std::function<Tensor(const Tensor &)> rearrangementBackward(const Tensor &t, std::function<Tensor(const Tensor &)> f) {
  return [sizes = t.sizes(), f = std::move(f)](const Tensor &g) {
    return accumulateAt(g, f(elementNumbers(sizes, g.device())), sizes);
  };
}

void indexWrite(const char *name, const Tensor &self, const Tensor &source,
                const std::function<void(const Tensor &dst, const Tensor &src)> &write,
                const std::function<Tensor(const Tensor &grad)> &additiveSourceGrad) {
  bumpVersion(self);
  if (!needsRecording({&self, &source})) {
    write(self, source);
    return;
  }
  checkInplace(self);
  inplaceWithHistory(self, [&](const Tensor &before) {
    Tensor r, kept, from;  // kept: true where self's element survives; from: source element per result element
    {
      NoGradGuard plain;
      r = clone(before);
      write(r, source.defined() ? toType(source, r.dtype()) : source);
      if (!additiveSourceGrad) {
        if (source.defined()) {
          // Element numbers of source written into -1s: which source element landed where.
          from = empty(self.sizes(), ScalarType::Double, self.device());
          fill_(from, Scalar(-1.0));
          write(from, toType(elementNumbers(source.sizes(), source.device()), ScalarType::Double));
          kept = compare(CompareOp::Lt, from, Scalar(0.0));
          from = toType(from, ScalarType::Long);
        } else {
          // Written into zeros and into ones, a written element is the same in both.
          Tensor zeros = empty(self.sizes(), ScalarType::Double, self.device()),
                 ones = empty(self.sizes(), ScalarType::Double, self.device());
          zero_(zeros);
          fill_(ones, Scalar(1.0));
          write(zeros, source);
          write(ones, source);
          kept = compare(CompareOp::Ne, zeros, ones);
        }
      }
    }
    bool needSource = source.defined() && requiresGrad(source);
    IntList sourceSizes = source.defined() ? source.sizes() : IntList();
    torch::record(name, {before, source}, {r}, [=](const TensorList &grads) -> TensorList {
      const Tensor &g = grads[0];
      Tensor gs = additiveSourceGrad ? g : gradWhere(kept, g);
      Tensor gsrc;
      if (needSource) gsrc = additiveSourceGrad ? additiveSourceGrad(g) : accumulateAt(g, from, sourceSizes);
      return {gs, gsrc};
    });
    return r;
  });
}

void rearranged(const char *name, const Tensor &t, const Tensor &result, std::function<Tensor(const Tensor &)> f) {
  record1(name, t, result, rearrangementBackward(t, std::move(f)));
}

void cat(const TensorList &inputs, int dim, const Tensor &result) {
  std::vector<int64_t> starts, lengths;
  std::vector<bool> need;
  int64_t at = 0;
  for (const Tensor &t : inputs) {
    // Note [Legacy cat]: a skipped 1-D empty input takes no part of the result.
    bool skipped = t.dim() == 1 && t.size(0) == 0 && result.dim() > 1;
    int64_t len = skipped ? 0 : t.size(dim);
    starts.push_back(at);
    lengths.push_back(len);
    need.push_back(!skipped && requiresGrad(t));
    at += len;
  }
  torch::record("cat", inputs, {result}, [=](const TensorList &grads) {
    TensorList r(starts.size());
    for (size_t i = 0; i < starts.size(); i++) {
      if (need[i]) r[i] = narrow(grads[0], dim, starts[i], lengths[i]);
    }
    return r;
  });
}

void stack(const TensorList &inputs, int dim, const Tensor &result) {
  size_t count = inputs.size();
  torch::record("stack", inputs, {result}, [=](const TensorList &grads) {
    TensorList r(count);
    for (size_t i = 0; i < count; i++) r[i] = select(grads[0], dim, static_cast<int64_t>(i));
    return r;
  });
}

void triangle(bool upper, const Tensor &t, int64_t offset, const Tensor &result) {
  record1(upper ? "triu" : "tril", t, result,
          [=](const Tensor &g) { return upper ? triu(g, offset) : tril(g, offset); });
}

void cross(const Tensor &a, const Tensor &b, int dim, const Tensor &result) {
  Saved sa(a, "cross"), sb(b, "cross");
  std::vector<bool> need = needs({&a, &b});
  torch::record("cross", {a, b}, {result}, [=](const TensorList &grads) -> TensorList {
    const Tensor &g = grads[0];
    return {need[0] ? torch::cross(*sb, g, dim) : Tensor(), need[1] ? torch::cross(g, *sa, dim) : Tensor()};
  });
}

}  // namespace torch::derivatives

// ---- NN layers ----
// Note [NN kernel grammar] (core/ops/NNKernels.h): a gradient is the module's
// updateGradInput or accGradParameters, run on the tensors the forward saved.

namespace torch::derivatives {

namespace {

NNKernels &nnk() { return nnKernels(); }

// A tensor for a kernel to resize and fill.
Tensor blank(ScalarType dtype, Device device) { return empty({0}, dtype, device); }
bool reduces(nn::Reduction r) { return r != nn::Reduction::None; }
// A one-element view of a reduced loss's gradient, as THNN's criterions take it.
Tensor asOneElement(const Tensor &g) { return reshape(contiguous(g), {1}); }
// The gradient of the reduced loss spread over n per-element losses: a scalar for Sum and
// Mean, g itself for None.
Tensor perElementScale(const Tensor &g, nn::Reduction r, int64_t n) {
  if (r == nn::Reduction::Mean) return torch::binary(BinaryOp::Div, g, Scalar(static_cast<double>(n)));
  return g;
}

}  // namespace

void linear(const Tensor &input, const Tensor &weight, const Tensor &bias, const Tensor &x2, const Tensor &result) {
  std::vector<bool> need = needs({&input, &weight, &bias});
  Saved sx(x2, "linear"), sw(weight, "linear");
  IntList inSizes = input.sizes();
  IntList y2Sizes = x2.dim() == 1 ? IntList{weight.size(0)} : IntList{x2.size(0), weight.size(0)};
  record("linear", {input, weight, bias}, {result}, [=](const TensorList &g) -> TensorList {
    Tensor xs = *sx, ws = *sw;
    Tensor go = reshape(contiguous(toType(g[0], xs.dtype())), y2Sizes);
    Tensor gi, gw, gb;
    const auto &k = nnk().linear;
    if (need[0]) {
      gi = blank(xs.dtype(), xs.device());
      k.updateGradInput(xs.device(), xs.dtype(), xs, go, gi, ws);
    }
    if (need[1] || need[2]) {
      gw = zeros(ws.sizes(), ws.dtype(), ws.device());
      gb = zeros({ws.size(0)}, ws.dtype(), ws.device());
      Tensor buffer = blank(xs.dtype(), xs.device());
      k.accGradParameters(xs.device(), xs.dtype(), xs, go, ws, gb, gw, gb, buffer, 1.0);
    }
    return {need[0] ? reshape(gi, inSizes) : Tensor(), need[1] ? gw : Tensor(), need[2] ? gb : Tensor()};
  });
}

void bilinear(const Tensor &input1, const Tensor &input2, const Tensor &weight, const Tensor &bias, const Tensor &x1,
              const Tensor &x2, const Tensor &result) {
  std::vector<bool> need = needs({&input1, &input2, &weight, &bias});
  Saved s1(x1, "bilinear"), s2(x2, "bilinear"), sw(weight, "bilinear");
  IntList sizes1 = input1.sizes(), sizes2 = input2.sizes();
  record("bilinear", {input1, input2, weight, bias}, {result}, [=](const TensorList &g) -> TensorList {
    Tensor a = *s1, b = *s2, w = *sw;
    Tensor go = reshape(contiguous(toType(g[0], a.dtype())), {a.size(0), w.size(0)});
    Tensor g1 = need[0] ? blank(a.dtype(), a.device()) : Tensor(),
           g2 = need[1] ? blank(a.dtype(), a.device()) : Tensor();
    Tensor gw, gb;
    const auto &k = nnk().bilinear;
    Tensor buffer = blank(a.dtype(), a.device());
    if (need[0] || need[1]) k.updateGradInput(a.device(), a.dtype(), a, b, go, g1, g2, w, buffer);
    if (need[2] || need[3]) {
      gw = zeros(w.sizes(), w.dtype(), w.device());
      gb = zeros({w.size(0)}, w.dtype(), w.device());
      k.accGradParameters(a.device(), a.dtype(), a, b, go, gw, gb, buffer, 1.0);
    }
    return {need[0] ? reshape(g1, sizes1) : Tensor(), need[1] ? reshape(g2, sizes2) : Tensor(), need[2] ? gw : Tensor(),
            need[3] ? gb : Tensor()};
  });
}

void threshold(const Tensor &x, double threshold, const Tensor &result) {
  record1("threshold", x, result, [threshold, sx = Saved(x, "threshold")](const Tensor &g) {
    Tensor xs = *sx;
    return maskedFill(toType(g, xs.dtype()), compare(CompareOp::Le, xs, Scalar(threshold)), Scalar(0.0));
  });
}

void activation(const char *name, const NNModule<ActivationOutput, ActivationGradInput> &module, const Tensor &x,
                double a, double b, const Tensor &result) {
  record(name, {x}, {result}, [name, module = &module, a, b, sx = Saved(x, name)](const TensorList &g) {
    Tensor xs = *sx;
    Tensor go = toType(g[0], xs.dtype()), gi = blank(xs.dtype(), xs.device());
    module->updateGradInput(xs.device(), xs.dtype(), xs, go, gi, a, b);
    return TensorList{gi};
  });
}

// softplus: THNN (torch7) tests the threshold on the output it is handed, PyTorch on the
// input, so the input goes in both places (and no output is kept).
void activation(const char *name, const NNModule<ActivationOutput, ActivationGradInputWithOutput> &module,
                const Tensor &x, double a, double b, const Tensor &result) {
  record(name, {x}, {result}, [name, module = &module, a, b, sx = Saved(x, name)](const TensorList &g) {
    Tensor xs = *sx;
    Tensor go = toType(g[0], xs.dtype()), gi = blank(xs.dtype(), xs.device());
    module->updateGradInput(xs.device(), xs.dtype(), xs, go, gi, xs, a, b);
    return TensorList{gi};
  });
}

void activation(const char *name, const NNModule<MapOutput, MapGradInput> &module, const Tensor &x, double a,
                const Tensor &result) {
  record(name, {x}, {result}, [name, module = &module, a, sx = Saved(x, name)](const TensorList &g) {
    Tensor xs = contiguous(*sx);
    Tensor go = contiguous(toType(g[0], xs.dtype())), gi = empty(xs.sizes(), xs.dtype(), xs.device());
    module->updateGradInput(xs.device(), xs.dtype(), xs, go, gi, a);
    return TensorList{gi};
  });
}

void prelu(const Tensor &x, const Tensor &weight, const Tensor &xs, const Tensor &w, const Tensor &result) {
  std::vector<bool> need = needs({&x, &weight});
  Saved sx(xs, "prelu"), sw(w, "prelu");
  IntList sizes = x.sizes(), wSizes = weight.sizes();
  record("prelu", {x, weight}, {result}, [=](const TensorList &g) -> TensorList {
    Tensor in = *sx, ws = *sw;
    Tensor go = reshape(contiguous(toType(g[0], in.dtype())), in.sizes());
    Tensor gi, gw;
    const auto &k = nnk().prelu;
    if (need[0]) {
      gi = blank(in.dtype(), in.device());
      k.updateGradInput(in.device(), in.dtype(), in, go, gi, ws);
    }
    if (need[1]) {
      gw = zeros(ws.sizes(), ws.dtype(), ws.device());
      k.accGradParameters(in.device(), in.dtype(), in, go, ws, gw, 1.0);
    }
    return {need[0] ? reshape(gi, sizes) : Tensor(), need[1] ? reshape(gw, wSizes) : Tensor()};
  });
}

void rrelu(const Tensor &x, const Tensor &noise, double lower, double upper, bool training, const Tensor &result) {
  record("rrelu_with_noise", {x}, {result}, [=, sx = Saved(x, "rrelu_with_noise")](const TensorList &g) {
    Tensor in = *sx;
    Tensor go = toType(g[0], in.dtype()), gi = blank(in.dtype(), in.device());
    nnk().rrelu.updateGradInput(in.device(), in.dtype(), in, go, gi, noise, lower, upper, training);
    return TensorList{gi};
  });
}

void logSigmoid(const Tensor &x, const Tensor &buffer, const Tensor &result) {
  record("log_sigmoid", {x}, {result}, [buffer, sx = Saved(x, "log_sigmoid")](const TensorList &g) {
    Tensor in = *sx;
    Tensor go = toType(g[0], in.dtype()), gi = blank(in.dtype(), in.device());
    nnk().logSigmoid.updateGradInput(in.device(), in.dtype(), in, go, gi, buffer);
    return TensorList{gi};
  });
}

void softmax(const char *name, bool log, const Tensor &x, const IntList &shape4, const Tensor &result) {
  record(name, {x}, {result}, [name, log, shape4, sy = Saved(result, name, true)](const TensorList &g) {
    Tensor ys = *sy;
    Tensor y4s = reshape(ys, shape4);
    Tensor g4 = reshape(contiguous(toType(g[0], ys.dtype())), shape4);
    Tensor gi = empty(shape4, ys.dtype(), ys.device());
    if (ys.numel() == 0) return TensorList{reshape(gi, ys.sizes())};
    if (GradMode::enabled()) {
      // create_graph: the same formula in recorded ops, over dim 1 of the [outer, C, inner]
      // view, so that it can be differentiated again.
      if (log) {
        gi = sub(g4, mul(fn(UnaryOp::Exp, y4s), torch::sum(g4, {1}, true)));
      } else {
        gi = mul(y4s, sub(g4, torch::sum(mul(g4, y4s), {1}, true)));
      }
      return TensorList{reshape(gi, ys.sizes())};
    }
    const auto &k = log ? nnk().logSoftmax : nnk().softmax;
    k.updateGradInput(ys.device(), ys.dtype(), y4s, g4, gi, y4s);
    return TensorList{reshape(gi, ys.sizes())};
  });
}

void pointwiseCriterion(const char *name, const NNModule<CriterionOutput, CriterionGradInput> &module,
                        const Tensor &input, const Tensor &target, const Tensor &x, const Tensor &y,
                        nn::Reduction reduction, CriterionTargetGrad targetGrad, double gradScale, const Tensor &loss) {
  std::vector<bool> need = needs({&input, &target});
  const bool sizeAverage = reduction == nn::Reduction::Mean, reduce = reduces(reduction);
  Saved sx(x, name), sy(y, name);
  record(name, {input, target}, {loss}, [=, module = &module](const TensorList &g) -> TensorList {
    Tensor xs = *sx, ys = *sy;
    Tensor go = reduce ? asOneElement(toType(g[0], xs.dtype())) : toType(g[0], xs.dtype());
    Tensor gi = blank(xs.dtype(), xs.device());
    module->updateGradInput(xs.device(), xs.dtype(), xs, ys, go, gi, sizeAverage, reduce);
    if (gradScale != 1) torch::binary_(BinaryOp::Mul, gi, Scalar(gradScale));  // gi is new: nothing records
    gi = reshape(gi, xs.sizes());
    Tensor gt;
    if (need[1] && targetGrad == CriterionTargetGrad::Negated) gt = neg(gi);
    if (need[1] && targetGrad == CriterionTargetGrad::KLDiv) {
      // d/dy y (log y - x) = log y + 1 - x where y > 0
      Tensor d = sub(add(fn(UnaryOp::Log, ys), Scalar(1.0)), xs);
      Tensor zero = scalarTensor(Scalar(0.0), d.dtype(), d.device());
      d = torch::where(compare(CompareOp::Gt, ys, Scalar(0.0)), d, zero);
      gt = mul(d, perElementScale(toType(g[0], d.dtype()), reduction, xs.numel()));
    }
    return {need[0] ? gi : Tensor(), gt};
  });
}

void binaryCrossEntropy(const Tensor &input, const Tensor &target, const Tensor &weight, nn::Reduction reduction,
                        const Tensor &loss) {
  Saved sx(input, "binary_cross_entropy"), sy(target, "binary_cross_entropy");
  const int64_t n = input.numel();
  Tensor w = weight;
  record("binary_cross_entropy", {input}, {loss}, [=](const TensorList &g) {
    Tensor xs = contiguous(*sx), ys = contiguous(*sy);
    Tensor d = empty(xs.sizes(), xs.dtype(), xs.device());
    nnk().binaryCrossEntropy.updateGradInput(xs.device(), xs.dtype(), xs, ys, d);
    if (w.defined()) d = mul(d, w);
    return TensorList{mul(d, perElementScale(toType(g[0], d.dtype()), reduction, n))};
  });
}

void nllLoss(const Tensor &input, const Tensor &x, const Tensor &t, const Tensor &weight, nn::Reduction reduction,
             int64_t ignoreIndex, const Tensor &out, const Tensor &loss) {
  IntList outShape = out.sizes(), inSizes = input.sizes();
  const bool reduce = reduces(reduction);
  record("nll_loss", {input}, {loss}, [=, sx = Saved(x, "nll_loss")](const TensorList &g) {
    Tensor xs = *sx;
    Tensor go = reshape(contiguous(toType(g[0], xs.dtype())), outShape);
    Tensor gi = blank(xs.dtype(), xs.device()), tw = blank(xs.dtype(), xs.device());
    nnk().classNLLCriterion.updateGradInput(xs.device(), xs.dtype(), xs, t, go, gi, reduction == nn::Reduction::Mean,
                                            weight, tw, ignoreIndex, reduce);
    return TensorList{reshape(gi, inSizes)};
  });
}

void multilabelMarginLoss(const Tensor &input, const Tensor &x, const Tensor &t, nn::Reduction reduction,
                          const Tensor &out, const Tensor &loss) {
  IntList outShape = out.sizes(), inSizes = input.sizes();
  const bool reduce = reduces(reduction), sizeAverage = reduction == nn::Reduction::Mean;
  record("multilabel_margin_loss", {input}, {loss}, [=, sx = Saved(x, "multilabel_margin_loss")](const TensorList &g) {
    Tensor xs = *sx;
    Tensor go = reshape(contiguous(toType(g[0], xs.dtype())), outShape);
    Tensor gi = blank(xs.dtype(), xs.device()), isTarget = blank(xs.dtype(), xs.device());
    nnk().multiLabelMarginCriterion.updateGradInput(xs.device(), xs.dtype(), xs, t, go, gi, isTarget, sizeAverage,
                                                    reduce);
    return TensorList{reshape(gi, inSizes)};
  });
}

void multiMarginLoss(const Tensor &input, const Tensor &x, const Tensor &t, int p, double margin, const Tensor &w,
                     nn::Reduction reduction, const Tensor &out, const Tensor &loss) {
  IntList outShape = out.sizes(), inSizes = input.sizes();
  const bool reduce = reduces(reduction), sizeAverage = reduction == nn::Reduction::Mean;
  record("multi_margin_loss", {input}, {loss}, [=, sx = Saved(x, "multi_margin_loss")](const TensorList &g) {
    Tensor xs = *sx;
    Tensor go = reshape(contiguous(toType(g[0], xs.dtype())), outShape);
    Tensor gi = blank(xs.dtype(), xs.device());
    nnk().multiMarginCriterion.updateGradInput(xs.device(), xs.dtype(), xs, t, go, gi, sizeAverage, p, w, margin,
                                               reduce);
    return TensorList{reshape(gi, inSizes)};
  });
}

void ctcLoss(const Tensor &logProbs, const Tensor &lp, const CtcLayout &layout, int64_t blank,
             const std::vector<double> &weights, const std::vector<bool> &zeroed, bool unbatched, const Tensor &loss) {
  const int64_t N = lp.size(1);
  record("ctc_loss", {logProbs}, {loss}, [=, sx = Saved(lp, "ctc_loss")](const TensorList &g) {
    Tensor lps = contiguous(*sx);
    Tensor go = contiguous(to(g[0], ScalarType::Double, Device::CPU));  // read on the host
    const double *gp = reinterpret_cast<const double *>(go.dataPtr());
    std::vector<double> factors(N), losses(N);
    for (int64_t b = 0; b < N; b++) factors[b] = zeroed[b] ? 0 : weights[b] * (go.numel() == 1 ? gp[0] : gp[b]);
    Tensor grad = zeros(lps.sizes(), ScalarType::Double, Device::CPU);  // filled on the host below
    nnk().ctcLoss(lps.device(), lps.dtype(), lps, layout, blank, losses, reinterpret_cast<double *>(grad.dataPtr()),
                  factors);
    Tensor gi = to(grad, lps.dtype(), lps.device());  // back where the log-probabilities live
    return TensorList{unbatched ? squeeze(gi, 1) : gi};
  });
}

void batchNorm(const Tensor &input, const Tensor &weight, const Tensor &bias, const Tensor &runningMean,
               const Tensor &runningVar, bool training, double eps, const Tensor &saveMean, const Tensor &saveStd,
               const Tensor &result) {
  std::vector<bool> need = needs({&input, &weight, &bias});
  // Evaluation reads the running statistics, which later training steps overwrite: a copy.
  Tensor rm = training ? Tensor() : clone(runningMean), rv = training ? Tensor() : clone(runningVar);
  Saved sx(input, "native_batch_norm"), sw(weight, "native_batch_norm");
  const bool hasWeight = weight.defined();
  const int64_t C = input.size(1);
  IntList wSizes = weight.defined() ? weight.sizes() : IntList{}, bSizes = bias.defined() ? bias.sizes() : IntList{};
  record("native_batch_norm", {input, weight, bias}, {result}, [=](const TensorList &g) -> TensorList {
    Tensor xs = *sx;
    Tensor ws = hasWeight ? *sw : Tensor();
    Tensor go = toType(g[0], xs.dtype());
    Tensor gi = need[0] ? blank(xs.dtype(), xs.device()) : Tensor();
    Tensor gw = need[1] ? zeros({C}, xs.dtype(), xs.device()) : Tensor();
    Tensor gb = need[2] ? zeros({C}, xs.dtype(), xs.device()) : Tensor();
    nnk().batchNormalization.updateGradInput(xs.device(), xs.dtype(), xs, go, gi, gw, gb, ws, rm, rv, saveMean, saveStd,
                                             training, 1.0, eps);
    return {gi, need[1] ? reshape(gw, wSizes) : Tensor(), need[2] ? reshape(gb, bSizes) : Tensor()};
  });
}

void layerNorm(const Tensor &input, const Tensor &weight, const Tensor &bias, int64_t normalized, double eps,
               const Tensor &mean, const Tensor &invstd, const Tensor &result) {
  std::vector<bool> need = needs({&input, &weight, &bias});
  Saved sx(input, "native_layer_norm"), sw(weight, "native_layer_norm");
  const bool hasWeight = weight.defined();
  const int64_t D = normalized, rows = D > 0 ? input.numel() / D : 0;
  IntList inSizes = input.sizes(), wSizes = hasWeight ? weight.sizes() : IntList{},
          bSizes = bias.defined() ? bias.sizes() : IntList{};
  const ScalarType type = input.dtype();
  const Device device = input.device();
  record("native_layer_norm", {input, weight, bias}, {result}, [=](const TensorList &g) -> TensorList {
    if (rows == 0 || D == 0)
      return {need[0] ? zeros(inSizes, type, device) : Tensor(), need[1] ? zeros(wSizes, type, device) : Tensor(),
              need[2] ? zeros(bSizes, type, device) : Tensor()};
    Tensor xs = contiguous(*sx);
    Tensor ws = hasWeight ? contiguous(*sw) : Tensor();
    Tensor go = contiguous(toType(g[0], type));
    if (GradMode::enabled()) {
      // create_graph: the same formulas in recorded ops, the statistics recomputed from x so
      // that they are differentiated too.
      Tensor x2 = reshape(xs, {rows, D}), g2 = reshape(go, {rows, D});
      Tensor centered = sub(x2, torch::mean(x2, {1}, true));
      Tensor rstd = fn(UnaryOp::Rsqrt, add(torch::var(x2, {1}, false, true), Scalar(eps)));
      Tensor xhat = mul(centered, rstd);
      Tensor gw = hasWeight ? mul(g2, reshape(ws, {1, D})) : g2;
      Tensor gi = mul(rstd, sub(sub(gw, torch::mean(gw, {1}, true)), mul(xhat, torch::mean(mul(gw, xhat), {1}, true))));
      return {need[0] ? reshape(gi, inSizes) : Tensor(),
              need[1] ? reshape(torch::sum(mul(g2, xhat), {0}, false), wSizes) : Tensor(),
              need[2] ? reshape(torch::sum(g2, {0}, false), bSizes) : Tensor()};
    }
    Tensor gi = need[0] ? blank(type, device) : Tensor();
    Tensor gw = need[1] ? zeros({D}, type, device) : Tensor();
    Tensor gb = need[2] ? zeros({D}, type, device) : Tensor();
    nnk().layerNormalization.updateGradInput(xs.device(), type, xs, go, gi, gw, gb, ws, mean, invstd, D, 1.0);
    return {need[0] ? reshape(gi, inSizes) : Tensor(), need[1] ? reshape(gw, wSizes) : Tensor(),
            need[2] ? reshape(gb, bSizes) : Tensor()};
  });
}

void embedding(const Tensor &weight, const Tensor &idx, int64_t paddingIdx, bool scaleGradByFreq,
               const Tensor &result) {
  IntList wSizes = weight.sizes();
  ScalarType type = weight.dtype();
  Device device = weight.device();
  record("embedding", {weight}, {result}, [=](const TensorList &g) {
    Tensor go = contiguous(toType(g[0], type));
    Tensor gw = zeros(wSizes, type, device), count = blank(ScalarType::Int, device);
    nnk().lookupTableAccGradParameters(device, type, idx, go, gw, count, scaleGradByFreq, static_cast<int>(paddingIdx),
                                       1.0);
    return TensorList{gw};
  });
}

void embeddingBag(const Tensor &weight, const Tensor &perSampleWeights, const Tensor &psw, const Tensor &idx,
                  const Tensor &argmax, const EmbeddingBags &bags, bool scaleGradByFreq, const Tensor &result) {
  std::vector<bool> need = needs({&weight, &perSampleWeights});
  Saved sw(weight, "embedding_bag"), sp(psw, "embedding_bag");
  IntList wSizes = weight.sizes(), pSizes = perSampleWeights.defined() ? perSampleWeights.sizes() : IntList{};
  const ScalarType type = weight.dtype();
  const Device device = weight.device();
  const bool weighted = psw.defined();
  const int64_t n = idx.numel();
  std::vector<int64_t> freq;
  if (scaleGradByFreq) {
    Tensor hostIdx = contiguous(to(idx, ScalarType::Long, Device::CPU));  // read on the host
    const int64_t *ip = reinterpret_cast<const int64_t *>(hostIdx.dataPtr());
    freq.assign(weight.size(0), 0);
    for (int64_t i = 0; i < n; i++) freq[ip[i]]++;
  }
  record("embedding_bag", {weight, perSampleWeights}, {result}, [=](const TensorList &g) -> TensorList {
    Tensor go = contiguous(toType(g[0], type));
    Tensor gw = need[0] ? zeros(wSizes, type, device) : Tensor();
    Tensor gp = need[1] ? zeros({n}, type, device) : Tensor();
    Tensor ws = need[1] ? contiguous(*sw) : Tensor();
    Tensor ps = weighted ? *sp : Tensor();
    nnk().embeddingBagBackward(device, type, idx, go, gw, gp, ws, ps, argmax, bags, freq);
    return {gw, need[1] ? reshape(gp, pSizes) : Tensor()};
  });
}

}  // namespace torch::derivatives

// ---- spatial layers ----
// The same grammar on the kernels' views of the inputs (Note [Spatial ranks]).
#include "core/ops/NNSpatial.h"

namespace torch::derivatives {

namespace {

using nn::spatial::canonical;
using nn::spatial::shapeOnly;
using nn::spatial::uncanonical;

// The sizes of canonical(t, s, batched).
IntList canonicalSizes(const Tensor &t, int s, bool batched) {
  IntList sizes = t.sizes();
  if (!batched) sizes.insert(sizes.begin(), 1);
  if (s == 1) sizes.insert(sizes.begin() + 2, 1);
  return sizes;
}

}  // namespace

void convolution(const nn::spatial::Conv &c, const Tensor &input, const Tensor &weight, const Tensor &bias,
                 bool batched, const Tensor &result) {
  std::vector<bool> need = needs({&input, &weight, &bias});
  const bool needX = need[0], needW = need[1], needB = need[2];
  // The input is needed for the weight's gradient, the weight for the input's.
  Saved sx(needW ? input : Tensor(), "ConvolutionBackward"), sw(needX ? weight : Tensor(), "ConvolutionBackward");
  IntList inputSizes = input.sizes(), weightSizes = weight.sizes();
  ScalarType dtype = input.dtype();
  Device device = input.device();
  record("ConvolutionBackward", {input, weight, bias}, {result}, [=](const TensorList &g) {
    Tensor x = needW ? *sx : shapeOnly(inputSizes, dtype, device);
    Tensor w = needX ? *sw : shapeOnly(weightSizes, dtype, device);
    return nn::spatial::convolutionBackward(c, x, w, g[0], batched, needX, needW, needB);
  });
}

void maxPool(const char *node, const nn::spatial::Pool &p, const Tensor &input, const Tensor &indices, bool batched,
             const Tensor &result) {
  Saved si(input, node), sidx(indices, node);
  record(node, {input}, {result}, [p, batched, si, sidx](const TensorList &g) {
    Tensor x = canonical(*si, p.s, batched), gi = empty(x.sizes(), x.dtype(), x.device());
    Tensor go = canonical(g[0], p.s, batched), ix = canonical(*sidx, p.s, batched);
    nnk().dilatedMaxPooling.updateGradInput(x.device(), x.dtype(), x, go, gi, ix, p.k, p.st, p.pd, p.dl, p.ceilMode);
    return TensorList{uncanonical(gi, p.s, batched)};
  });
}

void avgPool(const char *node, const nn::spatial::Pool &p, bool countIncludePad, const Tensor &factors,
             const Tensor &input, bool batched, const Tensor &result) {
  Saved si(input, node);
  record(node, {input}, {result}, [p, batched, si, countIncludePad, factors](const TensorList &g) {
    Tensor x = canonical(*si, p.s, batched), gi = empty(x.sizes(), x.dtype(), x.device());
    Tensor go = canonical(factors.defined() ? torch::binary(BinaryOp::Mul, g[0], factors) : g[0], p.s, batched);
    nnk().averagePooling.updateGradInput(x.device(), x.dtype(), x, go, gi, p.k, p.st, p.pd, p.ceilMode,
                                         countIncludePad);
    return TensorList{uncanonical(gi, p.s, batched)};
  });
}

void adaptiveMaxPool(const Tensor &input, const Tensor &indices, int s, bool batched, const Tensor &result) {
  const char *node = "AdaptiveMaxPool2DBackward";
  Saved si(input, node), sidx(indices, node);
  record(node, {input}, {result}, [s, batched, si, sidx](const TensorList &g) {
    Tensor x = canonical(*si, s, batched), gi = blank(x.dtype(), x.device());
    Tensor go = canonical(g[0], s, batched), ix = canonical(*sidx, s, batched);
    nnk().adaptiveMaxPooling.updateGradInput(x.device(), x.dtype(), x, go, gi, ix);
    return TensorList{uncanonical(gi, s, batched)};
  });
}

void adaptiveAvgPool(const Tensor &input, int s, bool batched, const Tensor &result) {
  IntList inSizes = canonicalSizes(input, s, batched);
  ScalarType dtype = input.dtype();
  Device device = input.device();
  record("AdaptiveAvgPool2DBackward", {input}, {result}, [s, batched, inSizes, dtype, device](const TensorList &g) {
    Tensor x = shapeOnly(inSizes, dtype, device), gi = blank(dtype, device);
    Tensor go = canonical(g[0], s, batched);
    nnk().adaptiveAveragePooling.updateGradInput(x.device(), x.dtype(), x, go, gi);
    return TensorList{uncanonical(gi, s, batched)};
  });
}

void maxUnpool(const char *node, const Tensor &input, const Tensor &indices, const IntList &outputSize, int s,
               bool batched, const Tensor &result) {
  Saved sidx(indices, node);
  IntList inSizes = canonicalSizes(input, s, batched);
  ScalarType dtype = input.dtype();
  Device device = input.device();
  record(node, {input}, {result}, [s, outputSize, batched, sidx, inSizes, dtype, device](const TensorList &g) {
    Tensor x = shapeOnly(inSizes, dtype, device), gi = blank(dtype, device);
    Tensor go = canonical(g[0], s, batched), ix = canonical(*sidx, s, batched);
    nnk().maxUnpooling.updateGradInput(x.device(), x.dtype(), x, go, gi, ix, outputSize);
    return TensorList{uncanonical(gi, s, batched)};
  });
}

void upsampleNearest(const char *node, const Tensor &input, int64_t factor, const Tensor &result) {
  IntList inSizes = input.sizes();
  record(node, {input}, {result}, [inSizes, factor](const TensorList &g) {
    Tensor x = shapeOnly(inSizes, g[0].dtype(), g[0].device()), gi = blank(g[0].dtype(), g[0].device());
    nnk().upSamplingNearest.updateGradInput(x.device(), x.dtype(), x, g[0], gi, factor);
    return TensorList{gi};
  });
}

void upsampleLinear(const char *node, const Tensor &input, const IntList &outputSize, int s, const Tensor &result) {
  IntList inSizes = canonicalSizes(input, s, true);
  record(node, {input}, {result}, [s, outputSize, inSizes](const TensorList &g) {
    Tensor go = canonical(g[0], s, true), gi = blank(go.dtype(), go.device());
    nnk().upSamplingLinear.updateGradInput(go.device(), go.dtype(), go, gi, inSizes, outputSize);
    return TensorList{uncanonical(gi, s, true)};
  });
}

void padding(const char *node, const NNModule<PaddingOutput, PaddingGradInput> &module, const Tensor &input,
             const IntList &pad, int s, bool batched, const Tensor &result) {
  IntList inSizes = canonicalSizes(input, s, batched);
  record(node, {input}, {result}, [module = &module, pad, s, batched, inSizes](const TensorList &g) {
    Tensor go = canonical(g[0], s, batched), gi = blank(go.dtype(), go.device());
    Tensor x = shapeOnly(inSizes, go.dtype(), go.device());
    module->updateGradInput(go.device(), go.dtype(), x, go, gi, pad);
    return TensorList{uncanonical(gi, s, batched)};
  });
}

void resampled(const char *name, const Tensor &x, int dim, const nn::spatial::TapsPtr &taps, const Tensor &result) {
  record(name, {x}, {result}, [dim, taps, name](const TensorList &g) {
    return TensorList{nn::spatial::resampleAxis(g[0], dim, std::make_shared<const Taps>(taps->transposed()), name)};
  });
}

void emptyPooled(const char *node, const Tensor &input, const Tensor &result) {
  IntList inSizes = input.sizes();
  ScalarType dtype = input.dtype();
  Device device = input.device();
  record(node, {input}, {result},
         [inSizes, dtype, device](const TensorList &) { return TensorList{zeros(inSizes, dtype, device)}; });
}

void constantPad(const Tensor &input, const IntList &pad, const Tensor &result) {
  IntList negated;
  for (int64_t p : pad) negated.push_back(-p);
  record1("ConstantPadNdBackward", input, result,
          [negated](const Tensor &g) { return nn::pad(g, negated, "constant", 0.0); });
}

void pixelShuffle(bool up, const Tensor &input, int64_t factor, const Tensor &result) {
  record1(up ? "PixelShuffleBackward" : "PixelUnshuffleBackward", input, result,
          [up, factor](const Tensor &g) { return up ? nn::pixelUnshuffle(g, factor) : nn::pixelShuffle(g, factor); });
}

void im2col(const Tensor &input, const IntList &imageSize, const IntList &kernel, const IntList &dilation,
            const IntList &padding, const IntList &stride, const Tensor &result) {
  record1("Im2ColBackward", input, result,
          [=](const Tensor &g) { return nn::col2im(g, imageSize, kernel, dilation, padding, stride); });
}

void col2im(const Tensor &input, const IntList &kernel, const IntList &dilation, const IntList &padding,
            const IntList &stride, const Tensor &result) {
  record1("Col2ImBackward", input, result,
          [=](const Tensor &g) { return nn::im2col(g, kernel, dilation, padding, stride); });
}

void affineGrid(const Tensor &theta, const std::vector<std::vector<double>> &lines, const Tensor &grid) {
  IntList thetaSizes = theta.sizes();
  record1("AffineGridGeneratorBackward", theta, grid, [lines, thetaSizes](const Tensor &g) {
    Tensor gc = contiguous(g), gt = empty(thetaSizes, g.dtype(), g.device());
    nnk().affineGrid.updateGradInput(gc.device(), gc.dtype(), gc, gt, lines);
    return gt;
  });
}

void gridSampleAligned(const Tensor &input, const Tensor &grid, int paddingMode, const Tensor &result) {
  Saved si(input, "GridSampler2DBackward"), sg(grid, "GridSampler2DBackward");
  record("GridSampler2DBackward", {input, grid}, {result}, [si, sg, paddingMode](const TensorList &g) {
    Tensor x = *si, gr = *sg;
    Tensor gx = empty({0}, x.dtype(), x.device()), gg = empty({0}, x.dtype(), x.device());
    nnk().gridSamplerBilinear.updateGradInput(x.device(), x.dtype(), x, gx, gr, gg, g[0], paddingMode);
    return TensorList{gx, gg};
  });
}

}  // namespace torch::derivatives
