-- nn.Index(dimension): input {t, ids}; the output is t:indexSelect(dimension, ids), ids
-- a LongTensor of 1-based positions (repeats allowed: their gradients add up).
local Index, parent = torch.class('nn.Index', 'nn.Module')

function Index:__init(dimension)
   parent.__init(self)
   self.dimension = dimension
   self.gradInput = { self.gradInput, torch.LongTensor() }
end

function Index:updateOutput(input)
   local t, ids = input[1], input[2]
   if not torch.isTensor(t) or torch.typename(ids) ~= 'torch.LongTensor' or ids:dim() ~= 1 then
      error('nn.Index: input {tensor, LongTensor of ids} expected', 2)
   end
   self.output:indexSelect(t, self.dimension, ids)
   return self.output
end

function Index:updateGradInput(input, gradOutput)
   local t, ids = input[1], input[2]
   if not torch.isTensor(self.gradInput[1]) then self.gradInput[1] = t.new() end
   self.gradInput[1]:resizeAs(t):zero():indexAdd(self.dimension, ids, gradOutput)
   self.gradInput[2] = self.gradInput[2] or torch.LongTensor()
   self.gradInput[2]:resizeAs(ids):zero()
   return self.gradInput
end
