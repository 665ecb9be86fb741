-- nn.MV([trans = false]): input {M, v}, a matrix and a vector or batches of them ([b, m, n]
-- and [b, n]); the output is M v (M transposed first with trans).
local MV, parent = torch.class('nn.MV', 'nn.Module')

function MV:__init(trans)
   parent.__init(self)
   self.trans = trans or false
   self.gradInput = { torch.Tensor(), torch.Tensor() }
end

function MV:_operands(input)
   if type(input) ~= 'table' or #input ~= 2 then error('nn.MV: a table {M, v} expected', 3) end
   local M, v = input[1], input[2]
   if (M:dim() ~= 2 and M:dim() ~= 3) or v:dim() ~= M:dim() - 1 then
      error(string.format('nn.MV: a matrix and a vector (or batches of them) expected, got %s and %s',
                          nn.utils.sizeString(M), nn.utils.sizeString(v)), 3)
   end
   if self.trans then M = M:transpose(M:dim() - 1, M:dim()) end
   if M:size(M:dim()) ~= v:size(v:dim()) or (M:dim() == 3 and M:size(1) ~= v:size(1)) then
      error(string.format('nn.MV: sizes do not match: %s times %s', nn.utils.sizeString(M),
                          nn.utils.sizeString(v)), 3)
   end
   -- v as a column (or a batch of columns)
   local sizes = v:size():totable()
   sizes[#sizes + 1] = 1
   return M, v:contiguous():view(torch.LongStorage(sizes))
end

function MV:updateOutput(input)
   local M, column = self:_operands(input)
   local product = nn.MM.product(M.new(), M, column)
   local values = product:select(product:dim(), 1)
   self.output:resizeAs(values):copy(values)
   return self.output
end

-- dM = go v^T (transposed back with trans), dv = M^T go
function MV:updateGradInput(input, gradOutput)
   local M, column = self:_operands(input)
   for i = 1, 2 do
      if not torch.isTensor(self.gradInput[i]) then self.gradInput[i] = M.new() end
   end
   local h, w = M:dim() - 1, M:dim()
   local sizes = gradOutput:size():totable()
   sizes[#sizes + 1] = 1
   local goColumn = gradOutput:contiguous():view(torch.LongStorage(sizes))
   local gradM = nn.MM.product(M.new(), goColumn, column:transpose(h, w))
   if self.trans then gradM = gradM:transpose(h, w) end
   local gradV = nn.MM.product(M.new(), M:transpose(h, w), goColumn)
   self.gradInput[1]:resizeAs(input[1]):copy(gradM)
   self.gradInput[2]:resizeAs(input[2]):copy(gradV)
   return self.gradInput
end
