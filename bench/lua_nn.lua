-- Lua overhead of nn: forward + backward of nn.Linear(1024, 1024) at batch 256 and of
-- nn.SpatialConvolution(64, 64, 3, 3, 1, 1, 1, 1) on 16x64x32x32, float, through the nn
-- modules, against the same THNN calls made from C (bench_ref, bench/lua_nn_ref.cpp) on the
-- same tensors in the same run. Best of N rounds; each round times both, so a change in the
-- machine's load hits them alike. Goal: Lua overhead under 5%.
-- Run: bazel run -c opt //bench:lua_nn
require 'nn'
local ref = assert(bench_ref, 'run through its driver: bazel run -c opt //bench:lua_nn')

local function bench(name, module, input, timeC, rounds)
   local gradOutput = module:forward(input):clone():normal()
   local function stepLua()
      local start = ref.now()
      module:forward(input)
      module:backward(input, gradOutput)
      return ref.now() - start
   end
   local function stepC() return timeC(gradOutput) end
   stepLua(); stepC()  -- warm-up: buffers sized, kernels paged in
   local bestLua, bestC = math.huge, math.huge
   for _ = 1, rounds do
      bestLua = math.min(bestLua, stepLua())
      bestC = math.min(bestC, stepC())
   end
   print(string.format('%-58s Lua %8.2f ms | C %8.2f ms | Lua / C %.3f (overhead %+.1f%%) [goal < 5%%]', name,
                       bestLua * 1e3, bestC * 1e3, bestLua / bestC, (bestLua / bestC - 1) * 100))
end

torch.manualSeed(1)
print(string.format('threads: %d', torch.getnumthreads()))

local linear = nn.Linear(1024, 1024):float()
local x = torch.FloatTensor(256, 1024):normal()
-- the C side runs on copies of the module's tensors: the same sizes and values
local out, gin, addBuffer = torch.FloatTensor(), torch.FloatTensor(), torch.FloatTensor()
local w, b = linear.weight:clone(), linear.bias:clone()
local gw, gb = linear.gradWeight:clone(), linear.gradBias:clone()
bench('nn.Linear(1024, 1024), batch 256, forward + backward', linear, x, function(gradOutput)
   return ref.linear(x, gradOutput, out, gin, w, b, gw, gb, addBuffer)
end, 10)

local conv = nn.SpatialConvolution(64, 64, 3, 3, 1, 1, 1, 1):float()
local img = torch.FloatTensor(16, 64, 32, 32):normal()
local cout, cgin, finput, fgradInput = torch.FloatTensor(), torch.FloatTensor(), torch.FloatTensor(), torch.FloatTensor()
local cw, cb = conv.weight:clone(), conv.bias:clone()
local cgw, cgb = conv.gradWeight:clone(), conv.gradBias:clone()
bench('nn.SpatialConvolution(64, 64, 3x3, pad 1), 16x64x32x32', conv, img, function(gradOutput)
   return ref.convolution(img, gradOutput, cout, cgin, cw, cb, cgw, cgb, finput, fgradInput, 3, 3, 1, 1, 1, 1)
end, 5)
