-- nn.SpatialFullConvolutionMap(connTable, kW, kH[, dW = 1[, dH = 1]]): the transposed
-- (full) convolution with a connection table as nn.SpatialConvolutionMap's: output plane o
-- receives input plane i through kernel k for each row {i, o}; the output is
-- (H - 1) dH + kH high and (W - 1) dW + kW wide.
local SpatialFullConvolutionMap, parent = torch.class('nn.SpatialFullConvolutionMap', 'nn.Module')
require 'nn.SpatialConvolutionMap'

function SpatialFullConvolutionMap:__init(conMatrix, kW, kH, dW, dH)
   parent.__init(self)
   assert(torch.isTensor(conMatrix) and conMatrix:dim() == 2 and conMatrix:size(2) == 2,
          'nn.SpatialFullConvolutionMap(connTable, kW, kH[, dW, dH]): connTable must be a K x 2 tensor')
   self.kW, self.kH = kW, kH
   self.dW, self.dH = dW or 1, dH or 1
   self.connTable = conMatrix
   self.nInputPlane = self.connTable:select(2, 1):max()
   self.nOutputPlane = self.connTable:select(2, 2):max()
   self.weight = torch.Tensor(self.connTable:size(1), kH, kW)
   self.gradWeight = torch.Tensor(self.connTable:size(1), kH, kW):zero()
   self.bias = torch.Tensor(self.nOutputPlane)
   self.gradBias = torch.Tensor(self.nOutputPlane):zero()
   self.dense = nn.SpatialFullConvolution(self.nInputPlane, self.nOutputPlane, kW, kH, self.dW, self.dH)
   self:reset()
end

function SpatialFullConvolutionMap:reset(stdv)
   if stdv then
      self.weight:uniform(-stdv, stdv)
      self.bias:uniform(-stdv, stdv)
   else
      local fanIn = torch.zeros(self.nOutputPlane)
      for k = 1, self.connTable:size(1) do
         local o = self.connTable[k][2]
         fanIn[o] = fanIn[o] + 1
      end
      for k = 1, self.connTable:size(1) do
         local s = 1 / math.sqrt(self.kW * self.kH * fanIn[self.connTable[k][2]])
         self.weight[k]:uniform(-s, s)
      end
      for o = 1, self.nOutputPlane do
         local s = 1 / math.sqrt(self.kW * self.kH * math.max(fanIn[o], 1))
         self.bias[o] = torch.uniform(-s, s)
      end
   end
end

-- the dense weight is nInputPlane x nOutputPlane x kH x kW
function SpatialFullConvolutionMap:updateOutput(input)
   nn.tables._densify(self, 1, 2)
   self.output = self.dense:updateOutput(input)
   return self.output
end

function SpatialFullConvolutionMap:updateGradInput(input, gradOutput)
   nn.tables._densify(self, 1, 2)
   self.gradInput = self.dense:updateGradInput(input, gradOutput)
   return self.gradInput
end

function SpatialFullConvolutionMap:accGradParameters(input, gradOutput, scale)
   self.dense.gradWeight:zero()
   self.dense.gradBias = self.gradBias
   self.dense:accGradParameters(input, gradOutput, scale)
   nn.tables._sparsify(self, 1, 2)
end

function SpatialFullConvolutionMap:__tostring__()
   return string.format('%s(%d -> %d, %dx%d, %d,%d)', torch.type(self), self.nInputPlane, self.nOutputPlane,
                        self.kW, self.kH, self.dW, self.dH)
end
