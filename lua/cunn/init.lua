-- `require 'cunn'`: nn on CUDA tensors. Needs cutorch (so a GPU: without one, cutorch's error
-- each time). The nn modules call their kernels through input.THNN, which for torch.CudaTensor,
-- CudaDoubleTensor and CudaHalfTensor is THCUNN's table (lua/csrc/cuda/THCUNN.cpp: the
-- activations, SoftMax and LogSoftMax, the element-wise criterions, ClassNLL and
-- SpatialClassNLL, max pooling); a kernel THCUNN does not have raises "not available on CUDA
-- yet: <kernel>". model:cuda() moves the floating tensors of a model to torch.CudaTensor.
local ok, err = pcall(require, 'cutorch')
if not ok then
   package.loaded.cunn = nil  -- so that the next require raises the cause again
   error(err, 0)
end
require 'nn'

local function isCuda(t)
   local name = torch.typename(t)
   return name ~= nil and name:match('^torch%.Cuda') ~= nil
end

for _, T in ipairs({ 'Cuda', 'CudaDouble', 'CudaHalf' }) do
   local name = 'torch.' .. T .. 'Tensor'
   local kernels = cutorch._C.THNN[T]
   -- nn's non-dilated max pooling is THCUNN's dilated one with dilation 1
   local dilated = {
      SpatialMaxPooling_updateOutput = function(input, output, indices, kW, kH, dW, dH, padW, padH, ceil)
         return kernels.SpatialDilatedMaxPooling_updateOutput(input, output, indices, kW, kH, dW, dH, padW, padH,
                                                              1, 1, ceil)
      end,
      SpatialMaxPooling_updateGradInput = function(input, gradOutput, gradInput, indices, kW, kH, dW, dH, padW, padH,
                                                   ceil)
         return kernels.SpatialDilatedMaxPooling_updateGradInput(input, gradOutput, gradInput, indices, kW, kH, dW,
                                                                 dH, padW, padH, 1, 1, ceil)
      end,
      VolumetricMaxPooling_updateOutput = function(input, output, indices, kT, kW, kH, dT, dW, dH, pT, pW, pH, ceil)
         return kernels.VolumetricDilatedMaxPooling_updateOutput(input, output, indices, kT, kW, kH, dT, dW, dH, pT,
                                                                 pW, pH, 1, 1, 1, ceil)
      end,
      VolumetricMaxPooling_updateGradInput = function(input, gradOutput, gradInput, indices, kT, kW, kH, dT, dW, dH,
                                                      pT, pW, pH, ceil)
         return kernels.VolumetricDilatedMaxPooling_updateGradInput(input, gradOutput, gradInput, indices, kT, kW, kH,
                                                                    dT, dW, dH, pT, pW, pH, 1, 1, 1, ceil)
      end,
   }
   for k, f in pairs(dilated) do kernels[k] = f end
   setmetatable(kernels, {
      __index = function(_, kernel)
         error('not available on CUDA yet: ' .. tostring(kernel) .. ' (THCUNN has no such kernel for ' .. name .. ')', 2)
      end,
   })
   nn.THNN[T] = kernels
   nn.THNN.kernels[name] = kernels
   torch.getmetatable(name).__methods.THNN = kernels
end

-- Indices and class targets are CudaLongTensors on the GPU (THCUNN's index type), LongTensors
-- on the CPU: the modules' helpers pick by the module's own output type.
local cpuPoolingIndices = nn.utils.poolingIndices
function nn.utils.poolingIndices(self)
   if not isCuda(self.output) then return cpuPoolingIndices(self) end
   self.indices = self.indices and self.indices:cudaLong() or torch.CudaLongTensor()
   return self.indices
end
local cpuTarget = nn.ClassNLLCriterion._longTarget
function nn.ClassNLLCriterion:_longTarget(target)
   if not isCuda(self.output_tensor) then return cpuTarget(self, target) end
   if type(target) == 'number' then
      self.target = torch.CudaLongTensor(1):fill(target)
   else
      self.target = target:cudaLong()
   end
   return self.target
end

function nn.Module:cuda(...) return self:type('torch.CudaTensor', ...) end
function nn.Criterion:cuda(...) return self:type('torch.CudaTensor', ...) end

return nn
