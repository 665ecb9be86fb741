-- Lua functions in .t7 files as torch7 writes them: string.dump's bytecode and the
-- upvalues as {name=, id=, value=} records (type tag 8, referenced); they load as working
-- functions with their upvalues, shared upvalues stay shared.
local tests = {}

local function roundTrips(obj)
   local out = {}
   for _, mode in ipairs({ 'binary', 'ascii' }) do
      out[#out + 1] = { mode, torch.deserialize(torch.serialize(obj, mode), mode) }
   end
   local path = os.tmpname()
   torch.save(path, obj)
   out[#out + 1] = { 'file', torch.load(path) }
   os.remove(path)
   return out
end

function tests.closure_with_upvalues()
   local scale, offset = 3, torch.Tensor({ 1, 2 })
   local function affine(x) return x * scale + offset[2] end
   for _, r in ipairs(roundTrips({ f = affine })) do
      check.eq(type(r[2].f), 'function', r[1])
      check.eq(r[2].f(2), 2 * 3 + 2, r[1] .. ': upvalues restored')
   end
end

function tests.record_layout()
   -- tag 8 (a referenced function), its index, the bytecode's length and bytes
   local function f() return 1 end
   local bytes = torch.serialize(f)
   local dumped = string.dump(f)
   local header = string.char(8, 0, 0, 0, 1, 0, 0, 0) .. string.char(#dumped % 256, math.floor(#dumped / 256), 0, 0)
   check.eq(bytes:sub(1, 12), header)
   check.eq(bytes:sub(13, 12 + #dumped), dumped)
   -- then the upvalue list: an empty table (tag 3, index 2, 0 entries)
   check.eq(bytes:sub(13 + #dumped), string.char(3, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0))
end

function tests.shared_upvalues_stay_shared()
   local count = 0
   local counter = {
      inc = function() count = count + 1 end,
      get = function() return count end,
   }
   counter.inc()
   for _, r in ipairs(roundTrips(counter)) do
      local c = r[2]
      check.eq(c.get(), 1, r[1] .. ': the saved value')
      c.inc(); c.inc()
      check.eq(c.get(), 3, r[1] .. ': one upvalue for both functions')
   end
   check.eq(count, 1, 'the original is untouched')
end

function tests.recursive_function_and_identity()
   local function fact(n) return n <= 1 and 1 or n * fact(n - 1) end
   for _, r in ipairs(roundTrips({ a = fact, b = fact })) do
      check.eq(r[2].a(5), 120, r[1] .. ': calls itself through its upvalue')
      check.ok(rawequal(r[2].a, r[2].b), r[1] .. ': one function')
   end
end

function tests.functions_in_objects()
   -- a function field of a torch class instance
   local Box = torch.getmetatable('test.FnBox') or torch.class('test.FnBox')
   local box = setmetatable({}, Box)
   local k = 10
   box.apply = function(x) return x + k end
   local again = torch.deserialize(torch.serialize(box))
   check.eq(torch.typename(again), 'test.FnBox')
   check.eq(again.apply(1), 11)
end

function tests.errors()
   check.raises(function() torch.serialize(print) end, 'cannot write a C function')
   check.raises(function() torch.serialize({ f = function() return io.write end, g = string.format }) end, 'C function')
end

-- Note [Refusing functions] in t7/t7.h: allowFunctions = false refuses a file that holds a
-- function, wherever it sits, with the byte offset of its record; data files read alike.
function tests.allow_functions_false_refuses_functions()
   local k = 2
   local obj = { scale = 1.5, nested = { { hook = function(x) return x * k end } } }
   local bytes = torch.serialize(obj)
   -- the function's record starts at its type tag 8, the int32 before string.dump's bytes
   local dump = string.dump(obj.nested[1].hook)
   local at = bytes:find(dump, 1, true) - 1 - 4 - 4 - 4  -- tag, index, length, then the bytecode
   check.eq(bytes:sub(at + 1, at + 4), '\8\0\0\0', 'the record found by hand')
   check.eq(torch.deserialize(bytes).nested[1].hook(5), 10, 'allowed by default, as torch7')
   for _, options in ipairs({ { allowFunctions = false }, { allowFunctions = false, referenced = true } }) do
      check.raises(function() torch.deserialize(bytes, nil, options) end,
         't7: a Lua function at byte ' .. at .. ': functions are refused (allowFunctions = false)')
   end
   local path = os.tmpname()
   torch.save(path, obj)
   check.raises(function() torch.load(path, 'binary', { allowFunctions = false }) end, 'a Lua function at byte ' .. at)
   check.eq(torch.load(path, nil, { allowFunctions = true }).nested[1].hook(1), 2)
   check.eq(torch.load(path, nil, true).nested[1].hook(1), 2, "torch7's referenced flag still")
   -- after a tensor too (which reads its own payload)
   obj.weights = torch.Tensor({ 1, 2, 3 })
   torch.save(path, obj)
   check.raises(function() torch.load(path, nil, { allowFunctions = false }) end, 'functions are refused')
   -- the same file without its function reads alike
   obj.nested[1].hook = nil
   torch.save(path, obj, 'ascii')
   local data = torch.load(path, nil, { allowFunctions = false })
   check.eq(data.weights:sum(), 6)
   check.eq(data.scale, 1.5)
   check.eq(next(data.nested[1]), nil)
   -- on a torch.File
   torch.save(path, { f = function() end })
   local f = torch.DiskFile(path, 'r'):binary()
   check.eq(f:allowsFunctions(), true)
   f:allowFunctions(false)
   check.eq(f:allowsFunctions(), false)
   check.raises(function() f:readObject() end, 'functions are refused')
   f:close()
   os.remove(path)
   check.raises(function() torch.deserialize(bytes, nil, { allowFunction = false }) end, "unknown option 'allowFunction'")
end

return tests
