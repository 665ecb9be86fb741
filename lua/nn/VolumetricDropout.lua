-- nn.VolumetricDropout([p = 0.5[, stochasticInference = false]]): nn.SpatialDropout over
-- the volumes of a [C, T, H, W] or [B, C, T, H, W] input.
local VolumetricDropout = torch.class('nn.VolumetricDropout', 'nn.SpatialDropout')

VolumetricDropout.nPlaneDims = 3
