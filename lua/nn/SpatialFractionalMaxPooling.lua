-- nn.SpatialFractionalMaxPooling(poolSizeW, poolSizeH, outW, outH) or (poolSizeW, poolSizeH,
-- ratioW, ratioH): fractional max pooling (Graham, 2014) to an output of outH x outW, or of
-- floor(iH ratioH) x floor(iW ratioW) for ratios in (0, 1). The pseudo-random windows come
-- from randomSamples (N x C x 2, uniform in [0, 1)), drawn anew at every forward unless
-- fixPoolingRegions(). indices (LongTensor) holds where each maximum was, counting from 1.
local SpatialFractionalMaxPooling, parent = torch.class('nn.SpatialFractionalMaxPooling', 'nn.Module')

function SpatialFractionalMaxPooling:__init(poolSizeW, poolSizeH, arg1, arg2)
   parent.__init(self)
   assert(poolSizeW >= 2, 'nn.SpatialFractionalMaxPooling: poolSizeW must be at least 2')
   assert(poolSizeH >= 2, 'nn.SpatialFractionalMaxPooling: poolSizeH must be at least 2')
   self.poolSizeW = poolSizeW
   self.poolSizeH = poolSizeH
   self.indices = torch.LongTensor()
   self.randomSamples = nil
   self.newRandomPool = false
   if arg1 >= 1 and arg2 >= 1 then
      self.outW = arg1
      self.outH = arg2
   else
      self.ratioW = arg1
      self.ratioH = arg2
      assert(self.ratioW > 0 and self.ratioW < 1, 'nn.SpatialFractionalMaxPooling: ratioW must be in (0, 1)')
      assert(self.ratioH > 0 and self.ratioH < 1, 'nn.SpatialFractionalMaxPooling: ratioH must be in (0, 1)')
   end
end

local function checkInput(input)
   if input:nDimension() ~= 3 and input:nDimension() ~= 4 then
      error('nn.SpatialFractionalMaxPooling: 3D or 4D (batch mode) tensor expected, got ' ..
            nn.utils.sizeString(input), 3)
   end
end

function SpatialFractionalMaxPooling:getBufferSize_(input)
   if input:nDimension() == 3 then return torch.LongStorage({ 1, input:size(1), 2 }) end
   return torch.LongStorage({ input:size(1), input:size(2), 2 })
end

-- new samples at each call, unless fixed; always when the batch or plane count changes
function SpatialFractionalMaxPooling:initSampleBuffer_(input)
   local size = self:getBufferSize_(input)
   if self.randomSamples == nil or torch.typename(self.randomSamples) ~= torch.typename(input) then
      self.randomSamples = input.new():resize(size):uniform()
   elseif self.randomSamples:size(1) ~= size[1] or self.randomSamples:size(2) ~= size[2] then
      self.randomSamples:resize(size):uniform()
   elseif not self.newRandomPool then
      self.randomSamples:uniform()
   end
end

function SpatialFractionalMaxPooling:getOutputSizes_(input)
   if not self.ratioW then return self.outW, self.outH end
   local n = input:nDimension()
   local outW = math.floor(input:size(n) * self.ratioW)
   local outH = math.floor(input:size(n - 1) * self.ratioH)
   if outW < 1 or outH < 1 then
      error('nn.SpatialFractionalMaxPooling: reduction ratio or input size too small, got ' ..
            nn.utils.sizeString(input), 3)
   end
   return outW, outH
end

-- With val (default true), the pooling windows stay those of the first forward.
function SpatialFractionalMaxPooling:fixPoolingRegions(val)
   if val == nil then val = true end
   self.newRandomPool = val
   return self
end

function SpatialFractionalMaxPooling:updateOutput(input)
   checkInput(input)
   self:initSampleBuffer_(input)
   local outW, outH = self:getOutputSizes_(input)
   input.THNN.SpatialFractionalMaxPooling_updateOutput(input, self.output, outW, outH, self.poolSizeW, self.poolSizeH,
                                                       nn.utils.poolingIndices(self), self.randomSamples)
   return self.output
end

function SpatialFractionalMaxPooling:updateGradInput(input, gradOutput)
   assert(self.randomSamples ~= nil, 'nn.SpatialFractionalMaxPooling: call updateOutput/forward first')
   checkInput(input)
   local outW, outH = self:getOutputSizes_(input)
   input.THNN.SpatialFractionalMaxPooling_updateGradInput(input, gradOutput, self.gradInput, outW, outH,
                                                          self.poolSizeW, self.poolSizeH, nn.utils.poolingIndices(self))
   return self.gradInput
end

-- fixed pooling regions survive (their samples are small)
function SpatialFractionalMaxPooling:clearState()
   nn.utils.clear(self, 'indices')
   if not self.newRandomPool then self.randomSamples = nil end
   return parent.clearState(self)
end

function SpatialFractionalMaxPooling:__tostring__()
   return string.format('%s(%s,%s,%d,%d)', torch.type(self), self.outW or self.ratioW, self.outH or self.ratioH,
                        self.poolSizeW, self.poolSizeH)
end
