-- nn.MaskedSelect: input {tensor, mask} (mask a ByteTensor of the tensor's size); outputs
-- the vector of the elements where the mask is 1, in order. The mask gets no gradient
-- (zeros).
local MaskedSelect, parent = torch.class('nn.MaskedSelect', 'nn.Module')

function MaskedSelect:__init()
   parent.__init(self)
   self.gradInput = { torch.Tensor(), torch.Tensor() }
end

local function checkInput(input)
   if type(input) ~= 'table' or not torch.isTensor(input[1]) or not torch.isTensor(input[2]) then
      error('nn.MaskedSelect: a table {input, mask} of two tensors expected', 3)
   end
   if input[1]:nElement() ~= input[2]:nElement() then
      error(string.format('nn.MaskedSelect: the mask (%s) must have the input\'s size (%s)',
                          nn.utils.sizeString(input[2]), nn.utils.sizeString(input[1])), 3)
   end
end

function MaskedSelect:updateOutput(input)
   checkInput(input)
   self.output = input[1]:maskedSelect(input[2]:byte())
   return self.output
end

function MaskedSelect:updateGradInput(input, gradOutput)
   checkInput(input)
   self.gradInput[1] = self.gradInput[1] or input[1].new()
   self.gradInput[1]:resizeAs(input[1]):zero():maskedCopy(input[2]:byte(), gradOutput)
   self.gradInput[2] = self.gradInput[2] or input[1].new()
   self.gradInput[2]:resize(input[2]:size()):zero()
   return self.gradInput
end
