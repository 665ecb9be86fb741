-- nn.VolumetricMaxPooling(kT, kW, kH[, dT = kT, dW = kW, dH = kH[, padT = 0, padW = 0,
-- padH = 0]]): the maximum of each kT x kH x kW window of each volume. indices (a LongTensor
-- shaped like the output) holds where each maximum was: the flat offset t*H*W + h*W + w in
-- the volume, counting from 1. :ceil() rounds the output size up. The input's last three
-- sizes are kept (itime, iheight, iwidth) for VolumetricMaxUnpooling.
local VolumetricMaxPooling, parent = torch.class('nn.VolumetricMaxPooling', 'nn.Module')

VolumetricMaxPooling.__version = 2

function VolumetricMaxPooling:__init(kT, kW, kH, dT, dW, dH, padT, padW, padH)
   parent.__init(self)
   self.kT = kT
   self.kW = kW
   self.kH = kH
   self.dT = dT or kT
   self.dW = dW or kW
   self.dH = dH or kH
   self.padT = padT or 0
   self.padW = padW or 0
   self.padH = padH or 0
   self.ceil_mode = false
   self.indices = torch.LongTensor()
end

VolumetricMaxPooling.ceil = nn.utils.setCeilMode
VolumetricMaxPooling.floor = nn.utils.setFloorMode
VolumetricMaxPooling.clearState = nn.utils.maxPoolingClearState

function VolumetricMaxPooling:updateOutput(input)
   input.THNN.VolumetricMaxPooling_updateOutput(input, self.output, nn.utils.poolingIndices(self), self.kT, self.kW,
                                                self.kH, self.dT, self.dW, self.dH, self.padT, self.padW, self.padH,
                                                self.ceil_mode)
   local n = input:dim()
   self.itime, self.iheight, self.iwidth = input:size(n - 2), input:size(n - 1), input:size(n)
   return self.output
end

function VolumetricMaxPooling:updateGradInput(input, gradOutput)
   input.THNN.VolumetricMaxPooling_updateGradInput(input, gradOutput, self.gradInput, nn.utils.poolingIndices(self),
                                                   self.kT, self.kW, self.kH, self.dT, self.dW, self.dH, self.padT,
                                                   self.padW, self.padH, self.ceil_mode)
   return self.gradInput
end

function VolumetricMaxPooling:__tostring__()
   return nn.utils.poolingString(self, { self.kT, self.kW, self.kH }, { self.dT, self.dW, self.dH },
                                 { self.padT, self.padW, self.padH })
end
