-- nn.SpatialReplicationPadding(pad_l[, pad_r, pad_t, pad_b]; each defaults to pad_l): pads the
-- last two dimensions of C x H x W images (or batches) by repeating the edge
-- (a a | a b c d | d d). A negative pad crops.
local SpatialReplicationPadding = torch.class('nn.SpatialReplicationPadding', 'nn.Module')

nn.utils.thnnPadding(SpatialReplicationPadding, 'SpatialReplicationPadding')
