-- nn.SpatialZeroPadding(pad_l[, pad_r, pad_t, pad_b]; each defaults to pad_l): pads the last
-- two dimensions of C x H x W images (or batches) with zeros: pad_l columns on the left,
-- pad_r on the right, pad_t rows on top, pad_b below. A negative pad crops.
local SpatialZeroPadding, parent = torch.class('nn.SpatialZeroPadding', 'nn.Module')

function SpatialZeroPadding:__init(pad_l, pad_r, pad_t, pad_b)
   parent.__init(self)
   nn.utils.setPads(self, pad_l, pad_r, pad_t, pad_b)
end

-- t without top and bottom rows (dimension dim - 1) and left and right columns (dim): the
-- part of the output that the input fills, or of the input that reaches the output
local function inner(t, dim, top, bottom, left, right)
   t = t:narrow(dim - 1, 1 + top, t:size(dim - 1) - top - bottom)
   return t:narrow(dim, 1 + left, t:size(dim) - left - right)
end

local function pos(x) return math.max(x, 0) end
local function neg(x) return math.max(-x, 0) end

local function outputSize(self, input)
   local dim = input:dim()
   if dim ~= 3 and dim ~= 4 then
      error('nn.SpatialZeroPadding: 3D or 4D (batch mode) tensor expected, got ' .. nn.utils.sizeString(input), 3)
   end
   local size = input:size()
   size[dim - 1] = size[dim - 1] + self.pad_t + self.pad_b
   size[dim] = size[dim] + self.pad_l + self.pad_r
   if size[dim - 1] < 1 or size[dim] < 1 then
      error('nn.SpatialZeroPadding: input ' .. nn.utils.sizeString(input) .. ' is too small for the cropping', 3)
   end
   return size, dim
end

function SpatialZeroPadding:updateOutput(input)
   local size, dim = outputSize(self, input)
   self.output:resize(size):zero()
   inner(self.output, dim, pos(self.pad_t), pos(self.pad_b), pos(self.pad_l), pos(self.pad_r))
      :copy(inner(input, dim, neg(self.pad_t), neg(self.pad_b), neg(self.pad_l), neg(self.pad_r)))
   return self.output
end

function SpatialZeroPadding:updateGradInput(input, gradOutput)
   local size, dim = outputSize(self, input)
   local expected = table.concat(size:totable(), 'x')
   if nn.utils.sizeString(gradOutput) ~= expected then
      error('nn.SpatialZeroPadding: gradOutput must have the output\'s size ' .. expected .. ', got ' ..
            nn.utils.sizeString(gradOutput), 2)
   end
   self.gradInput:resizeAs(input):zero()
   inner(self.gradInput, dim, neg(self.pad_t), neg(self.pad_b), neg(self.pad_l), neg(self.pad_r))
      :copy(inner(gradOutput, dim, pos(self.pad_t), pos(self.pad_b), pos(self.pad_l), pos(self.pad_r)))
   return self.gradInput
end

SpatialZeroPadding.__tostring__ = nn.utils.paddingString
