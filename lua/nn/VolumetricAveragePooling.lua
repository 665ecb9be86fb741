-- nn.VolumetricAveragePooling(kT, kW, kH[, dT = kT, dW = kW, dH = kH[, padT = 0, padW = 0,
-- padH = 0]]): the mean of each kT x kH x kW window of each volume; padding counts in the
-- divisor unless setCountExcludePad(). :ceil() rounds the output size up.
local VolumetricAveragePooling, parent = torch.class('nn.VolumetricAveragePooling', 'nn.Module')

function VolumetricAveragePooling:__init(kT, kW, kH, dT, dW, dH, padT, padW, padH)
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
   self.count_include_pad = true
end

VolumetricAveragePooling.ceil = nn.utils.setCeilMode
VolumetricAveragePooling.floor = nn.utils.setFloorMode
VolumetricAveragePooling.setCountIncludePad = nn.utils.setCountIncludePad
VolumetricAveragePooling.setCountExcludePad = nn.utils.setCountExcludePad

function VolumetricAveragePooling:updateOutput(input)
   input.THNN.VolumetricAveragePooling_updateOutput(input, self.output, self.kT, self.kW, self.kH, self.dT, self.dW,
                                                    self.dH, self.padT, self.padW, self.padH, self.ceil_mode,
                                                    self.count_include_pad)
   return self.output
end

function VolumetricAveragePooling:updateGradInput(input, gradOutput)
   input.THNN.VolumetricAveragePooling_updateGradInput(input, gradOutput, self.gradInput, self.kT, self.kW, self.kH,
                                                       self.dT, self.dW, self.dH, self.padT, self.padW, self.padH,
                                                       self.ceil_mode, self.count_include_pad)
   return self.gradInput
end

function VolumetricAveragePooling:__tostring__()
   return nn.utils.poolingString(self, { self.kT, self.kW, self.kH }, { self.dT, self.dW, self.dH },
                                 { self.padT, self.padW, self.padH })
end
