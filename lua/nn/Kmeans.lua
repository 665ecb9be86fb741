-- nn.Kmeans(k, dim[, scale]): online k-means over samples of dim features. weight holds
-- the k centres (k x dim). forward of a batch (nBatch x dim) gives each sample's nearest
-- centre (1-based index, by squared Euclidean distance) and sets self.loss to the sum of
-- those squared distances. The module is its own criterion: gradInput is zero, and
-- accGradParameters adds to gradWeight, for each centre c with n_c samples x of the batch,
-- -scale / n_c * sum (x - c), so that updateParameters(lr) moves c towards its samples'
-- mean (with lr = 1 and scale 1, onto it). scale: the constructor's, else the argument's.
local Kmeans, parent = torch.class('nn.Kmeans', 'nn.Module')

function Kmeans:__init(k, dim, scale)
   parent.__init(self)
   assert(type(k) == 'number' and k > 0, 'nn.Kmeans: the number of clusters must be positive')
   assert(type(dim) == 'number' and dim > 0, 'nn.Kmeans: the dimension must be positive')
   self.k, self.dim, self.scale = k, dim, scale
   self.weight = torch.Tensor(k, dim)
   self.gradWeight = torch.Tensor(k, dim):zero()
   self.loss = 0
   self.clusterSampleCount = torch.Tensor(k):zero()
   self:reset()
end

function Kmeans:reset(stdev)
   stdev = stdev or 1
   self.weight:uniform(-stdev, stdev)
   return self
end

local function checkInput(self, input, need)
   if not torch.isTensor(input) or input:dim() ~= 2 or input:size(2) ~= self.dim then
      error(string.format('nn.Kmeans: samples nBatch x %d expected, got %s', self.dim,
                          torch.isTensor(input) and nn.utils.sizeString(input) or type(input)), 3)
   end
   if need and input:size(1) < need then
      error(string.format('nn.Kmeans: at least %d samples are needed, got %d', need, input:size(1)), 3)
   end
end

-- squared distances from every sample to every centre: nBatch x k
local function distances(self, input)
   local n = input:size(1)
   local d = torch.Tensor():typeAs(self.weight):resize(n, self.k)
   for c = 1, self.k do
      local diff = input - self.weight[c]:view(1, self.dim):expand(n, self.dim)
      d:select(2, c):copy(diff:pow(2):sum(2))
   end
   return d
end

-- The centres become k distinct samples drawn at random.
function Kmeans:initRandom(input)
   checkInput(self, input, self.k)
   local order = torch.randperm(input:size(1))
   for c = 1, self.k do self.weight[c]:copy(input[order[c]]) end
   return self
end

-- k-means++ seeding: the first centre is a random sample; each next one is drawn among the
-- ceil((1 - p) * nBatch) samples farthest from the centres chosen so far (p = 0.95 unless
-- given), which spreads the centres over the data.
function Kmeans:initKmeansPlus(input, p)
   checkInput(self, input, self.k)
   self.p = p or self.p or 0.95
   assert(self.p >= 0 and self.p <= 1, 'nn.Kmeans: p must lie in [0, 1]')
   local n = input:size(1)
   local pool = math.max(1, math.ceil((1 - self.p) * n))
   self.weight[1]:copy(input[torch.random(1, n)])
   local nearest = torch.Tensor():typeAs(self.weight):resize(n):fill(math.huge)
   for c = 2, self.k do
      local diff = input - self.weight[c - 1]:view(1, self.dim):expand(n, self.dim)
      nearest:cmin(diff:pow(2):sum(2):view(n))
      local _, farthest = nearest:sort(1, true)
      self.weight[c]:copy(input[farthest[torch.random(1, pool)]])
   end
   return self
end

function Kmeans:updateOutput(input)
   checkInput(self, input)
   local minDistance, index = distances(self, input):min(2)
   self._assignment = index:view(input:size(1))
   self.output:resize(input:size(1)):copy(self._assignment)
   self.loss = minDistance:sum()
   return self.output
end

function Kmeans:updateGradInput(input, gradOutput)
   self.gradInput:resizeAs(input):zero()
   return self.gradInput
end

function Kmeans:accGradParameters(input, gradOutput, scale)
   scale = self.scale or scale or 1
   assert(scale > 0, 'nn.Kmeans: the scale must be positive')
   local n = input:size(1)
   local assignment = self._assignment:long()  -- type() may have converted it
   self.clusterSampleCount:zero():indexAdd(1, assignment, torch.Tensor():typeAs(self.weight):resize(n):fill(1))
   -- -(x - c) for each sample and its centre, summed per centre, divided by the count
   local step = self.weight:index(1, assignment):add(-1, input)
   local sums = self.gradWeight.new():resizeAs(self.gradWeight):zero():indexAdd(1, assignment, step)
   local counts = self.clusterSampleCount:clone():clamp(1, math.huge)
   sums:cdiv(counts:view(self.k, 1):expandAs(sums)):mul(scale)
   self.gradWeight:add(sums)
end

function Kmeans:clearState()
   self._assignment = nil
   return parent.clearState(self)
end
