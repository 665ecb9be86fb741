-- nn.SpatialUpSamplingNearest(scale): nearest-neighbour upsampling of the last two
-- dimensions by an integer factor: output[..][y][x] = input[..][ceil(y / scale)][ceil(x / scale)].
local SpatialUpSamplingNearest, parent = torch.class('nn.SpatialUpSamplingNearest', 'nn.Module')

function SpatialUpSamplingNearest:__init(scale)
   parent.__init(self)
   self.scale_factor = scale
   if type(scale) ~= 'number' or self.scale_factor < 1 then
      error('nn.SpatialUpSamplingNearest: scale_factor must be a number, at least 1', 2)
   end
   if math.floor(self.scale_factor) ~= self.scale_factor then
      error('nn.SpatialUpSamplingNearest: scale_factor must be an integer', 2)
   end
   self.inputSize = torch.LongStorage(4)
   self.outputSize = torch.LongStorage(4)
end

local function checkInput(input)
   if input:dim() ~= 3 and input:dim() ~= 4 then
      error('nn.SpatialUpSamplingNearest: 3D or 4D (batch mode) tensor expected, got ' ..
            nn.utils.sizeString(input), 3)
   end
end

function SpatialUpSamplingNearest:updateOutput(input)
   checkInput(input)
   input.THNN.SpatialUpSamplingNearest_updateOutput(input, self.output, self.scale_factor)
   return self.output
end

function SpatialUpSamplingNearest:updateGradInput(input, gradOutput)
   checkInput(input)
   input.THNN.SpatialUpSamplingNearest_updateGradInput(input, gradOutput, self.gradInput, self.scale_factor)
   return self.gradInput
end
