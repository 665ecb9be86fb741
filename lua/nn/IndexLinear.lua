-- nn.IndexLinear(inputSize, outputSize[, doGradInput = false[, keysOffset = 0[, weight[, bias[,
-- normalize = false]]]]]): a linear layer over sparse inputs of (key, value) pairs, its
-- weight stored transposed (inputSize x outputSize, one row per feature): key k uses weight
-- row k + keysOffset (keys count from 1). Input: {keys (LongTensor), values} for one sample
-- (output [outputSize]); {{keys1, ...}, {values1, ...}} or {flatKeys, flatValues, sizes} for a
-- batch (output [batch x outputSize]). With normalize, weight has 4 extra leading columns per
-- feature (running max |value|, its inverse, a learning-rate scale, a shift; see THNN's
-- IndexLinear) and values enter normalised. The gradients are kept per entry (gradWeight:
-- one row per key seen since zeroGradParameters), so updateParameters only moves the rows
-- of the keys seen. With doGradInput, gradInput is dense, as torch7's: {features, d output / d
-- feature value} over every feature 1..inputSize, per sample in the input's form.
local IndexLinear, parent = torch.class('nn.IndexLinear', 'nn.Module')

local NORMALIZE_COLUMNS = 4

function IndexLinear:__init(inputSize, outputSize, doGradInput, keysOffset, weight, bias, normalize)
   parent.__init(self)
   self.normalize = normalize and NORMALIZE_COLUMNS or 0
   -- a given weight (or bias) is used as is: they may be shared and large
   self.weight = weight or torch.Tensor(inputSize, outputSize + self.normalize):zero()
   self.bias = bias or torch.Tensor(outputSize):zero()
   self.inputSize = self.weight:size(1)
   self.outputSize = self.weight:size(2) - self.normalize
   self.gradWeight = torch.Tensor()
   self.gradBias = torch.Tensor(self.outputSize):zero()
   self.weightDecay = 0
   self.doGradInput = doGradInput or false
   self.keysOffset = keysOffset or 0
   self.normalizedValues = torch.Tensor()
   self.valuesBuffer = torch.Tensor()
   self.runningKeys = torch.LongTensor()
   self.runningCumSumSizes = torch.LongTensor()
   -- as in torch7, a new layer starts at zero (reset() draws random weights)
end

-- nn.SparseLinear's reset (over the weight's columns: 1 / sqrt(outputSize + normalize) unless
-- stdv is given); the normalisation columns start at zero
function IndexLinear:reset(stdv)
   nn.SparseLinear.reset(self, stdv)
   if self.normalize > 0 then self.weight:narrow(2, 1, self.normalize):zero() end
   return self
end

local function inputError(self, what)
   error(string.format('%s: %s (expected {keys, values}, {{keys...}, {values...}} or {keys, values, sizes})',
                       torch.type(self), what), 4)
end

local function checkVectors(self, keys, values, which)
   if not torch.isTensor(keys) or torch.type(keys) ~= 'torch.LongTensor' or keys:dim() > 1 then
      inputError(self, which .. 'keys must be a LongTensor vector')
   end
   if not torch.isTensor(values) or values:dim() > 1 or values:nElement() ~= keys:nElement() then
      inputError(self, which .. 'values must be a vector as long as its keys')
   end
end

-- the input as the kernels' flat keys, values, sizes and running sums of sizes; and whether
-- it is one sample
local function flatten(self, input)
   if type(input) ~= 'table' or (#input ~= 2 and #input ~= 3) then inputError(self, 'bad input') end
   self.keys = self.keys or torch.LongTensor()
   self.values = self.values or self.weight.new()
   local sizes
   if #input == 3 then
      checkVectors(self, input[1], input[2], '')
      self.keys:resize(input[1]:nElement()):copy(input[1])
      self.values:resize(input[2]:nElement()):copy(input[2])
      -- a number is one sample's size (a batch of one, as in torch7)
      if type(input[3]) == 'number' then
         sizes = torch.LongTensor({ input[3] })
      else
         sizes = torch.isTensor(input[3]) and input[3]:long() or torch.LongTensor(input[3])
      end
      if sizes:dim() ~= 1 or sizes:sum() ~= self.keys:nElement() then
         inputError(self, 'sizes must be a vector adding up to the number of keys')
      end
   else
      local keys, values = input[1], input[2]
      local single = torch.isTensor(keys)
      if single then keys, values = { keys }, { values } end
      if type(keys) ~= 'table' or type(values) ~= 'table' or #keys ~= #values then
         inputError(self, 'keys and values must be as many')
      end
      sizes = torch.LongTensor(#keys)
      for i = 1, #keys do
         checkVectors(self, keys[i], values[i], single and '' or 'sample ' .. i .. ': ')
         sizes[i] = keys[i]:nElement()
      end
      local total = #keys > 0 and sizes:sum() or 0
      self.keys:resize(total)
      self.values:resize(total)
      local offset = 1
      for i = 1, #keys do
         if sizes[i] > 0 then
            self.keys:narrow(1, offset, sizes[i]):copy(keys[i])
            self.values:narrow(1, offset, sizes[i]):copy(values[i])
            offset = offset + sizes[i]
         end
      end
      self.noBatch = single
   end
   if #input == 3 then self.noBatch = false end
   self.sizes = sizes
   self.cumSumSizes = sizes:nElement() > 0 and sizes:cumsum() or torch.LongTensor()
end

-- the values the gradients are taken against: the normalised ones with normalisation
local function effectiveValues(self)
   return self.normalize > 0 and self.normalizedValues or self.values
end

function IndexLinear:updateOutput(input)
   flatten(self, input)
   self.weight.THNN.IndexLinear_updateOutput(self.keys, self.keysOffset, self.values, self.sizes, self.cumSumSizes,
                                             self.output, self.weight, self.bias, self.normalizedValues,
                                             self.train == false and 0 or 1)
   if self.noBatch then self.output = self.output[1] end
   return self.output
end

function IndexLinear:updateGradInput(input, gradOutput)
   if not self.doGradInput then
      self.gradInput = {}
      return self.gradInput
   end
   if self.normalize > 0 then
      error(torch.type(self) .. ': doGradInput is not supported with normalize', 2)
   end
   flatten(self, input)
   -- torch7's gradInput is dense: for every feature k (1..inputSize, whatever keysOffset),
   -- d output / d value of k = weight[k] . gradOutput, as {keys, values} in the input's form
   local dense = gradOutput:dim() == 1 and gradOutput:view(1, gradOutput:size(1)) or gradOutput
   local gradValues = torch.mm(dense, self.weight:t())
   local features = torch.range(1, self.inputSize):long()
   if #input == 3 then
      self.gradInput = { features:repeatTensor(gradValues:size(1)), gradValues:view(gradValues:nElement()) }
   else
      local gk, gv = {}, {}
      for i = 1, gradValues:size(1) do
         gk[i] = features:clone()
         gv[i] = gradValues[i]
      end
      self.gradInput = self.noBatch and { gk[1], gv[1] } or { gk, gv }
   end
   return self.gradInput
end

-- The per-entry gradients of this backward are appended to those since zeroGradParameters.
function IndexLinear:accGradParameters(input, gradOutput, scale)
   flatten(self, input)
   self._entryGrads = self._entryGrads or self.weight.new()
   self.weight.THNN.IndexLinear_accGradParameters(self.keys, self.keysOffset, effectiveValues(self), self.sizes,
                                                  self.cumSumSizes, gradOutput, self._entryGrads, self.gradBias,
                                                  self.weight, self.bias, self.valuesBuffer, self.weightDecay,
                                                  scale or 1)
   local seen = self.runningKeys:nElement()
   if seen == 0 then
      self.gradWeight:resizeAs(self._entryGrads):copy(self._entryGrads)
      self.runningKeys:resizeAs(self.keys):copy(self.keys)
   else
      self.gradWeight = torch.cat(self.gradWeight, self._entryGrads, 1)
      self.runningKeys = torch.cat(self.runningKeys, self.keys, 1)
   end
   self.runningCumSumSizes = torch.LongTensor({ self.runningKeys:nElement() })
end

function IndexLinear:accUpdateGradParameters(input, gradOutput, lr)
   flatten(self, input)
   self.weight.THNN.IndexLinear_accUpdateGradParameters(self.keys, self.keysOffset, effectiveValues(self),
                                                        self.sizes, self.cumSumSizes, gradOutput, self.weight,
                                                        self.bias, self.weightDecay, lr or 1)
end

function IndexLinear:updateParameters(learningRate)
   if self.runningKeys:nElement() == 0 then
      self.bias:add(-learningRate, self.gradBias)
      return
   end
   self.weight.THNN.IndexLinear_updateParameters(self.gradWeight, self.gradBias, self.weight, self.bias,
                                                 self.runningKeys, self.runningCumSumSizes, self.keysOffset,
                                                 self.weightDecay, learningRate)
end

function IndexLinear:zeroGradParameters()
   self.gradBias:zero()
   self.gradWeight:set()
   self.runningKeys:set()
   self.runningCumSumSizes:set()
end

-- type() converts every tensor; the keys and sizes stay longs
function IndexLinear:type(typename, tensorCache)
   parent.type(self, typename, tensorCache)
   for _, name in ipairs({ 'keys', 'sizes', 'cumSumSizes', 'runningKeys', 'runningCumSumSizes' }) do
      if self[name] then self[name] = self[name]:long() end
   end
   return self
end

function IndexLinear:__tostring__()
   return string.format('%s(%d -> %d)%s', torch.type(self), self.inputSize, self.outputSize,
                        self.normalize > 0 and ' normalized' or '')
end

function IndexLinear:clearState()
   nn.utils.clear(self, 'keys', 'values', 'sizes', 'cumSumSizes', '_entryGrads', 'normalizedValues',
                  'valuesBuffer')
   return parent.clearState(self)
end
