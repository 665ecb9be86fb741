-- nn.GradientReversal([lambda = 1]): the identity forwards; backwards the gradient times
-- -lambda (domain-adversarial training).
local GradientReversal, parent = torch.class('nn.GradientReversal', 'nn.Module')

function GradientReversal:__init(lambda)
   parent.__init(self)
   self.lambda = lambda or 1
end

function GradientReversal:setLambda(lambda)
   self.lambda = lambda
end

function GradientReversal:updateOutput(input)
   self.output:set(input)
   return self.output
end

function GradientReversal:updateGradInput(input, gradOutput)
   self.gradInput:resizeAs(gradOutput):copy(gradOutput):mul(-self.lambda)
   return self.gradInput
end
