-- nn.MM([transA = false[, transB = false]]): input {A, B}, matrices or batches of them
-- ([b, m, n]); the output is A * B with either transposed first.
local MM, parent = torch.class('nn.MM', 'nn.Module')

function MM:__init(transA, transB)
   parent.__init(self)
   self.transA = transA or false
   self.transB = transB or false
   self.gradInput = { torch.Tensor(), torch.Tensor() }
end

-- result = a * b for matrices, or sample by sample for batches (shared with MV)
function MM.product(result, a, b)
   if a:dim() == 2 then return result:mm(a, b) end
   result:resize(a:size(1), a:size(2), b:size(3))
   for i = 1, a:size(1) do result:select(1, i):mm(a:select(1, i), b:select(1, i)) end
   return result
end

function MM:updateOutput(input)
   if type(input) ~= 'table' or #input ~= 2 then error('nn.MM: a table of two tensors expected', 2) end
   local a, b = input[1], input[2]
   if (a:dim() ~= 2 and a:dim() ~= 3) or b:dim() ~= a:dim() then
      error(string.format('nn.MM: two matrices or two batches of matrices expected, got %s and %s',
                          nn.utils.sizeString(a), nn.utils.sizeString(b)), 2)
   end
   local h, w = a:dim() - 1, a:dim()
   if self.transA then a = a:transpose(h, w) end
   if self.transB then b = b:transpose(h, w) end
   if a:size(w) ~= b:size(h) or (a:dim() == 3 and a:size(1) ~= b:size(1)) then
      error(string.format('nn.MM: matrix sizes do not match: %s times %s', nn.utils.sizeString(a),
                          nn.utils.sizeString(b)), 2)
   end
   MM.product(self.output, a, b)
   return self.output
end

-- with C = A B: dA = dC B^T, dB = A^T dC (transposed back where the input was)
function MM:updateGradInput(input, gradOutput)
   local a, b = input[1], input[2]
   local h, w = a:dim() - 1, a:dim()
   for i = 1, 2 do
      if not torch.isTensor(self.gradInput[i]) then self.gradInput[i] = a.new() end
   end
   local A = self.transA and a:transpose(h, w) or a
   local B = self.transB and b:transpose(h, w) or b
   local gradA = MM.product(a.new(), gradOutput, B:transpose(h, w))
   local gradB = MM.product(a.new(), A:transpose(h, w), gradOutput)
   if self.transA then gradA = gradA:transpose(h, w) end
   if self.transB then gradB = gradB:transpose(h, w) end
   self.gradInput[1]:resizeAs(a):copy(gradA)
   self.gradInput[2]:resizeAs(b):copy(gradB)
   return self.gradInput
end
