-- nn.Reshape(sizes...[, batchMode]): the input (copied when not contiguous) viewed with the
-- given sizes, keeping the first dimension as a batch when the input has more elements
-- than the sizes (or a first size 1), or as batchMode says.
local Reshape, parent = torch.class('nn.Reshape', 'nn.Module')

function Reshape:__init(...)
   parent.__init(self)
   local args = { ... }
   if type(args[#args]) == 'boolean' then
      self.batchMode = table.remove(args)
   end
   if #args == 1 and torch.typename(args[1]) == 'torch.LongStorage' then
      args = args[1]:totable()
   end
   self.size = torch.LongStorage(args)
   self.nelement = 1
   local batchSizes = { 1 }
   for i = 1, #args do
      self.nelement = self.nelement * args[i]
      batchSizes[i + 1] = args[i]
   end
   self.batchsize = torch.LongStorage(batchSizes)
end

function Reshape:updateOutput(input)
   if not input:isContiguous() then input = input:contiguous() end
   if self.batchMode == false or
      (self.batchMode == nil and input:nElement() == self.nelement and input:size(1) ~= 1) then
      self.output = input:view(self.size)
   else
      self.batchsize[1] = input:size(1)
      self.output = input:view(self.batchsize)
   end
   return self.output
end

function Reshape:updateGradInput(input, gradOutput)
   if not gradOutput:isContiguous() then gradOutput = gradOutput:contiguous() end
   self.gradInput = gradOutput:view(input:size())
   return self.gradInput
end

function Reshape:__tostring__()
   return torch.type(self) .. '(' .. table.concat(self.size:totable(), 'x') .. ')'
end

function Reshape:clearState()
   return nn.utils.clearReferences(self, 'output', 'gradInput')
end
