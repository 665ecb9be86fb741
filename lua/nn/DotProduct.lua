-- nn.DotProduct: input {a, b}, two vectors or two batches of rows; the output is a . b,
-- of size [1] for vectors and [B] for batches.
local DotProduct, parent = torch.class('nn.DotProduct', 'nn.Module')

function DotProduct:__init()
   parent.__init(self)
   self.gradInput = { torch.Tensor(), torch.Tensor() }
end

-- the two inputs as [B, n] views; shared by CosineDistance and PairwiseDistance
function DotProduct.rows(self, input)
   if type(input) ~= 'table' or #input ~= 2 or not torch.isTensor(input[1]) or not torch.isTensor(input[2]) then
      error(torch.type(self) .. ': a table of two tensors expected', 3)
   end
   local a, b = input[1], input[2]
   if not a:isSameSizeAs(b) or a:dim() < 1 or a:dim() > 2 then
      error(string.format('%s: two vectors or two matrices of one size expected, got %s and %s', torch.type(self),
                          nn.utils.sizeString(a), nn.utils.sizeString(b)), 3)
   end
   if a:dim() == 1 then return a:view(1, -1), b:view(1, -1) end
   return a, b
end

function DotProduct:updateOutput(input)
   local a, b = DotProduct.rows(self, input)
   self.buffer = self.buffer or a.new()
   self.buffer:resizeAs(a):copy(a):cmul(b)
   self.output:resize(a:size(1)):copy(self.buffer:sum(2):select(2, 1))
   return self.output
end

function DotProduct:updateGradInput(input, gradOutput)
   local a, b = DotProduct.rows(self, input)
   local g = gradOutput:contiguous():view(-1, 1):expandAs(a)
   for i = 1, 2 do
      if not torch.isTensor(self.gradInput[i]) then self.gradInput[i] = a.new() end
   end
   self.gradInput[1]:resizeAs(input[1]):view(a:size()):copy(b):cmul(g)
   self.gradInput[2]:resizeAs(input[2]):view(a:size()):copy(a):cmul(g)
   return self.gradInput
end

function DotProduct:clearState()
   nn.utils.clear(self, 'buffer')
   return parent.clearState(self)
end
