-- The small modules nngraph builds graphs with: JustElement ({x} -> x), JustTable
-- (x -> {x}), Nest (a flat table of inputs -> a nested table of them), and
-- nn.ModuleFromCriterion (a criterion as a module of {input, target}).

-- nngraph.JustElement: the one element of a table of one
local JustElement, parentElement = torch.class('nngraph.JustElement', 'nn.Module')

function JustElement:__init()
   parentElement.__init(self)
   self.gradInput = {}
end

function JustElement:updateOutput(input)
   assert(type(input) == 'table' and #input == 1, 'nngraph.JustElement: a table of one element expected')
   self.output = input[1]
   return self.output
end

function JustElement:updateGradInput(input, gradOutput)
   self.gradInput = { gradOutput }
   return self.gradInput
end

-- nngraph.JustTable: its input in a table of one
local JustTable, parentTable = torch.class('nngraph.JustTable', 'nn.Module')

function JustTable:__init()
   parentTable.__init(self)
   self.output = {}
end

function JustTable:updateOutput(input)
   self.output = { input }
   return self.output
end

function JustTable:updateGradInput(input, gradOutput)
   self.gradInput = gradOutput[1]
   return self.gradInput
end

-- nngraph.Nest(layout[, single]): layout is a nested table of positions in the input list
-- (single: the input is the only element, not a list); the output
-- has layout's nesting with input[position] at each place, and the gradient of an input
-- used at several places is the sum of theirs.
local Nest, parentNest = torch.class('nngraph.Nest', 'nn.Module')

function Nest:__init(layout, single)
   parentNest.__init(self)
   self.layout = layout
   self.single = single or false  -- the input is the one element itself
end

function Nest:updateOutput(input)
   if self.single then input = { input } end
   local function build(l)
      if type(l) == 'number' then return input[l] end
      local t = {}
      for i, v in ipairs(l) do t[i] = build(v) end
      return t
   end
   self.output = build(self.layout)
   return self.output
end

function Nest:updateGradInput(input, gradOutput)
   local grads = {}
   local function gather(l, g)
      if type(l) == 'number' then
         if grads[l] == nil then
            grads[l] = nn.utils.recursiveCopy(nil, g)
         else
            nn.utils.recursiveAdd(grads[l], g)
         end
         return
      end
      for i, v in ipairs(l) do gather(v, g[i]) end
   end
   gather(self.layout, gradOutput)
   self.gradInput = self.single and grads[1] or grads
   return self.gradInput
end

-- nn.ModuleFromCriterion(criterion): a module of {input, target} whose output is the loss
-- as a tensor of one element; gradInput is {gradOutput[1] * dloss/dinput, zeros like the
-- target}.
local ModuleFromCriterion, parentMFC = torch.class('nn.ModuleFromCriterion', 'nn.Module')

function ModuleFromCriterion:__init(criterion)
   parentMFC.__init(self)
   self.criterion = criterion
   self.output = torch.Tensor(1)
   self.gradInput = { torch.Tensor(), torch.Tensor() }
end

function ModuleFromCriterion:updateOutput(input)
   local prediction, target = input[1], input[2]
   self.output:resize(1)
   self.output[1] = self.criterion:updateOutput(prediction, target)
   return self.output
end

function ModuleFromCriterion:updateGradInput(input, gradOutput)
   local prediction, target = input[1], input[2]
   local g = self.criterion:updateGradInput(prediction, target)
   self.gradInput[1] = nn.utils.recursiveCopy(self.gradInput[1], g)
   if torch.isTensor(self.gradInput[1]) then self.gradInput[1]:mul(gradOutput[1]) end
   self.gradInput[2] = nn.utils.recursiveResizeAs(self.gradInput[2], target)
   nn.utils.recursiveFill(self.gradInput[2], 0)
   return self.gradInput
end

function ModuleFromCriterion:__tostring__()
   return torch.type(self) .. '(' .. tostring(self.criterion) .. ')'
end
