-- nn.CMaxTable: the element-wise maximum of a table of tensors of one size; the gradient
-- goes to the first input holding the maximum.
local CMaxTable, parent = torch.class('nn.CMaxTable', 'nn.Module')

function CMaxTable:__init()
   parent.__init(self)
   self.gradInput = {}
   self.sign = 1
end

-- Note [Masks without comparisons]: for numbers a, b, max(sign(a - b), 0) is 1 where
-- a > b and 0 elsewhere, and 1 - |sign(a - b)| is 1 where a == b; the masks are built from
-- these so that ties and NaN-free inputs need no comparison kernels.
function CMaxTable:updateOutput(input)
   nn.CAddTable.checkSizes(self, input)
   self.maxIdx = self.maxIdx or input[1].new()
   self.mask = self.mask or input[1].new()
   self.diff = self.diff or input[1].new()
   self.output:resizeAs(input[1]):copy(input[1])
   self.maxIdx:resizeAs(input[1]):fill(1)
   for i = 2, #input do
      -- mask: 1 where input[i] beats the best so far (self.sign flips the order for CMinTable)
      self.diff:resizeAs(input[i]):copy(input[i]):add(-1, self.output)
      self.mask:resizeAs(input[i]):copy(self.diff):mul(self.sign):sign():clamp(0, 1)
      self.output:add(self.diff:cmul(self.mask))
      self.diff:copy(self.maxIdx):mul(-1):add(i):cmul(self.mask)
      self.maxIdx:add(self.diff)
   end
   return self.output
end

function CMaxTable:updateGradInput(input, gradOutput)
   for i = 1, #input do
      self.gradInput[i] = self.gradInput[i] or input[1].new()
      self.mask:resizeAs(self.maxIdx):copy(self.maxIdx):add(-i):abs():sign():mul(-1):add(1)
      self.gradInput[i]:resizeAs(input[i]):copy(gradOutput):cmul(self.mask)
   end
   for i = #input + 1, #self.gradInput do self.gradInput[i] = nil end
   return self.gradInput
end

function CMaxTable:clearState()
   nn.utils.clear(self, 'maxIdx', 'mask', 'diff')
   return parent.clearState(self)
end
