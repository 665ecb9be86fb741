-- `require 'graph'`: torch7's graph package, the directed graphs nngraph is built on.
--   local a, b = graph.Node('a'), graph.Node('b')
--   local g = graph.Graph(); g:add(graph.Edge(a, b))
--   g:topsort(), g:reverse(), g:roots(), g:leaves(); graph.todot(g, 'title') is Graphviz text
-- A node keeps its children (the edges leaving it) in the order they were added; nodes and
-- edges of a graph are in the order they were added, node.id their position.
require 'torch'

graph = graph or {}
local graph = graph

local Node = torch.class('graph.Node')

function Node:__init(data)
   self.data = data
   self.id = 0
   self.children = {}
   self.visited = false
   self.marked = false
end

-- the node's constructor, so that subclasses' nodes copy as their own class (Graph:reverse)
function Node.new(data)
   return graph.Node(data)
end

function Node:add(child)
   for _, c in ipairs(self.children) do
      if c == child then return end
   end
   table.insert(self.children, child)
end

-- f(node) for every node reachable from this one, each once, children before their parent
function Node:dfs(f)
   local seen = {}
   local function visit(node)
      seen[node] = true
      for _, child in ipairs(node.children) do
         if not seen[child] then visit(child) end
      end
      f(node)
   end
   visit(self)
end

-- f(node) for every node reachable from this one, each once, level by level
function Node:bfs(f)
   local seen, queue, first = { [self] = true }, { self }, 1
   while queue[first] do
      local node = queue[first]
      first = first + 1
      f(node)
      for _, child in ipairs(node.children) do
         if not seen[child] then
            seen[child] = true
            queue[#queue + 1] = child
         end
      end
   end
end

-- the graph of the nodes and edges reachable from this node
function Node:graph()
   local g = graph.Graph()
   self:bfs(function(node)
      for _, child in ipairs(node.children) do g:add(graph.Edge(node, child)) end
   end)
   if #g.nodes == 0 then g:addNode(self) end
   return g
end

function Node:label()
   return tostring(self.data)
end

local Edge = torch.class('graph.Edge')

function Edge:__init(from, to)
   self.from = from
   self.to = to
end

local Graph = torch.class('graph.Graph')

function Graph:__init()
   self.nodes = {}
   self.edges = {}
   self.nodeIndex = {}
end

function Graph:addNode(node)
   if not self.nodeIndex then
      -- a graph read from a torch7 file has its nodes only
      self.nodeIndex = {}
      for i, n in ipairs(self.nodes) do self.nodeIndex[n] = i end
   end
   if not self.nodeIndex[node] then
      table.insert(self.nodes, node)
      self.nodeIndex[node] = #self.nodes
      node.id = #self.nodes
   end
end

function Graph:add(edge)
   self:addNode(edge.from)
   self:addNode(edge.to)
   table.insert(self.edges, edge)
   edge.from:add(edge.to)
end

-- a graph of new nodes (same data, same classes) with every edge turned around, and the
-- map from this graph's nodes to the new ones
function Graph:reverse()
   local rg, map = graph.Graph(), {}
   local function copy(node)
      map[node] = map[node] or node.new(node.data)
      return map[node]
   end
   for _, node in ipairs(self.nodes) do copy(node) end
   for _, node in ipairs(self.nodes) do rg:addNode(map[node]) end
   for _, e in ipairs(self.edges) do rg:add(graph.Edge(map[e.to], map[e.from])) end
   return rg, map
end

-- nodes no edge arrives at
function Graph:roots()
   local reached = {}
   for _, e in ipairs(self.edges) do reached[e.to] = true end
   local roots = {}
   for _, node in ipairs(self.nodes) do
      if not reached[node] then roots[#roots + 1] = node end
   end
   return roots
end

-- nodes no edge leaves
function Graph:leaves()
   local leaves = {}
   for _, node in ipairs(self.nodes) do
      if #node.children == 0 then leaves[#leaves + 1] = node end
   end
   return leaves
end

-- the nodes in an order where every edge goes forward; an error on cycles
function Graph:topsort()
   local state, order = {}, {}
   local function visit(node)
      if state[node] == 'done' then return end
      if state[node] == 'active' then error('graph.Graph:topsort: the graph has cycles', 0) end
      state[node] = 'active'
      for _, child in ipairs(node.children) do visit(child) end
      state[node] = 'done'
      table.insert(order, 1, node)
   end
   local roots = self:roots()
   if #roots == 0 and #self.nodes > 0 then error('graph.Graph:topsort: the graph has cycles', 2) end
   for i = #roots, 1, -1 do visit(roots[i]) end
   if #order ~= #self.nodes then error('graph.Graph:topsort: the graph has cycles', 2) end
   return order
end

-- Graphviz's dot language. A node's name and label come from node:graphNodeName() and
-- node:label(), its attributes (color, tooltip, ...) from node:graphNodeAttributes().
local function quoted(v)
   v = tostring(v)
   if v:match('^[%w_%.]+$') then return v end
   return '"' .. v:gsub('"', '\\"') .. '"'
end

function graph.todot(g, title)
   local lines = { 'digraph G {' }
   if title then
      lines[#lines + 1] = 'labelloc="t";'
      lines[#lines + 1] = 'label="' .. title .. '";'
   end
   lines[#lines + 1] = 'node [shape = oval];'
   for _, node in ipairs(g.nodes) do
      local name = node.graphNodeName and node:graphNodeName() or ('Node' .. node.id)
      local attributes = {}
      if node.graphNodeAttributes then
         for k, v in pairs(node:graphNodeAttributes()) do attributes[k] = v end
      end
      local keys = {}
      for k in pairs(attributes) do keys[#keys + 1] = k end
      keys[#keys + 1] = 'label'
      table.sort(keys)
      local parts = {}
      for _, k in ipairs(keys) do
         if k == 'label' then
            parts[#parts + 1] = 'label="' .. (name .. '\\n' .. node:label()):gsub('"', '\\"') .. '"'
         else
            parts[#parts + 1] = k .. '=' .. quoted(attributes[k])
         end
      end
      lines[#lines + 1] = 'n' .. node.id .. '[' .. table.concat(parts, ' ') .. '];'
   end
   for _, e in ipairs(g.edges) do
      lines[#lines + 1] = 'n' .. e.from.id .. ' -> n' .. e.to.id .. ';'
   end
   lines[#lines + 1] = '}'
   return table.concat(lines, '\n') .. '\n'
end

-- graph.dot(g[, title[, fileName]]): writes fileName.dot and, when Graphviz's dot is
-- installed, fileName.svg; without a file name, returns the text (and writes nothing).
function graph.dot(g, title, fileName)
   local text = graph.todot(g, title)
   if not fileName then return text end
   local f = assert(io.open(fileName .. '.dot', 'w'))
   f:write(text)
   f:close()
   if os.execute('command -v dot >/dev/null 2>&1') == 0 then
      os.execute(string.format("dot -Tsvg -o '%s.svg' '%s.dot'", fileName, fileName))
   end
   return text
end

return graph
