-- nn.BatchNormalization(nOutput[, eps = 1e-5[, momentum = 0.1[, affine = true]]]):
-- y = (x - mean) / sqrt(var + eps) * weight + bias per feature (dimension 2 of a batch).
-- In training the batch's statistics normalise and running_mean / running_var move
-- towards them by momentum; in evaluation the running statistics normalise (and a single
-- sample without the batch dimension is accepted).
local BN, parent = torch.class('nn.BatchNormalization', 'nn.Module')

BN.__version = 2
BN.nDim = 2  -- dimensions of a batch: N x nOutput

function BN:__init(nOutput, eps, momentum, affine)
   parent.__init(self)
   assert(type(nOutput) == 'number', 'nn.BatchNormalization: the number of features is required')
   assert(nOutput ~= 0, 'nn.BatchNormalization: to set affine=false call BatchNormalization(nOutput, eps, momentum, false)')
   if affine ~= nil then
      assert(type(affine) == 'boolean', 'nn.BatchNormalization: affine must be true or false')
      self.affine = affine
   else
      self.affine = true
   end
   self.eps = eps or 1e-5
   self.train = true
   self.momentum = momentum or 0.1
   self.running_mean = torch.zeros(nOutput)
   self.running_var = torch.ones(nOutput)
   if self.affine then
      self.weight = torch.Tensor(nOutput)
      self.bias = torch.Tensor(nOutput)
      self.gradWeight = torch.Tensor(nOutput)
      self.gradBias = torch.Tensor(nOutput)
      self:reset()
   end
end

function BN:reset()
   if self.weight then self.weight:uniform() end
   if self.bias then self.bias:zero() end
   self.running_mean:zero()
   self.running_var:fill(1)
end

function BN:checkInputDim(input)
   local nDim = input:dim()
   if not (nDim == self.nDim or (nDim == self.nDim - 1 and self.train == false)) then
      error(string.format('%s: only mini-batch supported (%dD tensor), got %dD tensor instead', torch.type(self),
                          self.nDim, nDim), 3)
   end
   local featureDim = nDim == self.nDim - 1 and 1 or 2
   if input:size(featureDim) ~= self.running_mean:nElement() then
      error(string.format('%s: got %d-feature tensor, expected %d', torch.type(self), input:size(featureDim),
                          self.running_mean:nElement()), 3)
   end
end

-- a single sample (evaluation only) as a batch of one
local function asBatch(self, t)
   if not t:isContiguous() then t = t:contiguous() end
   if t:dim() == self.nDim - 1 then
      local sizes = t:size():totable()
      table.insert(sizes, 1, 1)
      return t:view(torch.LongStorage(sizes))
   end
   return t
end

-- As in torch7's nn, a batch of one sample is normalised by the running statistics even in
-- training (its own variance is 0) and leaves them unchanged.
local function trainsOn(self, input)
   return self.train and input:size(1) > 1
end

function BN:updateOutput(input)
   self:checkInputDim(input)
   input = asBatch(self, input)
   self.save_mean = self.save_mean or input.new()
   self.save_std = self.save_std or input.new()
   input.THNN.BatchNormalization_updateOutput(input, self.output, self.weight, self.bias, self.running_mean,
                                              self.running_var, self.save_mean, self.save_std,
                                              trainsOn(self, input), self.momentum, self.eps)
   return self.output
end

local function backward(self, input, gradOutput, scale, gradInput, gradWeight, gradBias)
   self:checkInputDim(input)
   self:checkInputDim(gradOutput)
   assert(self.save_mean and self.save_std, torch.type(self) .. ': call updateOutput first')
   input, gradOutput = asBatch(self, input), asBatch(self, gradOutput)
   input.THNN.BatchNormalization_backward(input, gradOutput, gradInput, gradWeight, gradBias, self.weight,
                                          self.running_mean, self.running_var, self.save_mean, self.save_std,
                                          trainsOn(self, input), scale or 1, self.eps)
   return self.gradInput
end

function BN:backward(input, gradOutput, scale)
   return backward(self, input, gradOutput, scale, self.gradInput, self.gradWeight, self.gradBias)
end

function BN:updateGradInput(input, gradOutput)
   return backward(self, input, gradOutput, 1, self.gradInput)
end

function BN:accGradParameters(input, gradOutput, scale)
   return backward(self, input, gradOutput, scale, nil, self.gradWeight, self.gradBias)
end

function BN:__tostring__()
   return string.format('%s (%dD) (%d)', torch.type(self), self.nDim, self.running_mean:nElement())
end

function BN:clearState()
   nn.utils.clear(self, '_input', '_gradOutput', 'save_mean', 'save_std')
   return parent.clearState(self)
end
