-- nn.SpatialDivisiveNormalization(nInputPlane = 1[, kernel = 9x9 ones[, threshold = 1e-4[,
-- thresval = threshold]]]): divides every plane of C x H x W images (or batches) by the
-- local weighted standard deviation over all planes:
--   std = sqrt(sum_c' K * x[c']^2) / (sum_c' K * 1),  y[c] = x[c] / (std > threshold ? std : thresval)
-- with the kernel and border correction (coef) of SpatialSubtractiveNormalization.
local SpatialDivisiveNormalization, parent = torch.class('nn.SpatialDivisiveNormalization', 'nn.Module')

require 'nn.SpatialSubtractiveNormalization'
local localMeanEstimator = nn.SpatialSubtractiveNormalization.localMeanEstimator
local localMeanCoefficients = nn.SpatialSubtractiveNormalization.localMeanCoefficients

function SpatialDivisiveNormalization:__init(nInputPlane, kernel, threshold, thresval)
   parent.__init(self)
   self.nInputPlane = nInputPlane or 1
   self.kernel, self.meanestimator = localMeanEstimator('SpatialDivisiveNormalization', self.nInputPlane,
                                                        kernel or torch.Tensor(9, 9):fill(1),
                                                        math.sqrt(self.nInputPlane))
   self.threshold = threshold or 1e-4
   self.thresval = thresval or threshold or 1e-4
   self.coef = torch.Tensor()
end

local function buffer(self, name, like)
   self[name] = self[name] or like.new()
   return self[name]:resizeAs(like)
end

function SpatialDivisiveNormalization:updateOutput(input)
   local coef = localMeanCoefficients(self, input)
   local squares = buffer(self, '_squares', input):copy(input):pow(2)
   local sums = self.meanestimator:updateOutput(squares)
   self.localstds = buffer(self, 'localstds', sums):copy(sums):sqrt()
   self.adjustedstds = buffer(self, 'adjustedstds', sums):cdiv(self.localstds, coef)
   local threshold, thresval = self.threshold, self.thresval
   self.thresholdedstds = buffer(self, 'thresholdedstds', sums):map(self.adjustedstds, function(_, a)
      return a > threshold and a or thresval
   end)
   self.output:resizeAs(input):cdiv(input, self.thresholdedstds:expandAs(input))
   return self.output
end

-- y = x / t(x): dx = g / t + 2 x K^T(dm) where, summing over planes,
--   dt = -sum_c g[c] y[c] / t,  da = dt [a > threshold],  dm = da / (coef 2 sqrt(m))
function SpatialDivisiveNormalization:updateGradInput(input, gradOutput)
   local coef = localMeanCoefficients(self, input)
   if not gradOutput:isSameSizeAs(input) or not self.thresholdedstds then
      error('nn.SpatialDivisiveNormalization: gradOutput must have the size of the input of the last forward', 2)
   end
   local planeDim = input:dim() - 2
   local t = self.thresholdedstds
   local threshold = self.threshold
   local grad = torch.cmul(gradOutput, self.output):sum(planeDim):cdiv(t):mul(-1)
   grad:map(self.adjustedstds, function(g, a) return a > threshold and g or 0 end):cdiv(coef)
   -- sqrt's derivative, zero where the local sum is zero (as nn.Sqrt)
   grad:map(self.localstds, function(g, s) return s > 0 and 0.5 * g / s or 0 end)
   local back = self.meanestimator:updateGradInput(self._squares, grad)
   self.gradInput:resizeAs(input):cmul(input, back):mul(2)
   self.gradInput:add(torch.cdiv(gradOutput, t:expandAs(input)))
   return self.gradInput
end

function SpatialDivisiveNormalization:type(typename, tensorCache)
   if typename then self.coef = torch.Tensor() end  -- recomputed in the new type
   return parent.type(self, typename, tensorCache)
end

function SpatialDivisiveNormalization:clearState()
   nn.utils.clear(self, '_squares', 'localstds', 'adjustedstds', 'thresholdedstds')
   self.coef = self.coef.new()
   self.meanestimator:clearState()
   return parent.clearState(self)
end
