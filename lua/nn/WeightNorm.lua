-- nn.WeightNorm(module[, outputDim = 1]): a decorator that reparameterizes module.weight
-- as w = g v / |v| (Salimans & Kingma), one norm per slice along outputDim: the parameters
-- become v (nOutput x the rest, as a matrix), g (nOutput) and the module's bias.
local WeightNorm, parent = torch.class('nn.WeightNorm', 'nn.Decorator')

function WeightNorm:__init(module, outputDim)
   parent.__init(self, module)
   assert(module.weight, 'nn.WeightNorm(module[, outputDim]): the module must have a weight')
   self.weight, self.gradWeight = module.weight, module.gradWeight
   self.bias, self.gradBias = module.bias, module.gradBias
   self.outputDim = outputDim or 1
   if self.outputDim < 1 or self.outputDim > self.weight:dim() then
      error(string.format('nn.WeightNorm: outputDim %d out of range for a %d-D weight', self.outputDim,
                          self.weight:dim()), 2)
   end
   local nOut = self.weight:size(self.outputDim)
   self.otherDims = self.weight:nElement() / nOut
   self.viewIn = torch.LongStorage({ nOut, self.otherDims })
   -- the weight's size with outputDim moved to the front: v is that, flattened
   self.viewOut = self.weight:size()
   for i = self.outputDim - 1, 1, -1 do
      self.viewOut[i], self.viewOut[i + 1] = self.viewOut[i + 1], self.viewOut[i]
   end
   self.v = torch.Tensor(nOut, self.otherDims)
   self.g = torch.Tensor(nOut)
   self.gradV = torch.Tensor(nOut, self.otherDims):zero()
   self.gradG = torch.Tensor(nOut):zero()
   self._norm = torch.Tensor(nOut)
   self:resetInit()
end

-- the weight as nOut x otherDims (a copy when outputDim is not the first)
function WeightNorm:_weightMatrix(w)
   if self.outputDim == 1 then return w:contiguous():view(self.viewIn) end
   local t = w
   for i = self.outputDim - 1, 1, -1 do t = t:transpose(i, i + 1) end
   return t:contiguous():view(self.viewIn)
end

function WeightNorm:_setWeight(m, target)
   if self.outputDim == 1 then
      target:copy(m:viewAs(target))
   else
      local t = target
      for i = self.outputDim - 1, 1, -1 do t = t:transpose(i, i + 1) end
      t:copy(m:view(self.viewOut))
   end
end

-- v and g from the module's current weight, so the decorated module computes the same
function WeightNorm:resetInit()
   self.v:copy(self:_weightMatrix(self.weight))
   self.g:copy(self.v:norm(2, 2))
end

function WeightNorm:updateWeight()
   self._norm:norm(self.v, 2, 2)
   local w = self.v:clone():cmul(torch.cdiv(self.g, self._norm):view(-1, 1):expandAs(self.v))
   self:_setWeight(w, self.weight)
end

function WeightNorm:updateOutput(input)
   self:updateWeight()
   self.output = self.modules[1]:updateOutput(input)
   return self.output
end

function WeightNorm:accGradParameters(input, gradOutput, scale)
   scale = scale or 1
   self.gradWeight:zero()
   self.modules[1]:accGradParameters(input, gradOutput, scale)
   local gw = self:_weightMatrix(self.gradWeight)
   local norm = self._norm:norm(self.v, 2, 2):view(-1)
   local unit = self.v:clone():cdiv(norm:view(-1, 1):expandAs(self.v))
   -- dL/dg = <dL/dw, v/|v|>; dL/dv = g/|v| (dL/dw - dL/dg v/|v|)
   local dg = torch.cmul(gw, unit):sum(2):view(-1)
   self.gradG:add(dg)
   local dv = gw:clone():add(-1, unit:cmul(dg:view(-1, 1):expandAs(unit)))
   dv:cmul(torch.cdiv(self.g, norm):view(-1, 1):expandAs(dv))
   self.gradV:add(dv)
end

function WeightNorm:parameters()
   if self.bias then
      return { self.v, self.g, self.bias }, { self.gradV, self.gradG, self.gradBias }
   end
   return { self.v, self.g }, { self.gradV, self.gradG }
end

function WeightNorm:zeroGradParameters()
   self.gradV:zero()
   self.gradG:zero()
   if self.gradBias then self.gradBias:zero() end
end

function WeightNorm:updateParameters(lr)
   self.v:add(-lr, self.gradV)
   self.g:add(-lr, self.gradG)
   if self.bias then self.bias:add(-lr, self.gradBias) end
end

-- accGradParameters accumulates into gradV/gradG: step with them, then restore them
function WeightNorm:accUpdateGradParameters(input, gradOutput, lr)
   local gv, gg, gb = self.gradV:clone(), self.gradG:clone(), self.gradBias and self.gradBias:clone()
   self:zeroGradParameters()
   self:accGradParameters(input, gradOutput, 1)
   self:updateParameters(lr)
   self.gradV:copy(gv)
   self.gradG:copy(gg)
   if gb then self.gradBias:copy(gb) end
end

function WeightNorm:__tostring__()
   return string.format('%s(outputDim %d) @ %s', torch.type(self), self.outputDim, tostring(self.modules[1]))
end
