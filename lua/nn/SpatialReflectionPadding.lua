-- nn.SpatialReflectionPadding(pad_l[, pad_r, pad_t, pad_b]; each defaults to pad_l): pads the
-- last two dimensions of C x H x W images (or batches) by their mirror image without
-- repeating the edge (d c b | a b c d | c b a); each pad must be smaller than the padded
-- size. A negative pad crops.
local SpatialReflectionPadding, parent = torch.class('nn.SpatialReflectionPadding', 'nn.Module')

function SpatialReflectionPadding:__init(pad_l, pad_r, pad_t, pad_b)
   parent.__init(self)
   nn.utils.setPads(self, pad_l, pad_r, pad_t, pad_b)
end

function SpatialReflectionPadding:updateOutput(input)
   return nn.utils.paddingOutput(self, input, 'SpatialReflectionPadding')
end

function SpatialReflectionPadding:updateGradInput(input, gradOutput)
   return nn.utils.paddingGradInput(self, input, gradOutput, 'SpatialReflectionPadding')
end

SpatialReflectionPadding.__tostring__ = nn.utils.paddingString
