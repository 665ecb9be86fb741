-- nn.Concat(dimension): every module gets the same input; their outputs are joined along
-- dimension.
local Concat, parent = torch.class('nn.Concat', 'nn.Container')

function Concat:__init(dimension)
   parent.__init(self)
   self.dimension = dimension
end

function Concat:updateOutput(input)
   local outputs = {}
   local sizes
   for i = 1, #self.modules do
      local out = self:rethrowErrors(self.modules[i], i, 'updateOutput', input)
      outputs[i] = out
      if i == 1 then
         sizes = out:size():totable()
      else
         sizes[self.dimension] = sizes[self.dimension] + out:size(self.dimension)
      end
   end
   self.output:resize(torch.LongStorage(sizes))
   self:_fillFromBranches(outputs)
   return self.output
end

-- the part of t (the output or gradOutput) that belongs to a branch whose output is
-- branchOutput, starting at offset along self.dimension (nn.DepthConcat centres it)
function Concat:_branchPart(t, branchOutput, offset)
   return t:narrow(self.dimension, offset, branchOutput:size(self.dimension))
end

-- each branch's output copied into its part of self.output
function Concat:_fillFromBranches(outputs)
   local offset = 1
   for _, out in ipairs(outputs) do
      self:_branchPart(self.output, out, offset):copy(out)
      offset = offset + out:size(self.dimension)
   end
end

-- calls method(input, the module's part of gradOutput[, scale]) on each module in turn,
-- passing its gradInput to accumulate (when the method returns one)
function Concat:_eachBranch(method, input, gradOutput, scale, accumulate)
   local offset = 1
   for i, module in ipairs(self.modules) do
      local out = module.output
      local result = self:rethrowErrors(module, i, method, input, self:_branchPart(gradOutput, out, offset), scale)
      if accumulate and result then accumulate(i, result) end
      offset = offset + out:size(self.dimension)
   end
end

function Concat:_sumGradInputs(method, input, gradOutput, scale)
   self.gradInput:resizeAs(input)
   self:_eachBranch(method, input, gradOutput, scale, function(i, gradInput)
      if i == 1 then self.gradInput:copy(gradInput) else self.gradInput:add(gradInput) end
   end)
   return self.gradInput
end

function Concat:updateGradInput(input, gradOutput)
   return self:_sumGradInputs('updateGradInput', input, gradOutput)
end

function Concat:backward(input, gradOutput, scale)
   return self:_sumGradInputs('backward', input, gradOutput, scale or 1)
end

function Concat:accGradParameters(input, gradOutput, scale)
   self:_eachBranch('accGradParameters', input, gradOutput, scale or 1)
end

function Concat:accUpdateGradParameters(input, gradOutput, lr)
   self:_eachBranch('accUpdateGradParameters', input, gradOutput, lr)
end

function Concat:__tostring__()
   return self:branchesToString()
end
