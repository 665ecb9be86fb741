-- nn.SpatialReflectionPadding(pad_l[, pad_r, pad_t, pad_b]; each defaults to pad_l): pads the
-- last two dimensions of C x H x W images (or batches) by their mirror image without
-- repeating the edge (d c b | a b c d | c b a); each pad must be smaller than the padded
-- size. A negative pad crops.
local SpatialReflectionPadding, parent = torch.class('nn.SpatialReflectionPadding', 'nn.Module')

function SpatialReflectionPadding:__init(pad_l, pad_r, pad_t, pad_b)
   parent.__init(self)
   self.pad_l = pad_l
   self.pad_r = pad_r or self.pad_l
   self.pad_t = pad_t or self.pad_l
   self.pad_b = pad_b or self.pad_l
end

local function checkInput(input)
   if input:dim() ~= 3 and input:dim() ~= 4 then
      error('nn.SpatialReflectionPadding: 3D or 4D (batch mode) tensor expected, got ' .. nn.utils.sizeString(input), 3)
   end
end

function SpatialReflectionPadding:updateOutput(input)
   checkInput(input)
   input.THNN.SpatialReflectionPadding_updateOutput(input, self.output, self.pad_l, self.pad_r, self.pad_t, self.pad_b)
   return self.output
end

function SpatialReflectionPadding:updateGradInput(input, gradOutput)
   checkInput(input)
   input.THNN.SpatialReflectionPadding_updateGradInput(input, gradOutput, self.gradInput, self.pad_l, self.pad_r,
                                                    self.pad_t, self.pad_b)
   return self.gradInput
end

function SpatialReflectionPadding:__tostring__()
   return torch.type(self) .. string.format('(l=%d, r=%d, t=%d, b=%d)', self.pad_l, self.pad_r, self.pad_t, self.pad_b)
end
