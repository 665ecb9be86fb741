-- nn.SpatialBatchNormalization(nFeature[, eps, momentum, affine]): BatchNormalization of
-- each plane of N x nFeature x H x W batches (statistics over N, H and W).
local SpatialBatchNormalization = torch.class('nn.SpatialBatchNormalization', 'nn.BatchNormalization')

SpatialBatchNormalization.nDim = 4
