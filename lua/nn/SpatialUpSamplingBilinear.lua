-- nn.SpatialUpSamplingBilinear(scale) or ({ oheight = H, owidth = W }): bilinear resize of
-- the last two dimensions of C x H x W images (or batches), corners aligned, to
-- (H scale) x (W scale) for an integer scale, or to oheight x owidth.
local SpatialUpSamplingBilinear, parent = torch.class('nn.SpatialUpSamplingBilinear', 'nn.Module')

function SpatialUpSamplingBilinear:__init(params)
   parent.__init(self)
   if torch.type(params) == 'table' then
      self.owidth, self.oheight = params.owidth, params.oheight
      if type(self.owidth) ~= 'number' or type(self.oheight) ~= 'number' or self.owidth < 1 or self.oheight < 1 then
         error('nn.SpatialUpSamplingBilinear: { oheight = H, owidth = W } with positive sizes expected', 2)
      end
   else
      self.scale_factor = params
      if type(params) ~= 'number' or self.scale_factor < 1 then
         error('nn.SpatialUpSamplingBilinear: scale_factor must be a number, at least 1', 2)
      end
      if math.floor(self.scale_factor) ~= self.scale_factor then
         error('nn.SpatialUpSamplingBilinear: scale_factor must be an integer', 2)
      end
   end
   self.inputSize = torch.LongStorage(4)
   self.outputSize = torch.LongStorage(4)
end

-- input as a batch (N x C x H x W) with inputSize and outputSize set
function SpatialUpSamplingBilinear:setSize(input)
   if input:dim() ~= 3 and input:dim() ~= 4 then
      error('nn.SpatialUpSamplingBilinear: 3D or 4D (batch mode) tensor expected, got ' ..
            nn.utils.sizeString(input), 3)
   end
   if input:dim() == 3 then input = input:view(1, input:size(1), input:size(2), input:size(3)) end
   for i = 1, 4 do
      self.inputSize[i] = input:size(i)
      self.outputSize[i] = input:size(i)
   end
   if self.scale_factor then
      self.outputSize[3] = self.outputSize[3] * self.scale_factor
      self.outputSize[4] = self.outputSize[4] * self.scale_factor
   else
      self.outputSize[3] = self.oheight
      self.outputSize[4] = self.owidth
   end
   return input
end

function SpatialUpSamplingBilinear:updateOutput(input)
   local x = self:setSize(input)
   input.THNN.SpatialUpSamplingBilinear_updateOutput(x, self.output, self.outputSize[3], self.outputSize[4])
   if input:dim() == 3 then self.output = self.output:view(self.outputSize[2], self.outputSize[3], self.outputSize[4]) end
   return self.output
end

function SpatialUpSamplingBilinear:updateGradInput(input, gradOutput)
   self:setSize(input)
   local n, c = self.inputSize[1], self.inputSize[2]
   if gradOutput:dim() ~= input:dim() or gradOutput:size(gradOutput:dim() - 1) ~= self.outputSize[3] or
      gradOutput:size(gradOutput:dim()) ~= self.outputSize[4] then
      error('nn.SpatialUpSamplingBilinear: gradOutput must have the output\'s size, got ' ..
            nn.utils.sizeString(gradOutput), 2)
   end
   input.THNN.SpatialUpSamplingBilinear_updateGradInput(gradOutput, self.gradInput, n, c, self.inputSize[3],
                                                        self.inputSize[4], self.outputSize[3], self.outputSize[4])
   return self.gradInput
end

function SpatialUpSamplingBilinear:__tostring__()
   if self.scale_factor then return string.format('%s(%d)', torch.type(self), self.scale_factor) end
   return string.format('%s(%d, %d)', torch.type(self), self.oheight, self.owidth)
end
