-- nn.SoftPlus([beta = 1[, threshold = 20]]): y = log(1 + exp(beta * x)) / beta, linear
-- where beta * x > threshold.
local SoftPlus, parent = torch.class('nn.SoftPlus', 'nn.Module')

function SoftPlus:__init(beta, threshold)
   parent.__init(self)
   self.beta = beta or 1
   self.threshold = threshold or 20
end

function SoftPlus:updateOutput(input)
   input.THNN.SoftPlus_updateOutput(input, self.output, self.beta, self.threshold)
   return self.output
end

function SoftPlus:updateGradInput(input, gradOutput)
   input.THNN.SoftPlus_updateGradInput(input, gradOutput, self.gradInput, self.output, self.beta, self.threshold)
   return self.gradInput
end
