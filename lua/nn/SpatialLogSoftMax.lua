-- nn.SpatialLogSoftMax: LogSoftMax across the planes at each position of C x H x W images
-- or batches of them: y[c][h][w] = x[c][h][w] - log sum_c' exp(x[c'][h][w]).
local SpatialLogSoftMax = torch.class('nn.SpatialLogSoftMax', 'nn.Module')

local function checkInput(input)
   if input:dim() ~= 3 and input:dim() ~= 4 then
      error('nn.SpatialLogSoftMax: 3D or 4D (batch mode) tensor expected, got ' .. nn.utils.sizeString(input), 3)
   end
end

function SpatialLogSoftMax:updateOutput(input)
   checkInput(input)
   input.THNN.LogSoftMax_updateOutput(input, self.output)
   return self.output
end

function SpatialLogSoftMax:updateGradInput(input, gradOutput)
   checkInput(input)
   input.THNN.LogSoftMax_updateGradInput(input, gradOutput, self.gradInput, self.output)
   return self.gradInput
end
