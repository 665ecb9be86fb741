-- nn.VolumetricReplicationPadding(pleft[, pright, ptop, pbottom, pfront, pback]; each
-- defaults to pleft): pads the last three dimensions (width, height, time) of
-- C x T x H x W volumes or batches of them by repeating the edge; a negative pad crops.
local VolumetricReplicationPadding, parent = torch.class('nn.VolumetricReplicationPadding', 'nn.Module')

function VolumetricReplicationPadding:__init(pleft, pright, ptop, pbottom, pfront, pback)
   parent.__init(self)
   self.pleft = pleft
   self.pright = pright or pleft
   self.ptop = ptop or pleft
   self.pbottom = pbottom or pleft
   self.pfront = pfront or pleft
   self.pback = pback or pleft
end

local function checkInput(input)
   if input:dim() ~= 4 and input:dim() ~= 5 then
      error('nn.VolumetricReplicationPadding: 4D or 5D (batch mode) tensor expected, got ' ..
            nn.utils.sizeString(input), 3)
   end
end

function VolumetricReplicationPadding:updateOutput(input)
   checkInput(input)
   input.THNN.VolumetricReplicationPadding_updateOutput(input, self.output, self.pleft, self.pright, self.ptop,
                                                        self.pbottom, self.pfront, self.pback)
   return self.output
end

function VolumetricReplicationPadding:updateGradInput(input, gradOutput)
   checkInput(input)
   input.THNN.VolumetricReplicationPadding_updateGradInput(input, gradOutput, self.gradInput, self.pleft,
                                                           self.pright, self.ptop, self.pbottom, self.pfront,
                                                           self.pback)
   return self.gradInput
end

function VolumetricReplicationPadding:__tostring__()
   return string.format('%s(left=%d, right=%d, top=%d, bottom=%d, front=%d, back=%d)', torch.type(self), self.pleft,
                        self.pright, self.ptop, self.pbottom, self.pfront, self.pback)
end
