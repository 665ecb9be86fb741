-- nn.Dropout([p = 0.5[, v1[, inplace[, stochasticInference]]]]): in training, each element
-- is zeroed with probability p and the others scaled by 1 / (1 - p) (v1: not scaled in
-- training, scaled by 1 - p in evaluation instead); in evaluation the identity.
local Dropout, parent = torch.class('nn.Dropout', 'nn.Module')

function Dropout:__init(p, v1, inplace, stochasticInference)
   parent.__init(self)
   self.p = p or 0.5
   self.train = true
   self.inplace = inplace or false
   self.stochastic_inference = stochasticInference or false
   self.v2 = not v1
   if self.p >= 1 or self.p < 0 then
      error('<Dropout> illegal percentage, must be 0 <= p < 1', 2)
   end
   self.noise = torch.Tensor()
end

function Dropout:updateOutput(input)
   if self.inplace then
      self.output:set(input)
   else
      self.output:resizeAs(input):copy(input)
   end
   if self.p > 0 then
      if self.train or self.stochastic_inference then
         self.noise:resizeAs(input):bernoulli(1 - self.p)
         if self.v2 then self.noise:div(1 - self.p) end
         self.output:cmul(self.noise)
      elseif not self.v2 then
         self.output:mul(1 - self.p)
      end
   end
   return self.output
end

function Dropout:updateGradInput(input, gradOutput)
   if self.inplace then
      self.gradInput:set(gradOutput)
   else
      self.gradInput:resizeAs(gradOutput):copy(gradOutput)
   end
   if self.train then
      if self.p > 0 then self.gradInput:cmul(self.noise) end
   elseif not self.v2 and self.p > 0 then
      self.gradInput:mul(1 - self.p)
   end
   return self.gradInput
end

function Dropout:setp(p)
   self.p = p
end

function Dropout:__tostring__()
   return string.format('%s(%f)', torch.type(self), self.p)
end

function Dropout:clearState()
   if self.noise then self.noise:set() end
   return parent.clearState(self)
end
