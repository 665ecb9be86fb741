-- nn.SpatialReplicationPadding(pad_l[, pad_r, pad_t, pad_b]; each defaults to pad_l): pads the
-- last two dimensions of C x H x W images (or batches) by repeating the edge
-- (a a | a b c d | d d). A negative pad crops.
local SpatialReplicationPadding, parent = torch.class('nn.SpatialReplicationPadding', 'nn.Module')

function SpatialReplicationPadding:__init(pad_l, pad_r, pad_t, pad_b)
   parent.__init(self)
   self.pad_l = pad_l
   self.pad_r = pad_r or self.pad_l
   self.pad_t = pad_t or self.pad_l
   self.pad_b = pad_b or self.pad_l
end

local function checkInput(input)
   if input:dim() ~= 3 and input:dim() ~= 4 then
      error('nn.SpatialReplicationPadding: 3D or 4D (batch mode) tensor expected, got ' .. nn.utils.sizeString(input), 3)
   end
end

function SpatialReplicationPadding:updateOutput(input)
   checkInput(input)
   input.THNN.SpatialReplicationPadding_updateOutput(input, self.output, self.pad_l, self.pad_r, self.pad_t, self.pad_b)
   return self.output
end

function SpatialReplicationPadding:updateGradInput(input, gradOutput)
   checkInput(input)
   input.THNN.SpatialReplicationPadding_updateGradInput(input, gradOutput, self.gradInput, self.pad_l, self.pad_r,
                                                    self.pad_t, self.pad_b)
   return self.gradInput
end

function SpatialReplicationPadding:__tostring__()
   return torch.type(self) .. string.format('(l=%d, r=%d, t=%d, b=%d)', self.pad_l, self.pad_r, self.pad_t, self.pad_b)
end
