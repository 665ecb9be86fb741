-- Models saved by torch7 (../shared/fixtures/t7/README.md) load as working nn modules and
-- reproduce the outputs and gradients torch7 recorded.
require 'nn'
local tests = {}

-- largest relative difference, relative to the largest magnitude of expected
local function relErr(got, expected)
   check.ok(got:isSameSizeAs(expected), 'sizes differ')
   return (got - expected):abs():max() / math.max(expected:clone():abs():max(), 1e-30)
end

local function checkMlp(file)
   local mlp = torch.load(FIXTURES .. '/' .. file)
   local rec = torch.load(FIXTURES .. '/mlp_io.t7')
   check.eq(torch.type(mlp), 'nn.Sequential')
   check.eq(tostring(mlp), 'nn.Sequential {\n  [input -> (1) -> (2) -> (3) -> (4) -> output]\n' ..
                           '  (1): nn.Linear(10 -> 20)\n  (2): nn.Tanh\n  (3): nn.Linear(20 -> 5)\n' ..
                           '  (4): nn.LogSoftMax\n}')
   check.ok(relErr(mlp:forward(rec.input), rec.output) < 1e-6, file .. ': output')
   mlp:zeroGradParameters()
   check.ok(relErr(mlp:backward(rec.input, rec.gradOutput), rec.gradInput) < 1e-6, file .. ': gradInput')
   check.ok(relErr(mlp.modules[1].gradWeight, rec.gradWeight1) < 1e-6, file .. ': gradWeight1')
   check.ok(relErr(mlp.modules[1].gradBias, rec.gradBias1) < 1e-6, file .. ': gradBias1')
   check.ok(relErr(mlp.modules[3].gradWeight, rec.gradWeight3) < 1e-6, file .. ': gradWeight3')
   check.ok(relErr(mlp.modules[3].gradBias, rec.gradBias3) < 1e-6, file .. ': gradBias3')
   check.ok(relErr(mlp:forward(rec.input_single), rec.output_single) < 1e-6, file .. ': output_single')
end

function tests.mlp_binary()
   checkMlp('mlp.t7')
end

function tests.mlp_ascii()
   checkMlp('mlp_ascii.t7')
end

function tests.mlp_saved_again_and_reloaded()
   local mlp = torch.load(FIXTURES .. '/mlp.t7')
   local rec = torch.load(FIXTURES .. '/mlp_io.t7')
   local path = os.tmpname()
   torch.save(path, mlp)
   local again = torch.load(path)
   os.remove(path)
   check.ok(relErr(again:forward(rec.input), rec.output) < 1e-6)
end

return tests
