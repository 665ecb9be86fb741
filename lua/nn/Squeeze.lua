-- nn.Squeeze([dim[, numInputDims]]): the input without its size-1 dimensions (only dim
-- when given), as a view. With numInputDims, an input of numInputDims + 1 dimensions is a
-- batch: dim skips the batch dimension, and a batch of one keeps its batch dimension.
local Squeeze, parent = torch.class('nn.Squeeze', 'nn.Module')

function Squeeze:__init(dim, numInputDims)
   parent.__init(self)
   self.dim = dim
   self:setNumInputDims(numInputDims)
end

function Squeeze:setNumInputDims(numInputDims)
   self.numInputDims = numInputDims
   return self
end

function Squeeze:updateOutput(input)
   local dim = self.dim
   local keepBatch = false
   if self.numInputDims and input:dim() == self.numInputDims + 1 then
      if dim then dim = dim + 1 elseif input:size(1) == 1 then keepBatch = true end
   end
   if dim and (dim < 1 or dim > input:dim()) then
      error(string.format('nn.Squeeze: dimension %d out of range for an input of size %s', dim,
                          nn.utils.sizeString(input)), 2)
   end
   local sizes = {}
   for d = 1, input:dim() do
      local size = input:size(d)
      if size ~= 1 or (dim and d ~= dim) or (keepBatch and d == 1) then sizes[#sizes + 1] = size end
   end
   if #sizes == 0 then sizes[1] = 1 end
   self.output:set(input:contiguous():view(torch.LongStorage(sizes)))
   return self.output
end

function Squeeze:updateGradInput(input, gradOutput)
   if gradOutput:nElement() ~= input:nElement() then
      error('nn.Squeeze: gradOutput has ' .. gradOutput:nElement() .. ' elements, the input ' .. input:nElement(), 2)
   end
   self.gradInput:set(gradOutput:contiguous():view(input:size()))
   return self.gradInput
end
