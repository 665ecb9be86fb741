-- nn.StochasticGradient(module, criterion): torch7's plain SGD trainer. train(dataset)
-- runs maxIteration epochs (0: forever) over a dataset with dataset:size() and
-- dataset[i] = {input, target}, one example at a time in a fixed order (shuffled once when
-- shuffleIndices), updating the parameters with accUpdateGradParameters at
-- learningRate / (1 + epoch * learningRateDecay). hookExample(self, example) runs after
-- each example, hookIteration(self, iteration, meanError) after each epoch.
local StochasticGradient = torch.class('nn.StochasticGradient')

function StochasticGradient:__init(module, criterion)
   assert(module and criterion, 'nn.StochasticGradient(module, criterion): both are required')
   self.learningRate = 0.01
   self.learningRateDecay = 0
   self.maxIteration = 25
   self.shuffleIndices = true
   self.module = module
   self.criterion = criterion
   self.verbose = true
end

function StochasticGradient:_say(msg)
   if self.verbose then print(msg) end
end

function StochasticGradient:train(dataset)
   if type(dataset) ~= 'table' and type(dataset) ~= 'userdata' or type(dataset.size) ~= 'function' then
      error('nn.StochasticGradient:train: the dataset needs a size() method and dataset[i] = {input, target}', 2)
   end
   local n = dataset:size()
   if n < 1 then error('nn.StochasticGradient:train: the dataset is empty', 2) end
   local module, criterion = self.module, self.criterion
   local order
   if self.shuffleIndices then
      order = torch.randperm(n):long()
   else
      order = torch.range(1, n):long()
   end
   local iteration = 1
   local lr = self.learningRate
   self:_say('# StochasticGradient: training')
   while true do
      local sumError = 0
      for t = 1, n do
         local example = dataset[order[t]]
         if type(example) ~= 'table' or example[1] == nil or example[2] == nil then
            error(string.format('nn.StochasticGradient:train: dataset[%d] must be a table {input, target}', order[t]), 2)
         end
         local input, target = example[1], example[2]
         sumError = sumError + criterion:forward(module:forward(input), target)
         local gradOutput = criterion:updateGradInput(module.output, target)
         module:updateGradInput(input, gradOutput)
         module:accUpdateGradParameters(input, gradOutput, lr)
         if self.hookExample then self.hookExample(self, example) end
      end
      local meanError = sumError / n
      if self.hookIteration then self.hookIteration(self, iteration, meanError) end
      self:_say('# current error = ' .. meanError)
      iteration = iteration + 1
      lr = self.learningRate / (1 + iteration * self.learningRateDecay)
      if self.maxIteration > 0 and iteration > self.maxIteration then
         self:_say('# StochasticGradient: you have reached the maximum number of iterations')
         self:_say('# training error = ' .. meanError)
         return meanError
      end
   end
end
