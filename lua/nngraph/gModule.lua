-- nn.gModule(inputs, outputs): the module computing the output nodes from the input nodes.
-- A dummy output node takes every output as input, and a dummy input node (split when there
-- are several inputs) feeds the inputs; self.bg is the graph from the output node back
-- through the inputs (for gradients), self.fg its reverse (for outputs); forwardnodes and
-- backwardnodes are their topological orders. A pass leaves in each node's data its inputs
-- (data.input, in mapindex order) or the gradients it received (data.gradOutput, summed
-- when more than one).
local gModule, parent = torch.class('nn.gModule', 'nn.Container')

function gModule:__init(inputs, outputs)
   parent.__init(self)
   nngraph.checkNodes(outputs, 'outputs', 2)
   nngraph.checkNodes(inputs, 'inputs', 2)
   assert(#inputs > 0, 'nn.gModule: no inputs are not supported')
   local outnode = nngraph.Node({ input = {}, annotations = { _debugLabel = '[gModule output]' } })
   for i = 1, nngraph.maxN(outputs) do outnode:add(outputs[i], true) end
   local innode = nngraph.Node({ input = {}, annotations = { _debugLabel = '[gModule input]' } })
   if #inputs == 1 then
      inputs[1]:add(innode, true)
   else
      for i = 1, #inputs do
         if #inputs[i].children ~= 0 then error('nn.gModule: an input should have no inputs', 2) end
      end
      local splits = { innode:split(#inputs) }
      for i = 1, #inputs do inputs[i]:add(splits[i], true) end
   end

   self.bg = outnode:graph()
   self.fg = self.bg:reverse()
   local roots = self.fg:roots()
   if #roots ~= 1 then error('nn.gModule: expecting only one start (every node must depend on an input)', 2) end
   self.innode = roots[1]
   assert(self.innode.data == innode.data, 'nn.gModule: expecting the forward innode')
   self.outnode = outnode
   self.verbose = false
   self.nInputs = #inputs
   self.forwardnodes = self.fg:topsort()
   self.backwardnodes = self.bg:topsort()

   for i, node in ipairs(self.forwardnodes) do
      local data = node.data
      if data.nSplitOutputs and data.nSplitOutputs ~= #node.children then
         error(string.format('%d of split(%d) outputs from the node declared at %s are unused',
                             data.nSplitOutputs - #node.children, data.nSplitOutputs, data.annotations._debugLabel), 2)
      end
      -- a node made on this one that does not reach the output
      for successor in pairs(data.reverseMap) do
         local found = false
         for j = i + 1, #self.forwardnodes do
            if self.forwardnodes[j].data == successor.data then
               found = true
               break
            end
         end
         if not found then
            error(string.format('node declared on %s does not connect to gmodule output',
                                successor.data.annotations._debugLabel), 2)
         end
      end
      data.forwardNodeId = node.id
      if data.module then table.insert(self.modules, data.module) end
   end
   -- an input that no output depends on
   for i = 1, #inputs do
      local used = false
      for _, node in ipairs(self.forwardnodes) do
         if node.data == inputs[i].data then used = true end
      end
      if not used then error(string.format('nn.gModule: inputs[%d] is not used by any output', i), 2) end
   end

   self.output = nil
   self.gradInput = nil
   if #self.outnode.children > 1 then self.output = self.outnode.data.input end
end

-- a node's input as its module takes it: the only one, or the list
local function moduleInput(node)
   local input = node.data.input
   if input == nil and node.data.module then input = {} end
   if #input == 1 then return input[1] end
   return input
end

function gModule:runForwardFunction(func, input)
   if type(func) == 'string' then
      local name = func
      func = function(module, x) return module[name](module, x) end
   end
   local nInputs = self.nInputs or #self.innode.children
   if nInputs <= 1 then
      input = { input }
   elseif type(input) ~= 'table' then
      error(string.format('nn.gModule: expecting table of %d inputs', nInputs), 3)
   end
   if #input ~= nInputs then error(string.format('nn.gModule: got %d inputs instead of %d', #input, nInputs), 3) end

   for _, node in ipairs(self.forwardnodes) do
      local x = node.data.input
      while x and #x > 0 do table.remove(x) end
   end
   local innode = self.innode
   innode.data.input = innode.data.input or {}
   for i, x in ipairs(input) do innode.data.input[i] = x end

   local function propagate(node, x)
      for _, child in ipairs(node.children) do
         child.data.input = child.data.input or {}
         local position = child.data.mapindex[node.data]
         assert(not child.data.input[position], 'each input should have one source')
         child.data.input[position] = x
      end
   end
   for _, node in ipairs(self.forwardnodes) do
      local data = node.data
      if data.selectindex then
         assert(#data.input == 1 and type(data.input[1]) == 'table', 'the input of a split must be one table')
         propagate(node, data.input[1][data.selectindex])
      else
         local x = moduleInput(node)
         local output = data.module and func(data.module, x) or x
         if data.nSplitOutputs and (type(output) ~= 'table' or data.nSplitOutputs ~= #output) then
            error(string.format('split(%d) cannot split %d outputs', data.nSplitOutputs,
                                type(output) == 'table' and #output or 1), 3)
         end
         propagate(node, output)
      end
      if self.verbose then print(' V : ' .. node:label()) end
   end
   self.output = self.outnode.data.input
   if #self.outnode.children == 1 then self.output = self.output[1] end
   return self.output
end

function gModule:updateOutput(input)
   return self:runForwardFunction('updateOutput', input)
end

-- the sum of the gradients a node received (the only one when the others are the expanded
-- one-element zeros that modules return for inputs without gradient)
local function totalGradOutput(node)
   local grads = node.data.gradOutput
   assert(type(grads) == 'table', 'expecting gradients to sum')
   if #grads == 1 then return grads[1] end
   local nonZero, idx = 0, 1
   for i, g in ipairs(grads) do
      local zero = torch.isTensor(g) and g:storage() ~= nil and g:storage():size() == 1 and g:storage()[1] == 0
      if not zero then
         nonZero, idx = nonZero + 1, i
      end
   end
   if nonZero < 2 then return grads[idx] end
   local buffer = nn.utils.recursiveResizeAs(node.data.gradOutputBuffer, grads[1])
   nn.utils.recursiveCopy(buffer, grads[1])
   for i = 2, #grads do nn.utils.recursiveAdd(buffer, grads[i]) end
   node.data.gradOutputBuffer = buffer
   return buffer
end

function gModule:updateGradInput(input, gradOutput)
   local outnode = self.outnode
   if #outnode.children > 1 and #gradOutput ~= #outnode.children then
      error(string.format('nn.gModule: got %d gradOutputs instead of %d', #gradOutput, #outnode.children), 2)
   end
   for _, node in ipairs(self.backwardnodes) do
      local g = node.data.gradOutput
      while g and #g > 0 do table.remove(g) end
   end
   outnode.data.gradOutput = outnode.data.gradOutput or {}
   outnode.data.gradOutput[1] = gradOutput

   for _, node in ipairs(self.backwardnodes) do
      local data = node.data
      if data.selectindex then
         local child = node.children[1]
         child.data.gradOutput = child.data.gradOutput or {}
         child.data.gradOutput[1] = child.data.gradOutput[1] or {}
         assert(not child.data.gradOutput[1][data.selectindex], 'no gradOutput should be assigned yet')
         child.data.gradOutput[1][data.selectindex] = totalGradOutput(node)
      elseif data.gradOutput and #data.gradOutput > 0 then
         local g = totalGradOutput(node)
         data.totalGradOutput = g
         local gradInput = data.module and data.module:updateGradInput(moduleInput(node), g) or g
         for _, child in ipairs(node.children) do
            child.data.gradOutput = child.data.gradOutput or {}
            local gi = #node.children == 1 and gradInput or gradInput[data.mapindex[child.data]]
            table.insert(child.data.gradOutput, gi)
         end
      end
      if self.verbose then print(' V : ' .. node:label()) end
   end
   -- a split's elements that got no gradient: zeros like their outputs
   self.gradInput = self.innode.data.gradOutput[1]
   return self.gradInput
end

function gModule:accGradParameters(input, gradOutput, scale)
   for _, node in ipairs(self.forwardnodes) do
      local data = node.data
      if data.module and data.totalGradOutput ~= nil then
         data.module:accGradParameters(moduleInput(node), data.totalGradOutput, scale or 1)
      end
   end
end

-- each module replaced by callback(module), in the graph as in self.modules
function gModule:replace(callback)
   local out = callback(self)
   local position = {}
   for i, m in ipairs(self.modules) do position[m] = i end
   for _, node in ipairs(self.forwardnodes) do
      local m = node.data.module
      if m then
         node.data.module = m:replace(callback)
         self.modules[position[m]] = node.data.module
      end
   end
   return out
end

-- the modules and what the nodes hold (inputs, gradients) in the new type
function gModule:type(typename, tensorCache)
   if not typename then return self._type end
   tensorCache = tensorCache or {}
   for _, m in ipairs(self.modules) do m:type(typename, tensorCache) end
   local seen = {}
   local function convertData(data)
      if seen[data] then return end
      seen[data] = true
      for _, k in ipairs({ 'input', 'gradOutput', 'gradOutputBuffer', 'totalGradOutput' }) do
         if data[k] ~= nil then data[k] = nn.utils.recursiveType(data[k], typename, tensorCache) end
      end
   end
   for _, node in ipairs(self.forwardnodes) do convertData(node.data) end
   for _, node in ipairs(self.backwardnodes) do convertData(node.data) end
   if self.output ~= nil then self.output = nn.utils.recursiveType(self.output, typename, tensorCache) end
   if self.gradInput ~= nil then self.gradInput = nn.utils.recursiveType(self.gradInput, typename, tensorCache) end
   if #self.outnode.children > 1 then self.output = self.outnode.data.input end
   self._type = typename
   return self
end

function gModule:__tostring__()
   return torch.type(self) .. ' (' .. self.nInputs .. ' inputs, ' .. #self.outnode.children .. ' outputs, ' ..
          #self.modules .. ' modules)'
end
