-- torch.Tester: torch7's unit-test runner.
--   local tester = torch.Tester()
--   tester:add(function() tester:eq(1 + 1, 2, 'sum') end, 'sum')   -- or tester:add({name = f, ...})
--   tester:run()                  -- every test; run('sum') or run({'a', 'b'}) for some
-- A failed assertion counts against the running test and the test goes on; an error stops
-- the test. run() prints a summary listing each failure with its message, and raises
-- "An error was found while running tests!" when any test failed, as torch7's did.
-- After run(): tester.assertionPass[name] and tester.assertionFail[name] count the
-- assertions, tester.testError[name] holds a test's error, tester.errors the failure
-- messages in order.
local Tester = torch.class('torch.Tester')

-- torch.TestSuite: a table of tests that refuses a second test of the same name, so that a
-- copy-pasted test cannot silently replace the first (torch7's and nn's test files use it).
--   local tests = torch.TestSuite(); function tests.sum() ... end; tester:add(tests)
local TestSuite = torch.class('torch.TestSuite')

function TestSuite:__init() rawset(self, '_tests', {}) end

function TestSuite:__index(name)
   local method = rawget(TestSuite, name)
   if method ~= nil then return method end
   return rawget(self, '_tests')[name]
end

function TestSuite:__newindex(name, f)
   local tests = rawget(self, '_tests')
   if tests[name] ~= nil then error('Test ' .. tostring(name) .. ' is already defined.', 2) end
   tests[name] = f
end

function TestSuite:_getTests() return rawget(self, '_tests') end

function Tester:__init()
   self.tests = {}      -- {name =, f =} in the order added
   self.earlyAbort = false
   self.rethrow = false
   self.summaryOnly = false
   self.assertionPass, self.assertionFail, self.testError, self.errors = {}, {}, {}, {}
end

-- add(f, name), add({name = f, ...}) or add(testSuite) (those in the order of their names);
-- returns self.
function Tester:add(f, name)
   if torch.type(f) == 'torch.TestSuite' then f = f:_getTests() end
   if type(f) == 'table' then
      assert(name == nil, 'Tester:add: a table of tests takes no name')
      local names = {}
      for n in pairs(f) do names[#names + 1] = n end
      table.sort(names, function(a, b) return tostring(a) < tostring(b) end)
      for _, n in ipairs(names) do self:add(f[n], tostring(n)) end
      return self
   end
   assert(type(f) == 'function', 'Tester:add: a function or a table of functions expected, got ' .. type(f))
   name = name or 'unknown'
   assert(type(name) == 'string', 'Tester:add: the test name must be a string')
   for _, t in ipairs(self.tests) do
      assert(t.name ~= name, 'Tester:add: a test named ' .. name .. ' was already added')
   end
   self.tests[#self.tests + 1] = { name = name, f = f }
   return self
end

function Tester:setEarlyAbort(earlyAbort) self.earlyAbort = earlyAbort; return self end
function Tester:setRethrowErrors(rethrow) self.rethrow = rethrow; return self end
function Tester:setSummaryOnly(summaryOnly) self.summaryOnly = summaryOnly; return self end

-- Thrown by a failed assertion under setEarlyAbort, to stop the test there.
local abortMarker = {}

-- Every assertion ends here.
function Tester:_assert(condition, message)
   local name = self.curtestname
   if not name then error('Tester: an assertion outside a running test', 3) end
   if condition then
      self.assertionPass[name] = self.assertionPass[name] + 1
      return true
   end
   self.assertionFail[name] = self.assertionFail[name] + 1
   -- where the assertion was called: the first frame outside this file
   local level, where = 2, ''
   while true do
      local info = debug.getinfo(level, 'Sl')
      if not info then break end
      if not info.short_src:match('Tester%.lua$') and info.currentline > 0 then
         where = info.short_src .. ':' .. info.currentline .. ': '
         break
      end
      level = level + 1
   end
   self.errors[#self.errors + 1] = string.format('%s: %s%s', name, where, message)
   if self.earlyAbort then error(abortMarker, 0) end
   return false
end

local function show(x)
   if type(x) == 'string' then return string.format('%q', x) end
   if torch.isTensor(x) then return torch.typename(x) .. ' of size ' .. table.concat(x:size():totable(), 'x') end
   return tostring(x)
end

local function withMessage(detail, message)
   if message and message ~= '' then return message .. ': ' .. detail end
   return detail
end

-- areEq(got, expected, tolerance): equal, or false and why not. Numbers within tolerance
-- (exactly equal when it is 0, so infinities compare); tensors of one type and size whose
-- elements are; tables with the same keys whose values are; anything else by ==.
local function areEq(got, expected, tolerance, path)
   path = path or ''
   local where = path == '' and '' or ' at ' .. path
   if torch.isTensor(got) or torch.isTensor(expected) then
      if torch.typename(got) ~= torch.typename(expected) then
         return false, string.format('types differ%s: %s and %s', where, torch.type(got), torch.type(expected))
      end
      if not got:isSameSizeAs(expected) then
         return false, string.format('sizes differ%s: %s and %s', where, show(got), show(expected))
      end
      if got:nElement() == 0 then return true end
      -- element by element in C: equal, or within tolerance (NaN is neither)
      local n = got:nElement()
      local a, b = got:double():contiguous():view(n), expected:double():contiguous():view(n)
      local bad = torch.eq(a, b):add(torch.le((a - b):abs(), tolerance)):eq(0)
      if bad:any() then
         local i = bad:nonzero()[1][1]
         return false, string.format('elements differ%s (element %d of %d): %.17g and %.17g, tolerance %g',
                                     where, i, n, a[i], b[i], tolerance)
      end
      return true
   end
   if type(got) ~= type(expected) then
      return false, string.format('types differ%s: %s and %s', where, type(got), type(expected))
   end
   if type(got) == 'number' then
      if got == expected or math.abs(got - expected) <= tolerance then return true end
      return false, string.format('%.17g and %.17g differ%s by more than %g', got, expected, where, tolerance)
   end
   if type(got) == 'table' and not torch.typename(got) then
      for k, v in pairs(got) do
         local ok, why = areEq(v, expected[k], tolerance, path .. '[' .. show(k) .. ']')
         if not ok then return false, why end
      end
      for k in pairs(expected) do
         if got[k] == nil then return false, string.format('key %s is missing%s', show(k), where) end
      end
      return true
   end
   if got == expected then return true end
   return false, string.format('%s and %s differ%s', show(got), show(expected), where)
end

-- eq(got, expected[, message][, tolerance]) / eq(got, expected, tolerance[, message]):
-- numbers, tensors, tables (recursively), anything else by ==.
local function messageAndTolerance(a, b)
   if type(a) == 'number' then return b, a end
   return a, b
end
function Tester:eq(got, expected, a, b)
   local message, tolerance = messageAndTolerance(a, b)
   local ok, why = areEq(got, expected, tolerance or 0)
   return self:_assert(ok, withMessage(why or '', message))
end
function Tester:ne(got, unexpected, a, b)
   local message, tolerance = messageAndTolerance(a, b)
   local same = areEq(got, unexpected, tolerance or 0)
   return self:_assert(not same, withMessage(show(got) .. ' equals ' .. show(unexpected), message))
end
function Tester:assertGeneralEq(got, expected, tolerance, message) return self:eq(got, expected, tolerance or 0, message) end
function Tester:assertGeneralNe(got, unexpected, tolerance, message) return self:ne(got, unexpected, tolerance or 0, message) end

function Tester:assert(condition, message)
   return self:_assert(condition, withMessage('assertion failed', message))
end
Tester.assertTrue = Tester.assert
function Tester:assertFalse(condition, message)
   return self:_assert(not condition, withMessage('expected false', message))
end

local function comparison(op, holds)
   return function(self, a, b, message)
      return self:_assert(holds(a, b), withMessage(string.format('expected %s %s %s', show(a), op, show(b)), message))
   end
end
Tester.assertlt = comparison('<', function(a, b) return a < b end)
Tester.assertgt = comparison('>', function(a, b) return a > b end)
Tester.assertle = comparison('<=', function(a, b) return a <= b end)
Tester.assertge = comparison('>=', function(a, b) return a >= b end)
Tester.asserteq = comparison('==', function(a, b) return a == b end)
Tester.assertne = comparison('~=', function(a, b) return a ~= b end)
function Tester:assertalmosteq(a, b, tolerance, message)
   tolerance = tolerance or 1e-16
   return self:_assert(math.abs(a - b) <= tolerance,
                       withMessage(string.format('%.17g and %.17g differ by more than %g', a, b, tolerance), message))
end

-- Tensors of one type and size whose elements differ by at most tolerance.
function Tester:assertTensorEq(got, expected, tolerance, message)
   if type(tolerance) == 'string' then tolerance, message = message, tolerance end
   local ok, why = false, 'tensors expected, got ' .. show(got) .. ' and ' .. show(expected)
   if torch.isTensor(got) and torch.isTensor(expected) then ok, why = areEq(got, expected, tolerance or 0) end
   return self:_assert(ok, withMessage(why or '', message))
end
function Tester:assertTensorNe(got, unexpected, tolerance, message)
   if type(tolerance) == 'string' then tolerance, message = message, tolerance end
   return self:_assert(not areEq(got, unexpected, tolerance or 0), withMessage('the tensors are equal', message))
end
function Tester:assertTableEq(got, expected, tolerance, message)
   if type(tolerance) == 'string' then tolerance, message = message, tolerance end
   local ok, why = areEq(got, expected, tolerance or 0)
   return self:_assert(type(got) == 'table' and type(expected) == 'table' and ok,
                       withMessage(why or 'tables expected', message))
end
function Tester:assertTableNe(got, unexpected, tolerance, message)
   if type(tolerance) == 'string' then tolerance, message = message, tolerance end
   return self:_assert(not areEq(got, unexpected, tolerance or 0), withMessage('the tables are equal', message))
end

function Tester:assertError(f, message)
   return self:_assert(not pcall(f), withMessage('no error raised', message))
end
function Tester:assertNoError(f, message)
   local ok, err = pcall(f)
   return self:_assert(ok, withMessage('unexpected error: ' .. tostring(err), message))
end
-- The error message, less its "file:line: " prefix, equals errmsg.
function Tester:assertErrorMsg(f, errmsg, message)
   local ok, err = pcall(f)
   if ok then return self:_assert(false, withMessage('no error raised', message)) end
   local text = tostring(err):gsub('^[^:\n]*:%d+: ', '')
   return self:_assert(text == errmsg, withMessage(string.format('error %q, expected %q', text, errmsg), message))
end
function Tester:assertErrorPattern(f, pattern, message)
   local ok, err = pcall(f)
   if ok then return self:_assert(false, withMessage('no error raised', message)) end
   return self:_assert(tostring(err):find(pattern) ~= nil,
                       withMessage(string.format('error %q does not match %q', tostring(err), pattern), message))
end
-- errcomp(err) tells whether the error object is the expected one.
function Tester:assertErrorObj(f, errcomp, message)
   local ok, err = pcall(f)
   if ok then return self:_assert(false, withMessage('no error raised', message)) end
   return self:_assert(errcomp(err), withMessage('unexpected error object ' .. tostring(err), message))
end

-- The tests run(names) selects: all, one name, or a list of names.
function Tester:_select(names)
   if names == nil then return self.tests end
   if type(names) == 'string' then names = { names } end
   local byName = {}
   for _, t in ipairs(self.tests) do byName[t.name] = t end
   local selected = {}
   for _, n in ipairs(names) do
      selected[#selected + 1] = byName[n] or error('Tester:run: no test named ' .. tostring(n), 3)
   end
   return selected
end

-- A test's traceback without the runner's frames.
local function traceback(err)
   if err == abortMarker then return err end
   local text = debug.traceback(tostring(err), 2)
   return (text:gsub('\n%s*%[C%]: in function \'xpcall\'.*$', ''))
end

function Tester:run(names)
   local tests = self:_select(names)
   self.assertionPass, self.assertionFail, self.testError, self.errors = {}, {}, {}, {}
   local failed = 0
   for i, t in ipairs(tests) do
      self.curtestname = t.name
      self.assertionPass[t.name], self.assertionFail[t.name] = 0, 0
      if not self.summaryOnly then io.write(string.format('%d/%d %s ... ', i, #tests, t.name)); io.flush() end
      local ok, err
      if self.rethrow then
         ok = true
         t.f()
      else
         ok, err = xpcall(t.f, traceback)
      end
      if not ok and err ~= abortMarker then
         self.testError[t.name] = tostring(err)
         self.errors[#self.errors + 1] = string.format('%s: %s', t.name, tostring(err))
      end
      local passed = self.assertionFail[t.name] == 0 and not self.testError[t.name]
      if not passed then failed = failed + 1 end
      if not self.summaryOnly then print(passed and 'ok' or 'FAILED') end
      self.curtestname = nil
      if not passed and self.earlyAbort then break end
   end
   self:_report(#tests, failed)
   if failed > 0 then error('An error was found while running tests!', 2) end
   return self
end

function Tester:_report(total, failed)
   local asserts = 0
   for _, n in pairs(self.assertionPass) do asserts = asserts + n end
   for _, n in pairs(self.assertionFail) do asserts = asserts + n end
   print(string.format('Completed %d assert%s in %d test%s with %d failure%s and %d error%s',
                       asserts, asserts == 1 and '' or 's', total, total == 1 and '' or 's',
                       failed - self:_errorCount(), (failed - self:_errorCount()) == 1 and '' or 's',
                       self:_errorCount(), self:_errorCount() == 1 and '' or 's'))
   for _, message in ipairs(self.errors) do
      print(string.rep('-', 60))
      print(message)
   end
   if #self.errors > 0 then print(string.rep('-', 60)) end
end

function Tester:_errorCount()
   local n = 0
   for _ in pairs(self.testError) do n = n + 1 end
   return n
end
