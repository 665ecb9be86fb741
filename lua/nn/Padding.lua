-- nn.Padding(dim, pad[, nInputDim[, value = 0[, index = 1]]]): |pad| elements of value
-- inserted along dimension dim; pad < 0 inserts before element index (1: at the start),
-- pad > 0 after element size - index + 1 counted from the end (1: at the end). With
-- nInputDim, an input of other dimensionality is a batch and dim skips the batch one.
local Padding, parent = torch.class('nn.Padding', 'nn.Module')

function Padding:__init(dim, pad, nInputDim, value, index)
   parent.__init(self)
   if type(dim) ~= 'number' or type(pad) ~= 'number' then
      error('nn.Padding(dim, pad[, nInputDim[, value[, index]]]): numbers expected', 2)
   end
   self.value = value or 0
   self.index = index or 1
   self.dim = dim
   self.pad = pad
   self.nInputDim = nInputDim
   self.outputSize = torch.LongStorage()
end

-- the dimension, the position before which the padding goes, and its length
function Padding:_place(input)
   local dim = self.dim
   if self.nInputDim and input:dim() ~= self.nInputDim then dim = dim + 1 end
   if dim < 1 or dim > input:dim() then
      error(string.format('nn.Padding: dimension %d out of range for an input of size %s', dim,
                          nn.utils.sizeString(input)), 3)
   end
   local index, pad = self.index, self.pad
   if pad > 0 then index = input:size(dim) - index + 2 else pad = -pad end
   if index < 1 or index > input:size(dim) + 1 then
      error(string.format('nn.Padding: index %d out of range for dimension %d of size %d', self.index, dim,
                          input:size(dim)), 3)
   end
   return dim, index, pad
end

function Padding:updateOutput(input)
   local dim, index, pad = self:_place(input)
   local sizes = input:size():totable()
   sizes[dim] = sizes[dim] + pad
   self.outputSize = torch.LongStorage(sizes)
   self.output:resize(self.outputSize):fill(self.value)
   local n = input:size(dim)
   if index > 1 then self.output:narrow(dim, 1, index - 1):copy(input:narrow(dim, 1, index - 1)) end
   if index <= n then
      self.output:narrow(dim, index + pad, n - index + 1):copy(input:narrow(dim, index, n - index + 1))
   end
   return self.output
end

function Padding:updateGradInput(input, gradOutput)
   local dim, index, pad = self:_place(input)
   self.gradInput:resizeAs(input)
   local n = input:size(dim)
   if index > 1 then self.gradInput:narrow(dim, 1, index - 1):copy(gradOutput:narrow(dim, 1, index - 1)) end
   if index <= n then
      self.gradInput:narrow(dim, index, n - index + 1):copy(gradOutput:narrow(dim, index + pad, n - index + 1))
   end
   return self.gradInput
end
