-- nn.DontCast(module[, castLayer = false[, outputType[, inputType]]]): a decorator whose
-- :type() leaves the module's type alone (unless castLayer). Inputs are converted to the
-- module's type (inputType) and outputs to outputType (the decorator's type when given
-- by :type()); gradients make the same trip back.
local DontCast, parent = torch.class('nn.DontCast', 'nn.Decorator')

local function recursiveTypeCopy(dst, src, typename)
   if torch.isTensor(src) then
      dst = (torch.isTensor(dst) and torch.type(dst) == typename) and dst or nn.utils.tensorConstructor(typename)()
      dst:resize(src:size()):copy(src)
      return dst
   elseif type(src) == 'table' then
      dst = type(dst) == 'table' and dst or {}
      for k, v in pairs(src) do dst[k] = recursiveTypeCopy(dst[k], v, typename) end
      for k in pairs(dst) do if src[k] == nil then dst[k] = nil end end
      return dst
   end
   return src
end

local function tensorType(t)
   if torch.isTensor(t) then return torch.type(t) end
   if type(t) == 'table' then
      for _, v in pairs(t) do
         local typename = tensorType(v)
         if typename then return typename end
      end
   end
end

function DontCast:__init(module, castLayer, outputType, inputType)
   parent.__init(self, module)
   self.castLayer = castLayer or false
   self.outputType = outputType
   self.inputType = inputType
end

function DontCast:updateOutput(input)
   self._outputType = self.outputType or tensorType(input)
   local moduleType = self.inputType or self.modules[1]._type
   self._input = moduleType and tensorType(input) ~= moduleType and recursiveTypeCopy(self._input, input, moduleType) or input
   local out = self.modules[1]:updateOutput(self._input)
   if self._outputType and tensorType(out) ~= self._outputType then
      self.output = recursiveTypeCopy(self._output, out, self._outputType)
      self._output = self.output
   else
      self.output = out
   end
   return self.output
end

-- gradOutput in the type of the module's output, copied into a buffer when it is not
local function toModuleType(self, gradOutput)
   local moduleType = tensorType(self.modules[1].output)
   if moduleType and tensorType(gradOutput) ~= moduleType then
      self._gradOutput = recursiveTypeCopy(self._gradOutput, gradOutput, moduleType)
      return self._gradOutput
   end
   return gradOutput
end

function DontCast:updateGradInput(input, gradOutput)
   local gi = self.modules[1]:updateGradInput(self._input, toModuleType(self, gradOutput))
   local inputType = tensorType(input)
   if inputType and tensorType(gi) ~= inputType then
      self.gradInput = recursiveTypeCopy(self._gradInput, gi, inputType)
      self._gradInput = self.gradInput
   else
      self.gradInput = gi
   end
   return self.gradInput
end

-- gradOutput converted again rather than a buffer from an earlier call: after a :type()
-- the module's type may have changed while the buffer kept the old one.
function DontCast:accGradParameters(input, gradOutput, scale)
   self.modules[1]:accGradParameters(self._input, toModuleType(self, gradOutput), scale)
end

function DontCast:type(typename, tensorCache)
   if not typename then return self._type end
   if self.castLayer then self.modules[1]:type(typename, tensorCache) end
   self.outputType = typename
   self._type = typename
   return self
end
