-- nn.MarginRankingCriterion([margin = 1]): for input {x1, x2} (one-element tensors, or
-- batch vectors) and y in {-1, 1} (a number, or one per sample):
-- max(0, -y (x1 - x2) + margin), averaged over a batch with sizeAverage (default true).
local MarginRankingCriterion, parent = torch.class('nn.MarginRankingCriterion', 'nn.Criterion')

function MarginRankingCriterion:__init(margin)
   parent.__init(self)
   self.margin = margin or 1
   self.gradInput = { torch.Tensor(1), torch.Tensor(1) }
   self.sizeAverage = true
end

function MarginRankingCriterion:updateOutput(input, y)
   if type(y) == 'number' then
      self.output = math.max(0, -y * (input[1][1] - input[2][1]) + self.margin)
      return self.output
   end
   self._output = self._output or input[1].new()
   self._output:resizeAs(input[1]):copy(input[1]):add(-1, input[2]):mul(-1):cmul(y):add(self.margin)
   self.output = self._output:clamp(0, math.huge):sum()
   if self.sizeAverage then self.output = self.output / y:size(1) end
   return self.output
end

-- the gradient is -y for x1 and y for x2 where the hinge is active (-y (x1 - x2) + margin >= 0)
function MarginRankingCriterion:updateGradInput(input, y)
   local g1, g2 = self.gradInput[1], self.gradInput[2]
   if type(y) == 'number' then
      g1:resize(1); g2:resize(1)
      local active = -y * (input[1][1] - input[2][1]) + self.margin >= 0
      g1[1] = active and -y or 0
      g2[1] = active and y or 0
      return self.gradInput
   end
   self._mask = self._mask or input[1].new()
   local mask = self._mask:resizeAs(input[1]):copy(input[1]):add(-1, input[2]):mul(-1):cmul(y):add(self.margin)
   mask:apply(function(v) return v >= 0 and 1 or 0 end)
   g1:resizeAs(mask):copy(mask):cmul(y):mul(-1)
   g2:resizeAs(mask):copy(mask):cmul(y)
   if self.sizeAverage then
      g1:div(y:size(1))
      g2:div(y:size(1))
   end
   return self.gradInput
end
