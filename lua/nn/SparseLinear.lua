-- nn.SparseLinear(inputSize, outputSize[, doGradInput = false]): output = weight x + bias for
-- sparse inputs x given as {feature index (1-based), value} rows: an nnz x 2 tensor (one
-- sample, output [outputSize]), a table of them (a batch, output [#input x outputSize]), or
-- torch7's legacy batch tensor nBatch x nnz x 2. weight is outputSize x inputSize. After one
-- backward, updateParameters and zeroGradParameters touch only the columns of the features
-- that input had (lastInput); after several backwards without zeroGradParameters, all of
-- them. With doGradInput, gradInput holds {index, gradient} rows over every feature.
local SparseLinear, parent = torch.class('nn.SparseLinear', 'nn.Module')

-- what the gradients hold since the last zeroGradParameters
local NO_LAST_INPUT = 0      -- nothing: zeroGradParameters zeroes everything
local ONE_LAST_INPUT = 1     -- one backward, of lastInput: sparse update and zeroing
local ACC_MULTIPLE_TIMES = 2 -- more: dense update and zeroing

function SparseLinear:__init(inputSize, outputSize, doGradInput)
   parent.__init(self)
   self.weightDecay = 0
   self.doGradInput = doGradInput or false
   assert(type(self.doGradInput) == 'boolean', 'nn.SparseLinear: doGradInput must be a boolean')
   self.weight = torch.Tensor(outputSize, inputSize):zero()
   self.bias = torch.Tensor(outputSize):zero()
   self.gradWeight = torch.Tensor(outputSize, inputSize):zero()
   self.gradBias = torch.Tensor(outputSize):zero()
   self.sparseUpdate = NO_LAST_INPUT
   self:reset()
end

-- weight uniform in [-stdv, stdv], stdv = 1 / sqrt(inputSize) unless given; bias 1e-6 of that
function SparseLinear:reset(stdv)
   local a = nn.utils.uniformBound(stdv, self.weight:size(2))
   self.weight:uniform(-a, a)
   self.bias:uniform(-a, a):mul(0.000001)
   return self
end

-- the samples as a list of nnz x 2 tensors, whether the input is a batch, and whether it is
-- the legacy nBatch x nnz x 2 tensor
local function samples(self, input)
   if type(input) == 'table' then
      for i, t in ipairs(input) do
         if not torch.isTensor(t) or t:dim() ~= 2 or t:size(2) ~= 2 then
            error(string.format('%s: sample %d must be an nnz x 2 tensor of (index, value) rows, got %s',
                                torch.type(self), i, torch.isTensor(t) and nn.utils.sizeString(t) or type(t)), 3)
         end
      end
      return input, true, false
   end
   if torch.isTensor(input) and input:dim() == 2 and input:size(2) == 2 then return { input }, false, false end
   if torch.isTensor(input) and input:dim() == 3 and input:size(3) == 2 then return input, true, true end
   error(string.format('%s: expected an nnz x 2 tensor of (index, value) rows, a table of them or an '
                          .. 'nBatch x nnz x 2 tensor, got %s', torch.type(self),
                       torch.isTensor(input) and nn.utils.sizeString(input) or type(input)), 3)
end

-- the samples' rows as one nnz x 3 tensor of (sample, index, value) rows, the kernels' format
local function formatted(self, list)
   local nnz = 0
   for _, t in ipairs(list) do nnz = nnz + t:size(1) end
   self.formatted_input = self.formatted_input or self.weight.new()
   self.formatted_input:resize(nnz, 3)
   local offset = 1
   for i, t in ipairs(list) do
      if t:size(1) > 0 then
         local rows = self.formatted_input:narrow(1, offset, t:size(1))
         rows:select(2, 1):fill(i)
         rows:narrow(2, 2, 2):copy(t)
         offset = offset + t:size(1)
      end
   end
   return self.formatted_input
end

function SparseLinear:updateOutput(input)
   local list, batch, legacy = samples(self, input)
   self.legacyMode = legacy
   if legacy then
      input.THNN.SparseLinear_legacyUpdateOutput(input, self.output, self.weight, self.bias)
      return self.output
   end
   local rows = formatted(self, list)
   self.output:resize(#list, self.weight:size(1))
   if #list > 0 then self.weight.THNN.SparseLinear_updateOutput(rows, self.output, self.weight, self.bias) end
   if not batch then self.output = self.output[1] end
   return self.output
end

function SparseLinear:accGradParameters(input, gradOutput, scale)
   local list, _, legacy = samples(self, input)
   self.legacyMode = legacy
   local rows
   if legacy then
      rows = input
      input.THNN.SparseLinear_legacyAccGradParameters(input, gradOutput, self.gradWeight, self.gradBias,
                                                      self.weight, self.bias, self.weightDecay, scale or 1)
   else
      rows = formatted(self, list)
      self.weight.THNN.SparseLinear_accGradParameters(rows, gradOutput, self.gradWeight, self.gradBias,
                                                      self.weight, self.bias, self.weightDecay, scale or 1)
   end
   if self.sparseUpdate == NO_LAST_INPUT then
      self.lastInput = self.lastInput or rows.new()
      self.lastInput:resizeAs(rows):copy(rows)
      self.lastInputLegacy = legacy
      self.sparseUpdate = ONE_LAST_INPUT
   elseif self.sparseUpdate == ONE_LAST_INPUT then
      self.sparseUpdate = ACC_MULTIPLE_TIMES
   end
end

-- d output / d value for every feature: weight^T gradOutput, as (index, gradient) rows
function SparseLinear:updateGradInput(input, gradOutput)
   local list, batch, legacy = samples(self, input)
   local inputSize = self.weight:size(2)
   if not self.doGradInput then
      if legacy then
         self.gradInput = torch.isTensor(self.gradInput) and self.gradInput or input.new()
         self.gradInput:resizeAs(input):zero()
      else
         self.gradInput = {}
      end
      return self.gradInput
   end
   local dense = gradOutput:dim() == 1 and gradOutput:view(1, gradOutput:size(1)) or gradOutput
   local gradValues = torch.mm(dense, self.weight)
   local indices = torch.range(1, inputSize):typeAs(gradValues)
   if legacy then
      self.gradInput = torch.isTensor(self.gradInput) and self.gradInput or input.new()
      self.gradInput:resize(gradValues:size(1), inputSize, 2)
      for i = 1, gradValues:size(1) do
         self.gradInput[i]:select(2, 1):copy(indices)
         self.gradInput[i]:select(2, 2):copy(gradValues[i])
      end
      return self.gradInput
   end
   local grads = {}
   for i = 1, #list do
      grads[i] = gradValues.new(inputSize, 2)
      grads[i]:select(2, 1):copy(indices)
      grads[i]:select(2, 2):copy(gradValues[i])
   end
   -- a table of one per sample, a single sample included (torch7)
   self.gradInput = grads
   return self.gradInput
end

function SparseLinear:updateParameters(learningRate)
   if self.sparseUpdate ~= ONE_LAST_INPUT then return parent.updateParameters(self, learningRate) end
   local update = self.lastInputLegacy and 'SparseLinear_legacyUpdateParameters'
                     or 'SparseLinear_updateParameters'
   self.weight.THNN[update](self.weight, self.bias, self.gradWeight, self.gradBias, self.lastInput, learningRate)
end

function SparseLinear:zeroGradParameters()
   if self.sparseUpdate == ONE_LAST_INPUT then
      local zero = self.lastInputLegacy and 'SparseLinear_legacyZeroGradParameters'
                      or 'SparseLinear_zeroGradParameters'
      self.weight.THNN[zero](self.gradWeight, self.gradBias, self.lastInput)
   else
      parent.zeroGradParameters(self)
   end
   self.sparseUpdate = NO_LAST_INPUT
end

function SparseLinear:__tostring__()
   return string.format('%s(%d -> %d)', torch.type(self), self.weight:size(2), self.weight:size(1))
end

function SparseLinear:clearState()
   -- lastInput stays: the next updateParameters or zeroGradParameters needs it
   nn.utils.clear(self, 'formatted_input')
   return parent.clearState(self)
end
