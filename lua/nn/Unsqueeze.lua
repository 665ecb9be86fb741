-- nn.Unsqueeze(pos[, numInputDims]): the input with a size-1 dimension inserted at pos
-- (1 to input:dim() + 1), as a view. An input of more than numInputDims dimensions has
-- leading batch dimensions, which pos skips.
local Unsqueeze, parent = torch.class('nn.Unsqueeze', 'nn.Module')

function Unsqueeze:__init(pos, numInputDims)
   parent.__init(self)
   if type(pos) ~= 'number' then error('nn.Unsqueeze(pos[, numInputDims]): a position expected', 2) end
   self.pos = pos
   self:setNumInputDims(numInputDims)
end

function Unsqueeze:setNumInputDims(numInputDims)
   self.numInputDims = numInputDims
   return self
end

-- As in torch7, numInputDims defaults to the dimensions of the first input seen, and the
-- dimensions an input has beyond numInputDims are leading batch dimensions pos skips.
function Unsqueeze:updateOutput(input)
   self.numInputDims = self.numInputDims or input:dim()
   local batchDims = input:dim() - self.numInputDims
   if batchDims < 0 then
      error(string.format('nn.Unsqueeze: an input of %d dimensions has fewer than numInputDims (%d)', input:dim(),
                          self.numInputDims), 2)
   end
   local pos = self.pos + batchDims
   if pos < 1 or pos > input:dim() + 1 then
      error(string.format('nn.Unsqueeze: position %d out of range for an input of size %s', pos,
                          nn.utils.sizeString(input)), 2)
   end
   local sizes = input:size():totable()
   table.insert(sizes, pos, 1)
   self.output:set(input:contiguous():view(torch.LongStorage(sizes)))
   return self.output
end

function Unsqueeze:updateGradInput(input, gradOutput)
   if gradOutput:nElement() ~= input:nElement() then
      error('nn.Unsqueeze: gradOutput has ' .. gradOutput:nElement() .. ' elements, the input ' .. input:nElement(), 2)
   end
   self.gradInput:set(gradOutput:contiguous():view(input:size()))
   return self.gradInput
end

function Unsqueeze:__tostring__()
   return torch.type(self) .. '(dim ' .. self.pos .. ')'
end
