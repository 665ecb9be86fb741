-- nn.SpatialFullConvolutionMap(connTable, kW, kH[, dW = 1[, dH = 1]]): the transposed
-- (full) convolution with a connection table as nn.SpatialConvolutionMap's: output plane o
-- receives input plane i through kernel k for each row {i, o}; the output is
-- (H - 1) dH + kH high and (W - 1) dW + kW wide.
local SpatialFullConvolutionMap = torch.class('nn.SpatialFullConvolutionMap', 'nn.Module')
require 'nn.SpatialConvolutionMap'

-- Same methods as nn.SpatialConvolutionMap (not a subclass: torch7 keeps the two apart), over
-- a dense nn.SpatialFullConvolution, whose weight is nInputPlane x nOutputPlane x kH x kW.
for _, name in ipairs{ '__init', 'reset', 'updateOutput', 'updateGradInput', 'accGradParameters',
                       '__tostring__' } do
   SpatialFullConvolutionMap[name] = nn.SpatialConvolutionMap[name]
end
SpatialFullConvolutionMap.denseClass, SpatialFullConvolutionMap.inDim, SpatialFullConvolutionMap.outDim =
   'SpatialFullConvolution', 1, 2
