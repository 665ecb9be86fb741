-- nn.CrossEntropyCriterion([weights[, sizeAverage = true]]): ClassNLLCriterion of
-- LogSoftMax(x), for raw scores x.
local CrossEntropyCriterion, parent = torch.class('nn.CrossEntropyCriterion', 'nn.Criterion')

function CrossEntropyCriterion:__init(weights, sizeAverage)
   parent.__init(self)
   self.lsm = nn.LogSoftMax()
   self.nll = nn.ClassNLLCriterion(weights, sizeAverage)
   self.sizeAverage = self.nll.sizeAverage
   self.oldSizeAverage = self.sizeAverage
end

-- self.sizeAverage reaches self.nll only when it was changed since the last call, so that
-- code setting cri.nll.sizeAverage directly (as older torch7 code did) keeps working.
local function propagateSizeAverage(self)
   if self.sizeAverage ~= self.oldSizeAverage then
      self.nll.sizeAverage = self.sizeAverage
      self.oldSizeAverage = self.sizeAverage
   end
end

local function squeezed(target)
   return type(target) == 'number' and target or target:squeeze()
end

function CrossEntropyCriterion:updateOutput(input, target)
   input = input:squeeze()
   self.lsm:updateOutput(input)
   propagateSizeAverage(self)
   self.nll:updateOutput(self.lsm.output, squeezed(target))
   self.output = self.nll.output
   return self.output
end

function CrossEntropyCriterion:updateGradInput(input, target)
   local size = input:size()
   input = input:squeeze()
   propagateSizeAverage(self)
   self.nll:updateGradInput(self.lsm.output, squeezed(target))
   self.lsm:updateGradInput(input, self.nll.gradInput)
   self.gradInput = self.lsm.gradInput:view(size)
   return self.gradInput
end
