#include "core/Autocast.h"

namespace torch::autocast {

namespace detail {
thread_local bool anyOn = false;
}

namespace {
// Per thread, as PyTorch's switches, dtypes and cache flag are.
thread_local bool gEnabled[kNumDevices] = {};
thread_local ScalarType gDtype[kNumDevices] = {ScalarType::BFloat16, ScalarType::Half};
thread_local bool gCacheEnabled = true;
thread_local int gNesting = 0;

void refreshAny() {
  detail::anyOn = false;
  for (bool e : gEnabled) detail::anyOn = detail::anyOn || e;
}
}  // namespace

bool enabled(Device device) { return gEnabled[static_cast<int>(device)]; }

void setEnabled(Device device, bool enabled) {
  gEnabled[static_cast<int>(device)] = enabled;
  refreshAny();
}

ScalarType dtype(Device device) { return gDtype[static_cast<int>(device)]; }

void setDtype(Device device, ScalarType dtype) {
  // PyTorch 1.13's CPU autocast computes in bfloat16 only; CUDA's in float16 or bfloat16
  TORCH_CHECK(dtype == ScalarType::BFloat16 || (device != Device::CPU && dtype == ScalarType::Half), Runtime,
              "Currently, AutoCast only support %s as the autocast_%s_dtype",
              device == Device::CPU ? "Bfloat16" : "float16 and bfloat16", device == Device::CPU ? "cpu" : "gpu");
  gDtype[static_cast<int>(device)] = dtype;
}

bool cacheEnabled() { return gCacheEnabled; }
void setCacheEnabled(bool enabled) { gCacheEnabled = enabled; }
int incrementNesting() { return ++gNesting; }
int decrementNesting() { return --gNesting; }

Off::Off() : was_(detail::anyOn) { detail::anyOn = false; }
Off::~Off() { detail::anyOn = was_; }

ScalarType widestFloating(const std::vector<Tensor> &ts) {
  ScalarType widest = ScalarType::Bool;
  bool any = false;
  for (const Tensor &t : ts) {
    if (!t.defined() || !isFloating(t.dtype())) continue;
    widest = any ? promoteTypes(widest, t.dtype()) : t.dtype();
    any = true;
  }
  return any ? widest : ScalarType::Float;
}

Tensor cast(const Tensor &t, Policy policy, ScalarType widest) {
  // only floating tensors of a device whose autocast is on; Double stays Double except to
  // promote (as PyTorch's cached_cast: "is_eligible" excludes float64)
  if (!t.defined() || !isFloating(t.dtype()) || !enabled(t.device())) return t;
  switch (policy) {
    case Policy::Lower: return t.dtype() == ScalarType::Double ? t : toType(t, dtype(t.device()));
    case Policy::Float32: return t.dtype() == ScalarType::Double ? t : toType(t, ScalarType::Float);
    case Policy::Promote: return toType(t, widest);
  }
  return t;
}

}  // namespace torch::autocast
