-- nn.Min([dimension = 1[, nInputDims]]): nn.Max's counterpart, the minimum.
local Min = torch.class('nn.Min', 'nn.Max')

Min.reduction = 'min'
