-- nn.PixelShuffle(upscaleFactor): rearranges C r^2 x H x W (or a batch of them) into
-- C x H r x W r: output[c][h r + i][w r + j] = input[c r^2 + i r + j][h][w] (0-based offsets).
local PixelShuffle, parent = torch.class('nn.PixelShuffle', 'nn.Module')

function PixelShuffle:__init(upscaleFactor)
   parent.__init(self)
   assert(type(upscaleFactor) == 'number' and upscaleFactor >= 1,
          'nn.PixelShuffle(upscaleFactor): upscaleFactor must be a positive number')
   self.upscaleFactor = upscaleFactor
   self.upscaleFactorSquared = upscaleFactor * upscaleFactor
end

function PixelShuffle:_sizes(input)
   local batched = input:dim() == 4
   if input:dim() ~= 3 and not batched then
      error('nn.PixelShuffle: 3D or 4D (batch mode) tensor expected, got ' .. nn.utils.sizeString(input), 3)
   end
   local o = batched and 1 or 0
   local b = batched and input:size(1) or 1
   local c, h, w = input:size(o + 1), input:size(o + 2), input:size(o + 3)
   if c % self.upscaleFactorSquared ~= 0 then
      error(string.format('nn.PixelShuffle: the channel count %d is not a multiple of upscaleFactor^2 = %d', c,
                          self.upscaleFactorSquared), 3)
   end
   return batched, b, c / self.upscaleFactorSquared, h, w
end

-- the 6-D view (b, c, i, j, h, w) of the input reordered as (b, c, h, i, w, j)
local function shuffled(t, b, c, r, h, w)
   return t:view(b, c, r, r, h, w):transpose(3, 5):transpose(4, 5):transpose(5, 6)
end

function PixelShuffle:updateOutput(input)
   local batched, b, c, h, w = self:_sizes(input)
   local r = self.upscaleFactor
   local src = shuffled(input:contiguous(), b, c, r, h, w)
   self.output:resize(b, c, h, r, w, r):copy(src)
   if batched then self.output = self.output:view(b, c, h * r, w * r)
   else self.output = self.output:view(c, h * r, w * r) end
   return self.output
end

function PixelShuffle:updateGradInput(input, gradOutput)
   local batched, b, c, h, w = self:_sizes(input)
   local r = self.upscaleFactor
   self.gradInput:resizeAs(input)
   local dst = shuffled(self.gradInput, b, c, r, h, w)
   dst:copy(gradOutput:contiguous():view(b, c, h, r, w, r))
   return self.gradInput
end

function PixelShuffle:__tostring__()
   return string.format('%s(%d)', torch.type(self), self.upscaleFactor)
end
