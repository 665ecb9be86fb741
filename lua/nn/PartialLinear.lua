-- nn.PartialLinear(inputSize, outputSize[, bias = true]): a Linear layer (weight
-- outputSize x inputSize) that computes only the output columns of its partition (a
-- tensor of 1-based column indices, setPartition; all columns after resetPartition), so
-- that training can run on a part of a large output layer. Input: a batch, nBatch x
-- inputSize; output: nBatch x #partition. As torch7's, the weight lives in a small network,
-- {input, partition} -> ParallelTable(Identity, LookupTable) -> MM(false, true), so that its
-- .t7 files read back here and there.
local PartialLinear, parent = torch.class('nn.PartialLinear', 'nn.Module')

function PartialLinear:__init(inputSize, outputSize, bias)
   parent.__init(self)
   local branches = nn.ParallelTable():add(nn.Identity()):add(nn.LookupTable(outputSize, inputSize))
   self.network = nn.Sequential():add(branches):add(nn.MM(false, true))
   if bias == nil or bias then
      self.bias = torch.Tensor(1, outputSize):zero()
      self.gradBias = torch.Tensor(1, outputSize):zero()
   end
   self.inputsize, self.outputsize = inputSize, outputSize
   self.allcolumns = torch.range(1, outputSize)
   self:resetPartition()
end

-- the LookupTable holding the weight (row j: output column j)
local function lookup(self) return self.network:get(1):get(2) end

function PartialLinear:setPartition(indices)
   if not torch.isTensor(indices) or indices:dim() ~= 1 then
      error('nn.PartialLinear: setPartition expects a 1-D tensor of column indices', 2)
   end
   if indices:nElement() > 0 and (indices:min() < 1 or indices:max() > self.outputsize) then
      error(string.format('nn.PartialLinear: partition indices must lie in [1, %d]', self.outputsize), 2)
   end
   self.partition = indices:type(self.allcolumns:type())
   return self
end

function PartialLinear:resetPartition()
   self.partition = self.allcolumns
   return self
end

function PartialLinear:reset(stdv)
   stdv = stdv and stdv * math.sqrt(3) or 1 / math.sqrt(self.inputsize)
   lookup(self).weight:uniform(-stdv, stdv)
   if self.bias then self.bias:uniform(-stdv, stdv) end
   return self
end

function PartialLinear:parameters()
   local l = lookup(self)
   return { l.weight, self.bias }, { l.gradWeight, self.gradBias }
end

local function checkInput(self, input)
   if not torch.isTensor(input) or input:dim() ~= 2 or input:size(2) ~= self.inputsize then
      error(string.format('nn.PartialLinear: a batch nBatch x %d expected, got %s', self.inputsize,
                          torch.isTensor(input) and nn.utils.sizeString(input) or type(input)), 3)
   end
end

function PartialLinear:updateOutput(input)
   checkInput(self, input)
   self.output:set(self.network:forward({ input, self.partition }))
   if self.bias then
      self.output:add(self.bias:index(2, self.partition:long()):expandAs(self.output))
   end
   return self.output
end

function PartialLinear:updateGradInput(input, gradOutput)
   if self.gradInput then
      self.network:updateGradInput({ input, self.partition }, gradOutput)
      self.gradInput:set(self.network.gradInput[1])
   end
   return self.gradInput
end

function PartialLinear:accGradParameters(input, gradOutput, scale)
   scale = scale or 1
   self.network:accGradParameters({ input, self.partition }, gradOutput, scale)
   if self.bias then
      local columnSums = gradOutput:sum(1):mul(scale)  -- 1 x #partition
      self.gradBias:indexAdd(2, self.partition:long(), columnSums)
   end
end

-- one step with the parameters standing in for their gradients: they move by -lr * gradient
function PartialLinear:accUpdateGradParameters(input, gradOutput, lr)
   local l = lookup(self)
   local gradWeight, gradBias = l.gradWeight, self.gradBias
   l.gradWeight, self.gradBias = l.weight, self.bias
   self:accGradParameters(input, gradOutput, -lr)
   l.gradWeight, self.gradBias = gradWeight, gradBias
end
PartialLinear.sharedAccUpdateGradParameters = PartialLinear.accUpdateGradParameters

function PartialLinear:zeroGradParameters()
   self.network:zeroGradParameters()
   if self.gradBias then self.gradBias:zero() end
end

function PartialLinear:updateParameters(learningRate)
   self.network:updateParameters(learningRate)
   if self.bias then self.bias:add(-learningRate, self.gradBias) end
end

function PartialLinear:__tostring__()
   return torch.type(self) .. string.format('(%d -> %d)', self.inputsize, self.outputsize) ..
          (self.bias == nil and ' without bias' or '')
end
