-- `require 'cunn'`: nn on CUDA tensors. Needs cutorch (so a GPU: without one, cutorch's error).
-- model:cuda() moves a model's tensors to torch.CudaTensor. THCUNN's kernels are not bound
-- to Lua yet: a module's forward on CUDA tensors raises "not available on CUDA yet: <kernel>"
-- (each nn module calls its kernel through input.THNN), never a crash.
local ok, err = pcall(require, 'cutorch')
if not ok then
   package.loaded.cunn = nil  -- so that the next require raises the cause again
   error(err, 0)
end
require 'nn'

local function unavailable(typename)
   return setmetatable({}, {
      __index = function(_, kernel)
         return function()
            error('not available on CUDA yet: ' .. tostring(kernel) .. ' (THCUNN kernel for ' .. typename .. ')', 2)
         end
      end,
   })
end
for _, T in ipairs({ 'Cuda', 'CudaDouble', 'CudaHalf' }) do
   local name = 'torch.' .. T .. 'Tensor'
   torch.getmetatable(name).__methods.THNN = unavailable(name)
end

function nn.Module:cuda(...) return self:type('torch.CudaTensor', ...) end
function nn.Criterion:cuda(...) return self:type('torch.CudaTensor', ...) end

return nn
