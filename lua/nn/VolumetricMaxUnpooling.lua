-- nn.VolumetricMaxUnpooling(poolingModule): the inverse of a VolumetricMaxPooling whose
-- kernel equals its stride: each input value goes back to where the pooling found its
-- maximum (the pooling's indices), zeros elsewhere, in volumes of the pooling's input size.
local VolumetricMaxUnpooling, parent = torch.class('nn.VolumetricMaxUnpooling', 'nn.Module')

function VolumetricMaxUnpooling:__init(poolingModule)
   parent.__init(self)
   assert(torch.type(poolingModule) == 'nn.VolumetricMaxPooling',
          'nn.VolumetricMaxUnpooling: the argument must be a nn.VolumetricMaxPooling module')
   assert(poolingModule.kT == poolingModule.dT and poolingModule.kH == poolingModule.dH and
          poolingModule.kW == poolingModule.dW,
          "nn.VolumetricMaxUnpooling: the pooling module's kernel size must equal its stride")
   self.pooling = poolingModule
end

function VolumetricMaxUnpooling:setParams()
   local pool = self.pooling
   if not pool.itime then
      error('nn.VolumetricMaxUnpooling: the pooling module has not run forward yet', 3)
   end
   self.indices = pool:flatIndices(pool.itime, pool.iheight, pool.iwidth)
   self.otime, self.oheight, self.owidth = pool.itime, pool.iheight, pool.iwidth
   self.dT, self.dH, self.dW = pool.dT, pool.dH, pool.dW
   self.padT, self.padH, self.padW = pool.padT, pool.padH, pool.padW
end

function VolumetricMaxUnpooling:updateOutput(input)
   self:setParams()
   input.THNN.VolumetricMaxUnpooling_updateOutput(input, self.output, self.indices, self.otime, self.owidth,
                                                  self.oheight, self.dT, self.dW, self.dH, self.padT, self.padW,
                                                  self.padH)
   return self.output
end

function VolumetricMaxUnpooling:updateGradInput(input, gradOutput)
   self:setParams()
   input.THNN.VolumetricMaxUnpooling_updateGradInput(input, gradOutput, self.gradInput, self.indices, self.otime,
                                                     self.owidth, self.oheight, self.dT, self.dW, self.dH, self.padT,
                                                     self.padW, self.padH)
   return self.gradInput
end

function VolumetricMaxUnpooling:__tostring__()
   return 'nn.VolumetricMaxUnpooling associated to ' .. tostring(self.pooling)
end
