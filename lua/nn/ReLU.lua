-- nn.ReLU([inplace]): y = max(0, x), a Threshold at 0.
local ReLU, parent = torch.class('nn.ReLU', 'nn.Threshold')

function ReLU:__init(inplace)
   parent.__init(self, 0, 0, inplace)
end
