-- `require 'xlua'`: torch7's console helpers.
--   xlua.progress(i, n)          a progress bar on one line, redrawn in place, with the time
--                                left (and the total once i == n)
--   xlua.print(x, ...)           tables with their fields ({[k] = v, ...}), anything else by tostring
--   xlua.require(name[, true])   require, or false with a warning when the package is missing
--   xlua.formatTime(seconds), xlua.trycatch(try, catch), xlua.table2string(t)
require 'torch'

xlua = xlua or {}
local xlua = xlua

-- '1h2m', '3s45ms': the two largest units that are not zero
function xlua.formatTime(seconds)
   local units = { { 'D', 86400 }, { 'h', 3600 }, { 'm', 60 }, { 's', 1 }, { 'ms', 0.001 } }
   local parts = {}
   for _, u in ipairs(units) do
      local n = math.floor(seconds / u[2] + 1e-9)
      if n > 0 and #parts < 2 then
         parts[#parts + 1] = n .. u[1]
         seconds = seconds - n * u[2]
      end
   end
   return #parts > 0 and table.concat(parts) or '0ms'
end

do
   local width = 80
   local barLength = width - 34
   local state  -- the bar being drawn: its timer and start

   function xlua.progress(current, goal)
      local filled = math.floor(current * barLength / goal)
      if not state or current < state.last then
         state = { timer = torch.Timer(), first = current, last = current }
      end
      state.last = current
      local elapsed = state.timer:time().real
      local step = current > state.first and elapsed / (current - state.first) or 0
      local bar = {}
      for i = 1, barLength do
         bar[i] = i < filled and '=' or (i == filled and '>' or '.')
      end
      local timing
      if current < goal then
         timing = ' ETA: ' .. xlua.formatTime(math.max(0, (goal - current) * step))
      else
         timing = ' Tot: ' .. xlua.formatTime(elapsed)
      end
      timing = timing .. ' | Step: ' .. xlua.formatTime(step)
      io.write('\r [', table.concat(bar), '] ', current, '/', goal, timing)
      if current >= goal then
         io.write('\n')
         state = nil
      end
      io.flush()
   end
end

-- a table as '{k = v, ...}' on one line, nested tables included
function xlua.table2string(t, seen)
   seen = seen or {}
   if seen[t] then return '<cycle>' end
   seen[t] = true
   local parts = {}
   for k, v in pairs(t) do
      local value = type(v) == 'table' and not getmetatable(v) and xlua.table2string(v, seen) or tostring(v)
      parts[#parts + 1] = tostring(k) .. ' = ' .. value
   end
   table.sort(parts)
   return '{' .. table.concat(parts, ', ') .. '}'
end

local function printOne(x)
   if type(x) ~= 'table' then
      io.write(tostring(x))
      return
   end
   local mt = getmetatable(x)
   if mt and (mt.__tostring or x.__tostring__) then
      io.write(tostring(x))
      return
   end
   local keys = {}
   for k in pairs(x) do keys[#keys + 1] = k end
   table.sort(keys, function(a, b)
      if type(a) == type(b) and (type(a) == 'number' or type(a) == 'string') then return a < b end
      return type(a) < type(b)
   end)
   io.write('{')
   for i, k in ipairs(keys) do
      local v = x[k]
      local text = torch.isTensor(v) and torch.typename(v) .. ' - size: ' ..
                   (v:dim() > 0 and table.concat(v:size():totable(), 'x') or 'empty') or tostring(v):gsub('\n', '\\n')
      if #text > 40 then text = text:sub(1, 40) .. ' ... ' end
      io.write(i > 1 and '\n  ' or '', '[', tostring(k), '] = ', text)
   end
   io.write('}')
end

function xlua.print(...)
   local n = select('#', ...)
   for i = 1, math.max(n, 1) do
      if i > 1 then io.write('    ') end
      printOne((select(i, ...)))
   end
   io.write('\n')
end

-- the package, or false (with a warning) when it cannot be loaded; the second argument
-- (installing with luarocks in torch7) changes nothing here
function xlua.require(name, luarocks)
   local ok, result = pcall(require, name)
   if ok then return result end
   print(result)
   print('warning: <' .. name .. '> could not be loaded (is it installed?)')
   return false
end
rawset(_G, 'xrequire', xlua.require)

function xlua.trycatch(try, catch)
   local ok, err = pcall(try)
   if not ok then catch(err) end
end

return xlua
