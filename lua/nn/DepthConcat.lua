-- nn.DepthConcat(dimension): every module gets the same input and their outputs are
-- concatenated along dimension (as nn.Concat); outputs smaller in the other dimensions
-- are centred in zero padding (GoogLeNet's inception blocks, whose branches lose
-- different borders).
local DepthConcat, parent = torch.class('nn.DepthConcat', 'nn.Container')

function DepthConcat:__init(dimension)
   parent.__init(self)
   if type(dimension) ~= 'number' then error('nn.DepthConcat(dimension): a dimension expected', 2) end
   self.size = torch.LongStorage()
   self.dimension = dimension
end

-- the window of output (offset along self.dimension) that holds currentOutput: centred in
-- the other dimensions, the odd padding element going after (9 vs 4: 2 before, 3 after)
function DepthConcat:windowNarrow(output, currentOutput, offset)
   local window = output:narrow(self.dimension, offset, currentOutput:size(self.dimension))
   for dim = 1, #self.size do
      local currentSize = currentOutput:size(dim)
      if dim ~= self.dimension and self.size[dim] ~= currentSize then
         local start = math.floor((self.size[dim] - currentSize) / 2) + 1
         window = window:narrow(dim, start, currentSize)
      end
   end
   return window
end

function DepthConcat:updateOutput(input)
   local outs = {}
   local sizes
   for i, module in ipairs(self.modules) do
      local out = self:rethrowErrors(module, i, 'updateOutput', input)
      outs[i] = out
      if i == 1 then
         sizes = out:size():totable()
         if self.dimension > #sizes then
            error(string.format('nn.DepthConcat: dimension %d out of range for module 1\'s %dD output',
                                self.dimension, #sizes), 2)
         end
      else
         if out:dim() ~= #sizes then
            error(string.format('nn.DepthConcat: module %d gave a %dD output, module 1 a %dD one', i, out:dim(),
                                #sizes), 2)
         end
         sizes[self.dimension] = sizes[self.dimension] + out:size(self.dimension)
         for dim = 1, #sizes do
            if dim ~= self.dimension then sizes[dim] = math.max(sizes[dim], out:size(dim)) end
         end
      end
   end
   self.size = torch.LongStorage(sizes)
   self.output:resize(self.size):zero()
   local offset = 1
   for i, out in ipairs(outs) do
      self:windowNarrow(self.output, out, offset):copy(out)
      offset = offset + out:size(self.dimension)
   end
   return self.output
end

-- calls funcName(input, window of gradOutput, ...) on every module
function DepthConcat:_backward(funcName, input, gradOutput, ...)
   local offset = 1
   local results = {}
   for i, module in ipairs(self.modules) do
      local out = module.output
      results[i] = self:rethrowErrors(module, i, funcName, input, self:windowNarrow(gradOutput, out, offset), ...)
      offset = offset + out:size(self.dimension)
   end
   return results
end

function DepthConcat:updateGradInput(input, gradOutput)
   local gradInputs = self:_backward('updateGradInput', input, gradOutput)
   self.gradInput:resizeAs(input):zero()
   for _, g in ipairs(gradInputs) do self.gradInput:add(g) end
   return self.gradInput
end

function DepthConcat:accGradParameters(input, gradOutput, scale)
   self:_backward('accGradParameters', input, gradOutput, scale or 1)
end

function DepthConcat:accUpdateGradParameters(input, gradOutput, lr)
   self:_backward('accUpdateGradParameters', input, gradOutput, lr)
end

function DepthConcat:__tostring__()
   local tab, line = '  ', '\n'
   local parts = { torch.type(self) .. ' {' .. line .. tab .. 'input' }
   for i, module in ipairs(self.modules) do
      local last = i == #self.modules
      local inner = tostring(module):gsub(line, line .. tab .. (last and '       ' or '  |    '))
      parts[#parts + 1] = line .. tab .. (last and '   `-> ' or '  |`-> ') .. '(' .. i .. '): ' .. inner
   end
   parts[#parts + 1] = line .. tab .. '   ... -> output' .. line .. '}'
   return table.concat(parts)
end
