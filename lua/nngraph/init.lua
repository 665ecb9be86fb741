-- `require 'nngraph'`: torch7's nngraph, networks as graphs of nn modules.
--   local x = nn.Identity()()                      -- an input node: a module called with nothing
--   local h = nn.Tanh()(nn.Linear(10, 20)(x))      -- module(node) makes the node of module on node
--   local a, b = nn.SplitTable(1)(x):split(2)      -- the elements of a node's table output
--   local net = nn.gModule({x}, {h, a})            -- inputs and outputs: an nn.Module
--   graph.dot(net.fg, 'forward', 'net')            -- net.dot (and net.svg with Graphviz)
-- A node's data holds its module, annotations (name, description, graphAttributes for dot,
-- and _debugLabel: where the node was declared), and the inputs and gradients of a pass.
-- Node:add(input) records an input (node.children are its inputs; data.mapindex[input.data]
-- is the input's position); gModule builds the backward graph from its outputs and the
-- forward graph as its reverse.
require 'nn'
require 'graph'

nngraph = nngraph or {}
local nngraph = nngraph

local Node, parent = torch.class('nngraph.Node', 'graph.Node')

-- (nodes read from older torch7 files may lack annotations or reverseMap: the methods below
-- that use them make them)
function Node:__init(data)
   parent.__init(self, data)
   self.data.annotations = self.data.annotations or {}
   self.data.mapindex = self.data.mapindex or {}
   self.data.reverseMap = self.data.reverseMap or {}
end

function Node.new(data)
   return nngraph.Node(data)
end

-- input becomes this node's next input (domap) or only a child (graph edges)
function Node:add(child, domap)
   parent.add(self, child)
   if domap then
      local mapindex = self.data.mapindex
      assert(not mapindex[child.data], "Don't pass the same input twice.")
      table.insert(mapindex, child.data)
      mapindex[child.data] = #mapindex
      assert(not child.data.reverseMap[self], 'this connection has already been made!')
      child.data.reverseMap[self] = true
   end
end

-- '[file]:line' of the code calling the function `level` frames up
local function callerLocation(level)
   local info = debug.getinfo(level + 1, 'Sl')
   if not info then return '[unknown]:0' end
   return string.format('[%s]:%d', info.short_src, info.currentline)
end

-- node:split(n): n nodes, the elements 1..n of this node's table output
function Node:split(noutput)
   assert(type(noutput) == 'number' and noutput >= 1, 'nngraph.Node:split: a number of outputs (>= 1) expected')
   local debugLabel = self.data.annotations._debugLabel or '[unknown]'
   if noutput == 1 then
      local node = nngraph.JustElement()(self)
      node.data.annotations._debugLabel = debugLabel .. '-1'
      return node
   end
   local mnode = nngraph.Node({ nSplitOutputs = noutput, annotations = {
      _debugLabel = debugLabel .. ' split at ' .. callerLocation(2) .. '-mnode' } })
   mnode:add(self, true)
   local nodes = {}
   for i = 1, noutput do
      local node = nngraph.Node({ selectindex = i, input = {}, annotations = { _debugLabel = debugLabel .. '-' .. i } })
      node:add(mnode, true)
      nodes[i] = node
   end
   return unpack(nodes)
end

-- node:annotate{name =, description =, graphAttributes = {...}}: merged into the annotations
function Node:annotate(annotations)
   for k, v in pairs(annotations) do self.data.annotations[k] = v end
   return self
end

function Node:graphNodeName()
   self.data.annotations = self.data.annotations or {}
   if self.data.annotations.name then return self.data.annotations.name .. ' (' .. self.id .. ')' end
   return 'Node' .. self.id
end

function Node:graphNodeAttributes()
   self.data.annotations = self.data.annotations or {}
   local a = self.data.annotations
   a.graphAttributes = a.graphAttributes or {}
   if not a.graphAttributes.tooltip and a._debugLabel then a.graphAttributes.tooltip = a._debugLabel end
   return a.graphAttributes
end

-- a node's data, one line per field: module, input sizes, ...
function Node:label()
   local function describe(v)
      if torch.isTensor(v) then
         return 'Tensor[' .. (v:dim() > 0 and table.concat(v:size():totable(), 'x') or '') .. ']'
      elseif type(v) == 'table' and not getmetatable(v) then
         local parts = {}
         for _, x in ipairs(v) do parts[#parts + 1] = describe(x) end
         return '{' .. table.concat(parts, ',') .. '}'
      end
      return (tostring(v):gsub('\n', '\\l'))
   end
   local keys = {}
   for k in pairs(self.data) do
      if k ~= 'annotations' and k ~= 'forwardNodeId' and k ~= 'reverseMap' and k ~= 'mapindex' then
         keys[#keys + 1] = k
      end
   end
   table.sort(keys)
   local lines = {}
   for _, k in ipairs(keys) do lines[#lines + 1] = k .. ' = ' .. describe(self.data[k]) end
   local desc = (self.data.annotations or {}).description
   return (desc and 'desc = ' .. desc .. '\\n' or '') .. table.concat(lines, '\\l')
end

-- the largest integer key of t (so that a nil in the middle of a list is seen)
local function maxN(t)
   local n = 0
   for k in pairs(t) do
      if type(k) == 'number' and k > n then n = k end
   end
   return n
end
nngraph.maxN = maxN

-- the error for what is not a node in a list of nodes (inputs or outputs of a module)
function nngraph.checkNodes(list, what, level)
   for i = 1, maxN(list) do
      local v = list[i]
      if v == nil then
         error(string.format('%s[%d] is nil (typo / bad index?)', what, i), level + 1)
      elseif torch.typename(v) ~= 'nngraph.Node' then
         local kind = torch.isTypeOf(v, 'nn.Module') and
            ('an nn.Module, specifically a ' .. torch.typename(v)) or ('a ' .. torch.type(v))
         error(string.format('%s[%d] is %s, but the only valid thing to pass is an instance of nngraph.Node', what, i,
                             kind), level + 1)
      end
   end
end

-- module(), module(node) or module({node, ...}): the node of the module on those inputs
function nn.Module:__call__(...)
   local nArgs = select('#', ...)
   assert(nArgs <= 1, 'Use {input1, input2} to pass multiple inputs.')
   local input = ...
   if nArgs == 1 and input == nil then error('what is this in the input? nil', 2) end
   local inputs
   if nArgs == 0 then
      inputs = {}
   elseif torch.typename(input) == 'nngraph.Node' or type(input) ~= 'table' or getmetatable(input) then
      inputs = { input }
   else
      inputs = input
      if maxN(inputs) == 0 then
         error('cannot pass an empty table of inputs. To indicate no incoming connections, leave the second set of '
                  .. 'parens blank.', 2)
      end
   end
   nngraph.checkNodes(inputs, 'inputs', 2)
   -- where the node was declared, as torch7's nngraph words it ('[file]:line_')
   local node = nngraph.Node({ module = self, annotations = { _debugLabel = callerLocation(2) .. '_' } })
   for i = 1, maxN(inputs) do node:add(inputs[i], true) end
   return node
end

-- a criterion in a graph: its loss as a one-element tensor (nn.ModuleFromCriterion)
function nn.Criterion:__call__(...)
   return nn.ModuleFromCriterion(self)(...)
end

require 'nngraph.modules'
require 'nngraph.gModule'

-- nngraph.nest(nodes): a node whose output is the nested table of the given nodes' outputs
-- (a node alone gives its output)
function nngraph.nest(structure)
   if torch.typename(structure) == 'nngraph.Node' then return nn.Identity()(structure) end
   local inputs, position = {}, {}
   local function shape(s)
      if torch.typename(s) == 'nngraph.Node' then
         if not position[s] then
            inputs[#inputs + 1] = s
            position[s] = #inputs
         end
         return position[s]
      end
      assert(type(s) == 'table', 'nngraph.nest: nodes or tables of them expected')
      local t = {}
      for i = 1, maxN(s) do t[i] = shape(s[i]) end
      return t
   end
   local layout = shape(structure)
   if #inputs == 0 then error('nngraph.nest: no node in the structure', 2) end
   -- a node of one input hands its module that input itself, not a list of one
   return nngraph.Nest(layout, #inputs == 1)(inputs)
end

-- nngraph.simple_print: the dot text of a graph with one-line labels (module types)
nngraph.simple_print = {}
function nngraph.simple_print.todot(g, title)
   local lines = { 'digraph G {' }
   if title then lines[#lines + 1] = 'labelloc="t";\nlabel="' .. title .. '";' end
   for _, node in ipairs(g.nodes) do
      local m = node.data.module
      local label = m and torch.typename(m) or (node.data.selectindex and 'select ' .. node.data.selectindex or 'Node')
      lines[#lines + 1] = string.format('n%d[label="%s (%d)"];', node.id, label, node.id)
   end
   for _, e in ipairs(g.edges) do lines[#lines + 1] = string.format('n%d -> n%d;', e.from.id, e.to.id) end
   lines[#lines + 1] = '}'
   return table.concat(lines, '\n') .. '\n'
end
function nngraph.simple_print.dot(g, title, fileName)
   local text = nngraph.simple_print.todot(g, title)
   local f = assert(io.open(fileName .. '.dot', 'w'))
   f:write(text)
   f:close()
   return text
end

return nngraph
