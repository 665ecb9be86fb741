-- th's interactive prompt run as a subprocess on stdin: how it shows values (lua/trepl,
-- after torch7's trepl): tables with sorted keys, nested and truncated, tensors as
-- tostring, several values, `=expr`, and statements that show nothing.
local tests = {}

-- the th running these tests, by an absolute path
local th = arg and arg[-1] or 'th'
if th:find('/') and not th:find('^/') then th = os.getenv('PWD') .. '/' .. th end

local function quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

-- What th prints for these input lines, prompts removed.
local function session(lines)
   local path = os.tmpname()
   local f = io.open(path, 'w')
   f:write(table.concat(lines, '\n'), '\n')
   f:close()
   local p = io.popen(quote(th) .. ' < ' .. quote(path) .. ' 2>&1')
   local out = p:read('*a')
   p:close()
   os.remove(path)
   return (out:gsub('th> ', ''):gsub('%.%.> ', ''))
end

function tests.table_with_keys_nested()
   local out = session({ "{1, 'two', a = {b = true, c = {}}, [true] = 3, ['x y'] = 'q\"'}" })
   check.eq(out, table.concat({
      '{',
      '  1 : 1',
      '  2 : "two"',
      '  a : {',
      '    b : true',
      '    c : {}',
      '  }',
      '  x y : "q\\""',
      '  [true] : 3',
      '}',
      '',
      '',  -- the newline after the last prompt at the end of the input
   }, '\n'))
end

function tests.several_values_and_equals()
   local out = session({ "1, 'x', nil, false", '=2 * 3', 'x = 5', '=x' })
   check.eq(out, '1\tx\tnil\tfalse\n6\n5\n\n', 'a statement shows nothing')
end

function tests.tensors()
   local t = torch.Tensor({ { 1, 2, 3 }, { 4, 5, 6 } })
   local out = session({ 'torch.Tensor({{1, 2, 3}, {4, 5, 6}})', '{w = torch.Tensor(2, 3), s = torch.FloatStorage(4), e = torch.LongTensor()}' })
   check.eq(out, tostring(t) .. '\n' .. table.concat({
      '{',
      '  e : LongTensor - empty',
      '  s : FloatStorage - size: 4',
      '  w : DoubleTensor - size: 2x3',
      '}',
      '',
      '',
   }, '\n'))
end

function tests.big_deep_and_cyclic_tables()
   local expected = { '{' }
   for i = 1, 30 do expected[#expected + 1] = '  ' .. i .. ' : ' .. i * i end
   expected[#expected + 1] = '  ... (5 more entries)'
   expected[#expected + 1] = '}'
   local out = session({ 'big = {}', 'for i = 1, 35 do big[i] = i * i end', 'big' })
   check.eq(out, table.concat(expected, '\n') .. '\n\n', 'truncated after 30 entries')
   out = session({ '{a = {b = {c = {d = {e = 1}}}}}' })
   check.eq(out, '{\n  a : {\n    b : {\n      c : {\n        d : {...}\n      }\n    }\n  }\n}\n\n', 'four levels')
   out = session({ 'c = {}', 'c.self = c', 'c' })
   check.ok(out:match('^{\n  self : table: 0x%x+ %(cycle%)\n}\n\n$'), 'a cycle: ' .. out)
end

function tests.objects_with_tostring_and_errors()
   local out = session({
      "A = torch.class('replA')",
      "function A:__tostring__() return 'an A' end",
      'replA()',
      '{replA()}',
      "B = setmetatable({}, {__tostring = function() error('no text') end})",
      'B',
      "'after'",
   })
   check.eq(out:sub(1, #'an A\n{\n  1 : an A\n}\n'), 'an A\n{\n  1 : an A\n}\n')
   check.ok(out:find('no text', 1, true), 'an error while showing is reported: ' .. out)
   check.ok(out:find('after\n', 1, true), 'and the prompt goes on')
end

return tests
