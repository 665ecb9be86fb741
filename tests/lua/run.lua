-- A small runner for the Lua suites (torch.Tester comes later): each file returns a table
-- of test functions; the runner reports failures and ends with "lua: N passed, N failed".
--   th tests/lua/run.lua tests/lua/test_*.lua
local passed, failed = 0, 0

check = {}
function check.eq(a, b, msg)
   if a ~= b then error(string.format('%s: expected %s, got %s', msg or 'eq', tostring(b), tostring(a)), 2) end
end
function check.near(a, b, tol, msg)
   if math.abs(a - b) > (tol or 1e-12) * math.max(1, math.abs(b)) then
      error(string.format('%s: expected %.17g, got %.17g', msg or 'near', b, a), 2)
   end
end
function check.ok(cond, msg)
   if not cond then error(msg or 'check failed', 2) end
end
-- f() raises an error whose message contains pattern (plain text)
function check.raises(f, pattern, msg)
   local ok, err = pcall(f)
   if ok then error((msg or 'raises') .. ': no error raised', 2) end
   if pattern and not tostring(err):find(pattern, 1, true) then
      error(string.format('%s: error "%s" does not mention "%s"', msg or 'raises', tostring(err), pattern), 2)
   end
end
-- tensor t equals the nested table expected element for element
function check.tensor(t, expected, tol, msg)
   local got = t:totable()
   local function rec(g, e, path)
      if type(e) == 'table' then
         if type(g) ~= 'table' or #g ~= #e then error(string.format('%s: shape differs at %s', msg or 'tensor', path), 3) end
         for i = 1, #e do rec(g[i], e[i], path .. '[' .. i .. ']') end
      elseif math.abs(g - e) > (tol or 0) then
         error(string.format('%s: at %s expected %.17g, got %.17g', msg or 'tensor', path, e, g), 3)
      end
   end
   rec(got, expected, '')
end

FIXTURES = (os.getenv('TH_FIXTURES_DIR') or 'shared/fixtures') .. '/t7'

for _, file in ipairs(arg) do
   local chunk, err = loadfile(file)
   local tests = chunk and chunk()
   if not tests then
      print('FAILED ' .. file .. ': ' .. tostring(err))
      failed = failed + 1
   else
      local names = {}
      for n in pairs(tests) do names[#names + 1] = n end
      table.sort(names)
      for _, n in ipairs(names) do
         local ok, e = xpcall(tests[n], debug.traceback)
         if ok then
            passed = passed + 1
         else
            failed = failed + 1
            print('FAILED ' .. file .. ' ' .. n .. ': ' .. tostring(e))
         end
      end
   end
end
print(string.format('lua: %d passed, %d failed', passed, failed))
os.exit(failed == 0 and 0 or 1)
