-- torch.Tester: torch7's unit-test runner.
--   local tester = torch.Tester()
--   tester:add(function() tester:eq(1 + 1, 2, 'sum') end, 'sum')   -- or tester:add(testSuite)
--   tester:run()                  -- every test; run('sum') or run({'a', 'b'}) for some
-- A failed assertion counts against the running test and the test goes on; an error stops
-- the test. run() prints a summary listing each failure with its message, and raises
-- "An error was found while running tests!" when any test failed, as torch7's did.
-- After run(): tester.assertionPass[name] and tester.assertionFail[name] count the
-- assertions, tester.countasserts all of them, tester.testError[name] holds a test's error,
-- tester.errors the failure messages in order. Misuses that torch7 tolerated (a plain table
-- of tests, :assert on a non-boolean) are warnings, listed after the failures.
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
   self.disabledTests = {}  -- name -> true: added, but run() skips it
   self.earlyAbort = false
   self.rethrow = false
   self.summaryOnly = false
   -- Note [assertTensorEq ignores dims]: torch7 kept {{1}} and {1} equal under
   -- assertTensorEq (same elements, other shape), with a warning, for the test files written
   -- before it checked shapes; eq and assertGeneralEq always compare shapes. A test file may
   -- set this to false.
   self._assertTensorEqIgnoresDims = true
   self.assertionPass, self.assertionFail, self.testError, self.errors = {}, {}, {}, {}
   self.warnings = {}   -- shown by the next report, then dropped
end

-- add(f, name), add({name = f, ...}) or add(testSuite) (those in the order of their names);
-- returns self. A function named _setUp or _tearDown is not a test: it is called with each
-- test's name before and after that test.
function Tester:add(f, name)
   if torch.type(f) == 'torch.TestSuite' then
      f = f:_getTests()
   elseif type(f) == 'table' then
      -- a plain table cannot refuse a second test of one name, as a TestSuite does
      self:_warning('Should use TestSuite rather than plain lua table')
   end
   if type(f) == 'table' then
      assert(name == nil, 'Tester:add: a table of tests takes no name')
      local names = {}
      for n, test in pairs(f) do
         assert(type(test) ~= 'table', 'Tester:add: Nested sets of tests are not supported')
         names[#names + 1] = n
      end
      table.sort(names, function(a, b) return tostring(a) < tostring(b) end)
      for _, n in ipairs(names) do self:add(f[n], tostring(n)) end
      return self
   end
   assert(type(f) == 'function', 'Tester:add: a function or a table of functions expected, got ' .. type(f))
   name = name or 'unknown'
   assert(type(name) == 'string', 'Tester:add: the test name must be a string')
   if name == '_setUp' or name == '_tearDown' then
      assert(self[name] == nil, 'Tester:add: Only one ' .. name .. ' function allowed')
      self[name] = f
      return self
   end
   for _, t in ipairs(self.tests) do
      assert(t.name ~= name, 'Tester:add: a test named ' .. name .. ' was already added')
   end
   self.tests[#self.tests + 1] = { name = name, f = f }
   return self
end

-- disable(name) or disable({names}): run() skips those tests (and counts them disabled).
function Tester:disable(names)
   if type(names) == 'string' then names = { names } end
   assert(type(names) == 'table', 'Tester:disable: a test name or a list of names expected')
   local known = {}
   for _, t in ipairs(self.tests) do known[t.name] = true end
   for _, n in ipairs(names) do
      assert(known[n], 'Tester:disable: no test named ' .. tostring(n))
      self.disabledTests[n] = true
   end
   return self
end

function Tester:setEarlyAbort(earlyAbort) self.earlyAbort = earlyAbort; return self end
function Tester:setRethrowErrors(rethrow) self.rethrow = rethrow; return self end
function Tester:setSummaryOnly(summaryOnly) self.summaryOnly = summaryOnly; return self end

-- Thrown by a failed assertion under setEarlyAbort, to stop the test there.
local abortMarker = {}

-- "file:line: " of the first frame outside this file: where the assertion was written.
local function caller()
   local level = 3
   while true do
      local info = debug.getinfo(level, 'Sl')
      if not info then return '' end
      if not info.short_src:match('Tester%.lua$') and info.currentline > 0 then
         return info.short_src .. ':' .. info.currentline .. ': '
      end
      level = level + 1
   end
end

local function runningTest(self)
   local name = self.curtestname
   if not name then error('Tester: an assertion outside a running test', 4) end
   return name
end

-- Every assertion ends in _success() or _failure(message), and returns what they return (a
-- test file may replace them, as torch7's own test of Tester does).
function Tester:_assert(condition, message)
   if condition then return self:_success() end
   return self:_failure(message)
end

function Tester:_success()
   local name = runningTest(self)
   self.assertionPass[name] = self.assertionPass[name] + 1
   return true
end

function Tester:_failure(message)
   local name = runningTest(self)
   self.assertionFail[name] = self.assertionFail[name] + 1
   self.errors[#self.errors + 1] = string.format('%s: %s%s', name, caller(), message)
   if self.earlyAbort then error(abortMarker, 0) end
   return false
end

-- A misuse that still works (a test file written for an older Tester); shown with the report.
function Tester:_warning(message)
   local where = self.curtestname and self.curtestname .. ': ' or ''
   self.warnings[#self.warnings + 1] = string.format('warning: %s%s%s', where, caller(), message)
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

-- An assertion's optional message; anything after it is a mistake in the test.
local function messageOnly(message, ...)
   if select('#', ...) > 0 and next({ ... }) ~= nil then
      error('Tester: Unexpected arguments passed to test function (after the message)', 3)
   end
   return message ~= nil and tostring(message) or nil
end

-- An assertion's optional message and tolerance, in either order.
local function messageAndTolerance(...)
   local message, tolerance
   for i = 1, select('#', ...) do
      local a = select(i, ...)
      if type(a) == 'string' and message == nil then
         message = a
      elseif type(a) == 'number' and tolerance == nil then
         assert(a >= 0, 'Tester: the tolerance cannot be negative')
         tolerance = a
      elseif a ~= nil then
         error('Tester: Unexpected arguments passed to test function: ' .. show(a)
               .. ' (a message and a tolerance expected)', 3)
      end
   end
   return message, tolerance
end

-- areEq(got, expected, tolerance[, ignoreDims]): equal, or false and why not. Numbers within
-- tolerance (exactly equal when it is 0, so infinities compare); tensors of one type and size
-- (or only as many elements, with ignoreDims) whose elements are; storages of one type and
-- size whose elements are; tables with the same keys whose values are; anything else by ==.
local function areEq(got, expected, tolerance, ignoreDims, path)
   path = path or ''
   local where = path == '' and '' or ' at ' .. path
   local tensors = torch.isTensor(got) and torch.isTensor(expected)
   local storages = torch.isStorage(got) and torch.isStorage(expected)
   if tensors or storages then
      if torch.typename(got) ~= torch.typename(expected) then
         return false, string.format('types differ%s: %s and %s', where, torch.type(got), torch.type(expected))
      end
      if storages then
         local Tensor = torch[torch.typename(got):match('^torch%.(%w+)Storage$') .. 'Tensor']
         got, expected = Tensor(got), Tensor(expected)
      end
      local n = got:nElement()
      if not got:isSameSizeAs(expected) and not (ignoreDims and n == expected:nElement()) then
         return false, string.format('sizes differ%s: %s and %s', where, show(got), show(expected))
      end
      if n == 0 then return true end
      -- element by element in C: equal, or within tolerance (NaN is neither)
      local a, b = got:double():contiguous():view(n), expected:double():contiguous():view(n)
      local bad = torch.eq(a, b):add(torch.le((a - b):abs(), tolerance)):eq(0)
      if bad:any() then
         local i = bad:nonzero()[1][1]
         return false, string.format('elements differ%s (element %d of %d): %.17g and %.17g, tolerance %g',
                                     where, i, n, a[i], b[i], tolerance)
      end
      return true
   end
   if type(got) ~= type(expected) or torch.typename(got) ~= torch.typename(expected) then
      return false, string.format('types differ%s: %s and %s', where, torch.type(got), torch.type(expected))
   end
   if type(got) == 'number' then
      if got == expected or math.abs(got - expected) <= tolerance then return true end
      return false, string.format('%.17g and %.17g differ%s by more than %g', got, expected, where, tolerance)
   end
   if type(got) == 'table' and not torch.typename(got) then
      for k, v in pairs(got) do
         local ok, why = areEq(v, expected[k], tolerance, false, path .. '[' .. show(k) .. ']')
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

-- eq(got, expected[, message][, tolerance]), the two last in either order: numbers, tensors,
-- storages, tables (recursively), anything else by ==.
function Tester:eq(got, expected, ...)
   local message, tolerance = messageAndTolerance(...)
   local ok, why = areEq(got, expected, tolerance or 0)
   return self:_assert(ok, withMessage(why or '', message))
end
function Tester:ne(got, unexpected, ...)
   local message, tolerance = messageAndTolerance(...)
   local same = areEq(got, unexpected, tolerance or 0)
   return self:_assert(not same, withMessage(show(got) .. ' equals ' .. show(unexpected), message))
end
Tester.assertGeneralEq = Tester.eq
Tester.assertGeneralNe = Tester.ne

function Tester:assert(condition, ...)
   local message = messageOnly(...)
   if type(condition) ~= 'boolean' then
      self:_warning(':assert should only be used for boolean conditions; to check that a value is '
                    .. 'not nil, say so: assert(x ~= nil)')
   end
   return self:_assert(condition, withMessage('assertion failed', message))
end
Tester.assertTrue = Tester.assert
function Tester:assertFalse(condition, ...)
   return self:_assert(not condition, withMessage('expected false', messageOnly(...)))
end

local function comparison(op, holds)
   return function(self, a, b, ...)
      return self:_assert(holds(a, b), withMessage(string.format('expected %s %s %s', show(a), op, show(b)),
                                                   messageOnly(...)))
   end
end
Tester.assertlt = comparison('<', function(a, b) return a < b end)
Tester.assertgt = comparison('>', function(a, b) return a > b end)
Tester.assertle = comparison('<=', function(a, b) return a <= b end)
Tester.assertge = comparison('>=', function(a, b) return a >= b end)
Tester.asserteq = comparison('==', function(a, b) return a == b end)
local assertne = comparison('~=', function(a, b) return a ~= b end)
function Tester:assertne(a, b, ...)
   local function object(x) return type(x) == 'table' or type(x) == 'userdata' end
   if object(a) and object(b) then
      self:_warning(':assertne should only be used to compare basic lua values (numbers, strings, '
                    .. 'booleans); two objects differ by identity: use :ne or :assert(a ~= b)')
   end
   return assertne(self, a, b, ...)
end
function Tester:assertalmosteq(a, b, ...)
   local message, tolerance = messageAndTolerance(...)
   tolerance = tolerance or 1e-16
   return self:_assert(math.abs(a - b) <= tolerance,
                       withMessage(string.format('%.17g and %.17g differ by more than %g', a, b, tolerance), message))
end

-- Tensors of one type and size whose elements differ by at most tolerance (see Note
-- [assertTensorEq ignores dims]).
function Tester:assertTensorEq(got, expected, ...)
   assert(torch.isTensor(got), 'Tester:assertTensorEq: First argument should be a Tensor')
   assert(torch.isTensor(expected), 'Tester:assertTensorEq: Second argument should be a Tensor')
   local message, tolerance = messageAndTolerance(...)
   local ok, why = areEq(got, expected, tolerance or 0, self._assertTensorEqIgnoresDims)
   if ok and not got:isSameSizeAs(expected) then
      self:_warning(string.format('tensors of sizes %s and %s have the same content but different dimensions; '
                                  .. 'assertTensorEq takes them as equal, eq would not',
                                  show(got), show(expected)))
   end
   return self:_assert(ok, withMessage(why or '', message))
end
function Tester:assertTensorNe(got, unexpected, ...)
   assert(torch.isTensor(got), 'Tester:assertTensorNe: First argument should be a Tensor')
   assert(torch.isTensor(unexpected), 'Tester:assertTensorNe: Second argument should be a Tensor')
   local message, tolerance = messageAndTolerance(...)
   local same = areEq(got, unexpected, tolerance or 0, self._assertTensorEqIgnoresDims)
   return self:_assert(not same, withMessage('the tensors are equal', message))
end
function Tester:assertTableEq(got, expected, ...)
   assert(type(got) == 'table', 'Tester:assertTableEq: First argument should be a Table')
   assert(type(expected) == 'table', 'Tester:assertTableEq: Second argument should be a Table')
   return self:eq(got, expected, ...)
end
function Tester:assertTableNe(got, unexpected, ...)
   assert(type(got) == 'table', 'Tester:assertTableNe: First argument should be a Table')
   assert(type(unexpected) == 'table', 'Tester:assertTableNe: Second argument should be a Table')
   return self:ne(got, unexpected, ...)
end

function Tester:assertError(f, ...)
   return self:_assert(not pcall(f), withMessage('no error raised', messageOnly(...)))
end
function Tester:assertNoError(f, ...)
   local message = messageOnly(...)
   local ok, err = pcall(f)
   return self:_assert(ok, withMessage('unexpected error: ' .. tostring(err), message))
end
-- The error message, less its "file:line: " prefix, equals errmsg.
function Tester:assertErrorMsg(f, errmsg, ...)
   local message = messageOnly(...)
   local ok, err = pcall(f)
   if ok then return self:_assert(false, withMessage('no error raised', message)) end
   local text = tostring(err):gsub('^[^:\n]*:%d+: ', '')
   return self:_assert(text == errmsg, withMessage(string.format('error %q, expected %q', text, errmsg), message))
end
function Tester:assertErrorPattern(f, pattern, ...)
   local message = messageOnly(...)
   local ok, err = pcall(f)
   if ok then return self:_assert(false, withMessage('no error raised', message)) end
   return self:_assert(tostring(err):find(pattern) ~= nil,
                       withMessage(string.format('error %q does not match %q', tostring(err), pattern), message))
end
-- errcomp(err) tells whether the error object is the expected one.
function Tester:assertErrorObj(f, errcomp, ...)
   local message = messageOnly(...)
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

-- All output goes through io.write, one string a call (a test file may capture it).
function Tester:run(names)
   local tests = self:_select(names)
   self.assertionPass, self.assertionFail, self.testError, self.errors = {}, {}, {}, {}
   local failed = 0
   for i, t in ipairs(tests) do
      self.curtestname = t.name
      self.assertionPass[t.name], self.assertionFail[t.name] = 0, 0
      if not self.summaryOnly then io.write(string.format('%d/%d %s ... ', i, #tests, t.name)); io.flush() end
      local ok, err = true, nil
      if self.disabledTests[t.name] then
         ok = 'disabled'
      else
         if self._setUp then self._setUp(t.name) end
         if self.rethrow then t.f() else ok, err = xpcall(t.f, traceback) end
         if self._tearDown then self._tearDown(t.name) end
      end
      if not ok and err ~= abortMarker then
         self.testError[t.name] = tostring(err)
         self.errors[#self.errors + 1] = string.format('%s: %s', t.name, tostring(err))
      end
      local passed = self.assertionFail[t.name] == 0 and not self.testError[t.name]
      if not passed then failed = failed + 1 end
      if not self.summaryOnly then io.write((ok == 'disabled' and 'disabled' or passed and 'ok' or 'FAILED') .. '\n') end
      self.curtestname = nil
      if not passed and self.earlyAbort then break end
   end
   self:_report(#tests, failed)
   if failed > 0 then error('An error was found while running tests!', 2) end
   return self
end

local function plural(n, word) return string.format('%d %s%s', n, word, n == 1 and '' or 's') end

function Tester:_report(total, failed)
   self.countasserts = 0
   for _, n in pairs(self.assertionPass) do self.countasserts = self.countasserts + n end
   for _, n in pairs(self.assertionFail) do self.countasserts = self.countasserts + n end
   local errors = 0
   for _ in pairs(self.testError) do errors = errors + 1 end
   local disabled = 0
   for name in pairs(self.disabledTests) do
      if self.assertionPass[name] then disabled = disabled + 1 end
   end
   io.write(string.format('Completed %s in %s with %s and %s%s\n', plural(self.countasserts, 'assert'),
                          plural(total, 'test'), plural(failed - errors, 'failure'), plural(errors, 'error'),
                          disabled > 0 and ' and ' .. disabled .. ' disabled' or ''))
   local rule = string.rep('-', 60) .. '\n'
   for _, message in ipairs(self.errors) do io.write(rule .. message .. '\n') end
   for _, message in ipairs(self.warnings) do io.write(rule .. message .. '\n') end
   if #self.errors + #self.warnings > 0 then io.write(rule) end
   self.warnings = {}
end
