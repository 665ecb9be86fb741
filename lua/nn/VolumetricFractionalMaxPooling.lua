-- nn.VolumetricFractionalMaxPooling(poolSizeT, poolSizeW, poolSizeH, outT, outW, outH) or
-- (poolSizeT, poolSizeW, poolSizeH, ratioT, ratioW, ratioH): fractional max pooling
-- (Graham, 2014) of volumes in torch7's layout, C x H x W x T or N x C x H x W x T, to
-- outH x outW x outT, or to floor(in * ratio) for ratios in (0, 1). The pseudo-random
-- windows come from randomSamples (N x C x 3, uniform in [0, 1)), drawn anew at every
-- forward unless fixPoolingRegions(). indices (LongTensor) holds where each maximum was,
-- counting from 1 in each H x W x T plane.
local VolumetricFractionalMaxPooling, parent = torch.class('nn.VolumetricFractionalMaxPooling', 'nn.Module')

function VolumetricFractionalMaxPooling:__init(poolSizeT, poolSizeW, poolSizeH, arg1, arg2, arg3)
   parent.__init(self)
   assert(poolSizeT >= 2 and poolSizeW >= 2 and poolSizeH >= 2,
          'nn.VolumetricFractionalMaxPooling: pool sizes must be at least 2')
   self.poolSizeT, self.poolSizeW, self.poolSizeH = poolSizeT, poolSizeW, poolSizeH
   self.indices = torch.LongTensor()
   self.randomSamples = nil
   self.newRandomPool = false
   if arg1 >= 1 and arg2 >= 1 and arg3 >= 1 then
      self.outT, self.outW, self.outH = arg1, arg2, arg3
   else
      self.ratioT, self.ratioW, self.ratioH = arg1, arg2, arg3
      for _, r in ipairs({ arg1, arg2, arg3 }) do
         assert(r > 0 and r < 1, 'nn.VolumetricFractionalMaxPooling: ratios must be in (0, 1)')
      end
   end
end

local function checkInput(input)
   if input:nDimension() ~= 4 and input:nDimension() ~= 5 then
      error('nn.VolumetricFractionalMaxPooling: 4D or 5D (batch mode) tensor expected, got ' ..
            nn.utils.sizeString(input), 3)
   end
end

function VolumetricFractionalMaxPooling:getBufferSize_(input)
   if input:nDimension() == 4 then return torch.LongStorage({ 1, input:size(1), 3 }) end
   return torch.LongStorage({ input:size(1), input:size(2), 3 })
end

-- the samples are SpatialFractionalMaxPooling's, three per plane
VolumetricFractionalMaxPooling.initSampleBuffer_ = nn.SpatialFractionalMaxPooling.initSampleBuffer_
VolumetricFractionalMaxPooling.fixPoolingRegions = nn.SpatialFractionalMaxPooling.fixPoolingRegions

function VolumetricFractionalMaxPooling:getOutputSizes_(input)
   if not self.ratioT then return self.outT, self.outW, self.outH end
   local n = input:nDimension()
   local outT = math.floor(input:size(n) * self.ratioT)
   local outW = math.floor(input:size(n - 1) * self.ratioW)
   local outH = math.floor(input:size(n - 2) * self.ratioH)
   if outT < 1 or outW < 1 or outH < 1 then
      error('nn.VolumetricFractionalMaxPooling: reduction ratio or input size too small, got ' ..
            nn.utils.sizeString(input), 3)
   end
   return outT, outW, outH
end

function VolumetricFractionalMaxPooling:updateOutput(input)
   checkInput(input)
   self:initSampleBuffer_(input)
   local outT, outW, outH = self:getOutputSizes_(input)
   input.THNN.VolumetricFractionalMaxPooling_updateOutput(input, self.output, outT, outW, outH, self.poolSizeT,
                                                          self.poolSizeW, self.poolSizeH,
                                                          nn.utils.poolingIndices(self), self.randomSamples)
   return self.output
end

function VolumetricFractionalMaxPooling:updateGradInput(input, gradOutput)
   assert(self.randomSamples ~= nil, 'nn.VolumetricFractionalMaxPooling: call updateOutput/forward first')
   checkInput(input)
   local outT, outW, outH = self:getOutputSizes_(input)
   input.THNN.VolumetricFractionalMaxPooling_updateGradInput(input, gradOutput, self.gradInput, outT, outW, outH,
                                                             self.poolSizeT, self.poolSizeW, self.poolSizeH,
                                                             nn.utils.poolingIndices(self))
   return self.gradInput
end

VolumetricFractionalMaxPooling.clearState = nn.SpatialFractionalMaxPooling.clearState

function VolumetricFractionalMaxPooling:__tostring__()
   return string.format('%s(%s,%s,%s,%d,%d,%d)', torch.type(self), self.outT or self.ratioT,
                        self.outW or self.ratioW, self.outH or self.ratioH, self.poolSizeT, self.poolSizeW,
                        self.poolSizeH)
end
