-- nn.LinearWeightNorm(inputSize, outputSize[, bias = true]): nn.Linear whose weight is
-- reparametrised as w_j = g_j v_j / |v_j| (Salimans and Kingma, 2016); v
-- [outputSize, inputSize] and g [outputSize, 1] are the parameters, weight is derived.
local LinearWeightNorm, parent = torch.class('nn.LinearWeightNorm', 'nn.Linear')

function LinearWeightNorm:__init(inputSize, outputSize, bias)
   nn.Module.__init(self)
   if bias == nil then bias = true end
   self.inputSize = inputSize
   self.outputSize = outputSize
   self.v = torch.Tensor(outputSize, inputSize)
   self.gradV = torch.Tensor(outputSize, inputSize)
   self.weight = torch.Tensor(outputSize, inputSize)
   self.g = torch.Tensor(outputSize, 1)
   self.gradG = torch.Tensor(outputSize, 1)
   self.norm = torch.Tensor(outputSize, 1)
   self.scale = torch.Tensor(outputSize, 1)
   if bias then
      self.bias = torch.Tensor(outputSize)
      self.gradBias = torch.Tensor(outputSize)
   end
   self:reset()
end

-- the Euclidean norm of each row of m, as a column
local function rowNorms(m)
   return m:clone():cmul(m):sum(2):sqrt()
end

function LinearWeightNorm.fromLinear(linear)
   local module = nn.LinearWeightNorm(linear.weight:size(2), linear.weight:size(1), linear.bias ~= nil)
   module.g:copy(rowNorms(linear.weight))
   module.v:copy(linear.weight):cdiv(module.g:expandAs(linear.weight))
   if linear.bias then module.bias:copy(linear.bias) end
   module:updateWeightMatrix()
   return module
end

function LinearWeightNorm:toLinear()
   self:updateWeightMatrix()
   local module = nn.Linear(self.inputSize, self.outputSize, self.bias ~= nil)
   module.weight:copy(self.weight)
   if self.bias then module.bias:copy(self.bias) end
   return module
end

function LinearWeightNorm:parameters()
   if self.bias then
      return { self.v, self.g, self.bias }, { self.gradV, self.gradG, self.gradBias }
   end
   return { self.v, self.g }, { self.gradV, self.gradG }
end

function LinearWeightNorm:reset(stdv)
   local a = nn.utils.uniformBound(stdv, self.inputSize)
   self.v:uniform(-a, a)
   self.g:copy(rowNorms(self.v))
   if self.bias then self.bias:uniform(-a, a) end
   self:updateWeightMatrix()
   return self
end

-- weight = v .* (g / |v|); recomputed at every forward, as v and g may have been written
-- directly (an optimiser on the flattened parameters)
function LinearWeightNorm:updateWeightMatrix()
   self.norm:resizeAs(self.g):copy(rowNorms(self.v))
   self.scale:resizeAs(self.g):copy(self.g):cdiv(self.norm)
   self.weight:resizeAs(self.v):copy(self.v):cmul(self.scale:expandAs(self.v))
end

function LinearWeightNorm:updateOutput(input)
   self:updateWeightMatrix()
   return parent.updateOutput(self, input)
end

-- With G the gradient with respect to weight: dg = sum_i G_i v_i / |v|, and
-- dv = (g / |v|) G - (g / |v|^2) dg v.
function LinearWeightNorm:accGradParameters(input, gradOutput, scale)
   scale = scale or 1
   self.addBuffer = self.addBuffer or input.new()
   self._gradWeight = self._gradWeight or input.new()
   local G = self._gradWeight:resizeAs(self.v):zero()
   input.THNN.Linear_accGradParameters(input, gradOutput, self.gradInput, self.weight, self.bias, G,
                                       self.gradBias, self.addBuffer, scale)
   local norm = self.norm:expandAs(self.v)
   local dg = G:clone():cmul(self.v):cdiv(norm):sum(2)
   local dv = G:cmul(self.scale:expandAs(self.v))
   dv:add(-1, self.v:clone():cmul(self.scale:expandAs(self.v)):cdiv(norm):cmul(dg:expandAs(self.v)))
   self.gradG:add(dg)
   self.gradV:add(dv)
end

-- the step goes to v, g and the bias (Module's version swaps gradWeight, which is derived)
function LinearWeightNorm:accUpdateGradParameters(input, gradOutput, lr)
   local gradV, gradG, gradBias = self.gradV, self.gradG, self.gradBias
   self.gradV, self.gradG, self.gradBias = self.v, self.g, self.bias
   self:accGradParameters(input, gradOutput, -lr)
   self.gradV, self.gradG, self.gradBias = gradV, gradG, gradBias
end

function LinearWeightNorm:clearState()
   nn.utils.clear(self, '_gradWeight')
   return parent.clearState(self)
end

function LinearWeightNorm:__tostring__()
   return torch.type(self) .. string.format('(%d -> %d)', self.inputSize, self.outputSize) ..
          (self.bias == nil and ' without bias' or '')
end
