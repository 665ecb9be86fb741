-- nn.CAddTensorTable(): for input {x, {y1, ..., yn}}, the table {x + y1, ..., x + yn}
-- (every yi of x's size). gradInput is {sum of the gradOutputs, {gradOutput1, ...}}.
local CAddTensorTable, parent = torch.class('nn.CAddTensorTable', 'nn.Module')

function CAddTensorTable:__init()
   parent.__init(self)
   self.output = {}
   self.gradInput = {}
end

local function checkInput(self, input)
   if type(input) ~= 'table' or not torch.isTensor(input[1]) or type(input[2]) ~= 'table' then
      error(torch.type(self) .. ': input {tensor, {tensor, ...}} expected', 3)
   end
   for i, y in ipairs(input[2]) do
      if not torch.isTensor(y) or not y:isSameSizeAs(input[1]) then
         error(string.format('%s: input[2][%d] has size %s, input[1] has size %s', torch.type(self), i,
                             torch.isTensor(y) and nn.utils.sizeString(y) or type(y), nn.utils.sizeString(input[1])), 3)
      end
   end
end

function CAddTensorTable:updateOutput(input)
   checkInput(self, input)
   local x, ys = input[1], input[2]
   for i = 1, #ys do
      self.output[i] = self.output[i] or x.new()
      self.output[i]:resizeAs(x):copy(ys[i]):add(x)
   end
   for i = #ys + 1, #self.output do self.output[i] = nil end
   return self.output
end

function CAddTensorTable:updateGradInput(input, gradOutput)
   checkInput(self, input)
   local x, ys = input[1], input[2]
   self.gradInput[1] = self.gradInput[1] or x.new()
   self.gradInput[2] = self.gradInput[2] or {}
   local gradX, gradYs = self.gradInput[1], self.gradInput[2]
   gradX:resizeAs(x):zero()
   for i = 1, #ys do
      gradX:add(gradOutput[i])
      gradYs[i] = gradYs[i] or x.new()
      gradYs[i]:resizeAs(ys[i]):copy(gradOutput[i])
   end
   for i = #ys + 1, #gradYs do gradYs[i] = nil end
   return self.gradInput
end
