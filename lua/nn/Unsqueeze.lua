-- nn.Unsqueeze(pos[, numInputDims]): the input with a size-1 dimension inserted at pos
-- (1 to input:dim() + 1), as a view. With numInputDims, an input of more dimensions is a
-- batch and pos skips the batch dimension.
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

function Unsqueeze:updateOutput(input)
   local pos = self.pos
   if self.numInputDims and input:dim() > self.numInputDims then pos = pos + 1 end
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
