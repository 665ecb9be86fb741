// Creation functions: filled tensors, identity matrices and evenly spaced sequences.
//
//   Tensor z = full({2, 3}, Scalar(int64_t(7)), ScalarType::Long, Device::CPU);
//   Tensor r = arange(Scalar(0.0), Scalar(1.0), Scalar(0.25), std::nullopt, Device::CPU);  // 4 default floats
//   Tensor o = empty({0}, ScalarType::Float, Device::CPU);
//   arangeInto(o, Scalar(int64_t(0)), Scalar(int64_t(5)), Scalar(int64_t(1)));  // out= form
//
// Every *Into function resizes its result tensor and overwrites it (the out= variants of
// the Python functions); the others allocate a new tensor.
#ifndef TORCH_OPS_FACTORY_H
#define TORCH_OPS_FACTORY_H

#include <optional>

#include "core/Tensor.h"

namespace torch {

Tensor full(const IntList &sizes, Scalar value, ScalarType dtype, Device device);
Tensor zeros(const IntList &sizes, ScalarType dtype, Device device);
Tensor ones(const IntList &sizes, ScalarType dtype, Device device);
// An uninitialised tensor shaped like t. When t is dense (its elements fill a block of
// memory without gaps or overlaps, in any dimension order) the result has t's strides, as
// PyTorch's preserve_format does; otherwise it is contiguous.
Tensor emptyLikePreserve(const Tensor &t, ScalarType dtype);

// n x m identity (m = n when absent).
void eyeInto(const Tensor &r, int64_t n, int64_t m);
Tensor eye(int64_t n, std::optional<int64_t> m, ScalarType dtype, Device device);

// start, start + step, ... below end (above it for a negative step): ceil((end - start) /
// step) elements. Without a dtype: Long when all three are integers, else the default
// float type.
ScalarType arangeType(Scalar start, Scalar end, Scalar step);
void arangeInto(const Tensor &r, Scalar start, Scalar end, Scalar step);
Tensor arange(Scalar start, Scalar end, Scalar step, std::optional<ScalarType> dtype, Device device);
// torch.range (deprecated): like arange but end is included: floor((end - start) / step) + 1.
void rangeInto(const Tensor &r, Scalar start, Scalar end, Scalar step);

// steps points from start to end, both included; logspace gives base ** point.
void linspaceInto(const Tensor &r, Scalar start, Scalar end, int64_t steps);
void logspaceInto(const Tensor &r, Scalar start, Scalar end, int64_t steps, double base);

}  // namespace torch

#endif
