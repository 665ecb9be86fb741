-- nn.SpatialAutoCropMSECriterion([sizeAverage = true]): nn.MSECriterion between a
-- C x H x W (or batched) input and the centre of a target that may be larger in height and
-- width: the target is cropped to the input's size, offset by floor((larger - smaller) / 2).
local SpatialAutoCropMSECriterion, parent = torch.class('nn.SpatialAutoCropMSECriterion', 'nn.MSECriterion')

function SpatialAutoCropMSECriterion:__init(sizeAverage)
   parent.__init(self, sizeAverage)
end

function SpatialAutoCropMSECriterion:_crop(input, target)
   if input:dim() ~= target:dim() or (input:dim() ~= 3 and input:dim() ~= 4) then
      error(string.format('nn.SpatialAutoCropMSECriterion: input and target must both be 3D or 4D (batch mode), '
                          .. 'got %s and %s', nn.utils.sizeString(input), nn.utils.sizeString(target)), 3)
   end
   local d = input:dim()
   for i = 1, d - 2 do
      if input:size(i) ~= target:size(i) then
         error(string.format('nn.SpatialAutoCropMSECriterion: input %s and target %s differ in dimension %d',
                             nn.utils.sizeString(input), nn.utils.sizeString(target), i), 3)
      end
   end
   local cropped = target
   for i = d - 1, d do
      local diff = target:size(i) - input:size(i)
      if diff < 0 then
         error(string.format('nn.SpatialAutoCropMSECriterion: the target (%s) must be at least as large as the '
                             .. 'input (%s) in height and width', nn.utils.sizeString(target),
                             nn.utils.sizeString(input)), 3)
      end
      cropped = cropped:narrow(i, math.floor(diff / 2) + 1, input:size(i))
   end
   return cropped:contiguous()
end

function SpatialAutoCropMSECriterion:updateOutput(input, target)
   return parent.updateOutput(self, input, self:_crop(input, target))
end

function SpatialAutoCropMSECriterion:updateGradInput(input, target)
   return parent.updateGradInput(self, input, self:_crop(input, target))
end
