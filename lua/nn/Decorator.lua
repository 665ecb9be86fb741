-- nn.Decorator(module): a container of one module that passes every call on to it;
-- subclasses change one aspect (casting, checks, timing, reparameterization).
local Decorator, parent = torch.class('nn.Decorator', 'nn.Container')

function Decorator:__init(module)
   parent.__init(self)
   assert(module, 'nn.Decorator(module): a module is required')
   self.modules[1] = module
end

function Decorator:updateOutput(input)
   self.output = self.modules[1]:updateOutput(input)
   return self.output
end

function Decorator:updateGradInput(input, gradOutput)
   self.gradInput = self.modules[1]:updateGradInput(input, gradOutput)
   return self.gradInput
end

function Decorator:accGradParameters(input, gradOutput, scale)
   self.modules[1]:accGradParameters(input, gradOutput, scale)
end

function Decorator:accUpdateGradParameters(input, gradOutput, lr)
   self.modules[1]:accUpdateGradParameters(input, gradOutput, lr)
end

function Decorator:sharedAccUpdateGradParameters(input, gradOutput, lr)
   self.modules[1]:sharedAccUpdateGradParameters(input, gradOutput, lr)
end

function Decorator:__tostring__()
   local inner = tostring(self.modules[1]):gsub('\n', '\n ')
   return torch.type(self) .. ' @ ' .. inner
end
