#include "core/ops/Random.h"

#include "core/ops/Complex.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "core/ops/Pointwise.h"
#include "core/ops/RandomKernels.h"
#include "core/ops/Reduce.h"

namespace torch {

// ---- Generator ----

Generator::Generator() : th_(THGenerator_new()), owned_(true) {}

Generator::~Generator() {
  if (owned_) THGenerator_free(th_);
}

Generator &Generator::defaultGenerator() {
  static Generator *instance = new Generator(THGenerator_default());  // lives as long as TH's
  return *instance;
}

void Generator::manualSeed(uint64_t seed) {
  withCache([&](THGenerator *g, NormalCache &cache) {
    THRandom_manualSeed(g, seed);
    cache = NormalCache();
  });
}

uint64_t Generator::seed() {
  return withCache([&](THGenerator *g, NormalCache &cache) {
    cache = NormalCache();
    return THRandom_seed(g);
  });
}

uint64_t Generator::initialSeed() {
  return with([&](THGenerator *g) { return THRandom_initialSeed(g); });
}

namespace {

// PyTorch's CPUGeneratorImplState: its legacy part is torch7's THGenerator, byte for byte.
struct PyTorchState {
  THGenerator legacy;
  float nextFloatNormal;
  bool nextFloatNormalValid;
};
static_assert(sizeof(PyTorchState) == 5056, "PyTorch 1.13 saves 5056 bytes of CPU generator state");
static_assert(sizeof(THGenerator) == 5048, "torch7's generator state is 5048 bytes");

}  // namespace

Tensor Generator::getState() {
  PyTorchState s;
  memset(&s, 0, sizeof(s));
  withCache([&](THGenerator *g, NormalCache &cache) {
    s.legacy = *g;
    // PyTorch keeps the spare double normal itself in normal_y, not torch7's (x, rho).
    s.legacy.normal_x = s.legacy.normal_y = s.legacy.normal_rho = 0;
    s.legacy.normal_is_valid = cache.nextDouble.has_value();
    if (cache.nextDouble) s.legacy.normal_y = *cache.nextDouble;
    s.nextFloatNormalValid = cache.nextFloat.has_value();
    if (cache.nextFloat) s.nextFloatNormal = *cache.nextFloat;
  });
  Tensor state = empty({static_cast<int64_t>(sizeof(s))}, ScalarType::Byte, Device::CPU);
  memcpy(state.dataPtr(), &s, sizeof(s));
  return state;
}

void Generator::setState(const Tensor &state) {
  TORCH_CHECK(state.dtype() == ScalarType::Byte, Type, "RNG state must be a torch.ByteTensor, got a %s tensor",
              scalarTypeName(state.dtype()));
  const int64_t n = state.numel();
  TORCH_CHECK(n == sizeof(THGenerator) || n == sizeof(PyTorchState), Runtime,
              "Expected either a CPUGeneratorImplStateLegacy of size %zu or a CPUGeneratorImplState of size %zu but "
              "found the input RNG state size to be %lld",
              sizeof(THGenerator), sizeof(PyTorchState), static_cast<long long>(n));
  PyTorchState s;
  memset(&s, 0, sizeof(s));
  Tensor bytes = contiguous(state);
  memcpy(&s, bytes.dataPtr(), static_cast<size_t>(n));
  NormalCache restored;
  if (s.legacy.normal_is_valid) {
    // torch7's state caches (x, rho); PyTorch's holds the value in normal_y.
    restored.nextDouble =
        n == sizeof(THGenerator) ? s.legacy.normal_rho * std::sin(2.0 * M_PI * s.legacy.normal_x) : s.legacy.normal_y;
  }
  if (n == sizeof(PyTorchState) && s.nextFloatNormalValid) restored.nextFloat = s.nextFloatNormal;
  s.legacy.normal_x = s.legacy.normal_y = s.legacy.normal_rho = 0;
  s.legacy.normal_is_valid = 0;
  Tensor twister = empty({static_cast<int64_t>(sizeof(THGenerator))}, ScalarType::Byte, Device::CPU);
  memcpy(twister.dataPtr(), &s.legacy, sizeof(THGenerator));
  withCache([&](THGenerator *g, NormalCache &cache) {
    THGenerator_setState(g, twister.th<uint8_t>());  // checks the twister before changing g
    cache = restored;
  });
}

RandomKernels &randomKernels() {
  static RandomKernels *tables = [] {
    auto *t = new RandomKernels();  // never destroyed: kernels may run during exit
    cpu::registerRandomKernels(*t);
    return t;
  }();
  return *tables;
}

namespace {

Generator &orDefault(Generator *gen) { return gen ? *gen : Generator::defaultGenerator(); }

RandomKernels &kernels() { return randomKernels(); }

// Runs fill(tensor) on t, through a Float tensor when t is Half or BFloat16 (which have no
// kernels).
template <typename Fill>
void viaFloat(const Tensor &t, Fill fill) {
  if (!isReducedFloat(t.dtype())) return fill(t);
  Tensor f = empty(t.sizes(), ScalarType::Float, t.device());
  fill(f);
  if (t.sizes() != f.sizes()) resize_(t, f.sizes());  // a fill that sized its result (randperm)
  copy_(t, f);
}

// Every element of the comparison is true.
bool everywhere(const Tensor &t, CompareOp op, double bound) {
  return t.numel() == 0 || item(all(compare(op, t, Scalar(bound)), std::nullopt, false)).i != 0;
}

// The values an element of type can hold that random_ may produce: [lowest, largest].
std::pair<int64_t, int64_t> randomRange(ScalarType type) {
  switch (type) {
    case ScalarType::Bool: return {0, 1};
    case ScalarType::Byte: return {0, 255};
    case ScalarType::Char: return {-128, 127};
    case ScalarType::Short: return {-32768, 32767};
    case ScalarType::Int: return {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};
    case ScalarType::Long: return {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
    // Floating types: the integers they hold exactly.
    case ScalarType::Float: return {-(int64_t(1) << 24), int64_t(1) << 24};
    case ScalarType::Double: return {-(int64_t(1) << 53), int64_t(1) << 53};
    default: fail(th::ErrorKind::Type, "random_ is not implemented for %s tensors", scalarTypeName(type));
  }
}

std::string str(double v) { return Scalar(v).str(); }

}  // namespace

void uniform_(const Tensor &t, double from, double to, Generator *gen) {
  checkNoInternalOverlap(t);
  TORCH_CHECK(from <= to, Runtime, "uniform_ expects to return a [from, to) range, but found from=%s > to=%s",
              str(from).c_str(), str(to).c_str());
  TORCH_CHECK(std::isfinite(from) && std::isfinite(to), Runtime, "uniform_: from and to must be finite");
  if (isComplex(t.dtype())) {  // both parts uniform, drawn in the real view's order (PyTorch's)
    uniform_(viewAsReal(t), from, to, gen);
    return;
  }
  kernels().uniform(t.device(), t.dtype(), t, orDefault(gen), from, to);
}

void normal_(const Tensor &t, double mean, double std, Generator *gen) {
  checkNoInternalOverlap(t);
  TORCH_CHECK(std >= 0, Runtime, "normal_ expects std >= 0.0, but found std %s", str(std).c_str());
  if (isComplex(t.dtype())) {
    // PyTorch's complex normal: both parts drawn in the real view's order, each with variance
    // std^2 / 2, so that E|z - mean|^2 is std^2
    normal_(viewAsReal(t), mean, std / std::sqrt(2.0), gen);
    return;
  }
  kernels().normal.find(t.device(), t.dtype());  // the type error first, as for std > 0
  if (std == 0) {
    fill_(t, Scalar(mean));
    return;
  }
  kernels().normal(t.device(), t.dtype(), t, orDefault(gen), mean, std);
}

void exponential_(const Tensor &t, double lambd, Generator *gen) {
  checkNoInternalOverlap(t);
  TORCH_CHECK(lambd > 0, Runtime, "exponential_ expects lambda > 0.0, but found lambda=%s", str(lambd).c_str());
  kernels().exponential(t.device(), t.dtype(), t, orDefault(gen), lambd, 0);
}

void cauchy_(const Tensor &t, double median, double sigma, Generator *gen) {
  checkNoInternalOverlap(t);
  TORCH_CHECK(sigma > 0, Runtime, "cauchy_ expects sigma > 0.0, but found sigma=%s", str(sigma).c_str());
  kernels().cauchy(t.device(), t.dtype(), t, orDefault(gen), median, sigma);
}

void logNormal_(const Tensor &t, double mean, double std, Generator *gen) {
  checkNoInternalOverlap(t);
  TORCH_CHECK(std > 0, Runtime, "log_normal_ expects std > 0.0, but found std=%s", str(std).c_str());
  kernels().logNormal(t.device(), t.dtype(), t, orDefault(gen), mean, std);
}

void geometric_(const Tensor &t, double p, Generator *gen) {
  checkNoInternalOverlap(t);
  TORCH_CHECK(p > 0 && p < 1, Runtime, "geometric_ expects p to be in (0, 1), but got p=%s", str(p).c_str());
  TORCH_CHECK(t.dtype() != ScalarType::Bool, Type, "geometric_ is not implemented for Bool tensors");
  viaFloat(t, [&](const Tensor &u) { kernels().geometric(u.device(), u.dtype(), u, orDefault(gen), p); });
}

// Note [Bernoulli draws]: 1 when uniform < p, as PyTorch does: p = 0 never and p = 1
// always succeeds. A number p compares with a double uniform (one 64-bit draw); a tensor
// of probabilities with a uniform of its own precision (Double: 64-bit draws, others: 24
// bits of a 32-bit draw), as PyTorch 1.13's CPU kernels do.
void bernoulli_(const Tensor &t, double p, Generator *gen) {
  checkNoInternalOverlap(t);
  TORCH_CHECK(p >= 0 && p <= 1, Runtime, "bernoulli_ expects p to be in [0, 1], but got p=%s", str(p).c_str());
  viaFloat(t, [&](const Tensor &u) { kernels().bernoulli(u.device(), u.dtype(), u, orDefault(gen), p); });
}

void bernoulli_(const Tensor &t, const Tensor &p, Generator *gen) {
  checkNoInternalOverlap(t);
  TORCH_CHECK(isBroadcastableTo(p.sizes(), t.sizes()), Runtime,
              "bernoulli_: probabilities of shape %s cannot be broadcast to the shape %s", p.sizeString().c_str(),
              t.sizeString().c_str());
  ScalarType pType = p.dtype() == ScalarType::Double ? ScalarType::Double : ScalarType::Float;
  Tensor probs = expand(toType(p, pType), t.sizes());
  TORCH_CHECK(everywhere(probs, CompareOp::Ge, 0) && everywhere(probs, CompareOp::Le, 1), Runtime,
              "bernoulli_ expects all elements of p to be in [0, 1]");
  viaFloat(t, [&](const Tensor &u) { kernels().bernoulliTensor(u.device(), u.dtype(), u, orDefault(gen), probs); });
}

Tensor bernoulli(const Tensor &p, Generator *gen) {
  TORCH_CHECK(isFloating(p.dtype()), Type, "bernoulli expects a floating point tensor of probabilities, got %s",
              scalarTypeName(p.dtype()));
  Tensor r = empty(p.sizes(), p.dtype(), p.device());
  bernoulli_(r, p, gen);
  return r;
}

void random_(const Tensor &t, int64_t from, std::optional<int64_t> to, Generator *gen) {
  checkNoInternalOverlap(t);
  kernels().random.find(t.device(), t.dtype());  // Half's error before the range's
  auto [bottom, top] = randomRange(t.dtype());
  int64_t last = to ? *to - 1 : top;  // inclusive
  TORCH_CHECK(!to || from < *to, Runtime, "random_ expects 'from' to be less than 'to', but got from=%lld >= to=%lld",
              static_cast<long long>(from), static_cast<long long>(*to));
  TORCH_CHECK(from >= bottom && last <= top, Runtime,
              "random_: the range [%lld, %lld] does not fit in %s (whose values are [%lld, %lld])",
              static_cast<long long>(from), static_cast<long long>(last), scalarTypeName(t.dtype()),
              static_cast<long long>(bottom), static_cast<long long>(top));
  TORCH_CHECK(from <= last, Runtime, "random_: from=%lld is above the largest value %lld of %s",
              static_cast<long long>(from), static_cast<long long>(last), scalarTypeName(t.dtype()));
  kernels().random(t.device(), t.dtype(), t, orDefault(gen), from, last);
}

namespace {

// mean + std * N(0, 1) per element, means and standard deviations broadcast together.
Tensor normalTensors(const Tensor &mean, const Tensor &std, Generator *gen) {
  ScalarType type = promoteTypes(mean.dtype(), std.dtype());
  TORCH_CHECK(hasFloatingKernels(type), Type,
              "normal expects floating point means and standard deviations, got %s and %s",
              scalarTypeName(mean.dtype()), scalarTypeName(std.dtype()));
  IntList shape = broadcastShapes(mean.sizes(), std.sizes());
  Device device = resultDevice("normal", mean, std);
  Tensor means = expand(to(mean, type, device), shape), stds = expand(to(std, type, device), shape);
  TORCH_CHECK(everywhere(stds, CompareOp::Ge, 0), Runtime, "normal expects all elements of std >= 0.0");
  Tensor r = empty(shape, type, device);
  kernels().normalTensors(r.device(), type, r, orDefault(gen), means, stds);
  return r;
}

}  // namespace

Tensor normal(const Tensor &mean, const Tensor &std, Generator *gen) { return normalTensors(mean, std, gen); }

Tensor normal(const Tensor &mean, double std, Generator *gen) {
  ScalarType type = isFloating(mean.dtype()) ? mean.dtype() : defaultFloatType();
  TORCH_CHECK(std >= 0, Runtime, "normal expects std >= 0.0, but found std %s", str(std).c_str());
  return normalTensors(mean, scalarTensor(Scalar(std), type, mean.device()), gen);
}

Tensor normal(double mean, const Tensor &std, Generator *gen) {
  ScalarType type = isFloating(std.dtype()) ? std.dtype() : defaultFloatType();
  return normalTensors(scalarTensor(Scalar(mean), type, std.device()), std, gen);
}

Tensor poisson(const Tensor &rates, Generator *gen) {
  kernels().poisson.find(rates.device(), rates.dtype());
  TORCH_CHECK(everywhere(rates, CompareOp::Ge, 0) && everywhere(rates, CompareOp::Lt, INFINITY), Runtime,
              "poisson expects every rate to be finite and non-negative");
  Tensor r = empty(rates.sizes(), rates.dtype(), rates.device());
  kernels().poisson(r.device(), r.dtype(), r, orDefault(gen), rates);
  return r;
}

void randpermInto(const Tensor &r, int64_t n, Generator *gen) {
  TORCH_CHECK(n >= 0, Runtime, "randperm: n must be non-negative, got %lld", static_cast<long long>(n));
  TORCH_CHECK(r.dtype() != ScalarType::Bool || n <= 2, Runtime, "randperm: n=%lld is too large for Bool",
              static_cast<long long>(n));
  if (isIntegral(r.dtype())) {
    TORCH_CHECK(n == 0 || n - 1 <= randomRange(r.dtype()).second, Runtime, "randperm: n=%lld is too large for %s",
                static_cast<long long>(n), scalarTypeName(r.dtype()));
  }
  viaFloat(r, [&](const Tensor &u) { kernels().randperm(u.device(), u.dtype(), u, orDefault(gen), n); });
}

Tensor multinomial(const Tensor &probs, int64_t numSamples, bool replacement, Generator *gen) {
  TORCH_CHECK(probs.dim() == 1 || probs.dim() == 2, Runtime, "multinomial: prob_dist must be 1 or 2 dim, got %d",
              probs.dim());
  TORCH_CHECK(numSamples > 0, Runtime, "multinomial: cannot sample n_sample <= 0 samples (got %lld)",
              static_cast<long long>(numSamples));
  TORCH_CHECK(replacement || numSamples <= probs.size(probs.dim() - 1), Runtime,
              "multinomial: cannot sample n_sample > prob_dist.size(-1) samples without replacement");
  TORCH_CHECK(numSamples <= std::numeric_limits<int>::max(), Runtime, "multinomial: too many samples");
  TORCH_CHECK(isFloating(probs.dtype()), Type, "multinomial only supports floating-point dtypes for input, got: %s",
              scalarTypeName(probs.dtype()));
  ScalarType type = probs.dtype() == ScalarType::Double ? ScalarType::Double : ScalarType::Float;
  Tensor weights = toType(probs, type);
  IntList shape = weights.sizes();
  shape.back() = numSamples;
  if (!replacement) {
    // PyTorch's draw without replacement (the Gumbel top-k trick): the indices of the
    // largest p / q with q ~ Exp(1), one exponential per category. PyTorch 1.13 draws a
    // single sample with replacement through the cumulative distribution below, as here.
    TORCH_CHECK(everywhere(weights, CompareOp::Ge, 0) && everywhere(weights, CompareOp::Lt, INFINITY), Runtime,
                "probability tensor contains either `inf`, `nan` or element < 0");
    TORCH_CHECK(everywhere(sum(weights, {-1}, false), CompareOp::Gt, 0), Runtime,
                "invalid multinomial distribution (sum of probabilities <= 0)");
    Tensor q = emptyLike(weights, type);
    exponential_(q, 1, gen);
    Tensor ratio = divide(weights, q, RoundingMode::None);
    if (numSamples == 1) return argmax(ratio, -1, true);
    return topk(ratio, numSamples, -1, true, true).indices;
  }
  Tensor r = empty(shape, ScalarType::Long, weights.device());
  kernels().multinomial(weights.device(), type, r, orDefault(gen), weights, numSamples, replacement);
  return r;
}

}  // namespace torch
