-- nn.NaN(module[, id]): a decorator that raises an error naming the module (and id) as
-- soon as its input, output, gradOutput, gradInput or a parameter gradient holds a NaN.
local NaN, parent = torch.class('nn.NaN', 'nn.Decorator')

local idCount = 0

function NaN:__init(module, id)
   parent.__init(self, module)
   if id == nil then
      idCount = idCount + 1
      id = idCount
   end
   self.id = id
end

local function hasNaN(t)
   if torch.isTensor(t) then return t:ne(t):sum() > 0 end
   if type(t) == 'table' then
      for _, v in pairs(t) do if hasNaN(v) then return true end end
   end
   return false
end

function NaN:recursiveIsNaN(t)
   return hasNaN(t)
end

function NaN:_check(what, t)
   if hasNaN(t) then
      error(string.format('NaN found in %s of module %s (id %s):\n%s', what, torch.type(self.modules[1]),
                          tostring(self.id), tostring(self.modules[1])), 0)
   end
end

function NaN:updateOutput(input)
   self:_check('input', input)
   self.output = self.modules[1]:updateOutput(input)
   self:_check('output', self.output)
   return self.output
end

function NaN:updateGradInput(input, gradOutput)
   self:_check('gradOutput', gradOutput)
   self.gradInput = self.modules[1]:updateGradInput(input, gradOutput)
   self:_check('gradInput', self.gradInput)
   return self.gradInput
end

function NaN:accGradParameters(input, gradOutput, scale)
   self.modules[1]:accGradParameters(input, gradOutput, scale)
   local _, gradParams = self.modules[1]:parameters()
   if gradParams then self:_check('gradParameters', gradParams) end
end

function NaN:__tostring__()
   return string.format('%s(%s) @ %s', torch.type(self), tostring(self.id), tostring(self.modules[1]))
end
