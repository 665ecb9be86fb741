-- nn.DepthConcat(dimension): nn.Concat whose outputs may differ in the other dimensions
-- too: each is centred in zero padding up to the largest size (GoogLeNet's inception
-- blocks, whose branches lose different borders).
local DepthConcat, parent = torch.class('nn.DepthConcat', 'nn.Concat')

-- the window of output (offset along self.dimension) that holds currentOutput: centred in
-- the other dimensions, the odd padding element going after (9 vs 4: 2 before, 3 after)
function DepthConcat:windowNarrow(output, currentOutput, offset)
   local window = output:narrow(self.dimension, offset, currentOutput:size(self.dimension))
   for dim = 1, #self.size do
      local currentSize = currentOutput:size(dim)
      if dim ~= self.dimension and self.size[dim] ~= currentSize then
         local start = math.floor((self.size[dim] - currentSize) / 2) + 1
         window = window:narrow(dim, start, currentSize)
      end
   end
   return window
end

function DepthConcat:updateOutput(input)
   local outs = {}
   local sizes
   for i, module in ipairs(self.modules) do
      local out = self:rethrowErrors(module, i, 'updateOutput', input)
      outs[i] = out
      if i == 1 then
         sizes = out:size():totable()
         if self.dimension > #sizes then
            error(string.format('nn.DepthConcat: dimension %d out of range for module 1\'s %dD output',
                                self.dimension, #sizes), 2)
         end
      else
         if out:dim() ~= #sizes then
            error(string.format('nn.DepthConcat: module %d gave a %dD output, module 1 a %dD one', i, out:dim(),
                                #sizes), 2)
         end
         sizes[self.dimension] = sizes[self.dimension] + out:size(self.dimension)
         for dim = 1, #sizes do
            if dim ~= self.dimension then sizes[dim] = math.max(sizes[dim], out:size(dim)) end
         end
      end
   end
   self.size = torch.LongStorage(sizes)
   self.output:resize(self.size):zero()
   self:_fillFromBranches(outs)
   return self.output
end

-- Concat's output filling and backward passes (updateGradInput, backward,
-- accGradParameters, accUpdateGradParameters) take each branch's window
function DepthConcat:_branchPart(t, branchOutput, offset)
   return self:windowNarrow(t, branchOutput, offset)
end
