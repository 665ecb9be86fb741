-- nn.HingeEmbeddingCriterion([margin = 1]): for distances x and labels y in {-1, 1}, the
-- sum of (y = 1 ? x : max(0, margin - x)), averaged over the elements with sizeAverage
-- (default true).
local HingeEmbeddingCriterion, parent = torch.class('nn.HingeEmbeddingCriterion', 'nn.Criterion')

function HingeEmbeddingCriterion:__init(margin)
   parent.__init(self)
   self.margin = margin or 1
   self.sizeAverage = true
end

-- masks of the y = 1 and y = -1 elements, and max(0, margin - x)
function HingeEmbeddingCriterion:_parts(input, y)
   self._pos = self._pos or input.new()
   self._neg = self._neg or input.new()
   self._hinge = self._hinge or input.new()
   if type(y) == 'number' then
      self._pos:resizeAs(input):fill(y == 1 and 1 or 0)
   else
      assert(y:nElement() == input:nElement(), 'nn.HingeEmbeddingCriterion: input and labels size mismatch')
      self._pos:resizeAs(input):copy(y):add(1):div(2)
   end
   self._neg:resizeAs(input):fill(1):add(-1, self._pos)
   self._hinge:resizeAs(input):fill(self.margin):add(-1, input):clamp(0, math.huge)
   return self._pos, self._neg, self._hinge
end

function HingeEmbeddingCriterion:updateOutput(input, y)
   local pos, neg, hinge = self:_parts(input, y)
   self.output = input:dot(pos) + hinge:dot(neg)
   if self.sizeAverage then self.output = self.output / input:nElement() end
   return self.output
end

-- d/dx: 1 where y = 1, -1 where y = -1 and x < margin
function HingeEmbeddingCriterion:updateGradInput(input, y)
   local pos, neg, hinge = self:_parts(input, y)
   self.gradInput:resizeAs(input):copy(hinge):sign():cmul(neg):mul(-1):add(pos)
   if self.sizeAverage then self.gradInput:div(input:nElement()) end
   return self.gradInput
end

function HingeEmbeddingCriterion:clearState()
   nn.utils.clear(self, '_pos', '_neg', '_hinge')
   return parent.clearState(self)
end
