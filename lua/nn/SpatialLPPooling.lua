-- nn.SpatialLPPooling(nInputPlane, pnorm, kW, kH[, dW = kW, dH = kH]): the p-norm of each
-- kW x kH window of each plane, (sum x^p)^(1/p), as torch7's Sequential of Power (Square for
-- p = 2), SpatialAveragePooling, MulConstant(kW kH) and Power(1/p) (Sqrt). No parameters.
local SpatialLPPooling, parent = torch.class('nn.SpatialLPPooling', 'nn.Sequential')

function SpatialLPPooling:__init(nInputPlane, pnorm, kW, kH, dW, dH)
   parent.__init(self)
   dW = dW or kW
   dH = dH or kH
   self.nInputPlane = nInputPlane
   self.pnorm = pnorm
   self.kW = kW
   self.kH = kH
   self.dW = dW
   self.dH = dH
   self:add(pnorm == 2 and nn.Square() or nn.Power(pnorm))
   self:add(nn.SpatialAveragePooling(kW, kH, dW, dH))
   self:add(nn.MulConstant(kW * kH))
   self:add(pnorm == 2 and nn.Sqrt() or nn.Power(1 / pnorm))
end

-- the pooling has nothing to learn
function SpatialLPPooling:reset() end
function SpatialLPPooling:accGradParameters() end
function SpatialLPPooling:accUpdateGradParameters() end
function SpatialLPPooling:zeroGradParameters() end
function SpatialLPPooling:updateParameters() end
