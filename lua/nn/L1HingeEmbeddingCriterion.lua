-- nn.L1HingeEmbeddingCriterion([margin = 1]): for input {x1, x2} and y in {-1, 1}, with
-- d = ||x1 - x2||_1: d when y = 1, max(0, margin - d) when y = -1.
local L1HingeEmbeddingCriterion, parent = torch.class('nn.L1HingeEmbeddingCriterion', 'nn.Criterion')

function L1HingeEmbeddingCriterion:__init(margin)
   parent.__init(self)
   self.margin = margin or 1
   self.gradInput = { torch.Tensor(), torch.Tensor() }
end

local function l1(a, b)
   return (a - b):abs():sum()
end

function L1HingeEmbeddingCriterion:updateOutput(input, y)
   self.output = l1(input[1], input[2])
   if y == -1 then self.output = math.max(0, self.margin - self.output) end
   return self.output
end

function L1HingeEmbeddingCriterion:updateGradInput(input, y)
   local g1, g2 = self.gradInput[1], self.gradInput[2]
   g1:resizeAs(input[1]):copy(input[1]):add(-1, input[2]):sign()
   if y == -1 then
      if l1(input[1], input[2]) > self.margin then g1:zero() else g1:mul(-1) end
   end
   g2:resizeAs(input[2]):copy(g1):mul(-1)
   return self.gradInput
end
