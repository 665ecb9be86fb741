-- nn.Bottle(module[, nInputDim = 2[, nOutputDim = nInputDim]]): applies module, which
-- takes nInputDim-dimensional inputs, to an input with more leading dimensions by folding
-- them into the first one, and unfolds the output likewise.
local Bottle, parent = torch.class('nn.Bottle', 'nn.Container')

function Bottle:__init(module, nInputDim, nOutputDim)
   parent.__init(self)
   self.nInputDim = nInputDim or 2
   self.nOutputDim = nOutputDim or self.nInputDim
   self.dimDelta = self.nInputDim - self.nOutputDim
   self.modules[1] = module
end

-- sizes of input with its first (input:dim() - nInputDim + 1) dimensions folded into one
local function folded(sizes, nKept)
   local lead = 1
   for d = 1, #sizes - nKept + 1 do lead = lead * sizes[d] end
   local out = { lead }
   for d = #sizes - nKept + 2, #sizes do out[#out + 1] = sizes[d] end
   return out
end

function Bottle:updateOutput(input)
   if input:dim() < self.nInputDim then
      error(string.format('nn.Bottle: an input of at least %d dimensions expected, got %s', self.nInputDim,
                          nn.utils.sizeString(input)), 2)
   end
   local module = self.modules[1]
   if input:dim() == self.nInputDim then
      self.output = module:updateOutput(input)
      return self.output
   end
   local sizes = input:size():totable()
   self.inShape = folded(sizes, self.nInputDim)
   local output = self:rethrowErrors(module, 1, 'updateOutput', input:contiguous():view(torch.LongStorage(self.inShape)))
   if output:dim() ~= self.nOutputDim then
      error(string.format('nn.Bottle: the module gave a %dD output, %dD expected', output:dim(), self.nOutputDim), 2)
   end
   self.outShape = output:size():totable()
   -- unfold: the leading dimensions again, then the module's own output dimensions
   local outSizes = {}
   for d = 1, input:dim() - self.nInputDim do outSizes[d] = sizes[d] end
   outSizes[#outSizes + 1] = self.outShape[1] / (self.inShape[1] / sizes[input:dim() - self.nInputDim + 1])
   for d = 2, #self.outShape do outSizes[#outSizes + 1] = self.outShape[d] end
   self.output = output:view(torch.LongStorage(outSizes))
   return self.output
end

function Bottle:updateGradInput(input, gradOutput)
   local module = self.modules[1]
   if input:dim() == self.nInputDim then
      self.gradInput = module:updateGradInput(input, gradOutput)
      return self.gradInput
   end
   local gradInput = self:rethrowErrors(module, 1, 'updateGradInput',
                                        input:contiguous():view(torch.LongStorage(self.inShape)),
                                        gradOutput:contiguous():view(torch.LongStorage(self.outShape)))
   self.gradInput = gradInput:view(input:size())
   return self.gradInput
end

function Bottle:accGradParameters(input, gradOutput, scale)
   if input:dim() > self.nInputDim then
      input = input:contiguous():view(torch.LongStorage(self.inShape))
      gradOutput = gradOutput:contiguous():view(torch.LongStorage(self.outShape))
   end
   self:rethrowErrors(self.modules[1], 1, 'accGradParameters', input, gradOutput, scale)
end

function Bottle:accUpdateGradParameters(input, gradOutput, lr)
   if input:dim() > self.nInputDim then
      input = input:contiguous():view(torch.LongStorage(self.inShape))
      gradOutput = gradOutput:contiguous():view(torch.LongStorage(self.outShape))
   end
   self:rethrowErrors(self.modules[1], 1, 'accUpdateGradParameters', input, gradOutput, lr)
end

function Bottle:__tostring__()
   local tab, line = '  ', '\n'
   return torch.type(self) .. ' {' .. line .. tab .. tostring(self.modules[1]):gsub(line, line .. tab) .. line .. '}'
end
