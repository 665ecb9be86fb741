#ifndef THC_GENERIC_FILE
#error "include THC/THCTypes.hpp instead"
#endif

template <>
struct THC<scalar_t> {
  using Tensor = THCTensor;
  using Storage = THCStorage;
  using HostTensor = THTensor;
#define THC_TYPES_MEMBER(name) static constexpr auto name = &THCTensor_(name);
  THC_TYPES_FNS(THC_TYPES_MEMBER)
#undef THC_TYPES_MEMBER
  // host tensor of the same type to device, and back
#define THC_COPY_SAME_TYPE TH_CONCAT_2(copy, Real)
  static constexpr auto copyFromHost = &THCTensor_(THC_COPY_SAME_TYPE);
#undef THC_COPY_SAME_TYPE
  static constexpr auto copyToHost = &THTensor_(copyCuda);
  // from a device tensor of every type: THC<float>::copyCudaByte is THCudaTensor_copyCudaByte
#define THC_TYPES_COPY_MEMBER(Name, T, dtype) static constexpr auto copyCuda##Name = &THCTensor_(copyCuda##Name);
  TH_FORALL_TYPES(THC_TYPES_COPY_MEMBER)
#undef THC_TYPES_COPY_MEMBER
};
