-- cunn on the GPU (scripts/device_check.sh runs it there): each module with a THCUNN kernel,
-- forward and backward on CUDA tensors against nn on the CPU for the same inputs and
-- parameters; a module without one raises "not available on CUDA yet". Without a GPU it
-- prints one "skipped: no GPU" line and returns no test.
local ok, err = pcall(require, 'cunn')
if not ok then
   print('skipped: no GPU (' .. tostring(err) .. ')')
   return {}
end
local tests = {}

local function near(a, b, tol, msg)
   a, b = a:double(), b:double()
   check.ok(a:isSameSizeAs(b), (msg or '') .. ': sizes differ')
   local diff = a:nElement() == 0 and 0 or (a - b):abs():max()
   check.ok(diff <= (tol or 1e-5), string.format('%s: differs by %g', msg or 'near', diff))
end

-- module on the CPU (double) and its :cuda() copy, same input and gradOutput
local function compare(name, module, input, tol)
   local cpu = module:double()
   local gpu = module:clone():cuda()
   local out = cpu:forward(input)
   local gout = gpu:forward(input:cuda())
   check.eq(torch.typename(gout), 'torch.CudaTensor', name)
   near(gout, out, tol, name .. ' forward')
   local gradOutput = out:clone():uniform(-1, 1)
   near(gpu:backward(input:cuda(), gradOutput:cuda()), cpu:backward(input, gradOutput), tol, name .. ' backward')
   if cpu.gradWeight then near(gpu.gradWeight, cpu.gradWeight, tol, name .. ' gradWeight') end
end

function tests.modules_against_nn()
   torch.manualSeed(3)
   local x = torch.randn(4, 10)
   compare('Tanh', nn.Tanh(), x)
   compare('Sigmoid', nn.Sigmoid(), x)
   compare('ReLU', nn.ReLU(), x)
   compare('ELU', nn.ELU(), x)
   compare('SoftMax', nn.SoftMax(), x)
   compare('LogSoftMax', nn.LogSoftMax(), x)
   compare('Linear', nn.Linear(10, 3), x, 1e-4)
   compare('Linear (one sample)', nn.Linear(10, 3), torch.randn(10), 1e-4)
   compare('SpatialMaxPooling', nn.SpatialMaxPooling(2, 2, 2, 2), torch.randn(2, 3, 6, 6))
end

function tests.criterions_against_nn()
   torch.manualSeed(4)
   local x, y = torch.randn(5, 4), torch.randn(5, 4)
   for _, c in ipairs({ nn.MSECriterion(), nn.AbsCriterion(), nn.SmoothL1Criterion() }) do
      local name = torch.typename(c)
      local cpu, gpu = c:double(), c:clone():cuda()
      check.near(gpu:forward(x:cuda(), y:cuda()), cpu:forward(x, y), 1e-5, name)
      near(gpu:backward(x:cuda(), y:cuda()), cpu:backward(x, y), 1e-5, name .. ' backward')
   end
   local logp = nn.LogSoftMax():forward(torch.randn(6, 5))
   local target = torch.LongTensor({ 1, 5, 2, 2, 4, 3 })
   local cpu, gpu = nn.ClassNLLCriterion():double(), nn.ClassNLLCriterion():cuda()
   check.near(gpu:forward(logp:cuda(), target:cuda()), cpu:forward(logp, target), 1e-5, 'ClassNLL')
   near(gpu:backward(logp:cuda(), target:cuda()), cpu:backward(logp, target), 1e-6, 'ClassNLL backward')
end

function tests.missing_kernel_is_a_clear_error()
   local conv = nn.SpatialConvolution(1, 2, 3, 3):cuda()
   check.raises(function() conv:forward(torch.CudaTensor(1, 5, 5):zero()) end, 'not available on CUDA yet')
end

return tests
