-- nn.SpatialReflectionPadding(pad_l[, pad_r, pad_t, pad_b]; each defaults to pad_l): pads the
-- last two dimensions of C x H x W images (or batches) by their mirror image without
-- repeating the edge (d c b | a b c d | c b a); each pad must be smaller than the padded
-- size. A negative pad crops.
local SpatialReflectionPadding = torch.class('nn.SpatialReflectionPadding', 'nn.Module')

nn.utils.thnnPadding(SpatialReflectionPadding, 'SpatialReflectionPadding')
