-- nn.DistanceRatioCriterion([sizeAverage = true]): for input {X, Y}, the distances of N
-- similar and N dissimilar pairs, the loss of the triplet network of Hoffer & Ailon
-- (arXiv:1412.6622): sum_i -log(exp(-X_i) / (exp(-X_i) + exp(-Y_i))), divided by N with
-- sizeAverage. Each term is X_i + log(exp(-X_i) + exp(-Y_i)), computed as
-- X_i - m_i + log(1 + exp(-|X_i - Y_i|)) with m_i = min(X_i, Y_i), which does not overflow.
local DistanceRatioCriterion, parent = torch.class('nn.DistanceRatioCriterion', 'nn.Criterion')

function DistanceRatioCriterion:__init(sizeAverage)
   parent.__init(self)
   if sizeAverage ~= nil then self.sizeAverage = sizeAverage else self.sizeAverage = true end
   self.gradInput = {}
end

local function checkInput(self, input)
   if type(input) ~= 'table' or #input ~= 2 or not torch.isTensor(input[1]) or not torch.isTensor(input[2]) then
      error(torch.type(self) .. ': input {X, Y} of two tensors of distances expected', 3)
   end
   local X, Y = input[1], input[2]
   if X:nElement() == 0 or X:nElement() ~= Y:nElement() or X:size(1) ~= Y:size(1) then
      error(string.format("%s: the distances' sizes %s and %s do not match", torch.type(self),
                          nn.utils.sizeString(X), nn.utils.sizeString(Y)), 3)
   end
   return X, Y
end

function DistanceRatioCriterion:updateOutput(input)
   local X, Y = checkInput(self, input)
   -- log(1 + exp(-|X - Y|)) - min(X, Y) + X
   local diff = X - Y
   local softplus = diff:clone():abs():mul(-1):exp():add(1):log()
   local loss = softplus:add(X):add(-1, torch.cmin(X, Y))
   self.output = loss:sum()
   if self.sizeAverage then self.output = self.output / X:size(1) end
   return self.output
end

-- d/dX = 1 - p and d/dY = -(1 - p), p = exp(-X) / (exp(-X) + exp(-Y)) = sigmoid(Y - X)
function DistanceRatioCriterion:updateGradInput(input)
   local X, Y = checkInput(self, input)
   self.gradInput[1] = self.gradInput[1] or X.new()
   self.gradInput[2] = self.gradInput[2] or Y.new()
   local gradX, gradY = self.gradInput[1], self.gradInput[2]
   -- 1 - p = sigmoid(X - Y)
   gradX:resizeAs(X):copy(X):add(-1, Y):sigmoid()
   if self.sizeAverage then gradX:div(X:size(1)) end
   gradY:resizeAs(Y):copy(gradX):mul(-1)
   return self.gradInput
end
