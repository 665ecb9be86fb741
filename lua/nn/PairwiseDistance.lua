-- nn.PairwiseDistance(p): input {a, b}, two vectors or two batches of rows; the output is
-- the p-norm of a - b, of size [1] or [B].
local PairwiseDistance, parent = torch.class('nn.PairwiseDistance', 'nn.Module')

function PairwiseDistance:__init(p)
   parent.__init(self)
   if type(p) ~= 'number' or p <= 0 then error('nn.PairwiseDistance(p): a positive norm expected', 2) end
   self.norm = p
   self.gradInput = { torch.Tensor(), torch.Tensor() }
end

function PairwiseDistance:updateOutput(input)
   local a, b = nn.DotProduct.rows(self, input)
   self.diff = self.diff or a.new()
   self.diff:resizeAs(a):copy(a):add(-1, b)
   local powered = self.diff:clone():abs():pow(self.norm)
   self.output:resize(a:size(1)):copy(powered:sum(2):select(2, 1)):pow(1 / self.norm)
   return self.output
end

-- d/da ||d||_p = sign(d) |d|^(p-1) / ||d||^(p-1) (||d|| + 1e-6 against 0, as torch7)
function PairwiseDistance:updateGradInput(input, gradOutput)
   local a = nn.DotProduct.rows(self, input)
   for i = 1, 2 do
      if not torch.isTensor(self.gradInput[i]) then self.gradInput[i] = a.new() end
   end
   local g = self.gradInput[1]:resizeAs(input[1]):view(a:size())
   if self.norm == 1 then
      g:copy(self.diff):sign()
   else
      g:copy(self.diff):abs():pow(self.norm - 1):cmul(self.diff:clone():sign())
      local scale = self.output:clone():add(1e-6):pow(-(self.norm - 1))
      g:cmul(scale:view(-1, 1):expandAs(g))
   end
   g:cmul(gradOutput:contiguous():view(-1, 1):expandAs(g))
   self.gradInput[2]:resizeAs(input[2]):copy(self.gradInput[1]):mul(-1)
   return self.gradInput
end

function PairwiseDistance:clearState()
   nn.utils.clear(self, 'diff')
   return parent.clearState(self)
end
