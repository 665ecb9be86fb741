-- nn.UpSampling(scale[, mode = 'nearest']) or nn.UpSampling({ [odepth =,] oheight =, owidth = },
-- 'linear'): upsampling of batches of images (N x C x H x W) or volumes (N x C x D x H x W),
-- over THNN's SpatialUpSampling{Nearest,Bilinear} and VolumetricUpSampling{Nearest,Trilinear}.
-- An integer scale multiplies each spatial size; 'linear' (also 'bilinear', 'trilinear')
-- interpolates with corners aligned and may take the output sizes instead; any other mode
-- is 'nearest', which needs a scale.
local UpSampling, parent = torch.class('nn.UpSampling', 'nn.Module')

function UpSampling:__init(params, mode)
   parent.__init(self)
   local linear = mode == 'linear' or mode == 'bilinear' or mode == 'trilinear'
   self.mode = linear and 'linear' or 'nearest'
   if torch.type(params) == 'table' then
      if not linear then error('nn.UpSampling: nearest neighbour upsampling needs a scale factor', 2) end
      self.odepth, self.oheight, self.owidth = params.odepth, params.oheight, params.owidth
      if self.oheight == nil or self.owidth == nil then
         error('nn.UpSampling: the output height and width (oheight, owidth) are required', 2)
      end
   else
      if type(params) ~= 'number' or params < 1 or math.floor(params) ~= params then
         error('nn.UpSampling: the scale factor must be an integer, at least 1', 2)
      end
      self.scale_factor = params
   end
end

-- the output's spatial sizes (depth, height, width; depth only for volumes)
function UpSampling:_outputSizes(input)
   local n = input:dim()
   local sizes = {}
   for d = 3, n do
      sizes[#sizes + 1] = self.scale_factor and input:size(d) * self.scale_factor or nil
   end
   if not self.scale_factor then
      if n == 5 and not self.odepth then error('nn.UpSampling: a 5D input needs odepth', 3) end
      sizes = n == 5 and { self.odepth, self.oheight, self.owidth } or { self.oheight, self.owidth }
   end
   return sizes
end

local function checkInput(input)
   if input:dim() ~= 4 and input:dim() ~= 5 then
      error('nn.UpSampling: 4D (N x C x H x W) or 5D (N x C x D x H x W) tensor expected, got ' ..
            nn.utils.sizeString(input), 3)
   end
end

function UpSampling:updateOutput(input)
   checkInput(input)
   local THNN = input.THNN
   local o = self:_outputSizes(input)
   if input:dim() == 4 then
      if self.mode == 'nearest' then
         THNN.SpatialUpSamplingNearest_updateOutput(input, self.output, self.scale_factor)
      else
         THNN.SpatialUpSamplingBilinear_updateOutput(input, self.output, o[1], o[2])
      end
   elseif self.mode == 'nearest' then
      THNN.VolumetricUpSamplingNearest_updateOutput(input, self.output, self.scale_factor)
   else
      THNN.VolumetricUpSamplingTrilinear_updateOutput(input, self.output, o[1], o[2], o[3])
   end
   return self.output
end

function UpSampling:updateGradInput(input, gradOutput)
   checkInput(input)
   if gradOutput:dim() ~= input:dim() then
      error('nn.UpSampling: input and gradOutput must have as many dimensions', 2)
   end
   local THNN = input.THNN
   local o = self:_outputSizes(input)
   local s = input:size():totable()
   self.gradInput:resizeAs(input)
   if input:dim() == 4 then
      if self.mode == 'nearest' then
         THNN.SpatialUpSamplingNearest_updateGradInput(input, gradOutput, self.gradInput, self.scale_factor)
      else
         THNN.SpatialUpSamplingBilinear_updateGradInput(gradOutput, self.gradInput, s[1], s[2], s[3], s[4], o[1], o[2])
      end
   elseif self.mode == 'nearest' then
      THNN.VolumetricUpSamplingNearest_updateGradInput(input, gradOutput, self.gradInput, self.scale_factor)
   else
      THNN.VolumetricUpSamplingTrilinear_updateGradInput(gradOutput, self.gradInput, s[1], s[2], s[3], s[4], s[5],
                                                         o[1], o[2], o[3])
   end
   return self.gradInput
end

function UpSampling:__tostring__()
   if self.scale_factor then
      return string.format('%s(%dx, %s)', torch.type(self), self.scale_factor, self.mode)
   elseif self.odepth then
      return string.format('%s(%dx%dx%d, %s)', torch.type(self), self.odepth, self.oheight, self.owidth, self.mode)
   end
   return string.format('%s(%dx%d, %s)', torch.type(self), self.oheight, self.owidth, self.mode)
end
