-- nn.VolumetricBatchNormalization(nFeature[, eps, momentum, affine]): BatchNormalization of
-- each feature volume of N x nFeature x T x H x W batches (statistics over N, T, H and W).
local VolumetricBatchNormalization = torch.class('nn.VolumetricBatchNormalization', 'nn.BatchNormalization')

VolumetricBatchNormalization.nDim = 5
