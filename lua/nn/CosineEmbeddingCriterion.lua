-- nn.CosineEmbeddingCriterion([margin = 0]): for input {x1, x2} (vectors, or batches of
-- row vectors) and y in {-1, 1} per sample: 1 - cos(x1, x2) when y = 1,
-- max(0, cos(x1, x2) - margin) when y = -1; averaged over a batch with sizeAverage
-- (default true).
local CosineEmbeddingCriterion, parent = torch.class('nn.CosineEmbeddingCriterion', 'nn.Criterion')

local EPSILON = 1e-12  -- added to the squared norms, as torch7 did

function CosineEmbeddingCriterion:__init(margin)
   parent.__init(self)
   self.margin = margin or 0
   self.sizeAverage = true
   self.gradInput = { torch.Tensor(), torch.Tensor() }
end

-- per sample i: cos, and the products it is made of
local function cosines(x1, x2)
   local rows = {}
   for i = 1, x1:size(1) do
      local a, b = x1[i], x2[i]
      local m1, m2 = a:dot(a) + EPSILON, b:dot(b) + EPSILON
      local denom = math.sqrt(m1 * m2)
      rows[i] = { cos = a:dot(b) / denom, m1 = m1, m2 = m2, denom = denom }
   end
   return rows
end

local function asBatch(input, y)
   local x1, x2 = input[1], input[2]
   if x1:dim() == 1 then
      x1, x2 = x1:view(1, x1:nElement()), x2:view(1, x2:nElement())
   end
   if not x1:isSameSizeAs(x2) then
      error('nn.CosineEmbeddingCriterion: inputs of sizes ' .. nn.utils.sizeString(x1) .. ' and ' ..
            nn.utils.sizeString(x2), 3)
   end
   local labels = {}
   for i = 1, x1:size(1) do labels[i] = type(y) == 'number' and y or y[i] end
   return x1, x2, labels
end

function CosineEmbeddingCriterion:updateOutput(input, y)
   local x1, x2, labels = asBatch(input, y)
   local total = 0
   for i, row in ipairs(cosines(x1, x2)) do
      total = total + (labels[i] == 1 and 1 - row.cos or math.max(0, row.cos - self.margin))
   end
   if self.sizeAverage then total = total / x1:size(1) end
   self.output = total
   return self.output
end

-- d cos / d x1 = x2 / denom - cos x1 / m1, and symmetrically for x2
function CosineEmbeddingCriterion:updateGradInput(input, y)
   local x1, x2, labels = asBatch(input, y)
   local g1 = self.gradInput[1]:resizeAs(x1):zero()
   local g2 = self.gradInput[2]:resizeAs(x2):zero()
   local n = x1:size(1)
   for i, row in ipairs(cosines(x1, x2)) do
      local coef = 0
      if labels[i] == 1 then coef = -1 elseif row.cos > self.margin then coef = 1 end
      if self.sizeAverage then coef = coef / n end
      if coef ~= 0 then
         g1[i]:add(coef / row.denom, x2[i]):add(-coef * row.cos / row.m1, x1[i])
         g2[i]:add(coef / row.denom, x1[i]):add(-coef * row.cos / row.m2, x2[i])
      end
   end
   self.gradInput[1] = g1:view(input[1]:size())
   self.gradInput[2] = g2:view(input[2]:size())
   return self.gradInput
end
