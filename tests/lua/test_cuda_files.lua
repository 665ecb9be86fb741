-- Files of cutorch and cudnn.torch records on a machine without a GPU (this one): the bytes
-- are written here field by field as torch7's File.lua and cutorch wrote them (a writer of
-- its own below, not the t7 library), then read by torch.load: without the cudaToCpu option a
-- clear error that names it; with it CPU tensors of the same element type (CudaHalf as Float),
-- storages shared as in the file, one warning, and cudnn modules as nn ones that compute what
-- a plain loop computes. `require 'cutorch'`/'cunn'/'cudnn' raise the cause, again and again.
local tests = {}

local writer = dofile((arg[0]:match('^(.*)/[^/]*$') or '.') .. '/t7bytes.lua')

local function range(n, scale)
   local t = {}
   for i = 1, n do t[i] = (i - 3) * (scale or 1) end
   return t
end

-- {a = a 2x3 CudaTensor, b = its second row (a view on a's storage), s = a CudaDoubleStorage,
--  h = a CudaHalfTensor of 4 elements (halves are written as their 16-bit patterns)}
local halfBits = { 0x3C00, 0xC000, 0x3800, 0x0000 }  -- 1, -2, 0.5, 0
local halfValues = { 1, -2, 0.5, 0 }
local function cudaFileBytes()
   local w = writer()
   local floats = w.storage('torch.CudaStorage', range(6, 0.5), 'writeFloat')
   local a = w.tensor('torch.CudaTensor', { 2, 3 }, { 3, 1 }, 1, floats)
   local b = w.tensor('torch.CudaTensor', { 3 }, { 1 }, 4, floats)
   local s = w.storage('torch.CudaDoubleStorage', { 1.25, -7, 1e300 }, 'writeDouble')
   local h = w.tensor('torch.CudaHalfTensor', { 4 }, { 1 }, 1, w.storage('torch.CudaHalfStorage', halfBits, 'writeShort'))
   w.value({ pairs = { { 'a', a }, { 'b', b }, { 's', s }, { 'h', h } } })
   return w.bytes()
end

local function tempFile(bytes)
   local path = os.tmpname()
   local f = assert(io.open(path, 'wb'))
   f:write(bytes)
   f:close()
   return path
end

-- The lines a fresh `th` prints (stdout and stderr) for a Lua statement.
local function runTh(statement)
   local th = torch._C.libraryPath()
   local p = assert(io.popen(string.format("%q -e %q 2>&1", th, statement)))
   local out = p:read('*a')
   p:close()
   return out
end

function tests.require_raises_the_cause_each_time()
   for _ = 1, 2 do
      for _, package in ipairs({ 'cutorch', 'cunn', 'cudnn' }) do
         local ok, err = pcall(require, package)
         check.ok(not ok, package .. ' loaded without a GPU')
         check.ok(tostring(err):find('no CUDA GPU is available', 1, true)
                  or tostring(err):find('has no CUDA support', 1, true), tostring(err))
      end
   end
   check.eq(rawget(_G, 'cutorch'), nil)
end

-- a `th` with no cutorch/cimpl.so beside it: a build made without the CUDA toolkit
function tests.require_without_the_cuda_build()
   local dir = os.tmpname()
   os.remove(dir)
   assert(os.execute(string.format('mkdir -p %q && cp %q %q/th', dir, torch._C.libraryPath(), dir)) == 0)
   local p = assert(io.popen(string.format("%q/th -e \"print(pcall(require, 'cutorch'))\" 2>&1", dir)))
   local out = p:read('*a')
   p:close()
   os.execute(string.format('rm -rf %q', dir))
   check.ok(out:find('false\tcutorch: this build has no CUDA support', 1, true), out)
end

function tests.cuda_records_need_the_flag()
   local path = tempFile(cudaFileBytes())
   check.raises(function() torch.load(path) end, 'cudaToCpu = true')
   local ok, err = pcall(torch.load, path)
   check.ok(not ok and err:find('torch.CudaTensor', 1, true), tostring(err))
   check.ok(err:find('no CUDA GPU', 1, true) or err:find('no CUDA support', 1, true), err)
   check.raises(function() torch.load(path, 'binary', { cudaToCpu = 1, nonsense = true }) end, "unknown option 'nonsense'")
   os.remove(path)
end

function tests.cuda_records_on_the_cpu()
   local path = tempFile(cudaFileBytes())
   local t = torch.load(path, 'binary', { cudaToCpu = true })
   os.remove(path)
   check.eq(torch.typename(t.a), 'torch.FloatTensor')
   check.eq(torch.typename(t.b), 'torch.FloatTensor')
   check.eq(torch.typename(t.s), 'torch.DoubleStorage')
   check.eq(torch.typename(t.h), 'torch.FloatTensor')
   check.tensor(t.a, { { -1, -0.5, 0 }, { 0.5, 1, 1.5 } })
   check.tensor(t.b, { 0.5, 1, 1.5 })
   check.eq(t.s[1], 1.25); check.eq(t.s[2], -7); check.eq(t.s[3], 1e300)
   check.tensor(t.h, halfValues)
   -- one storage in the file, one storage loaded: a write through one shows in the other
   check.eq(torch.pointer(t.a:storage()), torch.pointer(t.b:storage()))
   t.b[1] = 42
   check.eq(t.a[2][1], 42)
   -- deserialize takes the option too
   local u = torch.deserialize(cudaFileBytes(), nil, { cudaToCpu = true })
   check.tensor(u.a, { { -1, -0.5, 0 }, { 0.5, 1, 1.5 } })
end

function tests.one_warning_per_load()
   local path = tempFile(cudaFileBytes())
   local out = runTh(string.format("local t = torch.load(%q, nil, {cudaToCpu = true}); print('loaded', t.a:size(2))", path))
   os.remove(path)
   local warnings = 0
   for _ in out:gmatch('warning: ') do warnings = warnings + 1 end
   check.eq(warnings, 1, 'warnings in: ' .. out)
   check.ok(out:find('loaded\t3', 1, true), out)
end

-- nn.Sequential{cudnn.SpatialConvolution(1, 2, 3, 3, 1, 1, 1, 1), cudnn.ReLU, cudnn.SpatialMaxPooling(2, 2)}
-- as torch7 saved it after :cuda() (cudnn's write methods write the fields as a table).
local weights = range(18, 0.1)
local biases = { 0.05, -0.2 }
local function cudnnModelBytes(groups)
   local w = writer()
   local function cuda(sizes, values)
      local strides, n = {}, 1
      for i = #sizes, 1, -1 do strides[i] = n; n = n * sizes[i] end
      return w.tensor('torch.CudaTensor', sizes, strides, 1, w.storage('torch.CudaStorage', values, 'writeFloat'))
   end
   local function empty() return w.tensor('torch.CudaTensor', {}, {}, 1, nil) end
   local function module(class, fields)
      fields[#fields + 1] = { 'output', empty() }
      fields[#fields + 1] = { 'gradInput', empty() }
      fields[#fields + 1] = { 'train', true }
      fields[#fields + 1] = { '_type', 'torch.CudaTensor' }
      return { class = class, payload = function() w.value({ pairs = fields }) end }
   end
   local conv = module('cudnn.SpatialConvolution', {
      { 'nInputPlane', 1 }, { 'nOutputPlane', 2 }, { 'kW', 3 }, { 'kH', 3 }, { 'dW', 1 }, { 'dH', 1 },
      { 'padW', 1 }, { 'padH', 1 }, { 'groups', groups or 1 },
      { 'weight', cuda({ 2, 1, 3, 3 }, weights) }, { 'bias', cuda({ 2 }, biases) },
      { 'gradWeight', cuda({ 2, 1, 3, 3 }, range(18, 0)) }, { 'gradBias', cuda({ 2 }, { 0, 0 }) },
   })
   local relu = module('cudnn.ReLU', { { 'inplace', false }, { 'mode', 'CUDNN_ACTIVATION_RELU' } })
   local pool = module('cudnn.SpatialMaxPooling', {
      { 'kW', 2 }, { 'kH', 2 }, { 'dW', 2 }, { 'dH', 2 }, { 'padW', 0 }, { 'padH', 0 }, { 'ceil_mode', false },
      { 'mode', 'CUDNN_POOLING_MAX' },
   })
   local seq = module('nn.Sequential', { { 'modules', { pairs = { { 1, conv }, { 2, relu }, { 3, pool } } } } })
   w.value(seq)
   return w.bytes()
end

function tests.cudnn_model_loads_as_nn()
   local path = tempFile(cudnnModelBytes())
   check.raises(function() torch.load(path) end, 'cudaToCpu = true')
   local model = torch.load(path, nil, { cudaToCpu = true })
   os.remove(path)
   check.eq(torch.typename(model), 'nn.Sequential')
   check.eq(torch.typename(model.modules[1]), 'nn.SpatialConvolution')
   check.eq(torch.typename(model.modules[2]), 'nn.ReLU')
   check.eq(torch.typename(model.modules[3]), 'nn.SpatialMaxPooling')
   check.eq(torch.typename(model.modules[1].weight), 'torch.FloatTensor')
   local input = torch.FloatTensor(1, 1, 4, 4)
   for i = 1, 16 do input:storage()[i] = math.sin(i) end
   local out = model:forward(input)
   -- the reference: a plain loop (zero padding 1, cross-correlation, ReLU, 2x2 max)
   local function x(r, c)
      if r < 1 or r > 4 or c < 1 or c > 4 then return 0 end
      return input[1][1][r][c]
   end
   check.eq(out:dim(), 4); check.eq(out:size(2), 2); check.eq(out:size(3), 2); check.eq(out:size(4), 2)
   for o = 1, 2 do
      local conv = {}
      for r = 1, 4 do
         conv[r] = {}
         for c = 1, 4 do
            local s = biases[o]
            for i = 1, 3 do
               for j = 1, 3 do s = s + weights[(o - 1) * 9 + (i - 1) * 3 + j] * x(r + i - 2, c + j - 2) end
            end
            conv[r][c] = math.max(0, s)
         end
      end
      for r = 1, 2 do
         for c = 1, 2 do
            local m = math.max(conv[2 * r - 1][2 * c - 1], conv[2 * r - 1][2 * c], conv[2 * r][2 * c - 1], conv[2 * r][2 * c])
            check.near(out[1][o][r][c], m, 1e-5, 'output ' .. o .. ',' .. r .. ',' .. c)
         end
      end
   end
end

function tests.grouped_cudnn_convolution_is_refused()
   local path = tempFile(cudnnModelBytes(2))
   check.raises(function() torch.load(path, nil, { cudaToCpu = true }) end, 'has no groups')
   os.remove(path)
end

return tests
