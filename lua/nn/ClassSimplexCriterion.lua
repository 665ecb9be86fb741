-- nn.ClassSimplexCriterion(nClasses): MSECriterion between the input and the vertex of a
-- regular simplex (centred at the origin, unit vertices, embedded in nClasses dimensions)
-- that stands for the target class.
local ClassSimplexCriterion, parent = torch.class('nn.ClassSimplexCriterion', 'nn.MSECriterion')

-- the n + 1 vertices of a regular simplex in n dimensions, one per row: row k has
-- unit norm and every pair of rows has dot product -1/n
local function regularSimplex(n)
   local a = torch.zeros(n + 1, n)
   for k = 1, n do
      if k == 1 then
         a[k][k] = 1
      else
         local head = a[k]:narrow(1, 1, k - 1)
         a[k][k] = math.sqrt(1 - head:dot(head))
      end
      local c = (a[k][k] ^ 2 - 1 - 1 / n) / a[k][k]
      a:narrow(1, k + 1, n + 1 - k):select(2, k):fill(c)
   end
   return a
end

function ClassSimplexCriterion:__init(nClasses)
   parent.__init(self)
   assert(nClasses and nClasses > 1 and nClasses == math.floor(nClasses),
          'nn.ClassSimplexCriterion: an integer nClasses > 1 is required')
   self.nClasses = nClasses
   -- one dimension more than the simplex needs: it trains better (torch7's choice)
   local simplex = regularSimplex(nClasses - 1)
   self.simplex = torch.cat(simplex, torch.zeros(simplex:size(1), nClasses - simplex:size(2)), 2)
   self._target = torch.Tensor(nClasses)
end

-- the vertices of the target classes (a number, or a vector of one per sample)
function ClassSimplexCriterion:_vertices(target)
   if type(target) == 'number' then
      self._target:resize(self.nClasses):copy(self.simplex[target])
   else
      assert(target:dim() == 1, 'nn.ClassSimplexCriterion: a number or a 1-D tensor of classes expected')
      self._target:resize(target:size(1), self.nClasses)
      for i = 1, target:size(1) do self._target[i]:copy(self.simplex[target[i]]) end
   end
   return self._target
end

function ClassSimplexCriterion:updateOutput(input, target)
   local vertices = self:_vertices(target)
   assert(input:nElement() == vertices:nElement(), 'nn.ClassSimplexCriterion: input of ' ..
          nn.utils.sizeString(input) .. ' for ' .. nn.utils.sizeString(vertices) .. ' targets')
   return parent.updateOutput(self, input, vertices)
end

function ClassSimplexCriterion:updateGradInput(input, target)
   return parent.updateGradInput(self, input, self:_vertices(target))
end

-- the score of every class: the input's dot product with each vertex
function ClassSimplexCriterion:getPredictions(input)
   if input:dim() == 1 then input = input:view(1, input:nElement()) end
   return torch.mm(input, self.simplex:t())
end

function ClassSimplexCriterion:getTopPrediction(input)
   local scores = self:getPredictions(input)
   local _, classes = scores:max(scores:dim())
   return classes:view(classes:nElement())
end
