-- cutorch on the GPU (scripts/device_check.sh runs it there): tensor math on CUDA tensors
-- against the same TH call on the CPU for the same inputs, copies between devices and types,
-- files written and read back (cutorch's class names, shared storages), and an optim.sgd
-- loop over getParameters() of a CUDA model. Without a GPU it prints one "skipped: no GPU"
-- line and returns no test, which the runner counts as nothing passed.
local ok, err = pcall(require, 'cutorch')
if not ok then
   print('skipped: no GPU (' .. tostring(err) .. ')')
   return {}
end
require 'nn'
local tests = {}

local function near(a, b, tol, msg)
   check.eq(torch.typename(a), 'torch.DoubleTensor', msg)
   check.ok(a:isSameSizeAs(b), (msg or '') .. ': sizes differ')
   local diff = a:nElement() == 0 and 0 or (a - b):abs():max()
   check.ok(diff <= (tol or 1e-5), string.format('%s: differs by %g', msg or 'near', diff))
end
-- the same inputs on both sides: CPU double tensors, and their CUDA copies of type T
local function inputs(T, ...)
   local cpu, gpu = {}, {}
   for i, sizes in ipairs({ ... }) do
      cpu[i] = torch.DoubleTensor(table.unpack(sizes)):uniform(-2, 2)
      if T ~= 'Cuda' and T ~= 'CudaDouble' then cpu[i]:mul(10):floor() end
      gpu[i] = cpu[i]:type('torch.' .. T .. 'Tensor')
   end
   return cpu, gpu
end

function tests.pointwise_against_cpu()
   for _, T in ipairs({ 'Cuda', 'CudaDouble', 'CudaInt', 'CudaLong' }) do
      local cpu, gpu = inputs(T, { 5, 7 }, { 5, 7 })
      local tol = T == 'Cuda' and 1e-5 or 0
      near(gpu[1]:clone():add(gpu[2]):double(), cpu[1]:clone():add(cpu[2]), tol, T .. ' add')
      near(gpu[1]:clone():add(3):double(), cpu[1]:clone():add(3), tol, T .. ' add value')
      near(gpu[1]:clone():cmul(gpu[2]):double(), cpu[1]:clone():cmul(cpu[2]), tol, T .. ' cmul')
      near(torch.cmax(gpu[1], gpu[2]):double(), torch.cmax(cpu[1], cpu[2]), tol, T .. ' cmax')
      near(gpu[1]:clone():abs():double(), cpu[1]:clone():abs(), tol, T .. ' abs')
      -- a transposed, non-contiguous input
      near(gpu[1]:t():clone():mul(2):double(), cpu[1]:t():clone():mul(2), tol, T .. ' transposed')
      near(torch.gt(gpu[1], gpu[2]):double(), torch.gt(cpu[1], cpu[2]):double(), 0, T .. ' gt')
   end
   local cpu, gpu = inputs('Cuda', { 6, 4 })
   near(torch.exp(gpu[1]):double(), torch.exp(cpu[1]), 1e-4, 'exp')
   near(torch.sigmoid(gpu[1]):double(), torch.sigmoid(cpu[1]), 1e-5, 'sigmoid')
end

function tests.reductions_against_cpu()
   local cpu, gpu = inputs('CudaDouble', { 6, 9 })
   check.near(gpu[1]:sum(), cpu[1]:sum(), 1e-12, 'sum')
   check.near(gpu[1]:max(), cpu[1]:max(), 0, 'max')
   near(gpu[1]:sum(2):double(), cpu[1]:sum(2), 1e-12, 'sum(2)')
   near(gpu[1]:mean(1):double(), cpu[1]:mean(1), 1e-12, 'mean(1)')
   near(gpu[1]:std(2):double(), cpu[1]:std(2), 1e-12, 'std(2)')
   local gv, gi = gpu[1]:max(2)
   local cv, ci = cpu[1]:max(2)
   near(gv:double(), cv, 0, 'max(2) values')
   check.eq(torch.typename(gi), 'torch.CudaLongTensor')
   near(gi:double(), ci:double(), 0, 'max(2) indices (1-based)')
   local gs, gsi = gpu[1]:sort(2)
   local cs, csi = cpu[1]:sort(2)
   near(gs:double(), cs, 0, 'sort values')
   near(gsi:double(), csi:double(), 0, 'sort indices')
   near(gpu[1]:cumsum(2):double(), cpu[1]:cumsum(2), 1e-12, 'cumsum')
end

function tests.blas_against_cpu()
   for _, T in ipairs({ 'Cuda', 'CudaDouble' }) do
      local cpu, gpu = inputs(T, { 4, 5 }, { 5, 3 }, { 5 })
      local tol = T == 'Cuda' and 1e-4 or 1e-12
      near(torch.mm(gpu[1], gpu[2]):double(), torch.mm(cpu[1], cpu[2]), tol, T .. ' mm')
      near(torch.mv(gpu[1], gpu[3]):double(), torch.mv(cpu[1], cpu[3]), tol, T .. ' mv')
      near(torch.mm(gpu[2]:t(), gpu[1]:t()):double(), torch.mm(cpu[2]:t(), cpu[1]:t()), tol, T .. ' mm transposed')
      check.near(gpu[3]:dot(gpu[3]), cpu[3]:dot(cpu[3]), tol, T .. ' dot')
   end
end

function tests.indexing_against_cpu()
   local cpu, gpu = inputs('Cuda', { 5, 4 })
   local index = torch.LongTensor({ 3, 1, 5, 3 })
   near(gpu[1]:index(1, index:cudaLong()):double(), cpu[1]:index(1, index), 0, 'index')
   local mask = torch.gt(cpu[1], 0)
   near(gpu[1]:maskedSelect(mask:cudaByte()):double(), cpu[1]:maskedSelect(mask), 0, 'maskedSelect')
   local g = gpu[1]:clone()
   g:indexFill(2, torch.LongTensor({ 2, 4 }):cudaLong(), -1)
   local c = cpu[1]:clone()
   c:indexFill(2, torch.LongTensor({ 2, 4 }), -1)
   near(g:double(), c, 0, 'indexFill')
end

function tests.copies_and_types()
   local x = torch.DoubleTensor(3, 4):uniform(-100, 100):floor()
   for _, T in ipairs({ 'Cuda', 'CudaDouble', 'CudaHalf', 'CudaByte', 'CudaChar', 'CudaShort', 'CudaInt', 'CudaLong' }) do
      local src = T == 'CudaByte' and x:clone():abs() or x
      local g = src:type('torch.' .. T .. 'Tensor')
      check.eq(torch.typename(g), 'torch.' .. T .. 'Tensor')
      near(g:double(), src, 0, T .. ' round trip')
      near(g:cuda():double(), src, 0, T .. ' to CudaTensor')
      check.eq(g:getDevice(), 1)
   end
   local g = x:cuda()
   check.eq(g[2][3], x[2][3])
   g[2][3] = 7
   check.eq(g:float()[2][3], 7)
   check.eq(torch.typename(cutorch.createCudaHostTensor(3, 2)), 'torch.FloatTensor')
end

function tests.devices_streams_random()
   check.ok(cutorch.getDeviceCount() >= 1)
   check.eq(cutorch.getDevice(), 1)
   local props = cutorch.getDeviceProperties(1)
   check.ok(props.totalGlobalMem > 0 and type(props.name) == 'string')
   local free, total = cutorch.getMemoryUsage(1)
   check.ok(free > 0 and total >= free)
   cutorch.reserveStreams(2)
   cutorch.setStream(2)
   check.eq(cutorch.getStream(), 2)
   local a = torch.CudaTensor(1000):fill(1)
   cutorch.streamWaitFor(0, { 2 })
   cutorch.setStream(0)
   check.eq(a:sum(), 1000)
   cutorch.manualSeed(7)
   local state = cutorch.getRNGState()
   local r1 = torch.CudaTensor(10):uniform():double()
   cutorch.setRNGState(state)
   local r2 = torch.CudaTensor(10):uniform():double()
   near(r1, r2, 0, 'the same draws after setRNGState')
   cutorch.synchronize()
end

-- torch.save of a CUDA tensor writes cutorch's bytes: those of t7bytes.lua, written by hand
function tests.files_are_cutorchs_bytes()
   local writer = dofile((arg[0]:match('^(.*)/[^/]*$') or '.') .. '/t7bytes.lua')
   local values = { 1.5, -2, 0.25, 8, 1e-3, -7 }
   local w = writer()
   w.value(w.tensor('torch.CudaTensor', { 2, 3 }, { 3, 1 }, 1, w.storage('torch.CudaStorage', values, 'writeFloat')))
   local a = torch.FloatTensor(values):view(2, 3):cuda()
   check.eq(torch.serialize(a), w.bytes(), 'torch.serialize of a CudaTensor')
   local loaded = torch.deserialize(w.bytes())
   check.eq(torch.typename(loaded), 'torch.CudaTensor')
   near(loaded:double(), torch.DoubleTensor(values):view(2, 3), 0, 'the hand-written file on the GPU')
end

function tests.files_round_trip()
   local storage = torch.CudaStorage(6)
   local a = torch.CudaTensor(storage, 1, torch.LongStorage({ 2, 3 }))
   a:copy(torch.FloatTensor({ { 1, 2, 3 }, { 4, 5, 6 } }))
   local b = torch.CudaTensor(storage, 4, torch.LongStorage({ 3 }))
   local bytes = torch.serialize({ a = a, b = b, d = torch.CudaDoubleTensor(2):fill(0.5) })
   check.ok(bytes:find('torch.CudaTensor', 1, true) and bytes:find('torch.CudaStorage', 1, true), 'class names')
   local t = torch.deserialize(bytes)
   check.eq(torch.typename(t.a), 'torch.CudaTensor')
   check.eq(torch.typename(t.d), 'torch.CudaDoubleTensor')
   near(t.a:double(), torch.DoubleTensor({ { 1, 2, 3 }, { 4, 5, 6 } }), 0, 'a')
   t.b:fill(9)
   check.eq(t.a[2][2], 9, 'a and b share their storage')
   -- the same file read on the CPU, as on a machine without a GPU
   local c = torch.deserialize(bytes, nil, { cudaToCpu = true })
   check.eq(torch.typename(c.a), 'torch.FloatTensor')
end

function tests.sgd_training_loop()
   require 'optim'
   torch.manualSeed(1)
   local model = nn.Sequential():add(nn.Linear(4, 8)):add(nn.Tanh()):add(nn.Linear(8, 1)):cuda()
   local criterion = nn.MSECriterion():cuda()
   local x = torch.randn(32, 4):cuda()
   local y = x:narrow(2, 1, 1):clone():mul(0.5):add(x:narrow(2, 2, 1))
   local params, grads = model:getParameters()
   check.eq(torch.typename(params), 'torch.CudaTensor')
   local function feval()
      grads:zero()
      local loss = criterion:forward(model:forward(x), y)
      model:backward(x, criterion:backward(model.output, y))
      return loss, grads
   end
   local first
   for i = 1, 200 do
      local _, loss = optim.sgd(feval, params, { learningRate = 0.05 })
      first = first or loss[1]
   end
   local last = feval()
   check.ok(last < first / 4, string.format('loss %g -> %g', first, last))
end

return tests
