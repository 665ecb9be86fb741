-- nn.FeatureLPPooling(width, stride[, power = 2[, batchMode = false]]): Lp pooling across
-- features (THNN's FeatureLPPooling): windows of `width` features, `stride` apart, become
-- (sum x^power)^(1 / power). The feature dimension is the first (1D to 3D input) or, in
-- batch mode, the second (2D to 4D). width in 2..16, stride in 1..4.
local FeatureLPPooling, parent = torch.class('nn.FeatureLPPooling', 'nn.Module')

function FeatureLPPooling:__init(width, stride, power, batchMode)
   parent.__init(self)
   if type(width) ~= 'number' or width < 2 or width > 16 then
      error('nn.FeatureLPPooling: width must be in 2..16', 2)
   end
   if type(stride) ~= 'number' or stride < 1 or stride > 4 then
      error('nn.FeatureLPPooling: stride must be in 1..4', 2)
   end
   self.width = width
   self.stride = stride
   self.power = power or 2
   self.batch_mode = batchMode or false
end

function FeatureLPPooling:updateOutput(input)
   input.THNN.FeatureLPPooling_updateOutput(input, self.output, self.power, self.width, self.stride, self.batch_mode)
   return self.output
end

function FeatureLPPooling:updateGradInput(input, gradOutput)
   input.THNN.FeatureLPPooling_updateGradInput(gradOutput, input, self.output, self.gradInput, self.power, self.width,
                                               self.stride, self.batch_mode)
   return self.gradInput
end

function FeatureLPPooling:__tostring__()
   return string.format('%s(w%d s%d power %d batch %d)', torch.type(self), self.width, self.stride, self.power,
                        self.batch_mode and 1 or 0)
end
