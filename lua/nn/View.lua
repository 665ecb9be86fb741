-- nn.View(sizes...): the input seen with other sizes (no copy). One size may be -1, taken
-- from the element count. Extra leading dimensions are a batch: with setNumInputDims(n)
-- the last n input dimensions make one sample, else a batch is inferred when the input
-- holds a multiple of the view's elements.
local View, parent = torch.class('nn.View', 'nn.Module')

function View:__init(...)
   parent.__init(self)
   self:resetSize(...)
   self.numInputDims = nil
end

function View:resetSize(...)
   local first = ...
   if select('#', ...) == 1 and torch.typename(first) == 'torch.LongStorage' then
      self.size = first
   else
      self.size = torch.LongStorage({ ... })
   end
   self.numElements = 1
   local inferred = false
   for i = 1, #self.size do
      local s = self.size[i]
      if s >= 0 then
         self.numElements = self.numElements * s
      else
         assert(s == -1, 'nn.View: sizes must be positive or -1')
         assert(not inferred, 'nn.View: only one dimension can be -1')
         inferred = true
      end
   end
   return self
end

function View:setNumInputDims(numInputDims)
   self.numInputDims = numInputDims
   return self
end

-- The batch size in front of the view's sizes, or nil for a single sample.
local function batchSize(self, input)
   local nDim = input:nDimension()
   local sampleDims = self.numInputDims or nDim
   local sampleElements = 1
   for i = nDim, nDim - sampleDims + 1, -1 do sampleElements = sampleElements * input:size(i) end
   if sampleElements % self.numElements ~= 0 then
      error(string.format('nn.View: input view (%s) and desired view (%s) do not match', nn.utils.sizeString(input),
                          table.concat(self.size:totable(), 'x')), 3)
   end
   local batch = sampleElements / self.numElements
   for i = 1, #self.size do
      if self.size[i] == -1 then batch = 1 break end  -- the remainder fills the -1
   end
   for i = nDim - sampleDims, 1, -1 do batch = batch * input:size(i) end
   if batch == 1 and (not self.numInputDims or nDim <= self.numInputDims) then return nil end
   return batch
end

function View:updateOutput(input)
   if not input:isContiguous() then input = input:contiguous() end
   local batch = batchSize(self, input)
   if batch then
      local sizes = self.size:totable()
      table.insert(sizes, 1, batch)
      self.output = input:view(torch.LongStorage(sizes))
   else
      self.output = input:view(self.size)
   end
   return self.output
end

function View:updateGradInput(input, gradOutput)
   if not gradOutput:isContiguous() then gradOutput = gradOutput:contiguous() end
   self.gradInput = gradOutput:view(input:size())
   return self.gradInput
end

function View:__tostring__()
   return torch.type(self) .. '(' .. table.concat(self.size:totable(), 'x') .. ')'
end

function View:clearState()
   return nn.utils.clearReferences(self, 'output', 'gradInput')
end
