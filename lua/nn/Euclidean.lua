-- nn.Euclidean(inputSize, outputSize): y_j = |x - w_j|, the distance from x (a vector or
-- each row of a batch) to each column w_j of weight [inputSize, outputSize].
local Euclidean, parent = torch.class('nn.Euclidean', 'nn.Module')

function Euclidean:__init(inputSize, outputSize)
   parent.__init(self)
   nn.utils.allocateParameters(self, { inputSize, outputSize })
   self:reset()
end

function Euclidean:reset(stdv)
   return nn.utils.resetUniform(self, stdv, self.weight:size(1))
end

-- diff[b][i][j] = x[b][i] - w[i][j]
function Euclidean.difference(self, x)
   local B, n, m = x:size(1), self.weight:size(1), self.weight:size(2)
   self._diff = self._diff or x.new()
   self._diff:resize(B, n, m):copy(x:view(B, n, 1):expand(B, n, m))
   self._diff:add(-1, self.weight:view(1, n, m):expand(B, n, m))
   return self._diff
end

-- the output shaped as the input (a vector for a vector)
function Euclidean.setOutput(self, input, distances)
   if input:dim() == 1 then
      self.output:resize(distances:size(2)):copy(distances:select(1, 1))
   else
      self.output:resizeAs(distances):copy(distances)
   end
end

function Euclidean:updateOutput(input)
   local x = nn.utils.batchOfRows(self, input, self.weight:size(1))
   local diff = Euclidean.difference(self, x)
   Euclidean.setOutput(self, input, diff:clone():cmul(diff):sum(2):select(2, 1):sqrt())
   return self.output
end

-- go[b][j] / y[b][j] spread over i, as [B, n, m]; a zero distance (then diff is zero too)
-- is divided by 1 instead, giving a zero gradient rather than a NaN
function Euclidean.coefficient(self, gradOutput)
   local B, n, m = self._diff:size(1), self.weight:size(1), self.weight:size(2)
   local y = self.output:contiguous():view(B, 1, m)
   local zeroAt = y:clone():sign():abs():mul(-1):add(1)
   local coef = gradOutput:contiguous():view(B, 1, m):clone():cdiv(zeroAt:add(y))
   return coef:expand(B, n, m)
end

-- dy_j / dx = (x - w_j) / y_j
function Euclidean:updateGradInput(input, gradOutput)
   nn.utils.batchOfRows(self, input, self.weight:size(1))
   local terms = self._diff:clone():cmul(Euclidean.coefficient(self, gradOutput))
   self.gradInput:resizeAs(input):copy(terms:sum(3))
   return self.gradInput
end

-- dy_j / dw_j = -(x - w_j) / y_j
function Euclidean:accGradParameters(input, gradOutput, scale)
   nn.utils.batchOfRows(self, input, self.weight:size(1))
   local terms = self._diff:clone():cmul(Euclidean.coefficient(self, gradOutput))
   self.gradWeight:add(-(scale or 1), terms:sum(1):select(1, 1))
end

function Euclidean:clearState()
   nn.utils.clear(self, '_diff')
   return parent.clearState(self)
end

function Euclidean:__tostring__()
   return torch.type(self) .. string.format('(%d -> %d)', self.weight:size(1), self.weight:size(2))
end
