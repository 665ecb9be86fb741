-- nn.SpatialMaxPooling(kW, kH[, dW = kW, dH = kH[, padW = 0, padH = 0]]): the maximum of
-- each kW x kH window of each plane. indices (a LongTensor shaped like the output) holds
-- where each maximum was, counting from 1. :ceil() rounds the output size up. The input's
-- last two sizes are kept (iheight, iwidth) for SpatialMaxUnpooling.
local SpatialMaxPooling, parent = torch.class('nn.SpatialMaxPooling', 'nn.Module')

function SpatialMaxPooling:__init(kW, kH, dW, dH, padW, padH)
   parent.__init(self)
   self.kW = kW
   self.kH = kH
   self.dW = dW or kW
   self.dH = dH or kH
   self.padW = padW or 0
   self.padH = padH or 0
   self.ceil_mode = false
   self.indices = torch.LongTensor()
end

function SpatialMaxPooling:ceil()
   self.ceil_mode = true
   return self
end

function SpatialMaxPooling:floor()
   self.ceil_mode = false
   return self
end

-- type() converts every tensor; the kernels want the indices as longs
local function longIndices(self)
   self.indices = self.indices and self.indices:long() or torch.LongTensor()
   return self.indices
end

function SpatialMaxPooling:updateOutput(input)
   input.THNN.SpatialMaxPooling_updateOutput(input, self.output, longIndices(self), self.kW, self.kH, self.dW,
                                             self.dH, self.padW, self.padH, self.ceil_mode)
   -- the input's size, which SpatialMaxUnpooling restores
   local n = input:dim()
   self.iheight, self.iwidth = input:size(n - 1), input:size(n)
   return self.output
end

function SpatialMaxPooling:updateGradInput(input, gradOutput)
   input.THNN.SpatialMaxPooling_updateGradInput(input, gradOutput, self.gradInput, longIndices(self), self.kW,
                                                self.kH, self.dW, self.dH, self.padW, self.padH, self.ceil_mode)
   return self.gradInput
end

function SpatialMaxPooling:__tostring__()
   local s = string.format('%s(%dx%d, %d,%d', torch.type(self), self.kW, self.kH, self.dW, self.dH)
   if self.padW ~= 0 or self.padH ~= 0 then
      s = s .. ', ' .. self.padW .. ',' .. self.padH
   end
   return s .. ')'
end

function SpatialMaxPooling:clearState()
   if self.indices then self.indices:set() end
   return parent.clearState(self)
end
