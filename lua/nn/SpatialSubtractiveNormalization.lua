-- nn.SpatialSubtractiveNormalization(nInputPlane = 1[, kernel = 9x9 ones]): subtracts from
-- every plane of C x H x W images (or batches) the local weighted mean over all planes:
--   y[c] = x[c] - (sum_c' K * x[c']) / (sum_c' K * 1)
-- where * is the zero-padded same-size convolution with kernel (2-D, or 1-D applied along
-- both axes), normalised to sum 1 / nInputPlane. The divisor (coef) corrects the borders,
-- where part of the window falls outside the image.
local SpatialSubtractiveNormalization, parent = torch.class('nn.SpatialSubtractiveNormalization', 'nn.Module')

-- Shared with SpatialDivisiveNormalization: checks kernel, normalises a copy of it, and
-- returns it with the convolution that sums its window over all planes (SpatialConvolution
-- to one plane, zero-padded to keep the size, weights not trained).
-- oneDimScale: what a 1-D kernel's sum is multiplied by in the normalization (torch7 uses
-- nInputPlane for the mean, sqrt(nInputPlane) for the standard deviation)
local function localMeanEstimator(name, nInputPlane, kernel, oneDimScale)
   local kdim = kernel:nDimension()
   if kdim ~= 1 and kdim ~= 2 then
      error(string.format('nn.%s: the averaging kernel must be 2D or 1D, got %s', name,
                          nn.utils.sizeString(kernel)), 3)
   end
   if kernel:size(1) % 2 == 0 or (kdim == 2 and kernel:size(2) % 2 == 0) then
      error(string.format('nn.%s: the averaging kernel must have odd sizes, got %s', name,
                          nn.utils.sizeString(kernel)), 3)
   end
   kernel = kernel:clone()
   kernel:div(kernel:sum() * (kdim == 1 and oneDimScale or nInputPlane))
   -- torch7 applies a 1-D kernel per plane along the rows, then along the columns while
   -- summing the planes: the 2-D kernel of that is the outer product
   local n = kernel:size(1)
   local kernel2d = kdim == 2 and kernel or kernel:view(n, 1):expand(n, n):clone():cmul(kernel:view(1, n):expand(n, n))
   local kH, kW = kernel2d:size(1), kernel2d:size(2)
   local estimator = nn.SpatialConvolution(nInputPlane, 1, kW, kH, 1, 1, math.floor(kW / 2), math.floor(kH / 2))
   for i = 1, nInputPlane do estimator.weight[1][i]:copy(kernel2d) end
   estimator.bias:zero()
   return kernel, estimator
end

function SpatialSubtractiveNormalization:__init(nInputPlane, kernel)
   parent.__init(self)
   self.nInputPlane = nInputPlane or 1
   self.kernel, self.meanestimator = localMeanEstimator('SpatialSubtractiveNormalization', self.nInputPlane,
                                                        kernel or torch.Tensor(9, 9):fill(1), self.nInputPlane)
   self.coef = torch.Tensor()
end

-- Shared: checks input (C x H x W or N x C x H x W with C = nInputPlane) and returns the
-- border correction, the estimator's output on ones, recomputed when the image size changes
-- (expanded over the batch).
local function localMeanCoefficients(self, input)
   local dim = input:dim()
   if (dim ~= 3 and dim ~= 4) or input:size(dim - 2) ~= self.nInputPlane then
      error(string.format('%s: %dxHxW or Nx%dxHxW tensor expected, got %s', torch.type(self), self.nInputPlane,
                          self.nInputPlane, nn.utils.sizeString(input)), 3)
   end
   local H, W = input:size(dim - 1), input:size(dim)
   if self.coef:dim() ~= 3 or self.coef:size(2) ~= H or self.coef:size(3) ~= W then
      local ones = input.new():resize(self.nInputPlane, H, W):fill(1)
      self.coef = self.meanestimator:updateOutput(ones):clone()
   end
   if dim == 4 then return self.coef:view(1, 1, H, W):expand(input:size(1), 1, H, W) end
   return self.coef
end
SpatialSubtractiveNormalization.localMeanEstimator = localMeanEstimator
SpatialSubtractiveNormalization.localMeanCoefficients = localMeanCoefficients

function SpatialSubtractiveNormalization:updateOutput(input)
   local coef = localMeanCoefficients(self, input)
   self.localsums = self.meanestimator:updateOutput(input)
   self.adjustedsums = self.adjustedsums or input.new()
   self.adjustedsums:resizeAs(self.localsums):cdiv(self.localsums, coef)
   self.output:resizeAs(input):copy(input):add(-1, self.adjustedsums:expandAs(input))
   return self.output
end

-- dx = g - K^T (sum_c g[c] / coef)
function SpatialSubtractiveNormalization:updateGradInput(input, gradOutput)
   local coef = localMeanCoefficients(self, input)
   if not gradOutput:isSameSizeAs(input) then
      error('nn.SpatialSubtractiveNormalization: gradOutput must have the size of the input, got ' ..
            nn.utils.sizeString(gradOutput) .. ' and ' .. nn.utils.sizeString(input), 2)
   end
   local planeDim = input:dim() - 2
   local gradSums = gradOutput:sum(planeDim):cdiv(coef)
   local back = self.meanestimator:updateGradInput(input, gradSums)
   self.gradInput:resizeAs(input):copy(gradOutput):add(-1, back)
   return self.gradInput
end

function SpatialSubtractiveNormalization:type(typename, tensorCache)
   if typename then self.coef = torch.Tensor() end  -- recomputed in the new type
   return parent.type(self, typename, tensorCache)
end

function SpatialSubtractiveNormalization:clearState()
   nn.utils.clear(self, 'localsums', 'adjustedsums')
   self.coef = self.coef.new()
   self.meanestimator:clearState()
   return parent.clearState(self)
end
