-- nn.SpatialMaxUnpooling(poolingModule): the inverse of a SpatialMaxPooling whose kernel
-- equals its stride: each input value goes back to where the pooling found its maximum
-- (the pooling's 1-based indices), zeros elsewhere, in planes of the pooling's input size
-- (its iheight x iwidth, kept by its forward).
local SpatialMaxUnpooling, parent = torch.class('nn.SpatialMaxUnpooling', 'nn.Module')

function SpatialMaxUnpooling:__init(poolingModule)
   parent.__init(self)
   assert(torch.type(poolingModule) == 'nn.SpatialMaxPooling',
          'nn.SpatialMaxUnpooling: the argument must be a nn.SpatialMaxPooling module')
   assert(poolingModule.kH == poolingModule.dH and poolingModule.kW == poolingModule.dW,
          "nn.SpatialMaxUnpooling: the pooling module's kernel size must equal its stride")
   self.pooling = poolingModule
end

function SpatialMaxUnpooling:setParams()
   if not self.pooling.iheight then
      error('nn.SpatialMaxUnpooling: the pooling module has not run forward yet', 3)
   end
   self.indices = self.pooling.indices
   self.oheight = self.pooling.iheight
   self.owidth = self.pooling.iwidth
end

function SpatialMaxUnpooling:updateOutput(input)
   self:setParams()
   input.THNN.SpatialMaxUnpooling_updateOutput(input, self.output, self.indices, self.owidth, self.oheight)
   return self.output
end

function SpatialMaxUnpooling:updateGradInput(input, gradOutput)
   self:setParams()
   input.THNN.SpatialMaxUnpooling_updateGradInput(input, gradOutput, self.gradInput, self.indices, self.owidth,
                                                  self.oheight)
   return self.gradInput
end

function SpatialMaxUnpooling:__tostring__()
   return 'nn.SpatialMaxUnpooling associated to ' .. tostring(self.pooling)
end
