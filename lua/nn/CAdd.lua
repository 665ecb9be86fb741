-- nn.CAdd(size): y = x + bias, element-wise, bias of the given size; inputs as for
-- nn.CMul (the same size, a batch, or a size bias expands to).
local CAdd, parent = torch.class('nn.CAdd', 'nn.Module')

function CAdd:__init(...)
   parent.__init(self)
   self.size = nn.utils.sizeArguments(...)
   nn.utils.allocateParameters(self, nil, self.size)
   self:reset()
end

function CAdd:reset(stdv)
   return nn.utils.resetUniform(self, stdv, self.bias:nElement())
end

function CAdd:updateOutput(input)
   self.output:resizeAs(input):copy(input):add(nn.CMul.expandParameter(self, self.bias, input))
   return self.output
end

function CAdd:updateGradInput(input, gradOutput)
   if not self.gradInput then return end
   self.gradInput:resizeAs(gradOutput):copy(gradOutput)
   return self.gradInput
end

function CAdd:accGradParameters(input, gradOutput, scale)
   local expanded = nn.CMul.expandParameter(self, self.bias, input)
   self.gradBias:add(scale or 1, nn.CMul.reduceToParameter(gradOutput, expanded, self.bias))
end

function CAdd:__tostring__()
   return torch.type(self) .. '(' .. table.concat(self.bias:size():totable(), 'x') .. ')'
end
