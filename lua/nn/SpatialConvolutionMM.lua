-- nn.SpatialConvolutionMM: SpatialConvolution with its weight kept as a matrix
-- nOutputPlane x (nInputPlane kH kW), the layout of the GEMM it runs.
local SpatialConvolutionMM, parent = torch.class('nn.SpatialConvolutionMM', 'nn.SpatialConvolution')

function SpatialConvolutionMM:__init(nInputPlane, nOutputPlane, kW, kH, dW, dH, padW, padH)
   parent.__init(self, nInputPlane, nOutputPlane, kW, kH, dW, dH, padW, padH)
   local columns = nInputPlane * kH * kW
   self.weight = self.weight:view(nOutputPlane, columns)
   self.gradWeight = self.gradWeight:view(nOutputPlane, columns)
end
