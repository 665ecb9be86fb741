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


local function loadCnn()
   return torch.load(FIXTURES .. '/cnn.t7'), torch.load(FIXTURES .. '/cnn_io.t7')
end

function tests.cnn_evaluate()
   local cnn, rec = loadCnn()
   check.eq(tostring(cnn:get(1)), 'nn.SpatialConvolution(3 -> 8, 3x3, 1,1, 1,1)')
   check.eq(tostring(cnn:get(4)), 'nn.SpatialBatchNormalization (4D) (8)')
   check.eq(cnn:get(4).train, false)
   local out = cnn:forward(rec.input)
   check.eq(torch.type(out), 'torch.FloatTensor')
   check.ok(relErr(out, rec.output) < 1e-4, 'cnn output')
   -- the evaluation forward leaves the running statistics alone
   check.ok(cnn:get(4).running_mean:equal(rec.bn_running_mean))
   check.ok(cnn:get(4).running_var:equal(rec.bn_running_var))
   -- a backward runs through every layer in evaluation mode
   local gradInput = cnn:backward(rec.input, torch.FloatTensor(2, 10):fill(0.1))
   check.ok(gradInput:isSameSizeAs(rec.input))
end

function tests.cnn_training_forward_updates_running_statistics_like_torch7()
   -- torch7 ran one training forward on train_input from running_mean 0 and running_var 1
   local cnn, rec = loadCnn()
   local bn = cnn:get(4)
   bn.running_mean:zero()
   bn.running_var:fill(1)
   cnn:training()
   cnn:forward(rec.train_input)
   check.ok(relErr(bn.running_mean, rec.bn_running_mean) < 1e-4, 'running_mean')
   check.ok(relErr(bn.running_var, rec.bn_running_var) < 1e-4, 'running_var')
   -- the max-pooling indices are 1-based positions inside each 8x8 plane
   local indices = cnn:get(3).indices
   check.eq(torch.type(indices), 'torch.LongTensor')
   check.ok(indices:min() >= 1 and indices:max() <= 64)
end

function tests.cnn_as_double()
   local cnn, rec = loadCnn()
   cnn:double()
   check.ok(relErr(cnn:forward(rec.input:double()), rec.output:double()) < 1e-4)
end

return tests
