-- nn.Transpose({d1, d2}, {d3, d4}, ...): the input with the dimension pairs swapped in
-- turn, copied. With setNumInputDims(n), dimensions count after the leading batch ones.
local Transpose, parent = torch.class('nn.Transpose', 'nn.Module')

function Transpose:__init(...)
   parent.__init(self)
   self.permutations = { ... }
   for _, perm in ipairs(self.permutations) do
      if type(perm) ~= 'table' or #perm ~= 2 then error('nn.Transpose: pairs of dimensions expected', 2) end
   end
   self.numInputDims = nil
end

function Transpose:setNumInputDims(numInputDims)
   self.numInputDims = numInputDims
   return self
end

function Transpose:_offset(input)
   local offset = self.numInputDims and input:dim() - self.numInputDims or 0
   for _, perm in ipairs(self.permutations) do
      for _, d in ipairs(perm) do
         if d + offset < 1 or d + offset > input:dim() then
            error(string.format('nn.Transpose: dimension %d out of range for an input of size %s', d + offset,
                                nn.utils.sizeString(input)), 3)
         end
      end
   end
   return offset
end

function Transpose:updateOutput(input)
   local offset = self:_offset(input)
   for _, perm in ipairs(self.permutations) do input = input:transpose(perm[1] + offset, perm[2] + offset) end
   self.output:resizeAs(input):copy(input)
   return self.output
end

function Transpose:updateGradInput(input, gradOutput)
   local offset = self:_offset(input)
   for i = #self.permutations, 1, -1 do
      local perm = self.permutations[i]
      gradOutput = gradOutput:transpose(perm[1] + offset, perm[2] + offset)
   end
   self.gradInput:resizeAs(gradOutput):copy(gradOutput)
   return self.gradInput
end
