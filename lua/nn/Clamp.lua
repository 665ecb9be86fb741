-- nn.Clamp(min_value, max_value): x clamped to [min_value, max_value] (a HardTanh).
local Clamp, parent = torch.class('nn.Clamp', 'nn.HardTanh')

function Clamp:__init(min_value, max_value)
   parent.__init(self, min_value, max_value)
end
