-- nn.Cosine(inputSize, outputSize): y_j = w_j . x / ((|w_j| + eps) (|x| + eps)), eps =
-- 1e-12, the cosine similarity of x (a vector or each row of a batch) with each row w_j
-- of weight [outputSize, inputSize].
local Cosine, parent = torch.class('nn.Cosine', 'nn.Module')

local eps = 1e-12

function Cosine:__init(inputSize, outputSize)
   parent.__init(self)
   nn.utils.allocateParameters(self, { outputSize, inputSize })
   self:reset()
end

function Cosine:reset(stdv)
   return nn.utils.resetUniform(self, stdv, self.weight:size(1))
end

local function rowNorms(m)
   return m:clone():cmul(m):sum(2):sqrt():add(eps)
end

function Cosine:updateOutput(input)
   local x = nn.utils.batchOfRows(self, input, self.weight:size(2))
   self._inputNorm = rowNorms(x)            -- [B, 1]
   self._weightNorm = rowNorms(self.weight) -- [m, 1]
   local y = x.new():mm(x, self.weight:t())
   y:cdiv(self._inputNorm:expandAs(y)):cdiv(self._weightNorm:t():expandAs(y))
   if input:dim() == 1 then
      self.output:resize(y:size(2)):copy(y:select(1, 1))
   else
      self.output:resizeAs(y):copy(y)
   end
   return self.output
end

-- dy_j / dx = w_j / (|w_j| |x|) - y_j x / |x|^2 (norms with their eps)
function Cosine:updateGradInput(input, gradOutput)
   local x = nn.utils.batchOfRows(self, input, self.weight:size(2))
   local B, m = x:size(1), self.weight:size(1)
   local go = gradOutput:contiguous():view(B, m)
   local y = self.output:contiguous():view(B, m)
   local scaled = go:clone():cdiv(self._weightNorm:t():expandAs(go)):cdiv(self._inputNorm:expandAs(go))
   local g = x.new():mm(scaled, self.weight)
   local cross = go:clone():cmul(y):sum(2):cdiv(self._inputNorm):cdiv(self._inputNorm)
   g:add(-1, x:clone():cmul(cross:expandAs(x)))
   self.gradInput:resizeAs(input):copy(g)
   return self.gradInput
end

-- dy_j / dw_j = x / (|w_j| |x|) - y_j w_j / |w_j|^2
function Cosine:accGradParameters(input, gradOutput, scale)
   scale = scale or 1
   local x = nn.utils.batchOfRows(self, input, self.weight:size(2))
   local B, m = x:size(1), self.weight:size(1)
   local go = gradOutput:contiguous():view(B, m)
   local y = self.output:contiguous():view(B, m)
   local scaled = go:clone():cdiv(self._weightNorm:t():expandAs(go)):cdiv(self._inputNorm:expandAs(go))
   local dw = x.new():mm(scaled:t(), x)
   local cross = go:clone():cmul(y):sum(1):t():cdiv(self._weightNorm):cdiv(self._weightNorm)
   dw:add(-1, self.weight:clone():cmul(cross:expandAs(self.weight)))
   self.gradWeight:add(scale, dw)
end

function Cosine:clearState()
   nn.utils.clear(self, '_inputNorm', '_weightNorm')
   return parent.clearState(self)
end

function Cosine:__tostring__()
   return torch.type(self) .. string.format('(%d -> %d)', self.weight:size(2), self.weight:size(1))
end
