-- nn.Copy([intype[, outtype[, forceCopy[, dontCast]]]]): the input copied into a tensor of
-- outtype, its gradient back into intype (both default to the default tensor type). With
-- equal types and no forceCopy, output and gradInput are views of input and gradOutput.
-- dontCast keeps both types through :type().
local Copy, parent = torch.class('nn.Copy', 'nn.Module')

function Copy:__init(intype, outtype, forceCopy, dontCast)
   parent.__init(self)
   intype = intype or torch.getdefaulttensortype()
   outtype = outtype or torch.getdefaulttensortype()
   self.dontCast = dontCast
   self.passThrough = not forceCopy and intype == outtype
   self.gradInput = nn.utils.tensorConstructor(intype)()
   self.output = nn.utils.tensorConstructor(outtype)()
end

function Copy:updateOutput(input)
   if self.passThrough then
      self.output:set(input)
   else
      self.output:resize(input:size()):copy(input)
   end
   return self.output
end

function Copy:updateGradInput(input, gradOutput)
   if self.passThrough then
      self.gradInput:set(gradOutput)
   else
      self.gradInput:resize(gradOutput:size()):copy(gradOutput)
   end
   return self.gradInput
end

function Copy:type(typename, tensorCache)
   if typename and self.dontCast then return self end
   return parent.type(self, typename, tensorCache)
end
