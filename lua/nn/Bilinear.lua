-- nn.Bilinear(inputSize1, inputSize2, outputSize[, bias = true]): input {x1, x2} (vectors
-- or batches of rows); y_k = x1 weight[k] x2^T + bias[k], weight [outputSize, inputSize1,
-- inputSize2].
local Bilinear, parent = torch.class('nn.Bilinear', 'nn.Module')

function Bilinear:__init(inputSize1, inputSize2, outputSize, bias)
   parent.__init(self)
   for _, n in ipairs({ inputSize1, inputSize2, outputSize }) do
      if type(n) ~= 'number' or n < 1 then
         error('nn.Bilinear(inputSize1, inputSize2, outputSize[, bias]): positive sizes expected', 2)
      end
   end
   if bias == nil then bias = true end
   nn.utils.allocateParameters(self, { outputSize, inputSize1, inputSize2 }, bias and { outputSize })
   self.gradInput = { torch.Tensor(), torch.Tensor() }
   self:reset()
end

function Bilinear:reset(stdv)
   return nn.utils.resetUniform(self, stdv, self.weight:size(2))
end

local function checkInput(input)
   if type(input) ~= 'table' or #input ~= 2 then error('nn.Bilinear: a table {input1, input2} expected', 3) end
end

function Bilinear:updateOutput(input)
   checkInput(input)
   self.buffer = self.buffer or input[1].new()
   input[1].THNN.Bilinear_updateOutput(input[1], input[2], self.output, self.weight, self.bias, self.buffer)
   return self.output
end

function Bilinear:updateGradInput(input, gradOutput)
   checkInput(input)
   for i = 1, 2 do
      if not torch.isTensor(self.gradInput[i]) then self.gradInput[i] = input[1].new() end
   end
   input[1].THNN.Bilinear_updateGradInput(input[1], input[2], gradOutput, self.gradInput[1], self.gradInput[2],
                                          self.weight, self.buffer)
   return self.gradInput
end

function Bilinear:accGradParameters(input, gradOutput, scale)
   checkInput(input)
   self.buffer = self.buffer or input[1].new()
   input[1].THNN.Bilinear_accGradParameters(input[1], input[2], gradOutput, self.gradWeight, self.gradBias,
                                            self.buffer, scale or 1)
end

function Bilinear:clearState()
   nn.utils.clear(self, 'buffer')
   return parent.clearState(self)
end

function Bilinear:__tostring__()
   return torch.type(self) .. string.format('(%dx%d -> %d)', self.weight:size(2), self.weight:size(3),
                                             self.weight:size(1)) .. (self.bias == nil and ' without bias' or '')
end
