-- torch.Tester itself: sub-Testers run purpose-made passing and failing tests, and their
-- counts, errors and messages are inspected (their printed report is captured).
local tests = {}

-- Runs tester:run(names) with print and io.write captured: ok (run did not raise), the
-- error, and the text it printed.
local function runQuietly(tester, names)
   local out = {}
   local print_, write_ = print, io.write
   print = function(...)
      local parts = { ... }
      for i = 1, select('#', ...) do parts[i] = tostring(parts[i]) end
      out[#out + 1] = table.concat(parts, '\t') .. '\n'
   end
   io.write = function(...) for _, s in ipairs({ ... }) do out[#out + 1] = tostring(s) end end
   local ok, err = pcall(tester.run, tester, names)
   print, io.write = print_, write_
   return ok, err, table.concat(out)
end

function tests.a_test_suite_refuses_a_second_test_of_a_name_and_runs_as_a_table()
   local suite = torch.TestSuite()
   local ran = {}
   function suite.b() ran[#ran + 1] = 'b' end
   function suite.a() ran[#ran + 1] = 'a' end
   local ok, err = pcall(function() suite.a = function() end end)
   assert(not ok and err:find('Test a is already defined.', 1, true), tostring(err))
   assert(torch.type(suite) == 'torch.TestSuite' and type(suite.a) == 'function')
   local t = torch.Tester():add(suite)
   local runOk = runQuietly(t)
   assert(runOk and table.concat(ran, ',') == 'a,b', table.concat(ran, ','))
   assert(table.unpack == unpack)
end

function tests.passing_and_failing_assertions()
   local t = torch.Tester()
   t:add(function()
      t:assert(true); t:eq(1, 1); t:eq({ a = { 1, 2 } }, { a = { 1, 2 } }); t:ne(1, 2)
      t:assertlt(1, 2); t:assertgt(2, 1); t:assertle(2, 2); t:assertge(2, 2)
      t:eq(1.0, 1.05, 0.1, 'within tolerance')
      t:assertTensorEq(torch.Tensor({ 1, 2 }), torch.Tensor({ 1, 2.001 }), 0.01)
      t:assertTableEq({ 1, { x = 'y' } }, { 1, { x = 'y' } })
      t:assertError(function() error('x') end)
      t:assertNoError(function() end)
      t:assertErrorMsg(function() error('exact message') end, 'exact message')
      t:assertErrorPattern(function() error('code 42') end, 'code %d+')
      t:assertGeneralEq(torch.Tensor({ 1 }), torch.Tensor({ 1 }))
   end, 'allPass')
   t:add(function()
      t:assert(false, 'plain assert')
      t:eq(1, 2, 'numbers')
      t:eq({ a = 1 }, { a = 1, b = 2 }, 'tables')
      t:eq(torch.Tensor({ 1, 2 }), torch.Tensor({ 1, 3 }), 'tensors')
      t:eq(torch.Tensor({ 1 }), torch.FloatTensor({ 1 }), 'tensor types')
      t:ne(3, 3, 'ne')
      t:assertlt(2, 1, 'lt')
      t:assertTensorEq(torch.Tensor({ 1 }), torch.Tensor({ 1.5 }), 0.1, 'tolerance')
      t:assertError(function() end, 'no error')
      t:assertErrorMsg(function() error('one') end, 'two', 'wrong message')
      t:assertNoError(function() error('bad') end, 'had error')
   end, 'allFail')
   local ok, err, text = runQuietly(t)
   check.eq(ok, false, 'run raises when a test failed')
   check.ok(tostring(err):find('An error was found while running tests', 1, true), tostring(err))
   check.eq(t.assertionPass.allPass, 16); check.eq(t.assertionFail.allPass, 0)
   check.eq(t.assertionPass.allFail, 0); check.eq(t.assertionFail.allFail, 11)
   check.eq(#t.errors, 11)
   for i, label in ipairs({ 'plain assert', 'numbers', 'tables', 'tensors', 'tensor types', 'ne', 'lt',
                            'tolerance', 'no error', 'wrong message', 'had error' }) do
      check.ok(t.errors[i]:find(label, 1, true), 'message ' .. i .. ': ' .. t.errors[i])
      check.ok(t.errors[i]:find('test_tester.lua:%d+'), 'where the assertion was: ' .. t.errors[i])
      check.ok(text:find(t.errors[i], 1, true), 'the summary lists the failure')
   end
   check.ok(t.errors[3]:find('key "b" is missing', 1, true), t.errors[3])
   check.ok(text:find('Completed 27 asserts in 2 tests with 1 failure and 0 errors', 1, true), text)
end

function tests.errors_in_tests()
   local t = torch.Tester()
   local after = false
   t:add({
      boom = function() error('kaboom') end,
      fine = function() t:assert(true); after = true end,
   })
   local ok, _, text = runQuietly(t)
   check.eq(ok, false)
   check.ok(t.testError.boom:find('kaboom', 1, true))
   check.eq(t.testError.fine, nil)
   check.eq(after, true, 'the other tests still run')
   check.ok(text:find('1 error', 1, true), text)
   -- everything passing: run returns normally
   local good = torch.Tester():add(function() end, 'empty')
   check.eq((runQuietly(good)), true)
end

function tests.run_selected_and_order()
   local t = torch.Tester()
   local ran = {}
   t:add({ b = function() ran[#ran + 1] = 'b' end, a = function() ran[#ran + 1] = 'a' end })
   t:add(function() ran[#ran + 1] = 'c' end, 'c')
   runQuietly(t)
   check.eq(table.concat(ran), 'abc', 'a table is added by name, then in order of adding')
   ran = {}
   runQuietly(t, { 'c', 'a' })
   check.eq(table.concat(ran), 'ca')
   ran = {}
   runQuietly(t, 'b')
   check.eq(table.concat(ran), 'b')
   local ok, err = runQuietly(t, 'nope')
   check.eq(ok, false); check.ok(tostring(err):find('no test named nope', 1, true))
   check.raises(function() t:add(function() end, 'a') end, 'already added')
   check.raises(function() t:add(42) end, 'function')
end

function tests.early_abort_and_rethrow()
   local t = torch.Tester():setEarlyAbort(true)
   local reached = {}
   t:add(function() t:assert(false, 'first'); reached.rest = true end, 'a')
   t:add(function() reached.b = true end, 'b')
   runQuietly(t)
   check.eq(reached.rest, nil, 'the test stops at its failed assertion')
   check.eq(reached.b, nil, 'no further test runs')
   check.eq(t.assertionFail.a, 1)
   local r = torch.Tester():setRethrowErrors(true)
   r:add(function() error('raw error') end, 'x')
   local ok, err = runQuietly(r)
   check.eq(ok, false)
   check.ok(tostring(err):find('raw error', 1, true), 'the test error itself comes out')
end

function tests.summary_only_prints_less()
   local t = torch.Tester()
   t:add(function() t:assert(true) end, 'one')
   local _, _, full = runQuietly(t)
   t:setSummaryOnly(true)
   local _, _, summary = runQuietly(t)
   check.ok(full:find('one', 1, true), 'progress names the test')
   check.ok(not summary:find('one', 1, true), 'summary only: ' .. summary)
   check.ok(summary:find('Completed 1 assert in 1 test', 1, true), summary)
end

function tests.set_up_tear_down_disable_and_counts()
   local t = torch.Tester()
   local calls = {}
   local suite = torch.TestSuite()
   function suite._setUp(name) calls[#calls + 1] = 'up ' .. name end
   function suite._tearDown(name) calls[#calls + 1] = 'down ' .. name end
   function suite.a() t:eq(1, 1); t:eq(torch.FloatStorage({ 1 }), torch.FloatStorage({ 1 })) end
   function suite.b() calls[#calls + 1] = 'b ran' end
   t:add(suite):disable('b')
   check.raises(function() t:add(function() end, '_setUp') end, 'Only one')
   check.eq(#t.tests, 2, 'set-up and tear-down are not tests')
   local ok, _, text = runQuietly(t)
   check.eq(ok, true)
   check.eq(table.concat(calls, ','), 'up a,down a')
   check.eq(t.countasserts, 2)
   check.ok(text:find('Completed 2 asserts in 2 tests with 0 failures and 0 errors and 1 disabled', 1, true), text)
end

function tests.misuses_warn_and_extra_arguments_raise()
   local t = torch.Tester()
   t:add({ plain = function() t:assert(1); t:assertTensorEq(torch.ones(1, 2), torch.ones(2)) end })
   local ok, _, text = runQuietly(t)
   check.eq(ok, true, 'warnings do not fail the test')
   check.ok(text:find('use TestSuite rather than plain lua table', 1, true), text)
   check.ok(text:find('should only be used for boolean', 1, true), text)
   check.ok(text:find('but different dimensions', 1, true), text)
   local e = torch.Tester()
   e:add(function() e:assert(true, 'message', 'extra') end, 'extra')
   check.eq((runQuietly(e)), false)
   check.ok(e.testError.extra:find('Unexpected arguments', 1, true), e.testError.extra)
end

function tests.assertion_outside_a_test()
   check.raises(function() torch.Tester():assert(true) end, 'outside a running test')
end

return tests
