-- nn.SpatialSoftMax: SoftMax across the planes at each position of C x H x W images or
-- batches of them: y[c][h][w] = exp(x[c][h][w]) / sum_c' exp(x[c'][h][w]).
local SpatialSoftMax = torch.class('nn.SpatialSoftMax', 'nn.Module')

local function checkInput(input)
   if input:dim() ~= 3 and input:dim() ~= 4 then
      error('nn.SpatialSoftMax: 3D or 4D (batch mode) tensor expected, got ' .. nn.utils.sizeString(input), 3)
   end
end

function SpatialSoftMax:updateOutput(input)
   checkInput(input)
   input.THNN.SoftMax_updateOutput(input, self.output)
   return self.output
end

function SpatialSoftMax:updateGradInput(input, gradOutput)
   checkInput(input)
   input.THNN.SoftMax_updateGradInput(input, gradOutput, self.gradInput, self.output)
   return self.gradInput
end
