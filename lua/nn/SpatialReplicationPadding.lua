-- nn.SpatialReplicationPadding(pad_l[, pad_r, pad_t, pad_b]; each defaults to pad_l): pads the
-- last two dimensions of C x H x W images (or batches) by repeating the edge
-- (a a | a b c d | d d). A negative pad crops.
local SpatialReplicationPadding, parent = torch.class('nn.SpatialReplicationPadding', 'nn.Module')

function SpatialReplicationPadding:__init(pad_l, pad_r, pad_t, pad_b)
   parent.__init(self)
   nn.utils.setPads(self, pad_l, pad_r, pad_t, pad_b)
end

function SpatialReplicationPadding:updateOutput(input)
   return nn.utils.paddingOutput(self, input, 'SpatialReplicationPadding')
end

function SpatialReplicationPadding:updateGradInput(input, gradOutput)
   return nn.utils.paddingGradInput(self, input, gradOutput, 'SpatialReplicationPadding')
end

SpatialReplicationPadding.__tostring__ = nn.utils.paddingString
