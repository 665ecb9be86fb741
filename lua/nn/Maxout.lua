-- nn.Maxout(inputSize, outputSize, maxoutNumber[, preprocess]): a Linear layer to
-- outputSize * maxoutNumber units, viewed as maxoutNumber groups of outputSize, and the
-- maximum over the groups (an optional preprocess module between); a Sequential, as in
-- torch7, so that saved models keep its structure.
local Maxout, parent = torch.class('nn.Maxout', 'nn.Sequential')

function Maxout:__init(inputSize, outputSize, maxoutNumber, preprocess)
   parent.__init(self)
   self:add(nn.Linear(inputSize, outputSize * maxoutNumber))
   self:add(nn.View(maxoutNumber, outputSize):setNumInputDims(1))
   if preprocess then self:add(preprocess) end
   self:add(nn.Max(1, 2))
end
