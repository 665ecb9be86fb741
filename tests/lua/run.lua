-- The runner of the Lua suites, on torch.Tester: each file returns a table of test
-- functions, which check with the global `check` helpers below (an error fails the test)
-- or with the Tester running them (global `tester`: tester:eq(...), ...). The runner
-- prints each failure and ends with "lua: N passed, N failed" (exit status 1 on failures).
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

-- shared/fixtures sits beside the checkout, two folders above this file.
local here = (arg[0]:match('^(.*)/[^/]*$') or '.')
FIXTURES = (os.getenv('TH_FIXTURES_DIR') or (here .. '/../../../shared/fixtures')) .. '/t7'

for _, file in ipairs(arg) do
   local chunk, err = loadfile(file)
   local ok, tests = false, nil
   if chunk then ok, tests = pcall(chunk) end
   if not ok or type(tests) ~= 'table' then
      print('FAILED ' .. file .. ': ' .. tostring(chunk and tests or err))
      failed = failed + 1
   else
      tester = torch.Tester():setSummaryOnly(true)
      io.write(file .. ': ')
      local suite = torch.TestSuite()  -- a file returns a plain table; its keys are unique
      for name, f in pairs(tests) do suite[name] = f end
      local added, addErr = pcall(tester.add, tester, suite)
      if not added then
         print('FAILED ' .. file .. ': ' .. tostring(addErr))
         failed = failed + 1
      else
         pcall(tester.run, tester)  -- raises when a test failed; the counts below say which
         for _, t in ipairs(tester.tests) do
            if tester.assertionFail[t.name] == 0 and not tester.testError[t.name] then
               passed = passed + 1
            else
               failed = failed + 1
               print('FAILED ' .. file .. ' ' .. t.name)
            end
         end
      end
      tester = nil
   end
end
print(string.format('lua: %d passed, %d failed', passed, failed))
os.exit(failed == 0 and 0 or 1)
