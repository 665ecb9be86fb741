-- Helpers shared by the modules: type conversion that keeps sharing, clearing buffers.
local nn = nn
local utils = {}
nn.utils = utils

local function tensorConstructor(typename)
   local T = typename:match('^torch%.(%a+)Tensor$')
   local ctor = T and torch[T .. 'Tensor']
   if not ctor then error('unknown tensor type ' .. tostring(typename), 3) end
   return ctor, torch[T .. 'Storage']
end
utils.tensorConstructor = tensorConstructor

-- param (a tensor, a module, or a table holding some, at any depth) converted to typename. Tensors
-- on one storage stay on one storage: cache maps old storages and tensors (by pointer) to
-- their converted selves, across every call that passes the same cache. Only floating-point
-- tensors change type: index tensors (max-pooling indices, class targets) stay LongTensors.
function utils.recursiveType(param, typename, cache)
   cache = cache or {}
   if torch.isTypeOf(param, 'nn.Module') or torch.isTypeOf(param, 'nn.Criterion') then
      param:type(typename, cache)
   elseif type(param) == 'table' then
      for k, v in pairs(param) do param[k] = utils.recursiveType(v, typename, cache) end
   elseif torch.isTensor(param) then
      local from = torch.typename(param)
      if from ~= typename and (from == 'torch.FloatTensor' or from == 'torch.DoubleTensor') then
         local key = torch.pointer(param)
         local converted = cache[key]
         if not converted then
            local Tensor, Storage = tensorConstructor(typename)
            converted = Tensor()
            if param:nDimension() > 0 then
               local storage = param:storage()
               local skey = 's' .. torch.pointer(storage)
               if not cache[skey] then
                  local OldTensor = tensorConstructor(from)
                  cache[skey] = Storage(#storage)
                  Tensor(cache[skey]):copy(OldTensor(storage))
               end
               converted:set(Tensor(cache[skey], param:storageOffset(), param:size(), param:stride()))
            end
            cache[key] = converted
         end
         param = converted
      end
   end
   return param
end

-- Empties the named fields of self (tensors keep their type, tables become {}).
function utils.clear(self, ...)
   local names = { ... }
   if type(names[1]) == 'table' then names = names[1] end
   for _, name in ipairs(names) do
      local v = self[name]
      if torch.isTensor(v) then
         v:set()
      elseif type(v) == 'table' then
         self[name] = {}
      else
         self[name] = nil
      end
   end
   return self
end

-- Like clear, but gives tensors fresh empty ones instead of emptying them: for modules whose
-- output or gradInput is another module's tensor (containers, Identity, views).
function utils.clearReferences(self, ...)
   for _, name in ipairs({ ... }) do
      local v = self[name]
      if torch.isTensor(v) then
         self[name] = v.new()
      elseif type(v) == 'table' then
         self[name] = {}
      else
         self[name] = nil
      end
   end
   return self
end

-- t1 resized like t2: tensors or nested tables of them.
function utils.recursiveResizeAs(t1, t2)
   if type(t2) == 'table' then
      t1 = type(t1) == 'table' and t1 or {}
      for k, v in pairs(t2) do t1[k] = utils.recursiveResizeAs(t1[k], v) end
      for k in pairs(t1) do if t2[k] == nil then t1[k] = nil end end
   elseif torch.isTensor(t2) then
      t1 = torch.isTensor(t1) and torch.typename(t1) == torch.typename(t2) and t1 or t2.new()
      t1:resizeAs(t2)
   else
      error('expecting nested tensors or tables, got ' .. torch.type(t1) .. ' and ' .. torch.type(t2))
   end
   return t1
end

function utils.recursiveFill(t, value)
   if type(t) == 'table' then
      for _, v in pairs(t) do utils.recursiveFill(v, value) end
   elseif torch.isTensor(t) then
      t:fill(value)
   end
   return t
end

-- t1 = t1 + alpha * t2, for tensors or nested tables of them.
function utils.recursiveAdd(t1, alpha, t2)
   if t2 == nil then alpha, t2 = 1, alpha end
   if type(t2) == 'table' then
      for k, v in pairs(t2) do t1[k] = utils.recursiveAdd(t1[k], alpha, v) end
   else
      t1:add(alpha, t2)
   end
   return t1
end

function utils.recursiveCopy(t1, t2)
   if type(t2) == 'table' then
      t1 = type(t1) == 'table' and t1 or {}
      for k, v in pairs(t2) do t1[k] = utils.recursiveCopy(t1[k], v) end
   elseif torch.isTensor(t2) then
      t1 = torch.isTensor(t1) and torch.typename(t1) == torch.typename(t2) and t1 or t2.new()
      t1:resizeAs(t2):copy(t2)
   else
      error('expecting nested tensors or tables, got ' .. torch.type(t1) .. ' and ' .. torch.type(t2))
   end
   return t1
end

-- "3x4" for error messages
function utils.sizeString(t)
   if not torch.isTensor(t) then return torch.type(t) end
   if t:nDimension() == 0 then return 'empty' end
   return table.concat(t:size():totable(), 'x')
end

return utils
