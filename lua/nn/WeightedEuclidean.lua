-- nn.WeightedEuclidean(inputSize, outputSize): y_j = |c_j .* (x - w_j)|, the distance from
-- x to each template column w_j of weight, scaled per element by the column c_j of
-- diagCov (both [inputSize, outputSize]).
local WeightedEuclidean, parent = torch.class('nn.WeightedEuclidean', 'nn.Module')

function WeightedEuclidean:__init(inputSize, outputSize)
   parent.__init(self)
   nn.utils.allocateParameters(self, { inputSize, outputSize })
   self.diagCov = torch.Tensor(inputSize, outputSize)
   self.gradDiagCov = torch.Tensor(inputSize, outputSize)
   self:reset()
end

function WeightedEuclidean:reset(stdv)
   nn.utils.resetUniform(self, stdv, self.weight:size(1))
   self.diagCov:fill(1)
   return self
end

function WeightedEuclidean:parameters()
   return { self.weight, self.diagCov }, { self.gradWeight, self.gradDiagCov }
end

local function covExpanded(self)
   local B, n, m = self._diff:size(1), self.weight:size(1), self.weight:size(2)
   return self.diagCov:view(1, n, m):expand(B, n, m)
end

function WeightedEuclidean:updateOutput(input)
   local x = nn.utils.batchOfRows(self, input, self.weight:size(1))
   local diff = nn.Euclidean.difference(self, x)
   local scaled = diff:clone():cmul(covExpanded(self))
   nn.Euclidean.setOutput(self, input, scaled:cmul(scaled):sum(2):select(2, 1):sqrt())
   return self.output
end

-- dy_j / dx = c_j^2 (x - w_j) / y_j
function WeightedEuclidean:updateGradInput(input, gradOutput)
   nn.utils.batchOfRows(self, input, self.weight:size(1))
   local c = covExpanded(self)
   local terms = self._diff:clone():cmul(c):cmul(c):cmul(nn.Euclidean.coefficient(self, gradOutput))
   self.gradInput:resizeAs(input):copy(terms:sum(3))
   return self.gradInput
end

-- dy_j / dw_j = -c_j^2 (x - w_j) / y_j; dy_j / dc_j = c_j (x - w_j)^2 / y_j
function WeightedEuclidean:accGradParameters(input, gradOutput, scale)
   scale = scale or 1
   nn.utils.batchOfRows(self, input, self.weight:size(1))
   local c = covExpanded(self)
   local coef = nn.Euclidean.coefficient(self, gradOutput)
   local dw = self._diff:clone():cmul(c):cmul(c):cmul(coef):sum(1):select(1, 1):mul(-scale)
   local dc = self._diff:clone():cmul(self._diff):cmul(c):cmul(coef):sum(1):select(1, 1):mul(scale)
   self.gradWeight:add(dw)
   self.gradDiagCov:add(dc)
end

-- the step goes to both parameters (computed before either moves)
function WeightedEuclidean:accUpdateGradParameters(input, gradOutput, lr)
   local gradWeight, gradDiagCov = self.gradWeight, self.gradDiagCov
   self.gradWeight, self.gradDiagCov = self.weight, self.diagCov
   self:accGradParameters(input, gradOutput, -lr)
   self.gradWeight, self.gradDiagCov = gradWeight, gradDiagCov
end

function WeightedEuclidean:clearState()
   nn.utils.clear(self, '_diff')
   return parent.clearState(self)
end

function WeightedEuclidean:__tostring__()
   return torch.type(self) .. string.format('(%d -> %d)', self.weight:size(1), self.weight:size(2))
end
