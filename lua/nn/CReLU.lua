-- nn.CReLU(nInputDims[, inplace]): ReLU(x) and ReLU(-x) concatenated along the feature
-- dimension (the first of an nInputDims-dimensional sample, the second of a batch), so the
-- output has twice the features.
local CReLU, parent = torch.class('nn.CReLU', 'nn.Module')

function CReLU:__init(nInputDims, inplace)
   parent.__init(self)
   assert(type(nInputDims) == 'number', 'nn.CReLU(nInputDims[, inplace]): nInputDims must be a number')
   self.nInputDims = nInputDims
   self.inplace = inplace or false
end

function CReLU:_featureDim(input)
   if input:dim() == self.nInputDims then return 1 end
   if input:dim() == self.nInputDims + 1 then return 2 end
   error(string.format('nn.CReLU: %d-D input (or %d-D batch) expected, got %s', self.nInputDims,
                       self.nInputDims + 1, nn.utils.sizeString(input)), 3)
end

function CReLU:updateOutput(input)
   local d = self:_featureDim(input)
   local n = input:size(d)
   local size = input:size()
   size[d] = 2 * n
   self.output:resize(size)
   self.output:narrow(d, 1, n):copy(input):clamp(0, math.huge)
   self.output:narrow(d, n + 1, n):copy(input):mul(-1):clamp(0, math.huge)
   return self.output
end

function CReLU:updateGradInput(input, gradOutput)
   local d = self:_featureDim(input)
   local n = input:size(d)
   local pos, neg = input:gt(0), input:lt(0)
   self.gradInput:resizeAs(input):zero()
   local g = gradOutput:narrow(d, 1, n):clone():cmul(pos:typeAs(input))
   self.gradInput:add(g)
   g = gradOutput:narrow(d, n + 1, n):clone():cmul(neg:typeAs(input))
   self.gradInput:add(-1, g)
   return self.gradInput
end

function CReLU:__tostring__()
   return string.format('%s(%d)', torch.type(self), self.nInputDims)
end
