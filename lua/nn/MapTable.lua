-- nn.MapTable(module[, shared = true]): applies module to every element of a table. Each
-- element gets its own clone of module sharing weight, bias, gradWeight and gradBias, so
-- that the clones are one module as far as the parameters go.
local MapTable, parent = torch.class('nn.MapTable', 'nn.Container')

function MapTable:__init(module, shared)
   parent.__init(self)
   self.shared = shared == nil and true or shared
   self.sharedparams = { 'weight', 'bias', 'gradWeight', 'gradBias' }
   self.output = {}
   self.gradInput = {}
   if module then self:add(module) end
end

-- clones up to n modules
function MapTable:_extend(n)
   self.modules[1] = self.module
   for i = 2, n do
      if not self.modules[i] then
         self.modules[i] = self.module:clone(unpack(self.sharedparams))
      end
   end
end

function MapTable:resize(n)
   self:_extend(n)
   for i = n + 1, #self.modules do
      self.modules[i]:clearState()
      self.modules[i] = nil
   end
   return self
end

function MapTable:add(module)
   assert(not self.module, 'nn.MapTable: it holds a single module')
   self.module = module
   self.modules[1] = module
   return self
end

function MapTable:_map(input, funcName, ...)
   if type(input) ~= 'table' then error('nn.MapTable: a table expected, got ' .. torch.type(input), 3) end
   if not self.module then error('nn.MapTable: no module to map', 3) end
   self:_extend(#input)
   local results = {}
   for i = 1, #input do
      local args = { ... }
      for k, v in ipairs(args) do if type(v) == 'table' and not torch.isTensor(v) then args[k] = v[i] end end
      results[i] = self:rethrowErrors(self.modules[i], i, funcName, input[i], unpack(args, 1, select('#', ...)))
   end
   return results
end

function MapTable:updateOutput(input)
   self.output = self:_map(input, 'updateOutput')
   return self.output
end

function MapTable:updateGradInput(input, gradOutput)
   self.gradInput = self:_map(input, 'updateGradInput', gradOutput)
   return self.gradInput
end

function MapTable:accGradParameters(input, gradOutput, scale)
   self:_map(input, 'accGradParameters', gradOutput, scale or 1)
end

function MapTable:accUpdateGradParameters(input, gradOutput, lr)
   self:_map(input, 'accUpdateGradParameters', gradOutput, lr or 1)
end

-- the clones share the parameters: the first module speaks for all
function MapTable:zeroGradParameters()
   if self.module then self.module:zeroGradParameters() end
end

function MapTable:updateParameters(learningRate)
   if self.module then self.module:updateParameters(learningRate) end
end

function MapTable:parameters()
   if self.module then return self.module:parameters() end
end

function MapTable:clearState()
   for i = 2, #self.modules do
      self.modules[i]:clearState()
      self.modules[i] = nil
   end
   return parent.clearState(self)
end

function MapTable:__tostring__()
   if not self.module then return torch.type(self) .. ' { }' end
   local tab, line = '  ', '\n'
   return torch.type(self) .. ' {' .. line .. tab .. tostring(self.module):gsub(line, line .. tab) .. line .. '}'
end
