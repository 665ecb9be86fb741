-- nn.Mean([dimension = 1[, nInputDims[, squeeze = true]]]): nn.Sum with sizeAverage.
local Mean, parent = torch.class('nn.Mean', 'nn.Sum')

function Mean:__init(dimension, nInputDims, squeeze)
   parent.__init(self, dimension, nInputDims, true, squeeze)
end
