-- nn.SpatialCrossMapLRN(size[, alpha = 1e-4, beta = 0.75, k = 1]): local response
-- normalisation across planes (Krizhevsky et al., 2012) of C x H x W images or batches:
--   y[c] = x[c] * scale[c]^-beta,  scale[c] = k + alpha / size * sum_{c' in window(c)} x[c']^2
-- where window(c) = [c - (size-1)/2, c + (size-1)/2] (rounded down) clipped to the planes.
-- scale is kept for the backward.
local SpatialCrossMapLRN, parent = torch.class('nn.SpatialCrossMapLRN', 'nn.Module')

function SpatialCrossMapLRN:__init(size, alpha, beta, k)
   parent.__init(self)
   assert(type(size) == 'number' and size >= 1, 'nn.SpatialCrossMapLRN: the window size must be a positive number')
   self.size = size
   self.alpha = alpha or 0.0001
   self.beta = beta or 0.75
   self.k = k or 1
end

-- input as a batch (N x C x H x W), and whether it was one
local function asBatch(input)
   if input:dim() == 3 then return input:view(1, input:size(1), input:size(2), input:size(3)), false end
   if input:dim() ~= 4 then
      error('nn.SpatialCrossMapLRN: 3D or 4D (batch mode) tensor expected, got ' .. nn.utils.sizeString(input), 3)
   end
   return input, true
end

-- sums[c] = sum of squares[c'] over window(c), along dimension 2
local function windowSums(self, sums, squares)
   local channels = squares:size(2)
   local half = math.floor((self.size - 1) / 2)
   sums:resizeAs(squares):zero()
   for c = 1, channels do
      local first, last = math.max(1, c - half), math.min(channels, c + half)
      sums:select(2, c):copy(squares:narrow(2, first, last - first + 1):sum(2))
   end
   return sums
end

function SpatialCrossMapLRN:updateOutput(input)
   local x, isBatch = asBatch(input:contiguous())
   self.scale = self.scale or x.new()
   self._squares = self._squares or x.new()
   self._squares:resizeAs(x):copy(x):pow(2)
   windowSums(self, self.scale, self._squares)
   self.scale:mul(self.alpha / self.size):add(self.k)
   self.output:resizeAs(x):pow(self.scale, -self.beta):cmul(x)
   if not isBatch then self.output = self.output:view(input:size()) end
   return self.output
end

-- dx[c] = g[c] scale[c]^-beta
--         - 2 alpha beta / size * x[c] * sum_{c' : c in window(c')} g[c'] y[c'] / scale[c']
-- (the window is symmetric, so c in window(c') when c' in window(c))
function SpatialCrossMapLRN:updateGradInput(input, gradOutput)
   local x, isBatch = asBatch(input:contiguous())
   local g = asBatch(gradOutput:contiguous())
   local y = self.output:view(x:size())
   if not self.scale or not self.scale:isSameSizeAs(x) or not g:isSameSizeAs(x) then
      error('nn.SpatialCrossMapLRN: gradOutput must have the size of the input of the last forward', 2)
   end
   self._ratio = self._ratio or x.new()
   self._ratio:resizeAs(x):cmul(g, y):cdiv(self.scale)
   local ratioSums = windowSums(self, self._squares, self._ratio)
   ratioSums:cmul(x)
   self.gradInput:resizeAs(x):pow(self.scale, -self.beta):cmul(g)
   self.gradInput:add(-2 * self.alpha * self.beta / self.size, ratioSums)
   if not isBatch then self.gradInput = self.gradInput:view(input:size()) end
   return self.gradInput
end

function SpatialCrossMapLRN:clearState()
   nn.utils.clear(self, 'scale', '_squares', '_ratio')
   return parent.clearState(self)
end
