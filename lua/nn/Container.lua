-- nn.Container: a module made of modules (self.modules); parameters, modes, type and
-- state go to every child.
local Container, parent = torch.class('nn.Container', 'nn.Module')

function Container:__init(...)
   parent.__init(self, ...)
   self.modules = {}
end

function Container:add(module)
   table.insert(self.modules, module)
   return self
end

function Container:get(index)
   return self.modules[index]
end

function Container:size()
   return #self.modules
end

-- Calls f, and when it fails names the child module that failed (its place and class).
function Container:rethrowErrors(module, moduleIndex, funcName, ...)
   local args = { ... }
   local n = select('#', ...)
   local results
   local ok, err = xpcall(function() results = { module[funcName](module, unpack(args, 1, n)) } end,
                          function(e) return e end)
   if not ok then
      -- torch7's words, which callers match: outer containers first, then the cause
      error(string.format('In %d module of %s:\n%s', moduleIndex, torch.type(self), tostring(err)), 0)
   end
   return unpack(results)
end

function Container:applyToModules(func)
   for _, module in ipairs(self.modules) do func(module) end
end

function Container:zeroGradParameters()
   self:applyToModules(function(module) module:zeroGradParameters() end)
end

function Container:updateParameters(learningRate)
   self:applyToModules(function(module) module:updateParameters(learningRate) end)
end

function Container:training()
   self:applyToModules(function(module) module:training() end)
   parent.training(self)
end

function Container:evaluate()
   self:applyToModules(function(module) module:evaluate() end)
   parent.evaluate(self)
end

function Container:share(mlp, ...)
   for i = 1, #self.modules do
      self.modules[i]:share(mlp.modules[i], ...)
   end
   return self
end

function Container:reset(stdv)
   self:applyToModules(function(module) module:reset(stdv) end)
end

function Container:parameters()
   local params, gradParams = {}, {}
   for _, module in ipairs(self.modules) do
      local p, g = module:parameters()
      if p then
         for i = 1, #p do
            params[#params + 1] = p[i]
            gradParams[#gradParams + 1] = g[i]
         end
      end
   end
   return params, gradParams
end

function Container:clearState()
   -- a container's output is often a child's output: let go of it rather than empty it
   nn.utils.clearReferences(self, 'output', 'gradInput')
   self:applyToModules(function(module) module:clearState() end)
   return self
end

-- How Concat, ConcatTable, Parallel and ParallelTable print: each branch on its own line.
function Container:branchesToString()
   local tab, line = '  ', '\n'
   local parts = { torch.type(self) .. ' {' .. line .. tab .. 'input' }
   for i = 1, #self.modules do
      local last = i == #self.modules
      local inner = tostring(self.modules[i]):gsub(line, line .. tab .. (last and '       ' or '  |    '))
      parts[#parts + 1] = line .. tab .. (last and '   `-> ' or '  |`-> ') .. '(' .. i .. '): ' .. inner
   end
   parts[#parts + 1] = line .. tab .. '   ... -> output' .. line .. '}'
   return table.concat(parts)
end
