-- nn.OneHot(outputSize): class indices (1-based; a number or a tensor of any shape) as
-- one-hot rows: the output has the input's sizes plus a last dimension of outputSize,
-- with 1 at each index and 0 elsewhere. Indices have no gradient (zeros).
local OneHot, parent = torch.class('nn.OneHot', 'nn.Module')

function OneHot:__init(outputSize)
   parent.__init(self)
   self.outputSize = outputSize
end

function OneHot:updateOutput(input)
   local indices, sizes
   if type(input) == 'number' then
      indices, sizes = torch.LongTensor({ input }), {}
   else
      indices, sizes = input:long(), input:size():totable()
   end
   local n = indices:nElement()
   local flat = indices:contiguous():view(n)
   if n > 0 and (flat:min() < 1 or flat:max() > self.outputSize) then
      error(string.format('nn.OneHot: indices must be in 1..%d, got %d..%d', self.outputSize, flat:min(),
                          flat:max()), 2)
   end
   table.insert(sizes, self.outputSize)
   self.output:resize(torch.LongStorage(sizes)):zero()
   if n > 0 then
      self.output:view(n, self.outputSize):scatter(2, flat:view(n, 1), 1)
   end
   return self.output
end

function OneHot:updateGradInput(input, gradOutput)
   if type(input) == 'number' then return 0 end
   self.gradInput:resize(input:size()):zero()
   return self.gradInput
end
