-- `require 'trepl'`: how th's interactive prompt shows values, after torch7's trepl.
-- Tables show their entries, one a line, keys sorted (numbers first), nested tables
-- indented; tensors, storages and other objects with a __tostring (nn modules) show their
-- tostring at the top level, and tensors and storages a one-line summary inside tables.
local trepl = {}

-- Tables show at most this many entries and this many levels.
trepl.maxEntries = 30
trepl.maxDepth = 4

local function isArray(value)
   local name = torch and torch.typename(value)
   return name ~= nil and (torch.isTensor(value) or torch.isStorage(value))
end

-- "DoubleTensor - size: 2x3", "DoubleTensor - empty", "FloatStorage - size: 4", as trepl.
local function summary(value)
   local short = torch.typename(value):match('^torch%.(.+)$')
   if torch.isStorage(value) then return short .. ' - size: ' .. value:size() end
   if value:nDimension() == 0 then return short .. ' - empty' end
   return short .. ' - size: ' .. table.concat(value:size():totable(), 'x')
end

local function hasTostring(value)
   local mt = getmetatable(value)
   return type(mt) == 'table' and mt.__tostring ~= nil
end

-- Numbers first (ascending), then strings, then the other keys by their tostring.
local function keyOrder(a, b)
   local ta, tb = type(a), type(b)
   if ta == 'number' and tb == 'number' then return a < b end
   if ta == 'number' or tb == 'number' then return ta == 'number' end
   if ta == 'string' and tb == 'string' then return a < b end
   if ta == 'string' or tb == 'string' then return ta == 'string' end
   return tostring(a) < tostring(b)
end

local function quote(s)
   return '"' .. s:gsub('\\', '\\\\'):gsub('"', '\\"'):gsub('\n', '\\n') .. '"'
end

-- A value inside a table: strings quoted, tensors summarized, nested tables rendered by
-- renderTable.
local renderTable
local function renderEntry(value, indent, depth, open)
   if type(value) == 'string' then return quote(value) end
   if isArray(value) then return summary(value) end
   if type(value) == 'table' and not hasTostring(value) then return renderTable(value, indent, depth, open) end
   return tostring(value)
end

function renderTable(t, indent, depth, open)
   if next(t) == nil then return '{}' end
   if open[t] then return tostring(t) .. ' (cycle)' end
   if depth > trepl.maxDepth then return '{...}' end
   open[t] = true
   local keys = {}
   for k in pairs(t) do keys[#keys + 1] = k end
   table.sort(keys, keyOrder)
   local inner = indent .. '  '
   local lines = { '{' }
   for i = 1, math.min(#keys, trepl.maxEntries) do
      local k = keys[i]
      local key = (type(k) == 'string' or type(k) == 'number') and tostring(k) or '[' .. tostring(k) .. ']'
      lines[#lines + 1] = inner .. key .. ' : ' .. renderEntry(t[k], inner, depth + 1, open)
   end
   if #keys > trepl.maxEntries then
      lines[#lines + 1] = inner .. '... (' .. (#keys - trepl.maxEntries) .. ' more entries)'
   end
   lines[#lines + 1] = indent .. '}'
   open[t] = nil
   return table.concat(lines, '\n')
end

-- The text the prompt shows for one value.
function trepl.render(value)
   if type(value) == 'table' and not hasTostring(value) then return renderTable(value, '', 1, {}) end
   return tostring(value)
end

-- Prints the values of an expression: separated by tabs, as print does, each rendered.
function trepl.show(...)
   local n = select('#', ...)
   if n == 0 then return end
   local parts = {}
   for i = 1, n do parts[i] = trepl.render((select(i, ...))) end
   io.write(table.concat(parts, '\t'), '\n')
   io.flush()
end

return trepl
