-- Lua functions in .t7 files are LuaJIT bytecode, which LuaJIT runs unverified: the reader
-- checks a dump's structure first (lua/csrc/Bytecode.cpp). Functions of every shape still
-- load and run; dumps corrupted in each way the check knows give "t7: corrupt Lua function
-- at byte N: ..."; random corruption never crashes (run in a subprocess, since a crash
-- would end this runner).
local tests = {}

-- LuaJIT 2.1's opcode numbers (lj_bc.h), for the hand-made corruptions; tests.opcode_numbers
-- checks them against the instructions the running VM compiles.
local OP = {
   ISGE = 1, MOV = 18, ADDVV = 32, KSTR = 39, KSHORT = 41, KNUM = 42, KNIL = 44, UGET = 45, UCLO = 50,
   FNEW = 51, TDUP = 53, TSETM = 63, VARG = 71, ISNEXT = 72, LOOP = 85, RETM = 73, RET1 = 76, FORI = 77, FORL = 79,
   JFORL = 81, JLOOP = 87, JMP = 88, IFUNCF = 90,
}

-- --- reading and editing dumps (lj_bcdump.h's format) ---

local function uleb(s, pos)
   local v, scale = 0, 1
   repeat
      local b = s:byte(pos)
      pos = pos + 1
      v = v + (b % 128) * scale
      scale = scale * 128
   until b < 128
   return v, pos
end

-- The prototypes of a dump, children first, each with the (1-based) positions of its fields.
local function parse(dump)
   assert(dump:sub(1, 3) == '\27LJ', 'a LuaJIT dump')
   local flags, pos = uleb(dump, 5)
   local stripped = math.floor(flags / 2) % 2 == 1
   if not stripped then
      local n
      n, pos = uleb(dump, pos)
      pos = pos + n
   end
   local protos = {}
   while true do
      local start = pos
      local len
      len, pos = uleb(dump, pos)
      if len == 0 then break end
      local p = { start = start, body = pos, finish = pos + len, flagsAt = pos, framesizeAt = pos + 2 }
      p.flags, p.numparams, p.framesize, p.sizeuv = dump:byte(pos, pos + 3)
      local q = pos + 4
      p.sizekgc, q = uleb(dump, q)
      p.sizekn, q = uleb(dump, q)
      p.numbcAt = q
      p.numbc, q = uleb(dump, q)
      if not stripped then
         local sizedbg
         sizedbg, q = uleb(dump, q)
         if sizedbg > 0 then
            q = select(2, uleb(dump, q))
            q = select(2, uleb(dump, q))
         end
      end
      p.ins = q                        -- instruction 1
      p.uv = q + 4 * p.numbc           -- the upvalue descriptors
      protos[#protos + 1] = p
      pos = pos + len
   end
   return protos
end

-- Instruction pc of prototype p: op, a, b, c, d.
local function getIns(dump, p, pc)
   local op, a, c, b = dump:byte(p.ins + 4 * (pc - 1), p.ins + 4 * (pc - 1) + 3)
   return op, a, b, c, c + 256 * b
end

-- The first instruction of p with opcode op.
local function find(dump, p, op)
   for pc = 1, p.numbc do
      if getIns(dump, p, pc) == op then return pc end
   end
   error('no opcode ' .. op)
end

local function replace(s, pos, bytes) return s:sub(1, pos - 1) .. bytes .. s:sub(pos + #bytes) end

local function setAD(dump, p, pc, op, a, d)
   return replace(dump, p.ins + 4 * (pc - 1), string.char(op, a, d % 256, math.floor(d / 256)))
end

-- The byte offset (0-based, in the dump) the check names for instruction pc.
local function insOffset(p, pc) return p.ins - 1 + 4 * (pc - 1) end

local function int32(n)
   return string.char(n % 256, math.floor(n / 256) % 256, math.floor(n / 65536) % 256, math.floor(n / 16777216) % 256)
end

-- f written by torch.serialize with its bytecode replaced by dump, read back.
local function loadAs(f, dump)
   local bytes = torch.serialize(f)
   local len = #string.dump(f)
   check.eq(bytes:sub(9, 12), int32(len), 'the record holds the dump after its length')
   return torch.deserialize(bytes:sub(1, 8) .. int32(#dump) .. dump .. bytes:sub(13 + len))
end

local function rejects(f, dump, pattern, offset)
   local ok, err = pcall(loadAs, f, dump)
   check.ok(not ok, 'a corrupt dump loads: ' .. pattern)
   err = tostring(err)
   check.ok(err:find('t7: corrupt Lua function', 1, true), err)
   check.ok(err:find(pattern, 1, true), string.format('"%s" does not mention "%s"', err, pattern))
   if offset then check.ok(err:find('at byte ' .. offset .. ':', 1, true), err .. ' (expected byte ' .. offset .. ')') end
end

-- --- the functions ---

local function loop(n)
   local s = 0
   for i = 1, n do s = s + i end
   return s
end
local function iter(t)
   local s = 0
   for _, v in pairs(t) do s = s + v end
   return s
end
local function cmp(a, b)
   if a < b then return 'lt' end
   return 'ge'
end
local function str(x) return x .. 'abc' end
local function clo(x)
   local y = x + 1
   local g = function() return y end
   return g()
end
local function va(...) return 1, ... end
local function ctor(...) return { 1, ... } end

function tests.opcode_numbers()
   -- instructions of compiled functions, read with jit.util.funcbc, against OP
   local function ops(f)
      local list, pc = {}, 1
      while true do
         local ins = require('jit.util').funcbc(f, pc)
         if not ins then return list end
         list[#list + 1] = ins % 256
         pc = pc + 1
      end
   end
   local function same(f, expected, what)
      -- a fresh copy of f's prototype: once a loop of f has run hot, the JIT patches its
      -- FORI into JFORI in place, while a dump writes the original instructions
      local got = ops(loadstring(string.dump(f)))
      check.eq(#got, #expected, what)
      for i = 1, #expected do check.eq(got[i], OP[expected[i]], what .. ' ' .. expected[i]) end
   end
   same(loop, { 'KSHORT', 'KSHORT', 'MOV', 'KSHORT', 'FORI', 'ADDVV', 'FORL', 'RET1' }, 'loop')
   same(cmp, { 'ISGE', 'JMP', 'KSTR', 'RET1', 'KSTR', 'RET1' }, 'cmp')
   same(va, { 'KSHORT', 'VARG', 'RETM' }, 'va')
   same(ctor, { 'TDUP', 'VARG', 'TSETM', 'RET1' }, 'ctor')
end

function tests.functions_of_every_shape_load_and_run()
   local k, name, t = 3, 'abc', { 1, 2, x = 5 }
   local count = 0
   local shapes = {
      { loop, { 10 } }, { iter, { { a = 1, b = 2, 3 } } }, { cmp, { 1, 2 } }, { str, { 'x' } },
      { clo, { 4 } }, { va, { 'a', nil, 'c' } }, { ctor, { 7, 8, 9 } },
      { function(x) return x * k + 1 end, { 2 } },
      { function() count = count + 1; return count end, {} },
      { function(n)
         local fns = {}
         for i = 1, n do
            local j = i
            fns[#fns + 1] = function() j = j + k; return j end
         end
         local s = 0
         for _, fn in ipairs(fns) do s = s + fn() + fn() end
         return s
      end, { 5 } },
      { function(n)
         local function fact(m) return m <= 1 and 1 or m * fact(m - 1) end
         return fact(n), select('#', fact(1), fact(2))
      end, { 6 } },
      { function(...)
         local a, b = ...
         local r = {}
         for i = select('#', ...), 1, -1 do r[#r + 1] = select(i, ...) end
         return #r, a and b, unpack(r)
      end, { 1, 2, 3 } },
      { function(s)
         local out = {}
         for w in s:gmatch('%a+') do out[#out + 1] = w:upper() end
         local n = 0
         while n < 100 do n = n * 2 + 1 end
         repeat n = n - 7 until n % 5 == 0
         for q = 10, 1, -3 do
            if q % 2 == 0 then goto skip end
            n = n + q
            ::skip::
         end
         return table.concat(out, '-') .. name .. n, { deep = { 1.5, -0.25, 1e300, 'long string constant' }, t.x }
      end, { 'to be or not' } },
      { function(o) return o:size(1) + o:dim(), torch.Tensor(2):fill(k):sum() end, { torch.Tensor(3, 4) } },
   }
   local function same(a, b, what)
      if type(a) == 'table' and type(b) == 'table' then
         for key, v in pairs(a) do same(v, b[key], what) end
         for key in pairs(b) do check.ok(a[key] ~= nil, what .. ': extra key ' .. tostring(key)) end
      else
         check.eq(a, b, what)
      end
   end
   for i, shape in ipairs(shapes) do
      local f, args = shape[1], shape[2]
      local n = select('#', unpack(args))
      for _, strip in ipairs({ false, true }) do
         local what = 'shape ' .. i .. (strip and ' stripped' or '')
         local g = strip and loadAs(f, string.dump(f, true)) or torch.deserialize(torch.serialize(f))
         check.eq(type(g), 'function', what)
         local expected = { pcall(f, unpack(args, 1, n)) }
         local got = { pcall(g, unpack(args, 1, n)) }
         check.ok(expected[1] and got[1], what .. ': ' .. tostring(got[2]))
         same(got, expected, what)
      end
   end
end

function tests.every_compiled_file_loads()
   -- the Lua package's own files and these tests, compiled, through the reader
   local root = debug.getinfo(1, 'S').source:match('^@(.*)tests/lua/[^/]*$') or './'
   local list = io.popen('ls ' .. root .. 'lua/*/*.lua ' .. root .. 'tests/lua/*.lua 2>/dev/null')
   local n = 0
   for path in list:lines() do
      local chunk = assert(loadfile(path))
      for _, strip in ipairs({ false, true }) do
         local ok, err = pcall(loadAs, chunk, string.dump(chunk, strip))
         check.ok(ok, path .. ': ' .. tostring(err))
      end
      n = n + 1
   end
   list:close()
   check.ok(n > 50, 'found the Lua files (' .. n .. ')')
end

function tests.header_and_sizes()
   local d = string.dump(loop)
   local p = parse(d)[1]
   rejects(loop, 'X' .. d:sub(2), 'not a LuaJIT bytecode dump', 0)
   rejects(loop, replace(d, 4, '\3'), 'bytecode version 3', 3)
   rejects(loop, replace(d, 5, string.char(d:byte(5) + 16)), 'unknown dump flags')
   rejects(loop, d:sub(1, #d - 3), 'runs past the end')
   rejects(loop, d:sub(1, 20), 'runs past the end')
   rejects(loop, d .. '\0', 'bytes after the end marker')
   rejects(loop, replace(d, p.numbcAt, '\100'), '100 instructions run past')
   rejects(loop, replace(d, p.framesizeAt, '\0'), '1 parameters in a frame of 0 slots')
   rejects(loop, replace(d, p.flagsAt, '\64'), 'unknown function flags')
end

function tests.operands_out_of_bounds()
   local d = string.dump(loop)
   local p = parse(d)[1]
   local mov = find(d, p, OP.MOV)
   local _, a, _, _, src = getIns(d, p, mov)
   rejects(loop, setAD(d, p, mov, OP.MOV, p.framesize, src), 'slot ' .. p.framesize .. ' is outside the frame', insOffset(p, mov))
   rejects(loop, setAD(d, p, mov, 200, a, src), 'unknown opcode 200', insOffset(p, mov))
   rejects(loop, setAD(d, p, 1, OP.KNUM, 1, 5), 'number constant 5 of ' .. p.sizekn, insOffset(p, 1))
   local fori = find(d, p, OP.FORI)
   rejects(loop, setAD(d, p, fori, OP.FORI, 2, 0x8000 + 40), 'jump to instruction', insOffset(p, fori))
   local last = p.numbc
   local _, ra = getIns(d, p, last)
   rejects(loop, setAD(d, p, last, OP.RET1, ra, 3), 'D is not 2')
   rejects(loop, setAD(d, p, last, OP.MOV, ra, ra), 'the last instruction is no return')

   local ds = string.dump(str)
   local ps = parse(ds)[1]
   local kstr = find(ds, ps, OP.KSTR)
   local _, ka = getIns(ds, ps, kstr)
   rejects(str, setAD(ds, ps, kstr, OP.KSTR, ka, 5), 'GC constant 5 of ' .. ps.sizekgc)
   rejects(str, setAD(ds, ps, kstr, OP.FNEW, ka, 0), 'GC constant 0 is no function')
   rejects(str, setAD(ds, ps, kstr, OP.TDUP, ka, 0), 'GC constant 0 is no table')

   local dc = string.dump(clo)
   local child, parent = unpack(parse(dc))
   rejects(clo, setAD(dc, child, 1, OP.UGET, 0, child.sizeuv), 'upvalue ' .. child.sizeuv .. ' of ' .. child.sizeuv)
   local mov3 = find(dc, parent, OP.MOV)
   rejects(clo, setAD(dc, parent, mov3, OP.KSTR, 3, 0), 'GC constant 0 is no string')
   -- the child's upvalue: a parent slot beyond the parent's frame
   rejects(clo, replace(dc, child.uv, string.char(200, 0x80)), 'captures slot 200')
   rejects(clo, replace(dc, parent.flagsAt, string.char(parent.flags - 1)), 'not flagged as having any')
   -- the parent's child constant without the child before it
   rejects(clo, dc:sub(1, child.start - 1) .. dc:sub(child.finish), 'no child function before it')
end

function tests.instructions_that_never_occur_in_dumps()
   local d = string.dump(loop)
   local p = parse(d)[1]
   local mov = find(d, p, OP.MOV)
   rejects(loop, setAD(d, p, mov, OP.JLOOP, 0, 0), 'does not occur in dumps', insOffset(p, mov))
   rejects(loop, setAD(d, p, mov, OP.IFUNCF, 0, 0), 'does not occur in dumps')
   -- a compiled loop's JFORL in place of FORL: FORI no longer finds its FORL
   local forl = find(d, p, OP.FORL)
   local _, a, _, _, j = getIns(d, p, forl)
   rejects(loop, setAD(d, p, forl, OP.JFORL, a, j), 'does not jump past its FORL')
end

function tests.invariants_across_instructions()
   -- FORI and FORL of other slots
   local d = string.dump(loop)
   local p = parse(d)[1]
   local forl = find(d, p, OP.FORL)
   local _, a, _, _, j = getIns(d, p, forl)
   rejects(loop, setAD(d, p, forl, OP.FORL, a + 1, j), 'does not jump past its FORL')
   -- a loop body that overwrites FORL's numbers
   local body = find(d, p, OP.ADDVV)
   rejects(loop, replace(d, p.ins + 4 * (body - 1), string.char(OP.ADDVV, a + 1, a + 3, 1)), 'loop slots may not hold')

   -- a comparison must be followed by the JMP it takes its target from
   local dc = string.dump(cmp)
   local pc = parse(dc)[1]
   rejects(cmp, setAD(dc, pc, 2, OP.MOV, 2, 0), 'not followed by its JMP', insOffset(pc, 1))

   -- multiple results are consumed right after the instruction that left them
   local dv = string.dump(va)
   local pv = parse(dv)[1]
   local varg = find(dv, pv, OP.VARG)
   rejects(va, setAD(dv, pv, varg, OP.KNIL, 1, 1), 'multiple results that are not right before it')
   -- VARG only in a vararg function
   rejects(va, replace(dv, pv.flagsAt, string.char(pv.flags - 2)), 'in a function without varargs')

   -- TSETM on the constructor's table
   local dt = string.dump(ctor)
   local pt = parse(dt)[1]
   local tdup = find(dt, pt, OP.TDUP)
   local _, ta = getIns(dt, pt, tdup)
   rejects(ctor, setAD(dt, pt, tdup, OP.KNIL, ta, ta), "may not hold the constructor's table")

   -- ITERN only through its ISNEXT, with the hidden index untouched
   local di = string.dump(iter)
   local pi = parse(di)[1]
   local isnext = find(di, pi, OP.ISNEXT)
   local _, ia, _, _, ij = getIns(di, pi, isnext)
   rejects(iter, setAD(di, pi, isnext, OP.JMP, ia, ij), 'not reached through its ISNEXT only')
   local add = find(di, pi, OP.ADDVV)
   rejects(iter, replace(di, pi.ins + 4 * (add - 1), string.char(OP.ADDVV, 1, ia - 1, 1)), 'reads the hidden index')
   rejects(iter, replace(di, pi.ins + 4 * (add - 1), string.char(OP.ADDVV, ia - 1, 1, 1)), 'not reached through its ISNEXT only')

   -- upvalues closed before returning
   local dl = string.dump(clo)
   local parent = parse(dl)[2]
   local uclo = find(dl, parent, OP.UCLO)
   local _, ua, _, _, uj = getIns(dl, parent, uclo)
   rejects(clo, setAD(dl, parent, uclo, OP.JMP, ua, uj), 'returns with upvalues open')
end

function tests.upvalue_record_matches_the_function()
   local a, b = 1, 2
   local one = function() return a end
   local two = function() return a + b end
   local ok, err = pcall(loadAs, one, string.dump(two))
   check.ok(not ok and tostring(err):find('its upvalue record holds 1 values for 2 upvalues', 1, true), tostring(err))
   ok, err = pcall(loadAs, two, string.dump(one))
   check.ok(not ok and tostring(err):find('holds 2 values for 1 upvalues', 1, true), tostring(err))
end

-- --- forged values: Note [NaN-boxed constants] and Note [Slots a closure may change] ---

local function ulebBytes(v)
   local out = {}
   repeat
      local b = v % 128
      v = math.floor(v / 128)
      out[#out + 1] = string.char(v > 0 and b + 128 or b)
   until v == 0
   return table.concat(out)
end

-- dump with the first occurrence of the bytes old replaced by new (of the same length).
local function swap(dump, old, new)
   assert(#old == #new)
   local i = assert(dump:find(old, 1, true), 'the bytes to replace are in the dump')
   return dump:sub(1, i - 1) .. new .. dump:sub(i + #old)
end

-- The high words of NaN-boxed values in LuaJIT's two layouts: a table in GC64 mode (this
-- build: its tag in the top 17 bits) and in 32-bit-pointer mode (its tag in the high word),
-- a string in GC64 mode, and a NaN with a payload that tags nothing but is still no NaN
-- LuaJIT makes.
local FORGED_HI = { 0xfffa0000, 0xfffffff4, 0xfffd8000, 0x7ff80001 }

function tests.number_constants_that_are_tagged_values_in_disguise()
   -- 1.5 is lo 0, hi 0x3ff80000; as a KNUM operand its low word is the uleb33 0x01 (a double)
   local num = function() return 1.5 end
   local d = string.dump(num, true)
   for _, hi in ipairs(FORGED_HI) do
      rejects(num, swap(d, '\1' .. ulebBytes(0x3ff80000), '\1' .. ulebBytes(hi)), 'a number constant is a NaN other than')
   end
   -- the canonical NaN and the infinities are numbers and load
   for _, hi in ipairs({ 0xfff80000, 0x7ff00000, 0xfff00000 }) do
      local g = loadAs(num, swap(d, '\1' .. ulebBytes(0x3ff80000), '\1' .. ulebBytes(hi)))
      check.eq(type(g()), 'number', string.format('hi %x', hi))
   end
   local ok, g = pcall(loadAs, num, swap(d, '\1' .. ulebBytes(0x3ff80000), '\1' .. ulebBytes(0xfff80000)))
   check.ok(ok and g() ~= g(), 'the canonical NaN loads as NaN')

   -- a table constant's values (array and hash parts) and keys: kind 4 (a number), lo, hi
   local tab = function() return { 1.5, x = 2.5, [3.5] = true } end
   local dt = string.dump(tab, true)
   for _, hi in ipairs(FORGED_HI) do
      for _, v in ipairs({ 0x3ff80000, 0x40040000 }) do  -- 1.5 in the array part, 2.5 in the hash part
         rejects(tab, swap(dt, '\4\0' .. ulebBytes(v), '\4\0' .. ulebBytes(hi)), "a table constant's number is a NaN")
      end
      rejects(tab, swap(dt, '\4\0' .. ulebBytes(0x400c0000), '\4\0' .. ulebBytes(hi)), 'a table constant with a NaN key')
   end
   local t = loadAs(tab, dt)()
   check.eq(t[1], 1.5)
   check.eq(t.x, 2.5)
   check.eq(t[3.5], true)
end

-- dump with the first upvalue of prototype p made to capture slot s of its parent, an
-- assignable upvalue (the loader takes 0x8000 + slot for a local of the enclosing function).
local function capture(dump, p, s) return replace(dump, p.uv, string.char(s, 0x80)) end

function tests.closures_that_change_the_hidden_slots_of_a_loop()
   -- a closure that assigns its upvalue, pointed at the table of a pairs() loop: ITERN
   -- would walk the number 12345 as a table (a crash without the check)
   local iterw = function(t)
      local n = 0
      for _, v in pairs(t) do
         local g = function(x) v = x end
         g(12345)
         n = n + 1
      end
      return n
   end
   local d = string.dump(iterw, true)
   local child, parent = unpack(parse(d))
   local _, ia = getIns(d, parent, find(d, parent, OP.ISNEXT))
   local ok = pcall(loadAs, iterw, d)
   check.ok(ok, 'the function as compiled loads')
   rejects(iterw, capture(d, child, ia - 2), 'the table or index of its pairs() loop is an open upvalue')
   -- its hidden index: no closure may even read it
   rejects(iterw, capture(d, child, ia - 1), 'reads the hidden index of a pairs() loop')
   -- the loop's own variables are the closure's to change
   check.eq(loadAs(iterw, capture(d, child, ia))({ 1, 2, 3 }), 3)

   -- the same for FORI's numbers, which FORL takes for numbers
   local forw = function(n)
      local s = 0
      for i = 1, n do
         local g = function(x) s = x end
         g(tostring(i))
      end
      return s
   end
   local df = string.dump(forw, true)
   local fchild, fparent = unpack(parse(df))
   local _, fa = getIns(df, fparent, find(df, fparent, OP.FORI))
   check.eq(loadAs(forw, df)(3), '3')
   for k = 0, 2 do rejects(forw, capture(df, fchild, fa + k), 'its loop numbers are open upvalues') end

   -- and for the table a constructor fills with TSETM
   local ctorw = function(...)
      local h
      local g = function(x) h = x end
      return { g(5), ... }, h
   end
   local dc = string.dump(ctorw, true)
   local cchild, cparent = unpack(parse(dc))
   local _, ca = getIns(dc, cparent, find(dc, cparent, OP.TSETM))
   local t, h = loadAs(ctorw, dc)(7, 8)
   check.eq(h, 5)
   check.eq(t[2], 7)
   rejects(ctorw, capture(dc, cchild, ca - 1), "the constructor's table, is an open upvalue")
end

function tests.immutable_upvalues_are_not_assigned()
   local assigns = function()
      local y = 1
      local g = function() y = 2 end
      g()
      return y
   end
   local d = string.dump(assigns, true)
   local child = parse(d)[1]
   local lo, hi = d:byte(child.uv, child.uv + 1)
   check.eq(hi, 0x80, 'an assigned local: no immutable mark')
   check.eq(loadAs(assigns, d)(), 2)
   rejects(assigns, replace(d, child.uv, string.char(lo, 0xc0)), 'which is marked immutable')
end

function tests.slot_hints_name_only_dead_slots()
   -- LOOP's A tells the JIT compiler that the slots from A up are dead: a dump whose loop
   -- says so of the loop's own counter ran for ever once compiled (the interpreter ignores
   -- the hint; the trace forgot the counter)
   local count = function(n)
      local i = 0
      while i < n do i = i + 1 end
      return i
   end
   local d = string.dump(count, true)
   local p = parse(d)[1]
   local pc = find(d, p, OP.LOOP)
   local _, a, _, _, j = getIns(d, p, pc)
   check.eq(loadAs(count, d)(200), 200)
   check.ok(a >= 2, 'the compiler keeps n and i alive')
   rejects(count, setAD(d, p, pc, OP.LOOP, 1, j), 'its slot hint drops slot 1', insOffset(p, pc))
   -- and the JMP back to the loop's test, whose target reads i (slot 1)
   local back = p.numbc - 1
   local op, ja, _, _, jj = getIns(d, p, back)
   check.eq(op, OP.JMP)
   check.ok(ja >= 2)
   rejects(count, setAD(d, p, back, OP.JMP, 1, jj), 'its slot hint drops slot 1', insOffset(p, back))
end

-- The fuzz loop, in its own process: serialized functions with 1-8 random bytes replaced,
-- or cut short, read back and, when they load, run (the interpreter stops runaway loops
-- with a count hook; functions that end there run again compiled).
local fuzzScript = [==[
local seeds, trials = tonumber(arg[1]), tonumber(arg[2])
local k, name, t = 3, 'abc', { 1, 2, x = 5 }
local fns = {
   function(x) return x * k + 1 end,
   function(x, ...)
      local s = 0
      for i = 1, x do s = s + i * k end
      for _, v in pairs(t) do s = s + v end
      for _, v in ipairs({ ... }) do s = s + v end
      local u = { a = 1, b = 'two', [3] = x, ... }
      local h = function(y) return y + s + #name end
      while s > 100 do s = s - 7 end
      repeat s = s + 1 until s % 5 == 0
      return h(s), name .. tostring(s), select('#', ...), u
   end,
   function(n)
      local acc = {}
      for i = 1, n do
         local j = i
         acc[#acc + 1] = function() j = j + 1; return j * k end
      end
      local function rec(m) if m <= 0 then return 0 end return m + rec(m - 1) end
      local total = 0
      for _, fn in ipairs(acc) do total = total + fn() end
      return rec(n % 10) + total, (function(...) return select('#', ...), ... end)(1, nil, 3)
   end,
}
local datas = {}
for i, fn in ipairs(fns) do datas[i] = torch.serialize({ fn = fn, t = torch.randn(3) }) end
local loaded = 0
for seed = 1, seeds do
   math.randomseed(seed)
   for trial = 1, trials do
      local s = datas[trial % #datas + 1]
      if math.random(1, 10) == 1 then
         s = s:sub(1, math.random(1, #s))
      else
         for _ = 1, math.random(1, 8) do
            local i = math.random(1, #s)
            s = s:sub(1, i - 1) .. string.char(math.random(0, 255)) .. s:sub(i + 1)
         end
      end
      local ok, obj = pcall(torch.deserialize, s)
      if ok and type(obj) == 'table' and type(obj.fn) == 'function' then
         loaded = loaded + 1
         -- globals of its own, so that a corrupt GSET cannot break this loop
         setfenv(obj.fn, { pairs = pairs, ipairs = ipairs, tostring = tostring, select = select })
         jit.off(obj.fn, true)
         local finished = true
         for _, x in ipairs({ 2, 60 }) do
            debug.sethook(function() error('runaway') end, '', 100000)
            local ran, err = pcall(obj.fn, x, 3, 4)
            debug.sethook()
            if not ran and tostring(err):find('runaway') then finished = false end
         end
         if finished then
            jit.on(obj.fn, true)
            for _ = 1, 3 do pcall(obj.fn, 60, 3, 4) end
         end
      end
   end
end
print('fuzzed', seeds * trials, 'loaded', loaded)
]==]

function tests.random_corruption_never_crashes()
   local th = arg and arg[-1] or 'th'
   if th:find('/') and not th:find('^/') then th = os.getenv('PWD') .. '/' .. th end
   local path = os.tmpname()
   local f = io.open(path, 'w')
   f:write(fuzzScript)
   f:close()
   local p = io.popen("timeout 120 '" .. th .. "' '" .. path .. "' 12 2000 2>&1; echo \"rc=$?\"")
   local out = p:read('*a')
   p:close()
   os.remove(path)
   local text, rc = out:match('^(.*)rc=(%d+)\n$')
   check.eq(tonumber(rc), 0, 'the fuzz process ended normally: ' .. tostring(out):sub(-500))
   local n, loaded = text:match('fuzzed\t(%d+)\tloaded\t(%d+)')
   check.eq(tonumber(n), 24000, text)
   check.ok(tonumber(loaded) > 100, 'some corrupt files still load and run: ' .. text)
end

return tests
