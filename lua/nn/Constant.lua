-- nn.Constant(value[, nInputDim]): outputs value (a number or tensor) whatever the input,
-- repeated once per sample when the input has more than nInputDim dimensions; the
-- gradient with respect to the input is zero.
local Constant, parent = torch.class('nn.Constant', 'nn.Module')

function Constant:__init(value, nInputDim)
   parent.__init(self)
   if type(value) == 'number' then
      value = torch.Tensor{ value }
   end
   assert(torch.isTensor(value), 'nn.Constant(value[, nInputDim]): value must be a number or a tensor')
   self.value = value
   self.nInputDim = nInputDim
end

function Constant:updateOutput(input)
   if self.nInputDim and input:dim() > self.nInputDim then
      local size = self.value:size():totable()
      table.insert(size, 1, input:size(1))
      local vsize = self.value:size():totable()
      table.insert(vsize, 1, 1)
      self.output:resize(torch.LongStorage(size))
      self.output:copy(self.value:view(torch.LongStorage(vsize)):expand(torch.LongStorage(size)))
   else
      self.output:resize(self.value:size()):copy(self.value)
   end
   return self.output
end

function Constant:updateGradInput(input, gradOutput)
   self.gradInput:resizeAs(input):zero()
   return self.gradInput
end
