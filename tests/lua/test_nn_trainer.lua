-- nn.StochasticGradient: it lowers the loss of a small regression problem, calls its hooks
-- once per example and per epoch with the right counts and errors, follows the learning
-- rate schedule, and rejects bad datasets.
require 'nn'
local tests = {}

-- y = A x + b with a fixed A, b; dataset[i] = {x_i, y_i}
local function regression(n)
   local A = torch.Tensor{ { 1, -2, 0.5 }, { 0.3, 0.7, -1 } }
   local b = torch.Tensor{ 0.1, -0.4 }
   local data = {}
   for i = 1, n do
      local x = torch.randn(3)
      data[i] = { x, torch.mv(A, x) + b }
   end
   function data:size() return #self end
   return data
end

local function meanLoss(module, criterion, data)
   local s = 0
   for i = 1, data:size() do s = s + criterion:forward(module:forward(data[i][1]), data[i][2]) end
   return s / data:size()
end

function tests.trains_regression()
   torch.manualSeed(1)
   local data = regression(20)
   local module, criterion = nn.Linear(3, 2), nn.MSECriterion()
   local before = meanLoss(module, criterion, data)
   local trainer = nn.StochasticGradient(module, criterion)
   check.eq(trainer.learningRate, 0.01, 'default learningRate')
   check.eq(trainer.maxIteration, 25, 'default maxIteration')
   check.ok(trainer.shuffleIndices and trainer.verbose and trainer.learningRateDecay == 0, 'defaults')
   trainer.verbose = false
   trainer.learningRate = 0.1
   trainer.maxIteration = 30
   local errors = {}
   trainer.hookIteration = function(self, iteration, err)
      check.ok(self == trainer, 'hookIteration gets the trainer')
      errors[#errors + 1] = { iteration, err }
   end
   trainer:train(data)
   local after = meanLoss(module, criterion, data)
   check.ok(after < before * 1e-3, string.format('loss %g -> %g', before, after))
   check.eq(#errors, 30, 'one hookIteration per epoch')
   for i, e in ipairs(errors) do check.eq(e[1], i, 'iterations count from 1') end
   check.ok(errors[30][2] < errors[1][2], 'the epoch error decreases')
end

function tests.hooks_order_and_schedule()
   torch.manualSeed(2)
   local data = regression(5)
   -- a module whose accUpdateGradParameters records the learning rate it was given
   local module = nn.Linear(3, 2)
   local rates = {}
   local accUpdate = module.accUpdateGradParameters
   module.accUpdateGradParameters = function(self, input, gradOutput, lr)
      rates[#rates + 1] = lr
      return accUpdate(self, input, gradOutput, lr)
   end
   local trainer = nn.StochasticGradient(module, nn.MSECriterion())
   trainer.verbose = false
   trainer.shuffleIndices = false
   trainer.maxIteration = 3
   trainer.learningRate = 0.05
   trainer.learningRateDecay = 0.5
   local seen = {}
   trainer.hookExample = function(self, example) seen[#seen + 1] = example end
   trainer:train(data)
   check.eq(#seen, 15, 'one hookExample per example per epoch')
   for k = 1, 15 do check.ok(seen[k] == data[(k - 1) % 5 + 1], 'examples in order without shuffling') end
   -- epoch 1 uses learningRate; epoch e > 1 uses learningRate / (1 + e * decay) (torch7's schedule)
   for k = 1, 15 do
      local epoch = math.floor((k - 1) / 5) + 1
      local expected = epoch == 1 and 0.05 or 0.05 / (1 + epoch * 0.5)
      check.near(rates[k], expected, 1e-15, 'learning rate of example ' .. k)
   end

   -- shuffling visits every example once per epoch, in one fixed order
   trainer.shuffleIndices = true
   seen = {}
   trainer:train(data)
   local count = {}
   for k = 1, 15 do count[seen[k]] = (count[seen[k]] or 0) + 1 end
   for i = 1, 5 do check.eq(count[data[i]], 3, 'each example once per epoch') end
   for k = 6, 15 do check.ok(seen[k] == seen[k - 5], 'the shuffled order is the same every epoch') end
end

function tests.bad_dataset()
   local trainer = nn.StochasticGradient(nn.Linear(3, 2), nn.MSECriterion())
   trainer.verbose = false
   check.raises(function() trainer:train({ { torch.randn(3), torch.randn(2) } }) end, 'size()')
   local data = { { torch.randn(3) } }
   function data:size() return 1 end
   check.raises(function() trainer:train(data) end, '{input, target}')
   check.raises(function() nn.StochasticGradient(nn.Linear(3, 2)) end, 'both are required')
end

return tests
